import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { Artwork } from "../../lib/schemas/artworks";
import { call, db, readJson, type TestGallery } from "../helpers/gallery";

/** Creating and reading the catalogue's reference data through the API, and the events it records. */

export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** POSTs `body` to a collection and returns the created resource, failing unless the answer is 201. */
export async function created<S extends z.ZodType>(
  schema: S,
  g: TestGallery,
  path: string,
  body: Record<string, unknown>,
): Promise<z.infer<S>> {
  const response = await call("POST", path, { key: g.key, body });
  const json = await readJson(schema, response);
  expect(response.status, JSON.stringify(json)).toBe(201);
  return json;
}

/** The ids of one page of a list, in order. */
export async function listedIds(g: TestGallery, path: string): Promise<string[]> {
  const response = await call("GET", path, { key: g.key });
  const body = (await response.json()) as { data: { id: string }[] };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.data.map((item) => item.id);
}

/** A gallery's events of one type, oldest first, straight from the outbox. */
export async function eventsOfType(galleryId: string, type: string) {
  const result = await db().execute<{
    resource_id: string;
    resource_type: string;
    data: Record<string, unknown>;
  }>(
    sql`select resource_id, resource_type, data from domain_events where gallery_id = ${galleryId} and type = ${type}
      order by created_at, id`,
  );
  return result.rows;
}

/** Creates an artwork through the API with these fields. */
export function createdArtwork(g: TestGallery, body: Record<string, unknown>) {
  return created(Artwork, g, "/gallery/artworks", { title: "Catalogue work", ...body });
}
