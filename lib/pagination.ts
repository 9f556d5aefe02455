import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { type CursorKey, decodeCursor, encodeCursor, type SortDir } from "./cursor";
import type { AppEnv } from "./env";
import { intParam } from "./params";

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** The pagination query parameters every cursor-paginated list declares. */
export function paginationQuery<const S extends readonly [string, ...string[]]>(
  sorts: S,
  defaultSort: S[number],
) {
  return {
    limit: intParam({ min: 1, max: MAX_LIMIT, description: "Page size, 1 to 100." })
      .optional()
      .openapi({ default: DEFAULT_LIMIT }),
    cursor: z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .openapi({ description: "Opaque; pass back exactly the previous response's next_cursor." }),
    sort: z
      .enum(sorts)
      .optional()
      .openapi({ default: defaultSort, description: `Sort key: ${sorts.join(", ")}.` }),
    dir: z.enum(["asc", "desc"]).optional().openapi({ default: "desc", description: "Sort direction." }),
  };
}

export function listResponse<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      data: z.array(item),
      next_cursor: z
        .string()
        .nullable()
        .openapi({ description: "Pass as `cursor` for the next page; null at the end." }),
    })
    .openapi(name);
}

export interface PageRequest {
  /** The list's operationId: a cursor is only valid for the list that minted it. */
  route: string;
  sort: string;
  dir: SortDir;
  limit: number;
  /** Decoded keyset position, or null for the first page. */
  after: CursorKey | null;
}

/** One row of a list query: the API representation and the keyset position after it. */
export interface PageRow {
  body: Record<string, unknown>;
  sort_key: string | number;
  id: string;
}

export interface ListQuery {
  limit?: number;
  cursor?: string;
  sort?: string;
  dir?: SortDir;
}

/**
 * The one list handler: resolves defaults, verifies the cursor against this list, sort and dir, fetches
 * `limit + 1` rows, and turns them into `{data, next_cursor}` (the extra row only says more exist).
 */
export async function listPage(
  c: Context<AppEnv>,
  list: { route: string; defaultSort: string },
  query: ListQuery,
  fetch: (page: PageRequest) => Promise<PageRow[]>,
): Promise<{ data: Record<string, unknown>[]; next_cursor: string | null }> {
  const secret = c.env.SIGNING_SECRET;
  const sort = query.sort ?? list.defaultSort;
  const dir = query.dir ?? "desc";
  const after = query.cursor
    ? await decodeCursor(secret, query.cursor, { route: list.route, sort, dir })
    : null;
  const page: PageRequest = { route: list.route, sort, dir, limit: query.limit ?? DEFAULT_LIMIT, after };
  const rows = await fetch(page);
  const pageRows = rows.length > page.limit ? rows.slice(0, page.limit) : rows;
  const last = pageRows[pageRows.length - 1];
  const next_cursor =
    rows.length > page.limit && last
      ? await encodeCursor(secret, { r: page.route, s: sort, d: dir, k: [last.sort_key, last.id] })
      : null;
  return { data: pageRows.map((r) => r.body), next_cursor };
}
