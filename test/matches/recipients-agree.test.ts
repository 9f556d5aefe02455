import { beforeAll, describe, expect, it } from "vitest";
import { RecommendedRecipientList } from "../../lib/schemas/offers";
import { call, callJson, createGallery, type TestGallery } from "../helpers/gallery";
import { addRecipients, createOffer, setItems } from "../offers/helpers";
import { artwork, contact, daysFromNow, feedbackOk, listMatches, patchArtwork, storedMatch } from "./helpers";

/**
 * An offer's recommended recipients and the contacts' matches read the same stored matches under one visibility
 * rule (db/queries/matches.ts `visibleMatch`): on the same data, each recommended recipient's works are exactly
 * its matches at or above the floor among the offer's works, and every contact with such a match who may be
 * mailed (not archived, not do-not-email) and is not yet a recipient is recommended.
 *
 * The data: a fixed grid of contacts × works with probabilities from a seeded generator, independent of what
 * either route answers, plus every state that should drop a pair (hidden, dismissed, inactive, below the floor,
 * a sold or reserved work, a second model's row of the same pair).
 */

let g: TestGallery;
let offerId: string;
/** The offer's works (some made unavailable later) and works outside the offer. */
let offerWorks: string[];
let contacts: string[];

/** A small deterministic generator (mulberry32), so the grid is the same on every run. */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

beforeAll(async () => {
  g = await createGallery();
  const random = generator(21);
  offerWorks = [];
  for (let i = 0; i < 6; i++) offerWorks.push(await artwork(g, { title: `Offered ${i}` }));
  const outside = [
    await artwork(g, { title: "Not offered 1" }),
    await artwork(g, { title: "Not offered 2" }),
  ];
  contacts = [];
  for (let i = 0; i < 12; i++) {
    contacts.push(await contact(g, { name: `Collector ${i}`, email: `collector${i}-${g.id}@example.com` }));
  }
  const states = ["active", "active", "active", "active", "dismissed", "inactive"] as const;
  for (const c of contacts) {
    for (const w of [...offerWorks, ...outside]) {
      if (random() < 0.35) continue;
      const probability = Math.round(random() * 1000) / 1000;
      const status = states[Math.floor(random() * states.length)]!;
      const hide = random();
      const hiddenUntil = hide < 0.1 ? daysFromNow(4) : hide < 0.2 ? daysFromNow(-2) : null;
      await storedMatch(g, w, c, { probability, status, hiddenUntil });
      // Now and then a second model judged the same pair.
      if (random() < 0.15)
        await storedMatch(g, w, c, { probability: Math.round(random() * 1000) / 1000, model: "matcher@0" });
    }
  }
  // Exactly at the floor counts; just below does not.
  await storedMatch(g, offerWorks[0]!, contacts[0]!, { probability: 0.6, model: "matcher@floor" });
  await storedMatch(g, offerWorks[1]!, contacts[1]!, { probability: 0.599, model: "matcher@floor" });
  const offer = await createOffer(g, { title: "Winter selection" });
  offerId = offer.id;
  await setItems(
    g,
    offerId,
    offerWorks.map((artwork_id) => ({ artwork_id })),
  );
  // Two offered works leave the market after they were judged; one contact is already a recipient.
  await patchArtwork(g, offerWorks[2]!, { availability_state: "sold" });
  await patchArtwork(g, offerWorks[3]!, { availability_state: "reserved" });
  await addRecipients(g, offerId, [contacts[4]!]);
  // One contact is archived, another asked not to be emailed; a member hides and dismisses a pair each.
  expect((await call("POST", `/gallery/contacts/${contacts[5]}/archive`, { key: g.key })).status).toBe(200);
  expect(
    (await call("PATCH", `/gallery/contacts/${contacts[6]}`, { key: g.key, body: { do_not_email: true } }))
      .status,
  ).toBe(200);
}, 120_000);

/** Each mailable contact's visible matches among the offer's works, read through the matches list. */
async function matchedOfferWorks(): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (const c of contacts) {
    if (c === contacts[4] || c === contacts[5] || c === contacts[6]) continue;
    const works = new Set(
      (await listMatches(g.key, c, "limit=100")).data
        .map((m) => m.artwork_id)
        .filter((w) => offerWorks.includes(w)),
    );
    if (works.size > 0) out.set(c, works);
  }
  return out;
}

async function recommended(): Promise<Map<string, Set<string>>> {
  const { status, body } = await callJson(
    RecommendedRecipientList,
    "GET",
    `/gallery/offers/${offerId}/recommended-recipients?limit=50`,
    { key: g.key },
  );
  expect(status).toBe(200);
  return new Map(body.data.map((r) => [r.contact_id, new Set(r.artworks.map((a) => a.artwork_id))]));
}

describe("recommended recipients and contacts' matches", () => {
  it("agree on the same data, both ways", async () => {
    const fromMatches = await matchedOfferWorks();
    const fromRecipients = await recommended();
    // Not trivially: several contacts, several works, and the dropped pairs left out of both.
    expect(fromMatches.size).toBeGreaterThan(3);
    expect(fromRecipients).toEqual(fromMatches);
    for (const works of fromRecipients.values()) {
      expect(works.has(offerWorks[2]!)).toBe(false);
      expect(works.has(offerWorks[3]!)).toBe(false);
    }
    expect(fromRecipients.get(contacts[0]!)?.has(offerWorks[0]!)).toBe(true);
    for (const excluded of [contacts[4]!, contacts[5]!, contacts[6]!])
      expect(fromRecipients.has(excluded)).toBe(false);
  });

  it("still agree after members' feedback and a work coming back on the market", async () => {
    const [c, m] = await (async () => {
      for (const contactId of contacts) {
        const page = await listMatches(g.key, contactId, "limit=100");
        const onOffer = page.data.find((x) => offerWorks.includes(x.artwork_id));
        if (onOffer) return [contactId, onOffer] as const;
      }
      throw new Error("no visible match on the offer's works");
    })();
    await feedbackOk(g.key, c, m.id, { action: "hide" });
    const dismissed = (await listMatches(g.key, c, "limit=100")).data.find((x) =>
      offerWorks.includes(x.artwork_id),
    );
    if (dismissed) await feedbackOk(g.key, c, dismissed.id, { action: "not_interested" });
    await patchArtwork(g, offerWorks[2]!, { availability_state: "available" });
    const fromMatches = await matchedOfferWorks();
    expect(await recommended()).toEqual(fromMatches);
    expect([...fromMatches.values()].some((works) => works.has(offerWorks[2]!))).toBe(true);
  });
});
