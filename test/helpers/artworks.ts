import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { insertRow } from "../../db/queries/rows";
import { newId } from "../../lib/ids";
import { call, db, json } from "./gallery";

/**
 * Seeding and reading helpers for the artworks and events suites. Rows are written by direct SQL so a test
 * controls every column (timestamps, judged fields, image counts) that the API itself does not let a caller set.
 */

export interface Page<T = Record<string, unknown>> {
  data: T[];
  next_cursor: string | null;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  retry: string;
  details: { location: string; field: string; message: string }[] | null;
  instance: string;
  request_id: string;
}

/** `2024-01-01T00:00:00.000Z` plus `minutes` minutes: distinct, ordered, millisecond-exact timestamps. */
export function minutesAfterEpoch(minutes: number): string {
  return new Date(Date.UTC(2024, 0, 1) + minutes * 60_000).toISOString();
}

/** Inserts an artwork row with exactly these column values (snake_case column names); returns its id. */
export async function seedArtwork(galleryId: string, columns: Record<string, unknown> = {}): Promise<string> {
  const id = (columns.id as string | undefined) ?? newId("art");
  await db().execute(insertRow("artworks", { title: "Untitled", ...columns, id, gallery_id: galleryId }));
  return id;
}

export async function seedArtist(galleryId: string, name: string): Promise<string> {
  const id = newId("artist");
  await db().execute(insertRow("artists", { id, gallery_id: galleryId, name }));
  return id;
}

/** Credits an artist on an artwork in a role (the artwork's denormalised artist_id/name are not touched). */
export async function creditArtist(
  galleryId: string,
  artworkId: string,
  artistId: string,
  role = "primary",
  position = 0,
): Promise<void> {
  await db().execute(
    insertRow("artwork_artists", {
      gallery_id: galleryId,
      artwork_id: artworkId,
      artist_id: artistId,
      role,
      position,
    }),
  );
}

export async function seedTag(galleryId: string, name: string): Promise<string> {
  const id = newId("tag");
  await db().execute(insertRow("tags", { id, gallery_id: galleryId, name, scope: "artwork" }));
  return id;
}

export async function tagArtwork(galleryId: string, artworkId: string, tagId: string): Promise<void> {
  await db().execute(
    insertRow("artwork_tags", { gallery_id: galleryId, artwork_id: artworkId, tag_id: tagId }),
  );
}

/** Stores the editor's pending edits for an artwork (overlaid by `draft=true`). */
export async function seedDraft(
  galleryId: string,
  artworkId: string,
  patch: Record<string, unknown>,
): Promise<void> {
  await db().execute(insertRow("artwork_drafts", { artwork_id: artworkId, gallery_id: galleryId, patch }));
}

export async function seedFormat(
  galleryId: string,
  artworkId: string,
  columns: Record<string, unknown>,
): Promise<string> {
  const id = newId("fmt");
  await db().execute(
    insertRow("artwork_formats", {
      label: "Format",
      ...columns,
      id,
      gallery_id: galleryId,
      artwork_id: artworkId,
    }),
  );
  return id;
}

/** Inserts a domain event row directly, with an explicit created_at. */
export async function seedEvent(
  galleryId: string,
  columns: { created_at: string; type?: string; id?: string; livemode?: boolean },
): Promise<string> {
  const id = columns.id ?? newId("evt");
  await db().execute(
    insertRow("domain_events", {
      id,
      gallery_id: galleryId,
      type: columns.type ?? "artwork.created",
      livemode: columns.livemode ?? false,
      resource_type: "artwork",
      resource_id: newId("art"),
      data: { seeded: true },
      created_at: columns.created_at,
    }),
  );
  return id;
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

/** Ids of the first page of GET /gallery/artworks with this query (limit 100 unless the query says). */
export async function listedIds(key: string, query: string | URLSearchParams = ""): Promise<string[]> {
  const params = new URLSearchParams(query);
  if (!params.has("limit")) params.set("limit", "100");
  const page = await getPage<{ id: string }>(key, "/gallery/artworks", params);
  return page.data.map((a) => a.id);
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

/**
 * Asserts a problem+json response with this status and code; when `field` is given, that `details` has an
 * entry for exactly that field at that location. Returns the body for further checks.
 */
export async function expectProblem(
  res: Response,
  status: number,
  code: string,
  field?: { field: string; location?: string },
): Promise<ProblemBody> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  const body = JSON.parse(text) as ProblemBody;
  expect(body.status).toBe(status);
  expect(body.code).toBe(code);
  expect(body.type).toBe(`https://api.test/v1/errors/${code}`);
  expect(typeof body.title).toBe("string");
  expect(typeof body.detail).toBe("string");
  if (field) {
    const fields = (body.details ?? []).map((d) => `${d.location}:${d.field}`);
    expect(fields, text).toContain(`${field.location ?? "query"}:${field.field}`);
  }
  return body;
}

/** Domain events of one gallery straight from the outbox table, oldest first. */
export async function outboxEvents(
  galleryId: string,
): Promise<{ id: string; type: string; resource_id: string; data: Record<string, unknown> }[]> {
  const result = await db().execute<{
    id: string;
    type: string;
    resource_id: string;
    data: Record<string, unknown>;
  }>(
    sql`select id, type, resource_id, data from domain_events where gallery_id = ${galleryId} order by created_at, id`,
  );
  return result.rows;
}

/** Number of rows of `table` in one gallery. */
export async function countRows(table: "artworks" | "domain_events" | "idempotency_keys", galleryId: string) {
  const result = await db().execute<{ n: number }>(
    sql`select count(*)::int as n from ${sql.identifier(table)} where gallery_id = ${galleryId}`,
  );
  return Number(result.rows[0]!.n);
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
