import { describe, expect, it } from "vitest";
import { Artwork } from "../../lib/schemas/artworks";
import { WebhookDelivery } from "../../lib/schemas/webhooks";
import { call, createGallery, readJson } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";
import { BASE, createdEndpoint, deliveryRows, eventsOfType } from "./helpers";

/** Fan-out of domain events to endpoints created through the API. */

describe("fan-out to endpoints created through the API", () => {
  it("queues one pending delivery per enabled matching endpoint when an artwork is created", async () => {
    const g = await createGallery();
    const all = await createdEndpoint(g.key, { event_types: ["*"] });
    const artworks = await createdEndpoint(g.key, { event_types: ["artwork.*"] });
    const exact = await createdEndpoint(g.key, { event_types: ["api_key.revoked", "artwork.created"] });
    const disabled = await createdEndpoint(g.key, { event_types: ["*"], enabled: false });
    const unrelated = await createdEndpoint(g.key, { event_types: ["artwork.deleted", "api_key.*"] });
    const paused = await createdEndpoint(g.key, { event_types: ["artwork.created"] });
    await call("PATCH", `${BASE}/${paused.id}`, { key: g.key, body: { enabled: false } });

    const response = await call("POST", "/gallery/artworks", { key: g.key, body: { title: "Fan-out" } });
    expect(response.status).toBe(201);
    const artwork = await readJson(Artwork, response);
    const [event] = (await eventsOfType(g.id, "artwork.created")).filter((e) => e.resource_id === artwork.id);
    const rows = await deliveryRows({ eventId: event!.id });
    expect(rows.map((r) => r.endpoint_id).sort()).toEqual([all.id, artworks.id, exact.id].sort());
    expect(rows.every((r) => r.status === "pending" && r.attempt_count === 0)).toBe(true);
    for (const skipped of [disabled, unrelated, paused]) {
      expect(rows.map((r) => r.endpoint_id)).not.toContain(skipped.id);
    }

    const listed = await readJson(
      pageOf(WebhookDelivery),
      await call("GET", `${BASE}/${all.id}/deliveries`, { key: g.key }),
    );
    expect(listed.data[0]).toMatchObject({
      event_id: event!.id,
      event_type: "artwork.created",
      status: "pending",
    });
  });
});
