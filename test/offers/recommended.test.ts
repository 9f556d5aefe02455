import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { RecommendedRecipientList } from "../../lib/schemas/offers";
import { call, createGallery, readJson, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import {
  addRecipients,
  BASE,
  contact,
  createOffer,
  match,
  minutesFromNow,
  publishedArtwork,
  setItems,
} from "./helpers";

/** GET /gallery/offers/{id}/recommended-recipients: stored matches on the offer's works, best first. */

async function recommended(g: TestGallery, offerId: string, query = "", key = g.key) {
  const res = await call("GET", `${BASE}/${offerId}/recommended-recipients${query}`, { key });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await readJson(RecommendedRecipientList, res)).data;
}

/** An offer of two works (and a third work of the gallery that is not in it). */
async function offerOfTwo(g: TestGallery) {
  const [one, two, elsewhere] = [
    await publishedArtwork(g, "One"),
    await publishedArtwork(g, "Two"),
    await publishedArtwork(g, "Elsewhere"),
  ];
  const offer = await createOffer(g);
  await setItems(g, offer.id, [{ artwork_id: one }, { artwork_id: two }]);
  return { offer, one, two, elsewhere };
}

describe("GET /gallery/offers/{id}/recommended-recipients", () => {
  it("is empty until the works are judged, and for an offer without works", async () => {
    const g = await createGallery();
    const { offer } = await offerOfTwo(g);
    expect(await recommended(g, offer.id)).toEqual([]);
    const empty = await createOffer(g, { title: "Empty" });
    const someone = await contact(g, { name: "Someone" });
    await match(g, await publishedArtwork(g, "Judged"), someone, 0.9);
    expect(await recommended(g, empty.id)).toEqual([]);
  });

  it("lists contacts above the floor best first, with the works matched and the strongest evidence", async () => {
    const g = await createGallery();
    const { offer, one, two, elsewhere } = await offerOfTwo(g);
    const ada = await contact(g, { name: "Ada", email: "ada@example.com" });
    const bea = await contact(g, { name: "Bea" });
    const cy = await contact(g, { name: "Cy" });
    const dee = await contact(g, { name: "Dee" });
    await match(g, one, ada, 0.7, { reason: "Bought two works on paper" });
    await match(g, two, ada, 0.92, { reason: "Asked about the series" });
    await match(g, elsewhere, ada, 0.99, { reason: "Not in this offer" });
    await match(g, two, bea, 0.6, { reason: "Exactly at the floor" });
    await match(g, one, cy, 0.59, { reason: "Just below the floor" });
    await match(g, one, dee, 0.8);
    // A second model's weaker judgment of the same pair does not count twice or lower the best.
    await match(g, two, ada, 0.65, { model: "judge-0", reason: "Older model" });

    expect(await recommended(g, offer.id)).toEqual([
      {
        contact_id: ada,
        name: "Ada",
        email: "ada@example.com",
        top_reason: "Asked about the series",
        probability: 0.92,
        artworks: [
          { artwork_id: two, title: "Two", probability: 0.92 },
          { artwork_id: one, title: "One", probability: 0.7 },
        ],
      },
      {
        contact_id: dee,
        name: "Dee",
        email: null,
        top_reason: null,
        probability: 0.8,
        artworks: [{ artwork_id: one, title: "One", probability: 0.8 }],
      },
      {
        contact_id: bea,
        name: "Bea",
        email: null,
        top_reason: "Exactly at the floor",
        probability: 0.6,
        artworks: [{ artwork_id: two, title: "Two", probability: 0.6 }],
      },
    ]);
  });

  it("omits recipients already on the offer, archived and do-not-email contacts, and hidden or inactive matches", async () => {
    const g = await createGallery();
    const { offer, one } = await offerOfTwo(g);
    const kept = await contact(g, { name: "Kept" });
    const onOffer = await contact(g, { name: "On the offer" });
    const archived = await contact(g, { name: "Archived" });
    const noEmail = await contact(g, { name: "No email", email: "no@example.com", do_not_email: true });
    const hidden = await contact(g, { name: "Hidden" });
    const hiddenOnce = await contact(g, { name: "Hidden until yesterday" });
    const inactive = await contact(g, { name: "Inactive" });
    for (const c of [kept, onOffer, archived, noEmail]) await match(g, one, c, 0.9);
    await match(g, one, hidden, 0.95, { hiddenUntil: minutesFromNow(60 * 24) });
    await match(g, one, hiddenOnce, 0.85, { hiddenUntil: minutesFromNow(-60 * 24) });
    await match(g, one, inactive, 0.97, { status: "superseded" });
    await addRecipients(g, offer.id, [onOffer]);
    const archive = await call("POST", `/gallery/contacts/${archived}/archive`, { key: g.key });
    expect(archive.status).toBe(200);
    expect((await recommended(g, offer.id)).map((r) => r.name)).toEqual(["Kept", "Hidden until yesterday"]);
  });

  it("takes limit 1 to 50 (default 20), one page without next_cursor, ties by contact id", async () => {
    const g = await createGallery();
    const { offer, one, two } = await offerOfTwo(g);
    const contacts: string[] = [];
    for (let i = 0; i < 23; i++) {
      const id = await contact(g, { name: `Collector ${i}` });
      contacts.push(id);
      await match(g, i % 2 ? one : two, id, 0.75);
    }
    const page = await call("GET", `${BASE}/${offer.id}/recommended-recipients`, { key: g.key });
    const body = (await page.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["data"]);
    const sorted = [...contacts].sort();
    expect((body.data as { contact_id: string }[]).map((r) => r.contact_id)).toEqual(sorted.slice(0, 20));
    expect((await recommended(g, offer.id, "?limit=1")).map((r) => r.contact_id)).toEqual([sorted[0]]);
    expect(await recommended(g, offer.id, "?limit=50")).toHaveLength(23);
    for (const limit of ["0", "51", "abc", "-1", "1.5", ""]) {
      const res = await call("GET", `${BASE}/${offer.id}/recommended-recipients?limit=${limit}`, {
        key: g.key,
      });
      await expectProblem(res, 400, "invalid_request", { field: "limit" });
    }
    const cursor = await call("GET", `${BASE}/${offer.id}/recommended-recipients?cursor=abc`, { key: g.key });
    await expectProblem(cursor, 400, "invalid_request", { field: "cursor" });
  });

  it("needs offers:read, contacts:read and artworks:read; another gallery's offer is 404", async () => {
    const [g, other] = [await createGallery(), await createGallery()];
    const { offer } = await offerOfTwo(g);
    const scopes = ["offers:read", "contacts:read", "artworks:read"];
    for (const missing of scopes) {
      const key = await g.keyWith(scopes.filter((s) => s !== missing));
      const res = await call("GET", `${BASE}/${offer.id}/recommended-recipients`, { key });
      expect((await expectProblem(res, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
        missing,
      ]);
    }
    expect(await recommended(g, offer.id, "", await g.keyWith(scopes))).toEqual([]);
    await expectProblem(
      await call("GET", `${BASE}/${offer.id}/recommended-recipients`, { key: other.key }),
      404,
      "not_found",
    );
    await expectProblem(
      await call("GET", `${BASE}/${newId("offer")}/recommended-recipients`, { key: g.key }),
      404,
      "not_found",
    );
  });
});
