import { z } from "@hono/zod-openapi";
import { type CursorKey, decodeCursor, encodeCursor, type SortDir } from "./cursor";
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

/** Resolves defaults and verifies the cursor against the route, sort and dir. */
export async function pageRequest(
  secret: string,
  route: string,
  query: { limit?: number; cursor?: string; sort?: string; dir?: SortDir },
  defaultSort: string,
): Promise<PageRequest> {
  const sort = query.sort ?? defaultSort;
  const dir = query.dir ?? "desc";
  const after = query.cursor ? await decodeCursor(secret, query.cursor, { route, sort, dir }) : null;
  return { route, sort, dir, limit: query.limit ?? DEFAULT_LIMIT, after };
}

/**
 * Turns `limit + 1` fetched rows into a page: the extra row only says that more exist; the cursor carries the
 * last returned row's sort key.
 */
export async function pageOf<R, T>(
  secret: string,
  request: PageRequest,
  rows: R[],
  keyOf: (row: R) => CursorKey,
  present: (row: R) => T,
): Promise<{ data: T[]; next_cursor: string | null }> {
  const hasMore = rows.length > request.limit;
  const pageRows = hasMore ? rows.slice(0, request.limit) : rows;
  const last = pageRows[pageRows.length - 1];
  const next_cursor =
    hasMore && last
      ? await encodeCursor(secret, { r: request.route, s: request.sort, d: request.dir, k: keyOf(last) })
      : null;
  return { data: pageRows.map(present), next_cursor };
}
