import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { WebhookDelivery } from "../../lib/schemas/webhooks";
import { call, createGallery, db, json, readJson, type TestGallery } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { minutesAfterEpoch, seedEvent } from "../helpers/seed";
import { BASE, createdEndpoint, deliveryEvent, deliveryRows, type Endpoint, seedDelivery } from "./helpers";

/** An endpoint's deliveries: listing them and replaying failed ones. */

describe("GET /gallery/webhook-endpoints/{id}/deliveries", () => {
  let g: TestGallery;
  let endpoint: Endpoint;
  const ids: Record<string, string> = {};
  const events: Record<string, string> = {};

  beforeAll(async () => {
    g = await createGallery();
    endpoint = await createdEndpoint(g.key, { event_types: ["artwork.*"] });
    for (const [i, status] of ["succeeded", "failed", "pending"].entries()) {
      events[status] = await seedEvent(g.id, { created_at: minutesAfterEpoch(i), type: "artwork.updated" });
      ids[status] = await seedDelivery(g.id, endpoint.id, events[status]!, {
        status,
        created_at: minutesAfterEpoch(10 + i),
        attempt_count: status === "pending" ? 2 : 12,
        next_attempt_at: minutesAfterEpoch(100),
      });
    }
    // 12 attempts for the failed delivery: the listing shows the last 10, newest first.
    for (let i = 0; i < 12; i++) {
      await db().execute(sql`insert into webhook_delivery_attempts
          (id, gallery_id, delivery_id, status_code, latency_ms, error, response_body, attempted_at)
        values (${newId("wda")}, ${g.id}, ${ids.failed!}, ${i === 11 ? null : 500}, ${100 + i},
          ${i === 11 ? "timeout after 15000 ms" : null}, ${i === 11 ? null : `oops ${i}`}, ${minutesAfterEpoch(20 + i)})`);
    }
  });

  it("lists deliveries newest first with their last 10 attempts", async () => {
    const page = await readJson(
      pageOf(WebhookDelivery),
      await call("GET", `${BASE}/${endpoint.id}/deliveries`, { key: g.key }),
    );
    expect(page.next_cursor).toBeNull();
    expect(page.data.map((d) => d.id)).toEqual([ids.pending, ids.failed, ids.succeeded]);
    const failed = page.data[1]!;
    expect(failed).toEqual({
      id: ids.failed,
      endpoint_id: endpoint.id,
      event_id: events.failed,
      event_type: "artwork.updated",
      status: "failed",
      attempt_count: 12,
      next_attempt_at: null,
      last_status_code: 500,
      last_latency_ms: null,
      last_error: "HTTP 500",
      attempts: expect.any(Array),
      created_at: minutesAfterEpoch(11),
      updated_at: minutesAfterEpoch(11),
    });
    expect(failed.attempts).toHaveLength(10);
    expect(failed.attempts[0]).toEqual({
      attempted_at: minutesAfterEpoch(31),
      status_code: null,
      latency_ms: 111,
      error: "timeout after 15000 ms",
      response_body: null,
    });
    expect(failed.attempts.map((a) => a.attempted_at)).toEqual(
      Array.from({ length: 10 }, (_, i) => minutesAfterEpoch(31 - i)),
    );
    expect(page.data[0]).toMatchObject({ status: "pending", next_attempt_at: minutesAfterEpoch(100) });
    expect(page.data[2]!.attempts).toEqual([]);
  });

  it("filters by status and pages with a cursor", async () => {
    const failed = await readJson(
      pageOf(WebhookDelivery),
      await call("GET", `${BASE}/${endpoint.id}/deliveries?status=failed`, { key: g.key }),
    );
    expect(failed.data.map((d) => d.id)).toEqual([ids.failed]);
    const first = await readJson(
      pageOf(WebhookDelivery),
      await call("GET", `${BASE}/${endpoint.id}/deliveries?limit=2`, { key: g.key }),
    );
    expect(first.data.map((d) => d.id)).toEqual([ids.pending, ids.failed]);
    const second = await readJson(
      pageOf(WebhookDelivery),
      await call("GET", `${BASE}/${endpoint.id}/deliveries?limit=2&cursor=${first.next_cursor}`, {
        key: g.key,
      }),
    );
    expect(second).toEqual({ data: [expect.objectContaining({ id: ids.succeeded })], next_cursor: null });
    await expectProblem(
      await call("GET", `${BASE}/${endpoint.id}/deliveries?status=lost`, { key: g.key }),
      400,
      "invalid_request",
      { field: "status" },
    );
  });

  it("answers 404 for an unknown or foreign endpoint, even one with deliveries", async () => {
    const other = await createGallery();
    await expectProblem(
      await call("GET", `${BASE}/${endpoint.id}/deliveries`, { key: other.key }),
      404,
      "not_found",
    );
    await expectProblem(
      await call("GET", `${BASE}/${newId("we")}/deliveries`, { key: g.key }),
      404,
      "not_found",
    );
  });
});

