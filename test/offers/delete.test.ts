import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { call, createGallery, db, signedInMember, type TestGallery } from "../helpers/gallery";
import { getPage } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { countRows } from "../helpers/seed";
import { createdEndpoint } from "../webhooks/helpers";
import {
  addRecipients,
  artwork,
  BASE,
  contact,
  createOffer,
  getOffer,
  type OfferBody,
  offerEvents,
  setItems,
  storedParts,
} from "./helpers";

/** DELETE /gallery/offers/{id}: the real delete, and its dry run, which must leave no trace anywhere. */

/** An offer with two works and three recipients, and a webhook endpoint subscribed to offer events. */
async function composed(g: TestGallery): Promise<{ offer: OfferBody; endpointId: string }> {
  const endpointId = (await createdEndpoint(g.key, { event_types: ["offer.*"] })).id;
  const offer = await createOffer(g, { title: "To go" });
  await setItems(g, offer.id, [
    { artwork_id: await artwork(g, "One") },
    { artwork_id: await artwork(g, "Two") },
  ]);
  await addRecipients(g, offer.id, [
    await contact(g, { name: "Ada" }),
    await contact(g, { name: "Bea" }),
    await contact(g, { name: "Cy" }),
  ]);
  return { offer: await getOffer(g, offer.id), endpointId };
}

async function deliveryCount(endpointId: string): Promise<number> {
  const result = await db().execute<{ n: number }>(
    sql`select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpointId}`,
  );
  return result.rows[0]!.n;
}

/** Everything a write could leave behind: events (feed and outbox), idempotency claims, deliveries. */
async function traces(g: TestGallery, endpointId: string) {
  return {
    feed: (await getPage<{ id: string }>(g.key, "/gallery/events", "limit=100")).data.map((e) => e.id),
    events: await countRows("domain_events", g.id),
    claims: await countRows("idempotency_keys", g.id),
    deliveries: await deliveryCount(endpointId),
  };
}

function del(g: TestGallery, id: string, query = "", headers: Record<string, string> = {}) {
  return call("DELETE", `${BASE}/${id}${query}`, { key: g.key, headers });
}

describe("DELETE /gallery/offers/{id}?dry_run=true", () => {
  it("answers what would go, then leaves no trace; the real delete with the same key then deletes", async () => {
    const g = await createGallery();
    const { offer, endpointId } = await composed(g);
    const before = await traces(g, endpointId);
    expect(before.deliveries).toBeGreaterThan(0);
    const key = `delete-${offer.id}`;

    const dry = await del(g, offer.id, "?dry_run=true", { "Idempotency-Key": key });
    expect(dry.status).toBe(200);
    expect(dry.headers.get("x-dry-run")).toBe("true");
    expect(await dry.json()).toEqual({
      dry_run: true,
      effect: { offer: { id: offer.id, title: "To go", status: "draft" }, items: 2, recipients: 3 },
    });
    // No write, no event in the feed or outbox, no claim, no delivery: the offer and its parts are all there.
    expect(await traces(g, endpointId)).toEqual(before);
    expect(await getOffer(g, offer.id)).toEqual(offer);
    expect(await storedParts(offer.id)).toEqual({ offers: 1, items: 2, recipients: 3 });

    // The key was not claimed: the real delete with it is not a replay of the dry run.
    const real = await del(g, offer.id, "", { "Idempotency-Key": key });
    expect(real.status).toBe(200);
    expect(real.headers.get("idempotent-replayed")).toBeNull();
    expect(real.headers.get("x-dry-run")).toBeNull();
    expect(await real.json()).toEqual({ id: offer.id, deleted: true });
    expect(await storedParts(offer.id)).toEqual({ offers: 0, items: 0, recipients: 0 });
    await expectProblem(await call("GET", `${BASE}/${offer.id}`, { key: g.key }), 404, "not_found");

    const after = await traces(g, endpointId);
    expect(after.events).toBe(before.events + 1);
    expect(after.claims).toBe(before.claims + 1);
    expect(after.deliveries).toBe(before.deliveries + 1);
    const deleted = (await offerEvents(g.id, offer.id)).at(-1)!;
    expect(deleted.type).toBe("offer.deleted");
    expect(deleted.data).toEqual({ object: offer });

    // The retry replays the delete; a dry run of the deleted offer is 404, as the real call would be.
    const retry = await del(g, offer.id, "", { "Idempotency-Key": key });
    expect([retry.status, retry.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
    const dryAgain = await del(g, offer.id, "?dry_run=true");
    expect(dryAgain.headers.get("x-dry-run")).toBeNull();
    await expectProblem(dryAgain, 404, "not_found");
  });

  it("is authenticated, scoped and validated like the real call, and dry_run=false deletes", async () => {
    const [g, other] = [await createGallery(), await createGallery()];
    const offer = await createOffer(g);
    const parts = await storedParts(offer.id);
    await expectProblem(await call("DELETE", `${BASE}/${offer.id}?dry_run=true`), 401, "unauthenticated");
    const key = await g.keyWith(["offers:read", "offers:update"]);
    const scoped = await call("DELETE", `${BASE}/${offer.id}?dry_run=true`, { key });
    expect((await expectProblem(scoped, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
      "offers:delete",
    ]);
    const viewer = await signedInMember(g.id, "viewer");
    await expectProblem(
      await call("DELETE", `${BASE}/${offer.id}?dry_run=true`, { key: viewer.token }),
      403,
      "forbidden",
    );
    await expectProblem(await del(other, offer.id, "?dry_run=true"), 404, "not_found");
    await expectProblem(await del(g, newId("offer"), "?dry_run=true"), 404, "not_found");
    for (const value of ["yes", "1", "TRUE", ""]) {
      const res = await del(g, offer.id, `?dry_run=${value}`);
      expect(res.headers.get("x-dry-run")).toBeNull();
      await expectProblem(res, 400, "invalid_request", { field: "dry_run" });
    }
    await expectProblem(
      await del(g, offer.id, "?dry_run=true", { "Idempotency-Key": "bad key with spaces" }),
      400,
      "invalid_request",
    );
    expect(await storedParts(offer.id)).toEqual(parts);
    expect(await offerEvents(g.id, offer.id)).toHaveLength(1);

    const real = await del(g, offer.id, "?dry_run=false");
    expect(await real.json()).toEqual({ id: offer.id, deleted: true });
    expect(real.headers.get("x-dry-run")).toBeNull();
    expect(await storedParts(offer.id)).toEqual({ offers: 0, items: 0, recipients: 0 });
  });

  it("deletes a sent offer too, with its recipients", async () => {
    const g = await createGallery();
    const offer = await createOffer(g);
    await addRecipients(g, offer.id, [await contact(g, { name: "Ada" })]);
    await call("PATCH", `${BASE}/${offer.id}`, { key: g.key, body: { status: "sent" } });
    const dry = await del(g, offer.id, "?dry_run=true");
    expect(((await dry.json()) as { effect: unknown }).effect).toEqual({
      offer: { id: offer.id, title: offer.title, status: "sent" },
      items: 0,
      recipients: 1,
    });
    expect((await del(g, offer.id)).status).toBe(200);
    expect(await storedParts(offer.id)).toEqual({ offers: 0, items: 0, recipients: 0 });
  });
});
