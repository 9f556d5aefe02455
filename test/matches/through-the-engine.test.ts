import { describe, expect, it } from "vitest";
import { RECOMMENDATION_FLOOR } from "../../lib/schemas/matches";
import { RecommendedRecipientList } from "../../lib/schemas/offers";
import { judgeUntilSettled } from "../helpers/engine-loop";
import { call, createGallery, type TestGallery } from "../helpers/gallery";
import { createOffer, setItems } from "../offers/helpers";
import { contact, feedbackOk, getMatch, inquiry, listMatches, sale, viewed } from "./helpers";

/**
 * The matches as an integrator meets them: a history written through the API (sales, an inquiry, a view), the
 * engine run over what those writes marked stale, and everything read back through the API — the contact's
 * matches, one match's evidence resolved to the rows it names, a sold work leaving the list, a hidden pair
 * coming back when its hide passes, and an offer's recommended recipients agreeing with the matches. What the
 * matcher concludes is not asserted beyond what any sane matcher gives (works by the artist a contact bought
 * and asked about are among its matches); the routes and the loop are.
 */

async function created(g: TestGallery, path: string, body: unknown): Promise<string> {
  const res = await call("POST", path, { key: g.key, body });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A published, available work by the artist. */
async function work(g: TestGallery, artistId: string, title: string, medium: string, cents: number) {
  const id = await created(g, "/gallery/artworks", {
    title,
    medium,
    price_cents: cents,
    currency: "USD",
    artists: [{ artist_id: artistId }],
  });
  const res = await call("POST", `/gallery/artworks/${id}/publish`, { key: g.key });
  expect(res.status, await res.clone().text()).toBe(200);
  return id;
}

async function world() {
  const g = await createGallery();
  const painter = await created(g, "/gallery/artists", { name: "Ines Marchetti" });
  const photographer = await created(g, "/gallery/artists", { name: "Tomas Berg" });
  const bought = await work(g, painter, "Harbour I", "Oil on canvas", 1_200_000);
  const asked = await work(g, painter, "Harbour II", "Oil on canvas", 1_300_000);
  const seen = await work(g, painter, "Harbour III", "Oil on linen", 1_150_000);
  const photo = await work(g, photographer, "Pier at dawn", "Archival pigment print", 300_000);
  const buyer = await contact(g, { name: "Ada Collector", email: `ada-${g.id}@example.com` });
  const saleId = await sale(g, buyer, [bought]);
  const inquiryId = await inquiry(g, buyer, asked);
  const viewId = await viewed(g, buyer, seen);
  await judgeUntilSettled(g);
  return { g, painter, bought, asked, seen, photo, buyer, saleId, inquiryId, viewId };
}

describe("matches through the engine and the API", () => {
  it("lists what the engine judged, best first, never the work bought; every evidence id resolves", async () => {
    const { g, bought, asked, seen, buyer, saleId, inquiryId, viewId } = await world();
    const all = await listMatches(g.key, buyer, "min_probability=0");
    const works = all.data.map((m) => m.artwork_id);
    expect(works).toContain(asked);
    expect(works).toContain(seen);
    expect(works).not.toContain(bought);
    for (let i = 1; i < all.data.length; i++) {
      expect(all.data[i - 1]!.probability).toBeGreaterThanOrEqual(all.data[i]!.probability);
    }
    // The visible floor by default.
    const visible = await listMatches(g.key, buyer);
    expect(visible.data.map((m) => m.id)).toEqual(
      all.data.filter((m) => m.probability >= RECOMMENDATION_FLOOR).map((m) => m.id),
    );

    const match = all.data.find((m) => m.artwork_id === asked)!;
    const detail = await getMatch(g.key, buyer, match.id);
    expect(detail.match).toEqual(match);
    expect(detail.evidence.length).toBe(match.evidence_count);
    const ids = new Set(detail.evidence.map((e) => e.evidence_id));
    expect(ids.has(saleId)).toBe(true);
    expect(ids.has(inquiryId)).toBe(true);
    for (const e of detail.evidence) expect(e.sub_score).toBe(match.sub_scores[e.question]);
    // Each id is a row the API serves.
    const interactions = (await (
      await call("GET", `/gallery/contacts/${buyer}/interactions?limit=100`, { key: g.key })
    ).json()) as { data: { id: string }[] };
    const engagements = (await (
      await call("GET", `/gallery/contacts/${buyer}/engagements?limit=100`, { key: g.key })
    ).json()) as { data: { id: string }[] };
    const served = new Set([
      saleId,
      buyer,
      ...interactions.data.map((i) => i.id),
      ...engagements.data.map((e) => e.id),
    ]);
    for (const id of ids) if (id !== null) expect(served.has(id), id).toBe(true);
    expect(served.has(viewId)).toBe(true);
    expect((await call("GET", `/gallery/sales/${saleId}`, { key: g.key })).status).toBe(200);
  });

  it("a work sold to someone else leaves the list with the sale, and the engine makes the pair inactive", async () => {
    const { g, asked, buyer } = await world();
    const before = await listMatches(g.key, buyer, "min_probability=0");
    const pair = before.data.find((m) => m.artwork_id === asked)!;
    const other = await contact(g, { name: "Ben Buyer" });
    await sale(g, other, [asked]);
    // At once, before the engine has run: the read checks the work.
    expect((await listMatches(g.key, buyer, "min_probability=0")).data.map((m) => m.id)).not.toContain(
      pair.id,
    );
    await judgeUntilSettled(g);
    expect((await getMatch(g.key, buyer, pair.id)).match.status).toBe("inactive");
    expect(
      (await listMatches(g.key, buyer, "min_probability=0&include_hidden=true")).data.map((m) => m.id),
    ).not.toContain(pair.id);
  });

  it("a hidden pair is omitted until its hidden_until passes, and the engine keeps the hide", async () => {
    const { g, seen, buyer } = await world();
    const pair = (await listMatches(g.key, buyer, "min_probability=0")).data.find(
      (m) => m.artwork_id === seen,
    )!;
    const until = new Date(Date.now() + 2_500).toISOString();
    const hidden = await feedbackOk(g.key, buyer, pair.id, { action: "hide", hidden_until: until });
    expect(hidden.hidden_until).toBe(until);
    // The feedback marked the contact: re-judged, the hide stands.
    await judgeUntilSettled(g);
    expect((await listMatches(g.key, buyer, "min_probability=0")).data.map((m) => m.id)).not.toContain(
      pair.id,
    );
    const withHidden = await listMatches(g.key, buyer, "min_probability=0&include_hidden=true");
    expect(withHidden.data.find((m) => m.id === pair.id)?.hidden_until).toBe(until);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(until) - Date.now() + 200)));
    expect((await listMatches(g.key, buyer, "min_probability=0")).data.map((m) => m.id)).toContain(pair.id);
  });

  it("an offer's recommended recipients are exactly the contacts' visible matches on its works", async () => {
    const { g, asked, seen, photo, buyer } = await world();
    const second = await contact(g, { name: "Cleo Collector", email: `cleo-${g.id}@example.com` });
    await inquiry(g, second, photo);
    await judgeUntilSettled(g);
    const offer = (await createOffer(g, { title: "Harbours and piers" })).id;
    await setItems(
      g,
      offer,
      [asked, seen, photo].map((artwork_id) => ({ artwork_id })),
    );
    const res = await call("GET", `/gallery/offers/${offer}/recommended-recipients?limit=50`, { key: g.key });
    expect(res.status).toBe(200);
    const recommended = RecommendedRecipientList.parse(await res.json()).data;

    const offered = new Set([asked, seen, photo]);
    const expected = new Map<string, string[]>();
    for (const c of [buyer, second]) {
      const visible = (await listMatches(g.key, c, "limit=100")).data.filter((m) =>
        offered.has(m.artwork_id),
      );
      if (visible.length > 0) expected.set(c, visible.map((m) => m.artwork_id).sort());
    }
    expect(expected.size).toBeGreaterThan(0);
    expect(
      new Map(recommended.map((r) => [r.contact_id, r.artworks.map((a) => a.artwork_id).sort()])),
    ).toEqual(expected);
  });
});
