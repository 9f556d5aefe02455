import type { Env as Bindings } from "../lib/env";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {}
    interface GlobalProps {
      mainModule: typeof import("../functions/api");
    }
  }
}
