import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { textArray } from "../../db/queries/rows";
import { eventTypes } from "../../lib/event-types";
import { newId } from "../../lib/ids";
import { Artwork } from "../../lib/schemas/artworks";
import { DomainEvent } from "../../lib/schemas/events";
import { call, createGallery, db, json, readJson, type TestGallery } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";

async function endpoint(galleryId: string, eventTypes: string[], enabled = true): Promise<string> {
  const id = newId("we");
  await db().execute(sql`insert into webhook_endpoints (id, gallery_id, url, event_types, enabled, secret)
    values (${id}, ${galleryId}, 'https://hooks.example.com/in', ${textArray(eventTypes)}, ${enabled}, 'whsec_dGVzdA==')`);
  return id;
}

async function deliveries(galleryId: string) {
  const result = await db().execute<{
    endpoint_id: string;
    event_id: string;
    type: string;
    status: string;
    id: string;
  }>(
    sql`select d.id, d.endpoint_id, d.event_id, e.type, d.status from webhook_deliveries d
      join domain_events e on e.id = d.event_id where d.gallery_id = ${galleryId} order by e.created_at, e.type`,
  );
  return result.rows;
}

describe("outbox fan-out to webhook endpoints", () => {
  let g: TestGallery;
  let other: TestGallery;
  beforeAll(async () => {
    [g, other] = await Promise.all([createGallery(), createGallery()]);
  });

  it("queues one pending delivery per enabled endpoint whose types match, in the write's transaction", async () => {
    const all = await endpoint(g.id, ["*"]);
    const artworks = await endpoint(g.id, ["artwork.*"]);
    const created = await endpoint(g.id, ["artwork.created"]);
    const priceOnly = await endpoint(g.id, ["artwork.price_changed"]);
    await endpoint(g.id, ["artwork.*"], false);
    await endpoint(g.id, ["api_key.created", "artwork.createdx"]);
    await endpoint(other.id, ["*"]);

    const response = await call("POST", "/gallery/artworks", { key: g.key, body: { title: "Fan-out" } });
    expect(response.status).toBe(201);
    const rows = await deliveries(g.id);
    expect(rows.every((r) => r.type === "artwork.created" && r.status === "pending")).toBe(true);
    expect(rows.map((r) => r.endpoint_id).sort()).toEqual([all, artworks, created].sort());
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(1);
    expect(rows.every((r) => /^wd_[0-9a-z]{26}$/.test(r.id))).toBe(true);
    expect(await deliveries(other.id)).toEqual([]);

    const { id } = await readJson(Artwork, response);
    await call("PATCH", `/gallery/artworks/${id}`, { key: g.key, body: { price_cents: 5000 } });
    const after = await deliveries(g.id);
    const byType = (type: string) =>
      after
        .filter((r) => r.type === type)
        .map((r) => r.endpoint_id)
        .sort();
    expect(byType("artwork.updated")).toEqual([all, artworks].sort());
    expect(byType("artwork.price_changed")).toEqual([all, artworks, priceOnly].sort());
  });

  it("queues nothing when the write fails", async () => {
    const h = await createGallery();
    await endpoint(h.id, ["*"]);
    const response = await call("POST", "/gallery/artworks", {
      key: h.key,
      body: { title: "Bad ref", location_id: newId("loc") },
    });
    expect(response.status).toBe(400);
    expect(await deliveries(h.id)).toEqual([]);
  });
});

describe("GET /gallery/events/{id}", () => {
  it("returns the event the list shows, byte for byte", async () => {
    const g = await createGallery();
    await call("POST", "/gallery/artworks", { key: g.key, body: { title: "Evented" } });
    const page = await readJson(pageOf(DomainEvent), await call("GET", "/gallery/events", { key: g.key }));
    const listed = page.data[0]!;
    const response = await call("GET", `/gallery/events/${listed.id}`, { key: g.key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(listed);
    expect(listed.type).toBe("artwork.created");
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    const g = await createGallery();
    expect((await call("GET", `/gallery/events/${newId("evt")}`, { key: g.key })).status).toBe(404);
    const bad = await call("GET", "/gallery/events/art_01jd4xk9v2c7h8m3n5p6q7r8s9", { key: g.key });
    expect(bad.status).toBe(400);
  });
});

describe("GET /event-types", () => {
  it("lists every catalogue type with its description and the JSON Schema of its data", async () => {
    const response = await call("GET", "/event-types");
    expect(response.status).toBe(200);
    const { data } = await json<{
      data: {
        type: string;
        description: string;
        resource_type: string;
        data_schema: { properties: Record<string, unknown>; required: string[] };
      }[];
    }>(response);
    expect(data.map((d) => d.type).sort()).toEqual(Object.keys(eventTypes).sort());
    const updated = data.find((d) => d.type === "artwork.updated")!;
    expect(updated.resource_type).toBe("artwork");
    expect(updated.description).toBe(eventTypes["artwork.updated"]);
    expect(updated.data_schema.required.sort()).toEqual(["object", "previous_attributes"]);
    const created = data.find((d) => d.type === "artwork.created")!;
    expect(created.data_schema.required).toEqual(["object"]);
    expect(
      Object.keys((created.data_schema.properties.object as { properties: object }).properties),
    ).toContain("price_cents");
  });

  it("is published as OpenAPI webhooks", async () => {
    const doc = await json<{ webhooks: Record<string, unknown> }>(await call("GET", "/openapi.json"));
    expect(Object.keys(doc.webhooks).sort()).toEqual(Object.keys(eventTypes).sort());
  });
});
