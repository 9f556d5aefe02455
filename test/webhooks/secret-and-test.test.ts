import { describe, expect, it } from "vitest";
import { WebhookDelivery, WebhookEndpointWithSecret, WebhookTestResult } from "../../lib/schemas/webhooks";
import { call, createGallery, json, readJson } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { BASE, createdEndpoint, deliveryRows, eventsOfType, ISO_MS, SECRET, storedSecrets } from "./helpers";

/** Rotating an endpoint's signing secret, and sending it a test event. */

describe("POST /gallery/webhook-endpoints/{id}/rotate-secret", () => {
  it("shows a new secret once and keeps the previous one signing for 24 hours", async () => {
    const g = await createGallery();
    const endpoint = await createdEndpoint(g.key);
    const headers = { "Idempotency-Key": `rotate-${crypto.randomUUID()}` };
    const response = await call("POST", `${BASE}/${endpoint.id}/rotate-secret`, { key: g.key, headers });
    const rotated = await readJson(WebhookEndpointWithSecret, response);
    expect(response.status, JSON.stringify(rotated)).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(rotated.secret).toMatch(SECRET);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(Date.parse(rotated.previous_secret_expires_at!) - Date.parse(rotated.updated_at)).toBe(
      24 * 60 * 60 * 1000,
    );
    expect(await storedSecrets(endpoint.id)).toMatchObject({
      secret: rotated.secret,
      previous_secret: endpoint.secret,
      previous_secret_expires_at: rotated.previous_secret_expires_at,
    });
    const [event] = await eventsOfType(g.id, "webhook_endpoint.secret_rotated");
    const { secret: _secret, ...object } = rotated;
    expect(event?.data).toEqual({ object });
    expect(JSON.stringify(event)).not.toContain(rotated.secret!);

    const again = await call("POST", `${BASE}/${endpoint.id}/rotate-secret`, { key: g.key, headers });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(again)).toEqual({ ...rotated, secret: null });
    expect((await storedSecrets(endpoint.id)).secret).toBe(rotated.secret);
  });

  it("honours expire_previous_in_seconds, 0 dropping the previous secret at once", async () => {
    const g = await createGallery();
    const endpoint = await createdEndpoint(g.key);
    const hour = await readJson(
      WebhookEndpointWithSecret,
      await call("POST", `${BASE}/${endpoint.id}/rotate-secret`, {
        key: g.key,
        body: { expire_previous_in_seconds: 3600 },
      }),
    );
    expect(Date.parse(hour.previous_secret_expires_at!) - Date.parse(hour.updated_at)).toBe(3_600_000);
    const now = await readJson(
      WebhookEndpointWithSecret,
      await call("POST", `${BASE}/${endpoint.id}/rotate-secret`, {
        key: g.key,
        body: { expire_previous_in_seconds: 0 },
      }),
    );
    expect(now.previous_secret_expires_at).toBeNull();
    expect(await storedSecrets(endpoint.id)).toMatchObject({
      secret: now.secret,
      previous_secret: null,
      previous_secret_expires_at: null,
    });
    for (const value of [-1, 86401, 1.5, "60"]) {
      await expectProblem(
        await call("POST", `${BASE}/${endpoint.id}/rotate-secret`, {
          key: g.key,
          body: { expire_previous_in_seconds: value },
        }),
        400,
        "invalid_request",
        { field: "expire_previous_in_seconds", location: "body" },
      );
    }
  });
});

describe("POST /gallery/webhook-endpoints/{id}/test", () => {
  it("queues exactly one delivery of a webhook_endpoint.test event, to this endpoint only", async () => {
    const g = await createGallery();
    const target = await createdEndpoint(g.key, { event_types: ["artwork.created"] });
    const everything = await createdEndpoint(g.key, { event_types: ["*"] });
    await createdEndpoint(g.key, { event_types: ["webhook_endpoint.*"] });
    const response = await call("POST", `${BASE}/${target.id}/test`, { key: g.key });
    const result = await readJson(WebhookTestResult, response);
    expect(response.status, JSON.stringify(result)).toBe(202);
    expect(result).toEqual({
      delivery_id: expect.stringMatching(/^wd_[0-9a-z]{26}$/),
      event_id: expect.stringMatching(/^evt_[0-9a-z]{26}$/),
    });
    const rows = await deliveryRows({ eventId: result.event_id });
    expect(rows).toEqual([
      {
        id: result.delivery_id,
        endpoint_id: target.id,
        event_id: result.event_id,
        status: "pending",
        attempt_count: 0,
        next_attempt_at: expect.stringMatching(ISO_MS),
      },
    ]);
    expect((await deliveryRows({ endpointId: everything.id })).map((d) => d.event_id)).not.toContain(
      result.event_id,
    );

    const event = await call("GET", `/gallery/events/${result.event_id}`, { key: g.key });
    const { secret: _secret, ...object } = target;
    expect(await json(event)).toMatchObject({
      id: result.event_id,
      type: "webhook_endpoint.test",
      resource_type: "webhook_endpoint",
      resource_id: target.id,
      livemode: false,
      data: { object },
    });

    const listed = await readJson(
      pageOf(WebhookDelivery),
      await call("GET", `${BASE}/${target.id}/deliveries`, { key: g.key }),
    );
    expect(listed.data[0]).toMatchObject({ id: result.delivery_id, event_type: "webhook_endpoint.test" });
  });

  it("replays a retried test without a second event; refuses a disabled endpoint", async () => {
    const g = await createGallery();
    const endpoint = await createdEndpoint(g.key);
    const headers = { "Idempotency-Key": `test-${crypto.randomUUID()}` };
    const first = await json(await call("POST", `${BASE}/${endpoint.id}/test`, { key: g.key, headers }));
    const again = await call("POST", `${BASE}/${endpoint.id}/test`, { key: g.key, headers });
    expect(again.status).toBe(202);
    expect(await json(again)).toEqual(first);
    expect(await eventsOfType(g.id, "webhook_endpoint.test")).toHaveLength(1);

    await call("PATCH", `${BASE}/${endpoint.id}`, { key: g.key, body: { enabled: false } });
    await expectProblem(await call("POST", `${BASE}/${endpoint.id}/test`, { key: g.key }), 409, "conflict");
    await expectProblem(
      await call("POST", `${BASE}/${endpoint.id}/test`, { key: g.key, body: { extra: 1 } }),
      400,
      "invalid_request",
      { field: "extra", location: "body" },
    );
  });
});
