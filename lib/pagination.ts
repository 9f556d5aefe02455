import { z } from "@hono/zod-openapi";
import { type CursorKey, decodeCursor, encodeCursor, type SortDir } from "./cursor";
import { intParam } from "./params";

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** A cursor-paginated list: its sort keys and the default one, declared once and read by the route registry. */
export interface ListSpec<S extends readonly [string, ...string[]] = readonly [string, ...string[]]> {
  sorts: S;
  defaultSort: S[number];
}

export function listSpec<const S extends readonly [string, ...string[]]>(spec: ListSpec<S>): ListSpec<S> {
  return spec;
}

/** The list of most resources: newest first, by creation. */
export const byCreated = listSpec({ sorts: ["created"], defaultSort: "created" });

/** The pagination query parameters every cursor-paginated list declares. */
export function paginationQuery<const S extends readonly [string, ...string[]]>({
  sorts,
  defaultSort,
}: ListSpec<S>) {
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

/** One row of a list query: the API representation (JSON text) and the keyset position after it. */
export interface PageRow {
  body: string;
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
 * The body of one page of a list, `{data, next_cursor}`: resolves defaults, verifies the cursor against this
 * gallery, list, sort and dir, fetches `limit + 1` rows (the extra row only says more exist) and joins the rows'
 * JSON text, built by Postgres, as is: nothing is parsed or re-serialised.
 */
export async function pageBody(
  secret: string,
  galleryId: string,
  list: ListSpec & { route: string },
  query: ListQuery,
  fetch: (page: PageRequest) => Promise<PageRow[]>,
): Promise<string> {
  const sort = query.sort ?? list.defaultSort;
  const dir = query.dir ?? "desc";
  const scope = { gallery: galleryId, route: list.route, sort, dir };
  const after = query.cursor ? await decodeCursor(secret, query.cursor, scope) : null;
  const page: PageRequest = { route: list.route, sort, dir, limit: query.limit ?? DEFAULT_LIMIT, after };
  const rows = await fetch(page);
  const pageRows = rows.length > page.limit ? rows.slice(0, page.limit) : rows;
  const last = pageRows[pageRows.length - 1];
  const nextCursor =
    rows.length > page.limit && last ? await encodeCursor(secret, scope, [last.sort_key, last.id]) : null;
  const data = pageRows.map((r) => r.body).join(",");
  return `{"data":[${data}],"next_cursor":${JSON.stringify(nextCursor)}}`;
}
