import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { call, createGallery } from "../helpers/gallery";
import { getPage, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import {
  addRecipients,
  BASE,
  contact,
  createOffer,
  getOffer,
  offerEvents,
  offerEventTypes,
  patchOffer,
} from "./helpers";

/** An offer's recipients: GET/POST /gallery/offers/{id}/recipients, DELETE …/recipients/{contactId}. */

interface RecipientBody {
  offer_id: string;
  contact_id: string;
  name: string;
  email: string | null;
  status: string;
  added_at: string;
}

describe("POST /gallery/offers/{id}/recipients", () => {
  it("adds contacts as pending recipients, ignores those already there, and records who joined", async () => {
    const g = await createGallery();
    const offer = await createOffer(g);
    const ada = await contact(g, { name: "Ada", email: "ada@example.com" });
    const bea = await contact(g, { name: "Bea" });
    const first = await addRecipients(g, offer.id, [ada]);
    expect(first.recipient_count).toBe(1);
    const second = await addRecipients(g, offer.id, [ada, bea]);
    expect(second.recipient_count).toBe(2);
    // Nothing new: the offer as it is, no event.
    expect(await addRecipients(g, offer.id, [bea])).toEqual(second);
    const events = await offerEvents(g.id, offer.id);
    expect(events.map((e) => e.type)).toEqual([
      "offer.created",
      "offer.recipients_added",
      "offer.recipients_added",
    ]);
    expect(events[2]!.data).toEqual({ object: { offer: second, contact_ids: [bea] } });
    const page = await getPage<RecipientBody>(g.key, `${BASE}/${offer.id}/recipients`);
    expect(page.data.map((r) => [r.contact_id, r.name, r.email, r.status])).toEqual([
      [bea, "Bea", null, "pending"],
      [ada, "Ada", "ada@example.com", "pending"],
    ]);
    expect(page.data[0]!.offer_id).toBe(offer.id);
  });

  it("refuses another gallery's contact (400 naming its index), repeats and an empty list", async () => {
    const [g, other] = [await createGallery(), await createGallery()];
    const offer = await createOffer(g);
    const mine = await contact(g, { name: "Mine" });
    const theirs = await contact(other, { name: "Theirs" });
    for (const [ids, field] of [
      [[mine, theirs], "contact_ids.1"],
      [[newId("con")], "contact_ids.0"],
      [[mine, mine], "contact_ids"],
      [[], "contact_ids"],
      [["art_123"], "contact_ids.0"],
    ] as const) {
      const res = await call("POST", `${BASE}/${offer.id}/recipients`, {
        key: g.key,
        body: { contact_ids: ids },
      });
      await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    }
    expect((await getOffer(g, offer.id)).recipient_count).toBe(0);
  });

  it("is 409 naming the status on a sent or cancelled offer", async () => {
    const g = await createGallery();
    const ada = await contact(g, { name: "Ada" });
    for (const status of ["sent", "cancelled"]) {
      const offer = await createOffer(g);
      await patchOffer(g, offer.id, { status });
      const res = await call("POST", `${BASE}/${offer.id}/recipients`, {
        key: g.key,
        body: { contact_ids: [ada] },
      });
      expect((await expectProblem(res, 409, "conflict")).details).toEqual({ status });
      const removal = await call("DELETE", `${BASE}/${offer.id}/recipients/${ada}`, { key: g.key });
      expect((await expectProblem(removal, 409, "conflict")).details).toEqual({ status });
    }
  });
});

describe("DELETE /gallery/offers/{id}/recipients/{contactId}", () => {
  it("takes a recipient off; one that is not there changes nothing; another gallery's contact is 404", async () => {
    const [g, other] = [await createGallery(), await createGallery()];
    const offer = await createOffer(g);
    const [ada, bea] = [await contact(g, { name: "Ada" }), await contact(g, { name: "Bea" })];
    await addRecipients(g, offer.id, [ada, bea]);
    const res = await call("DELETE", `${BASE}/${offer.id}/recipients/${ada}`, { key: g.key });
    expect(res.status).toBe(200);
    const after = (await res.json()) as { recipient_count: number };
    expect(after.recipient_count).toBe(1);
    const again = await call("DELETE", `${BASE}/${offer.id}/recipients/${ada}`, { key: g.key });
    expect(await again.json()).toEqual(after);
    const foreign = await contact(other, { name: "Theirs" });
    await expectProblem(
      await call("DELETE", `${BASE}/${offer.id}/recipients/${foreign}`, { key: g.key }),
      404,
      "not_found",
    );
    const events = await offerEvents(g.id, offer.id);
    expect(events.map((e) => e.type)).toEqual([
      "offer.created",
      "offer.recipients_added",
      "offer.recipient_removed",
    ]);
    expect((events[2]!.data.object as { contact_ids: string[] }).contact_ids).toEqual([ada]);
  });
});

describe("GET /gallery/offers/{id}/recipients", () => {
  it("pages through the recipients in the order they were added, without gaps", async () => {
    const g = await createGallery();
    const offer = await createOffer(g);
    const ids: string[] = [];
    for (const name of ["A", "B", "C", "D", "E"]) {
      const id = await contact(g, { name });
      ids.push(id);
      await addRecipients(g, offer.id, [id]);
    }
    const pages = await walkPages<RecipientBody>(g.key, `${BASE}/${offer.id}/recipients`, {
      limit: "2",
      dir: "asc",
    });
    expect(pages.flatMap((p) => p.data.map((r) => r.contact_id))).toEqual(ids);
    expect(pages).toHaveLength(3);
  });

  it("needs contacts:read beside offers:read; another gallery's offer is 404", async () => {
    const [g, other] = [await createGallery(), await createGallery()];
    const offer = await createOffer(g);
    const key = await g.keyWith(["offers:read"]);
    const res = await call("GET", `${BASE}/${offer.id}/recipients`, { key });
    expect((await expectProblem(res, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
      "contacts:read",
    ]);
    await expectProblem(
      await call("GET", `${BASE}/${offer.id}/recipients`, { key: other.key }),
      404,
      "not_found",
    );
    const readOnly = await g.keyWith(["offers:read", "contacts:read"]);
    expect((await call("GET", `${BASE}/${offer.id}/recipients`, { key: readOnly })).status).toBe(200);
    await expect(offerEventTypes(g.id, offer.id)).resolves.toEqual(["offer.created"]);
  });
});
