import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { Offer } from "../../lib/schemas/offers";
import { memberSession } from "../contact-interactions/helpers";
import { call, createGallery, readJson, signedInMember } from "../helpers/gallery";
import { getPage, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import {
  addRecipients,
  BASE,
  contact,
  createOffer,
  getOffer,
  minutesFromNow,
  type OfferBody,
  offerEvents,
  offerEventTypes,
  patchOffer,
} from "./helpers";

/** Offers: GET/POST /gallery/offers, GET/PATCH /gallery/offers/{id}, the status moves and their events. */

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("POST /gallery/offers", () => {
  it("creates a draft in the gallery's default currency, emits offer.created, and reads back", async () => {
    const g = await createGallery();
    const offer = await createOffer(g, {
      title: "  Spring selection ",
      message: "Works we think you'll love.",
    });
    expect(offer).toEqual({
      id: expect.stringMatching(/^offer_/),
      title: "Spring selection",
      message: "Works we think you'll love.",
      status: "draft",
      scheduled_at: null,
      sent_at: null,
      currency: "USD",
      item_count: 0,
      recipient_count: 0,
      created_by: null,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: offer.created_at,
    });
    expect(await getOffer(g, offer.id)).toEqual(offer);
    const events = await offerEvents(g.id, offer.id);
    expect(events.map((e) => e.type)).toEqual(["offer.created"]);
    expect(events[0]!.data).toEqual({ object: offer });
  });

  it("records the member who created it through a session, and a given currency", async () => {
    const g = await createGallery();
    const { memberId, token } = await memberSession(g);
    const offer = await createOffer(g, { title: "Prints", currency: "EUR" }, token);
    expect(offer).toMatchObject({ created_by: memberId, currency: "EUR", message: null });
  });

  it("refuses a blank title, a bad currency and unknown fields with a 400 naming the field", async () => {
    const g = await createGallery();
    for (const [body, field] of [
      [{ title: "   " }, "title"],
      [{}, "title"],
      [{ title: "x".repeat(201) }, "title"],
      [{ title: "Ok", currency: "usd" }, "currency"],
      [{ title: "Ok", status: "sent" }, "status"],
    ] as const) {
      const res = await call("POST", BASE, { key: g.key, body });
      await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    }
    expect(await offerEvents(g.id)).toEqual([]);
  });

  it("needs offers:create; a viewer's session cannot create", async () => {
    const g = await createGallery();
    const key = await g.keyWith(["offers:read"]);
    const res = await call("POST", BASE, { key, body: { title: "No" } });
    const body = await expectProblem(res, 403, "forbidden");
    expect(body.details).toHaveProperty("missing_scopes", ["offers:create"]);
    const viewer = await signedInMember(g.id, "viewer");
    await expectProblem(
      await call("POST", BASE, { key: viewer.token, body: { title: "No" } }),
      403,
      "forbidden",
    );
  });
});

describe("GET /gallery/offers", () => {
  it("lists newest first, filters by status, sorts by updated and pages without gaps", async () => {
    const g = await createGallery();
    const made: OfferBody[] = [];
    for (const title of ["A", "B", "C", "D", "E"]) made.push(await createOffer(g, { title }));
    await patchOffer(g, made[1]!.id, { status: "cancelled" });
    await patchOffer(g, made[3]!.id, { status: "sent" });
    await patchOffer(g, made[0]!.id, { title: "A, renamed" });

    const all = (await getPage<OfferBody>(g.key, BASE)).data.map((o) => o.title);
    expect(all).toEqual(["E", "D", "C", "B", "A, renamed"]);
    const drafts = (await getPage<OfferBody>(g.key, BASE, "status=draft")).data.map((o) => o.title);
    expect(drafts).toEqual(["E", "C", "A, renamed"]);
    const byUpdate = (await getPage<OfferBody>(g.key, BASE, "sort=updated")).data.map((o) => o.title);
    expect(byUpdate.slice(0, 3)).toEqual(["A, renamed", "D", "B"]);
    const pages = await walkPages<OfferBody>(g.key, BASE, { limit: "2", dir: "asc" });
    expect(pages.flatMap((p) => p.data.map((o) => o.title))).toEqual(["A, renamed", "B", "C", "D", "E"]);
    expect(pages).toHaveLength(3);
  });

  it("shows only the caller's gallery and refuses an unknown status", async () => {
    const [g, other] = [await createGallery(), await createGallery()];
    await createOffer(other, { title: "Theirs" });
    expect((await getPage(g.key, BASE)).data).toEqual([]);
    await expectProblem(await call("GET", `${BASE}?status=open`, { key: g.key }), 400, "invalid_request", {
      field: "status",
    });
  });
});

describe("GET /gallery/offers/{id}", () => {
  it("counts items and recipients; another gallery's offer is 404", async () => {
    const [g, other] = [await createGallery(), await createGallery()];
    const offer = await createOffer(g);
    await addRecipients(g, offer.id, [await contact(g, { name: "Ada" }), await contact(g, { name: "Bea" })]);
    expect(await getOffer(g, offer.id)).toMatchObject({ recipient_count: 2, item_count: 0 });
    await expectProblem(await call("GET", `${BASE}/${offer.id}`, { key: other.key }), 404, "not_found");
    await expectProblem(await call("GET", `${BASE}/${newId("offer")}`, { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", `${BASE}/art_123`, { key: g.key }), 400, "invalid_request");
  });
});

describe("PATCH /gallery/offers/{id}", () => {
  it("changes fields with offer.updated and previous_attributes; no change records nothing", async () => {
    const g = await createGallery();
    const offer = await createOffer(g, { title: "Draft" });
    const changed = await patchOffer(g, offer.id, { title: "Final", message: "Hello", currency: "GBP" });
    expect(changed).toMatchObject({ title: "Final", message: "Hello", currency: "GBP", status: "draft" });
    expect(changed.updated_at > offer.updated_at).toBe(true);
    const same = await patchOffer(g, offer.id, { title: "Final" });
    expect(same).toEqual(changed);
    const events = await offerEvents(g.id, offer.id);
    expect(events.map((e) => e.type)).toEqual(["offer.created", "offer.updated"]);
    expect(events[1]!.data).toEqual({
      object: changed,
      previous_attributes: { title: "Draft", message: null, currency: "USD" },
    });
  });

  it("schedules in the future, reschedules, unschedules, then sends; each move has its event", async () => {
    const g = await createGallery();
    const offer = await createOffer(g);
    const recipient = await contact(g, { name: "Ada" });
    await addRecipients(g, offer.id, [recipient]);
    const when = minutesFromNow(60);
    const scheduled = await patchOffer(g, offer.id, { status: "scheduled", scheduled_at: when });
    expect(scheduled).toMatchObject({ status: "scheduled", scheduled_at: when, sent_at: null });
    const later = minutesFromNow(120);
    const moved = await patchOffer(g, offer.id, { scheduled_at: later });
    expect(moved).toMatchObject({ status: "scheduled", scheduled_at: later });
    const unscheduled = await patchOffer(g, offer.id, { status: "draft" });
    expect(unscheduled).toMatchObject({ status: "draft", scheduled_at: null });
    await patchOffer(g, offer.id, { status: "scheduled", scheduled_at: when });
    const sent = await patchOffer(g, offer.id, { status: "sent" });
    expect(sent).toMatchObject({
      status: "sent",
      scheduled_at: when,
      sent_at: expect.stringMatching(ISO_MS),
    });
    expect(await offerEventTypes(g.id, offer.id)).toEqual([
      "offer.created",
      "offer.recipients_added",
      "offer.updated",
      "offer.scheduled",
      "offer.updated",
      "offer.updated",
      "offer.updated",
      "offer.scheduled",
      "offer.updated",
      "offer.sent",
    ]);
    const events = await offerEvents(g.id, offer.id);
    expect(events[4]!.data.previous_attributes).toEqual({ scheduled_at: when });
    expect(events[5]!.data.previous_attributes).toEqual({ status: "scheduled", scheduled_at: later });
    expect(events.at(-2)!.data.previous_attributes).toEqual({ status: "scheduled", sent_at: null });
    // Sending marks the pending recipients sent.
    const page = await getPage<{ status: string }>(g.key, `${BASE}/${offer.id}/recipients`);
    expect(page.data.map((r) => r.status)).toEqual(["sent"]);
  });

  it("sends a draft at once, and cancels another; both are final (409 naming the status)", async () => {
    const g = await createGallery();
    const [a, b] = [await createOffer(g, { title: "A" }), await createOffer(g, { title: "B" })];
    const sent = await patchOffer(g, a.id, { status: "sent" });
    expect(sent).toMatchObject({ status: "sent", scheduled_at: null });
    const cancelled = await patchOffer(g, b.id, { status: "cancelled" });
    expect(cancelled).toMatchObject({ status: "cancelled", sent_at: null });
    expect(await offerEventTypes(g.id, b.id)).toEqual(["offer.created", "offer.updated", "offer.cancelled"]);
    for (const [offer, body] of [
      [sent, { title: "Changed" }],
      [sent, { status: "draft" }],
      [sent, { status: "scheduled" }],
      [sent, { scheduled_at: minutesFromNow(30) }],
      [cancelled, { status: "draft" }],
      [cancelled, { status: "sent" }],
    ] as const) {
      const res = await call("PATCH", `${BASE}/${offer.id}`, { key: g.key, body });
      const problem = await expectProblem(res, 409, "conflict");
      expect(problem.details).toEqual({ status: offer.status });
    }
    // Asking for the status it already has changes nothing: 200, no event.
    expect(await patchOffer(g, a.id, { status: "sent" })).toEqual(sent);
    expect(await offerEventTypes(g.id, a.id)).toEqual(["offer.created", "offer.updated", "offer.sent"]);
  });

  it("refuses a schedule without a time, in the past, or a time on a draft, with a 400 naming scheduled_at", async () => {
    const g = await createGallery();
    const offer = await createOffer(g);
    for (const body of [
      { status: "scheduled" },
      { status: "scheduled", scheduled_at: minutesFromNow(-5) },
      { scheduled_at: minutesFromNow(60) },
      { status: "sent", scheduled_at: minutesFromNow(60) },
      { status: "scheduled", scheduled_at: "2030-02-30T10:00:00Z" },
      { status: "scheduled", scheduled_at: "2030-01-01T10:00:00+01:00" },
    ]) {
      const res = await call("PATCH", `${BASE}/${offer.id}`, { key: g.key, body });
      await expectProblem(res, 400, "invalid_request", { field: "scheduled_at", location: "body" });
    }
    expect(await getOffer(g, offer.id)).toEqual(offer);
    expect(await offerEventTypes(g.id, offer.id)).toEqual(["offer.created"]);
  });

  it("replays a retried send with the same Idempotency-Key, though the offer is now final", async () => {
    const g = await createGallery();
    const offer = await createOffer(g);
    const send = () =>
      call("PATCH", `${BASE}/${offer.id}`, {
        key: g.key,
        body: { status: "sent" },
        headers: { "Idempotency-Key": `send-${offer.id}` },
      });
    const first = await send();
    expect(first.status).toBe(200);
    const again = await send();
    expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
    expect(await readJson(Offer, again)).toEqual(await readJson(Offer, first));
    expect(await offerEventTypes(g.id, offer.id)).toEqual(["offer.created", "offer.updated", "offer.sent"]);
  });

  it("needs offers:update, and another gallery's offer is 404", async () => {
    const [g, other] = [await createGallery(), await createGallery()];
    const offer = await createOffer(g);
    const key = await g.keyWith(["offers:read", "offers:create", "offers:delete"]);
    const res = await call("PATCH", `${BASE}/${offer.id}`, { key, body: { title: "No" } });
    expect((await expectProblem(res, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
      "offers:update",
    ]);
    const foreign = await call("PATCH", `${BASE}/${offer.id}`, { key: other.key, body: { title: "No" } });
    await expectProblem(foreign, 404, "not_found");
    expect(await getOffer(g, offer.id)).toEqual(offer);
  });
});
