import type { Context } from "hono";
import type { AppEnv } from "../lib/env";
import { type ListQuery, type ListSpec, type PageRequest, type PageRow, pageBody } from "../lib/pagination";
import { type JsonText, sendJson } from "./respond";

/**
 * The one list handler: answers `{data, next_cursor}` for the caller's gallery (see pageBody: defaults, the
 * cursor checked against this gallery, list, sort and dir, `limit + 1` rows joined as Postgres built them).
 */
export async function listPage<T>(
  c: Context<AppEnv>,
  { list }: { list: (ListSpec & { route: string }) | undefined },
  query: ListQuery,
  fetch: (page: PageRequest) => Promise<PageRow[]>,
): Promise<JsonText<T, 200>> {
  if (!list) throw new Error("listPage needs an operation declared with `list`");
  const body = await pageBody(c.env.SIGNING_SECRET, c.get("principal").galleryId, list, query, fetch);
  return sendJson<T, 200>(c, body, 200);
}
