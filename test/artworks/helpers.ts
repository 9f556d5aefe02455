import { env } from "cloudflare:workers";
import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import {
  artists,
  artworkArtists,
  artworkDrafts,
  artworkFormats,
  artworks,
  artworkTags,
  tags,
} from "../../db/schema";
import { sha256Hex } from "../../lib/crypto";
import { idempotencyCacheKey } from "../../lib/idempotency";
import { newId } from "../../lib/ids";
import { Artwork } from "../../lib/schemas/artworks";
import { call, callJson, db, readJson, type TestGallery } from "../helpers/gallery";
import { getPage } from "../helpers/pages";
import { insertRow } from "../helpers/seed";

/**
 * Helpers for the artworks suites. Rows are seeded by direct SQL so a test controls every column (timestamps,
 * judged fields, image counts) that the API itself does not let a caller set; writes go through the API.
 */

export type ArtworkBody = z.infer<typeof Artwork>;

/** Inserts an artwork row with exactly these column values (snake_case column names); returns its id. */
export async function seedArtwork(galleryId: string, columns: Record<string, unknown> = {}): Promise<string> {
  const id = (columns.id as string | undefined) ?? newId("art");
  await db().execute(insertRow(artworks, { title: "Untitled", ...columns, id, gallery_id: galleryId }));
  return id;
}

export async function seedArtist(galleryId: string, name: string): Promise<string> {
  const id = newId("artist");
  await db().execute(insertRow(artists, { id, gallery_id: galleryId, name }));
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
    insertRow(artworkArtists, {
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
  await db().execute(insertRow(tags, { id, gallery_id: galleryId, name, scope: "artwork" }));
  return id;
}

export async function tagArtwork(galleryId: string, artworkId: string, tagId: string): Promise<void> {
  await db().execute(insertRow(artworkTags, { gallery_id: galleryId, artwork_id: artworkId, tag_id: tagId }));
}

/** Stores the editor's pending edits for an artwork (overlaid by `draft=true`). */
export async function seedDraft(
  galleryId: string,
  artworkId: string,
  patch: Record<string, unknown>,
): Promise<void> {
  await db().execute(insertRow(artworkDrafts, { artwork_id: artworkId, gallery_id: galleryId, patch }));
}

export async function seedFormat(
  galleryId: string,
  artworkId: string,
  columns: Record<string, unknown>,
): Promise<string> {
  const id = newId("fmt");
  await db().execute(
    insertRow(artworkFormats, {
      label: "Format",
      ...columns,
      id,
      gallery_id: galleryId,
      artwork_id: artworkId,
    }),
  );
  return id;
}

/** Ids of the first page of GET /gallery/artworks with this query (limit 100 unless the query says). */
export async function listedIds(key: string, query: string | URLSearchParams = ""): Promise<string[]> {
  const params = new URLSearchParams(query);
  if (!params.has("limit")) params.set("limit", "100");
  const page = await getPage<{ id: string }>(key, "/gallery/artworks", params);
  return page.data.map((a) => a.id);
}

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function create(g: TestGallery, body: unknown, headers: Record<string, string> = {}) {
  const res = await call("POST", "/gallery/artworks", { key: g.key, body, headers });
  expect(res.status, await res.clone().text()).toBe(201);
  return readJson(Artwork, res);
}

export async function getArtwork(g: TestGallery, id: string): Promise<ArtworkBody> {
  const { status, body } = await callJson(Artwork, "GET", `/gallery/artworks/${id}`, { key: g.key });
  expect(status).toBe(200);
  return body;
}

export async function patch(g: TestGallery, id: string, body: unknown, headers: Record<string, string> = {}) {
  return call("PATCH", `/gallery/artworks/${id}`, { key: g.key, body, headers });
}

export async function activity(artworkId: string) {
  const result = await db().execute<{
    id: string;
    event_type: string;
    summary: string;
    metadata: Record<string, unknown>;
    actor_id: string;
  }>(
    sql`select id, event_type, summary, metadata, actor_id from artwork_activity_events
      where artwork_id = ${artworkId} order by occurred_at, event_type`,
  );
  return result.rows;
}

/**
 * Drops the edge (KV) copy of an idempotent response, leaving only the Postgres claim. The copy is written in
 * waitUntil after the response, so first wait for that write to land (each probe is a KV read, not a sleep).
 */
export async function forgetCachedResponse(galleryId: string, key: string): Promise<void> {
  const cacheKey = await idempotencyCacheKey(galleryId, key);
  let found = false;
  for (let i = 0; i < 500 && !found; i++) found = (await env.EDGE_KV.get(cacheKey)) !== null;
  expect(found, "the response was never cached at the edge").toBe(true);
  await env.EDGE_KV.delete(cacheKey);
  expect(await env.EDGE_KV.get(cacheKey)).toBeNull();
}

export async function keyId(key: string): Promise<string> {
  const result = await db().execute<{ id: string }>(
    sql`select id from api_keys where key_hash = ${await sha256Hex(key)}`,
  );
  return result.rows[0]!.id;
}

/** What a created artwork holds in every field the request did not set. */
export const DEFAULTS = {
  artist_id: null,
  artist_name: null,
  thumbnail_url: null,
  inventory_number: null,
  artists: [],
  dimensions: [],
  ownership_status: "owned",
  availability_state: "available",
  medium: null,
  year: null,
  end_year: null,
  date_precision: "year",
  date_display: null,
  description: null,
  dimension_unit: "in",
  height_cm: null,
  width_cm: null,
  depth_cm: null,
  framed_height_cm: null,
  framed_width_cm: null,
  framed_depth_cm: null,
  dimensions_text: null,
  location_id: null,
  price_cents: null,
  currency: "USD",
  is_edition: false,
  edition_number: null,
  edition_size: null,
  edition_type: null,
  edition_overrides: [],
  parent_artwork_id: null,
  coa_status: "not_required",
  coa_tracking_number: null,
  condition_status: null,
  condition_notes: null,
  provenance: null,
  exhibition_history: null,
  literature: null,
  catalogue_raisonne: null,
  market: "primary",
  custom_status_id: null,
  show_price_publicly: false,
  published_at: null,
  published_version: null,
  save_state: "new",
  source_system: null,
  source_external_id: null,
  formats: [],
  metadata: {},
};
