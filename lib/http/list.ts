import type { Context } from "hono";
import { decodeCursor, encodeCursor } from "../cursor";
import type { AppEnv } from "../env";
import { DEFAULT_LIMIT, type ListQuery, type ListSpec, type PageRequest, type PageRow } from "../pagination";
import { type JsonText, sendJson } from "./respond";

/**
 * The one list handler: resolves defaults, verifies the cursor against this gallery, list, sort and dir, fetches
 * `limit + 1` rows, and answers `{data, next_cursor}` (the extra row only says more exist). The rows' JSON text,
 * built by Postgres, is joined as is: nothing is parsed or re-serialised.
 */
export async function listPage<T>(
  c: Context<AppEnv>,
  { list }: { list: (ListSpec & { route: string }) | undefined },
  query: ListQuery,
  fetch: (page: PageRequest) => Promise<PageRow[]>,
): Promise<JsonText<T, 200>> {
  if (!list) throw new Error("listPage needs an operation declared with `list`");
  const secret = c.env.SIGNING_SECRET;
  const sort = query.sort ?? list.defaultSort;
  const dir = query.dir ?? "desc";
  const scope = { gallery: c.get("principal").galleryId, route: list.route, sort, dir };
  const after = query.cursor ? await decodeCursor(secret, query.cursor, scope) : null;
  const page: PageRequest = { route: list.route, sort, dir, limit: query.limit ?? DEFAULT_LIMIT, after };
  const rows = await fetch(page);
  const pageRows = rows.length > page.limit ? rows.slice(0, page.limit) : rows;
  const last = pageRows[pageRows.length - 1];
  const nextCursor =
    rows.length > page.limit && last ? await encodeCursor(secret, scope, [last.sort_key, last.id]) : null;
  const data = pageRows.map((r) => r.body).join(",");
  return sendJson<T, 200>(c, `{"data":[${data}],"next_cursor":${JSON.stringify(nextCursor)}}`, 200);
}
