import type { Env as Bindings } from "../lib/env";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      /** A KV namespace and a bucket whose backing nothing listens for (vitest.config.ts). */
      UNREACHABLE_KV: KVNamespace;
      UNREACHABLE_R2: R2Bucket;
      /** A KV namespace and a bucket backed by the test receiver's `/dependency/kv` and `/dependency/r2`. */
      FAILING_KV: KVNamespace;
      FAILING_R2: R2Bucket;
    }
    interface GlobalProps {
      mainModule: typeof import("../functions/api");
    }
  }
}
