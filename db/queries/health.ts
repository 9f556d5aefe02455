import { sql } from "drizzle-orm";
import type { Env } from "../../lib/env";
import { httpDb } from "../client";

/** True when the database answers `select 1` within `timeoutMs`. One round trip. */
export async function databaseReachable(
  env: Pick<Env, "DATABASE_URL" | "NEON_LOCAL_ENDPOINT">,
  timeoutMs: number,
): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const query = httpDb(env)
    .execute(sql`select 1`)
    .then(
      () => true,
      () => false,
    );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
