import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { ArtworkFormatList } from "../../lib/schemas/artwork-formats";
import { ArtworkFormat } from "../../lib/schemas/artworks";
import { call, callJson, db, readJson, type TestGallery } from "../helpers/gallery";

/** Calls of the formats routes for the suites in this folder, each failing unless it succeeds. */

export type FormatBody = z.infer<typeof ArtworkFormat>;

export function formatsPath(artworkId: string, formatId?: string): string {
  return `/gallery/artworks/${artworkId}/formats${formatId ? `/${formatId}` : ""}`;
}

export async function addFormat(
  g: TestGallery,
  artworkId: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<FormatBody> {
  const res = await call("POST", formatsPath(artworkId), { key: g.key, body, headers });
  expect(res.status, await res.clone().text()).toBe(201);
  return readJson(ArtworkFormat, res);
}

export async function patchFormat(
  g: TestGallery,
  artworkId: string,
  formatId: string,
  body: Record<string, unknown>,
): Promise<FormatBody> {
  const res = await call("PATCH", formatsPath(artworkId, formatId), { key: g.key, body });
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(ArtworkFormat, res);
}

export async function deleteFormat(g: TestGallery, artworkId: string, formatId: string): Promise<void> {
  const res = await call("DELETE", formatsPath(artworkId, formatId), { key: g.key });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(await res.json()).toEqual({ id: formatId, deleted: true });
}

/** GET …/formats with `key` (`query` e.g. `?draft=true`): the formats listed. */
export async function listFormats(key: string, artworkId: string, query = ""): Promise<FormatBody[]> {
  const { status, body } = await callJson(ArtworkFormatList, "GET", `${formatsPath(artworkId)}${query}`, {
    key,
  });
  expect(status).toBe(200);
  expect(body.next_cursor).toBeNull();
  return body.data;
}

/** [label, position] of each format listed, in order. */
export async function order(key: string, artworkId: string, query = ""): Promise<[string, number][]> {
  return (await listFormats(key, artworkId, query)).map((f) => [f.label, f.position]);
}

/** Marks a work published (directly: the publish operation is not what these suites test). */
export async function markPublished(artworkId: string): Promise<void> {
  await db().execute(
    sql`update artworks set published_at = now(), published_version = 1, save_state = 'published' where id = ${artworkId}`,
  );
}

export type FormatRow = {
  id: string;
  label: string;
  position: number;
  price_cents: number | null;
  pending: Record<string, unknown> | null;
  pending_action: string | null;
};

/** The work's format rows as stored, by position then id. */
export async function formatRows(artworkId: string): Promise<FormatRow[]> {
  const result = await db().execute<FormatRow>(
    sql`select id, label, position, price_cents::float8 as price_cents, pending, pending_action
      from artwork_formats where artwork_id = ${artworkId} order by position, id`,
  );
  return result.rows;
}