describe("POST /gallery/webhook-endpoints/{id}/replay", () => {
  it.each([
    [{}, "event_id"],
    [{ event_id: "evt_01jd4xk9v2c7h8m3n5p6q7r8s9", failed_since: "2024-01-01T00:00:00Z" }, "failed_since"],
    [{ failed_since: "2024-01-01T00:00:00+02:00" }, "failed_since"],
    [{ failed_since: "2023-02-29T00:00:00Z" }, "failed_since"],
    [{ failed_since: "yesterday" }, "failed_since"],
    [{ event_id: "art_01jd4xk9v2c7h8m3n5p6q7r8s9" }, "event_id"],
  ])("rejects %j", async (body, field) => {
    const g = await createGallery();
    const endpoint = await createdEndpoint(g.key);
    await expectProblem(
      await call("POST", `${BASE}/${endpoint.id}/replay`, { key: g.key, body }),
      400,
      "invalid_request",
      { field, location: "body" },
    );
  });

  it("queues an event that was never delivered to the endpoint, and re-queues one that failed", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const endpoint = await createdEndpoint(g.key, { event_types: ["api_key.*"] });
    const fresh = await seedEvent(g.id, { created_at: minutesAfterEpoch(1) });
    const replay = (body: unknown, headers: Record<string, string> = {}) =>
      call("POST", `${BASE}/${endpoint.id}/replay`, { key: g.key, body, headers });

    const headers = { "Idempotency-Key": `replay-${crypto.randomUUID()}` };
    const created = await replay({ event_id: fresh }, headers);
    expect(created.status).toBe(202);
    expect(await json(created)).toEqual({ requeued: 1 });
    expect(await deliveryRows({ eventId: fresh })).toEqual([
      expect.objectContaining({ endpoint_id: endpoint.id, status: "pending", attempt_count: 0 }),
    ]);
    const retried = await replay({ event_id: fresh }, headers);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(await deliveryRows({ eventId: fresh })).toHaveLength(1);

    const failedEvent = await seedEvent(g.id, { created_at: minutesAfterEpoch(2) });
    const failed = await seedDelivery(g.id, endpoint.id, failedEvent, {
      status: "failed",
      created_at: minutesAfterEpoch(3),
      attempt_count: 10,
    });
    const before = Date.now();
    expect(await json(await replay({ event_id: failedEvent }))).toEqual({ requeued: 1 });
    const [row] = await deliveryRows({ eventId: failedEvent });
    // A replay starts the retry schedule afresh; the earlier attempts stay listed.
    expect(row).toMatchObject({ id: failed, status: "pending", attempt_count: 0 });
    expect(Date.parse(row!.next_attempt_at!)).toBeGreaterThanOrEqual(before - 5_000);

    const foreign = await seedEvent(other.id, { created_at: minutesAfterEpoch(1) });
    await expectProblem(await replay({ event_id: foreign }), 404, "not_found");
    await expectProblem(await replay({ event_id: newId("evt") }), 404, "not_found");
    expect(await deliveryRows({ eventId: foreign })).toEqual([]);
  });

  it("re-queues every failed delivery created at or after failed_since, and nothing else", async () => {
    const g = await createGallery();
    const endpoint = await createdEndpoint(g.key, { event_types: ["artwork.*"] });
    const neighbour = await createdEndpoint(g.key, { event_types: ["artwork.*"] });
    const seeded: Record<string, string> = {};
    const cases: [string, string, number, string][] = [
      ["oldFailed", "failed", 10, endpoint.id],
      ["failedAtCutoff", "failed", 20, endpoint.id],
      ["failedLater", "failed", 30, endpoint.id],
      ["abandoned", "abandoned", 31, endpoint.id],
      ["succeeded", "succeeded", 32, endpoint.id],
      ["pending", "pending", 33, endpoint.id],
      ["neighbourFailed", "failed", 34, neighbour.id],
    ];
    for (const [name, status, minute, endpointId] of cases) {
      const event = await seedEvent(g.id, { created_at: minutesAfterEpoch(minute - 1) });
      seeded[name] = await seedDelivery(g.id, endpointId, event, {
        status,
        created_at: minutesAfterEpoch(minute),
        attempt_count: 3,
        next_attempt_at: status === "pending" ? minutesAfterEpoch(1000) : null,
      });
    }
    const response = await call("POST", `${BASE}/${endpoint.id}/replay`, {
      key: g.key,
      body: { failed_since: minutesAfterEpoch(20).replace(".000Z", "Z") },
    });
    expect(response.status).toBe(202);
    expect(await json(response)).toEqual({ requeued: 3 });
    const rows = await db().execute<{ id: string; status: string; attempt_count: number }>(
      sql`select id, status, attempt_count from webhook_deliveries where gallery_id = ${g.id}`,
    );
    const statusOf = (name: string) => rows.rows.find((r) => r.id === seeded[name])?.status;
    expect(statusOf("oldFailed")).toBe("failed");
    expect(statusOf("failedAtCutoff")).toBe("pending");
    expect(statusOf("failedLater")).toBe("pending");
    expect(statusOf("abandoned")).toBe("pending");
    expect(statusOf("succeeded")).toBe("succeeded");
    expect(statusOf("neighbourFailed")).toBe("failed");
    const attemptsOf = (name: string) => rows.rows.find((r) => r.id === seeded[name])?.attempt_count;
    for (const name of ["failedAtCutoff", "failedLater", "abandoned"]) expect(attemptsOf(name)).toBe(0);
    for (const name of ["oldFailed", "succeeded", "pending", "neighbourFailed"])
      expect(attemptsOf(name)).toBe(3);
    const [pending] = await deliveryRows({ eventId: (await deliveryEvent(seeded.pending!))! });
    expect(pending?.next_attempt_at).toBe(minutesAfterEpoch(1000));

    const none = await call("POST", `${BASE}/${endpoint.id}/replay`, {
      key: g.key,
      body: { failed_since: "2099-01-01T00:00Z" },
    });
    expect(await json(none)).toEqual({ requeued: 0 });
  });

  it("refuses a disabled endpoint and another gallery's endpoint", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const endpoint = await createdEndpoint(g.key, { enabled: false });
    const body = { failed_since: "2024-01-01T00:00:00Z" };
    await expectProblem(
      await call("POST", `${BASE}/${endpoint.id}/replay`, { key: g.key, body }),
      409,
      "conflict",
    );
    await expectProblem(
      await call("POST", `${BASE}/${endpoint.id}/replay`, { key: other.key, body }),
      404,
      "not_found",
    );
  });
});
