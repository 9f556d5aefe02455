import { z } from "@hono/zod-openapi";
import { expect } from "vitest";
import { call, json } from "./gallery";

/** Cursor pages: reading one, walking all of them, and the keyset order they follow. */

/** The schema of one page of a list of `item`s, as every list operation answers (lib/pagination.ts). */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable() });
}

export interface Page<T = Record<string, unknown>> {
  data: T[];
  next_cursor: string | null;
}

/** GETs a list path with a query string and returns the page, failing unless the status is 200. */
export async function getPage<T = Record<string, unknown>>(
  key: string,
  path: string,
  query: string | URLSearchParams = "",
): Promise<Page<T>> {
  const qs = query.toString();
  const res = await call("GET", qs ? `${path}?${qs}` : path, { key });
  const body = await json<Page<T>>(res);
  expect(res.status, `GET ${path}?${qs}: ${JSON.stringify(body)}`).toBe(200);
  return body;
}

/** Follows next_cursor from the first page to the end; returns every page in order. */
export async function walkPages<T = Record<string, unknown>>(
  key: string,
  path: string,
  query: Record<string, string>,
  onPage?: (page: Page<T>, index: number) => Promise<void>,
): Promise<Page<T>[]> {
  const pages: Page<T>[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(query);
    if (cursor) params.set("cursor", cursor);
    const page: Page<T> = await getPage<T>(key, path, params);
    pages.push(page);
    if (pages.length > 1000) throw new Error("pagination does not terminate");
    if (onPage) await onPage(page, pages.length - 1);
    cursor = page.next_cursor;
  } while (cursor);
  return pages;
}

/** Compares two keyset keys the way Postgres orders `(sort value, id)` with nulls already mapped to sentinels. */
export function compareKeys(
  a: readonly [number | string, string],
  b: readonly [number | string, string],
): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return 0;
}
