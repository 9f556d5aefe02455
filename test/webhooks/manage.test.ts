import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { WebhookEndpoint } from "../../lib/schemas/webhooks";
import { call, createGallery, db, json, readJson } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { minutesAfterEpoch, seedEvent } from "../helpers/seed";
import { BASE, createdEndpoint, deliveryRows, eventsOfType, ISO_MS, seedDelivery } from "./helpers";

/** Listing, updating and deleting webhook endpoints. */

describe("GET /gallery/webhook-endpoints", () => {
  it("lists newest first, pages with a cursor, and never shows another gallery's endpoints", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createdEndpoint(g.key, { description: `#${i}` })).id);
    await createdEndpoint(other.key);
    const first = await readJson(
      pageOf(WebhookEndpoint),
      await call("GET", `${BASE}?limit=2`, { key: g.key }),
    );
    expect(first.data.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    const second = await readJson(
      pageOf(WebhookEndpoint),
      await call("GET", `${BASE}?limit=2&cursor=${first.next_cursor}`, { key: g.key }),
    );
    expect(second).toEqual({ data: [expect.objectContaining({ id: ids[0] })], next_cursor: null });
    const asc = await readJson(pageOf(WebhookEndpoint), await call("GET", `${BASE}?dir=asc`, { key: g.key }));
    expect(asc.data.map((e) => e.id)).toEqual(ids);
  });

  it("answers 404 for another gallery's endpoint and an unknown id; 400 for a malformed id", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const theirs = await createdEndpoint(other.key);
    await expectProblem(await call("GET", `${BASE}/${theirs.id}`, { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", `${BASE}/${newId("we")}`, { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", `${BASE}/art_123`, { key: g.key }), 400, "invalid_request", {
      field: "id",
      location: "path",
    });
  });
});

describe("PATCH /gallery/webhook-endpoints/{id}", () => {
  it("changes the fields sent and emits webhook_endpoint.updated with previous_attributes", async () => {
    const g = await createGallery();
    const before = await createdEndpoint(g.key, { description: "old", metadata: { a: "1" } });
    const response = await call("PATCH", `${BASE}/${before.id}`, {
      key: g.key,
      body: { url: "https://new.example.com/in", event_types: ["artwork.created"], description: null },
    });
    const after = await readJson(WebhookEndpoint, response);
    expect(response.status, JSON.stringify(after)).toBe(200);
    expect(after).toEqual({
      ...before,
      secret: undefined,
      url: "https://new.example.com/in",
      event_types: ["artwork.created"],
      description: null,
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    const [event] = await eventsOfType(g.id, "webhook_endpoint.updated");
    expect(event?.data).toEqual({
      object: after,
      previous_attributes: { url: before.url, event_types: ["*"], description: "old" },
    });
  });

  it("emits nothing for a patch that changes nothing (metadata in another key order included)", async () => {
    const g = await createGallery();
    const before = await createdEndpoint(g.key, { metadata: { a: "1", bb: "2" } });
    const response = await call("PATCH", `${BASE}/${before.id}`, {
      key: g.key,
      body: { metadata: { bb: "2", a: "1" }, enabled: true, event_types: ["*"] },
    });
    expect(response.status).toBe(200);
    expect((await readJson(WebhookEndpoint, response)).updated_at).toBe(before.updated_at);
    expect(await eventsOfType(g.id, "webhook_endpoint.updated")).toEqual([]);
  });

  it("re-enabling clears disabled_reason and failing_since", async () => {
    const g = await createGallery();
    const endpoint = await createdEndpoint(g.key);
    await db().execute(sql`update webhook_endpoints set enabled = false, disabled_reason = 'gone',
      failing_since = '2024-01-01T00:00:00Z' where id = ${endpoint.id}`);
    const disabled = await readJson(
      WebhookEndpoint,
      await call("GET", `${BASE}/${endpoint.id}`, { key: g.key }),
    );
    expect(disabled).toMatchObject({
      enabled: false,
      disabled_reason: "gone",
      failing_since: "2024-01-01T00:00:00.000Z",
    });
    const response = await call("PATCH", `${BASE}/${endpoint.id}`, { key: g.key, body: { enabled: true } });
    expect(await json(response)).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    const [event] = await eventsOfType(g.id, "webhook_endpoint.updated");
    expect(event?.data.previous_attributes).toEqual({
      enabled: false,
      disabled_reason: "gone",
      failing_since: "2024-01-01T00:00:00.000Z",
    });

    const off = await call("PATCH", `${BASE}/${endpoint.id}`, { key: g.key, body: { enabled: false } });
    expect(await json(off)).toMatchObject({ enabled: false, disabled_reason: null });
  });

  it("validates url and event_types like create; 404 for another gallery's endpoint", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const endpoint = await createdEndpoint(g.key);
    await expectProblem(
      await call("PATCH", `${BASE}/${endpoint.id}`, { key: g.key, body: { url: "ftp://x.example.com" } }),
      400,
      "invalid_request",
      { field: "url", location: "body" },
    );
    await expectProblem(
      await call("PATCH", `${BASE}/${endpoint.id}`, {
        key: g.key,
        body: { event_types: ["no_such_resource.*"] },
      }),
      400,
      "invalid_request",
      { field: "event_types.0", location: "body" },
    );
    await expectProblem(
      await call("PATCH", `${BASE}/${endpoint.id}`, { key: other.key, body: { description: "x" } }),
      404,
      "not_found",
    );
  });
});

describe("DELETE /gallery/webhook-endpoints/{id}", () => {
  it("deletes the endpoint with its deliveries, emits webhook_endpoint.deleted, and replays a retry", async () => {
    const g = await createGallery();
    const endpoint = await createdEndpoint(g.key, { event_types: ["artwork.*"] });
    const event = await seedEvent(g.id, { created_at: minutesAfterEpoch(1) });
    await seedDelivery(g.id, endpoint.id, event, { status: "failed", created_at: minutesAfterEpoch(2) });
    const headers = { "Idempotency-Key": `delete-${crypto.randomUUID()}` };
    const response = await call("DELETE", `${BASE}/${endpoint.id}`, { key: g.key, headers });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ id: endpoint.id, deleted: true });
    expect(await deliveryRows({ endpointId: endpoint.id })).toEqual([]);
    await expectProblem(await call("GET", `${BASE}/${endpoint.id}`, { key: g.key }), 404, "not_found");
    const [deleted] = await eventsOfType(g.id, "webhook_endpoint.deleted");
    const { secret: _secret, ...object } = endpoint;
    expect(deleted?.data).toEqual({ object });

    const retry = await call("DELETE", `${BASE}/${endpoint.id}`, { key: g.key, headers });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    await expectProblem(await call("DELETE", `${BASE}/${endpoint.id}`, { key: g.key }), 404, "not_found");
  });
});
