import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { matchListQuery } from "../../db/queries/matches";
import { recommendedRecipientsQuery } from "../../db/queries/offers";
import { RECOMMENDATION_FLOOR } from "../../lib/schemas/matches";
import { createGallery, db, type TestGallery } from "../helpers/gallery";
import { createOffer, setItems } from "../offers/helpers";
import { bulkMatches, contact, listMatches } from "./helpers";

/**
 * The matches list at a contact with 5,000 stored matches: one statement (the contact's existence and the page),
 * walking recommendation_matches_contact_idx from the top, never a sequential scan of recommendation_matches.
 */

const N = 5_000;
let g: TestGallery;
let contactId: string;

beforeAll(async () => {
  g = await createGallery();
  contactId = await contact(g);
  // Probabilities spread over 0.2–1.0, many equal (three decimals), as a judged contact's would be.
  const probabilities = Array.from(
    { length: N },
    (_, i) => Math.round((0.2 + ((i * 7919) % 800) / 1000) * 1000) / 1000,
  );
  await bulkMatches(g, contactId, probabilities);
  // A few other contacts' matches in the same gallery, so the contact's are a part of the table.
  for (let c = 0; c < 3; c++)
    await bulkMatches(
      g,
      await contact(g),
      Array.from({ length: 500 }, () => 0.9),
    );
  await db().execute(sql`analyze recommendation_matches`);
  await db().execute(sql`analyze artworks`);
}, 120_000);

async function plan(
  after: [number, string] | null,
  visibility = { minProbability: RECOMMENDATION_FLOOR, includeHidden: false },
) {
  const query = matchListQuery(g.id, contactId, { gatePrices: true }, visibility, {
    route: "listContactMatches",
    sort: "probability",
    dir: "desc",
    limit: 20,
    after,
  });
  const result = await db().execute<{ "QUERY PLAN": string }>(sql`explain (analyze, buffers) ${query}`);
  return result.rows.map((r) => r["QUERY PLAN"]).join("\n");
}

describe("GET /gallery/contacts/{id}/matches at 5,000 matches", () => {
  it("reads the first page down recommendation_matches_contact_idx, without a sequential scan", async () => {
    const text = await plan(null);
    expect(text, text).toContain("recommendation_matches_contact_idx");
    expect(text, text).not.toMatch(/Seq Scan on recommendation_matches/);
    expect(text, text).not.toMatch(/Seq Scan on artworks/);
    // The walk stops at the page: it reads a page's worth of index entries, not the contact's 5,000.
    const rows =
      /Index Scan Backward using recommendation_matches_contact_idx on recommendation_matches rm[^\n]*actual[^\n]*rows=(\d+)/.exec(
        text,
      );
    expect(rows, text).not.toBeNull();
    expect(Number(rows![1])).toBeLessThanOrEqual(21);
  });

  it("and a deep page from its cursor position, and a lowered floor, the same way", async () => {
    for (const text of [
      await plan([0.65, "match_zzzzzzzzzzzzzzzzzzzzzzzz"]),
      await plan(null, { minProbability: 0, includeHidden: true }),
    ]) {
      expect(text, text).toContain("recommendation_matches_contact_idx");
      expect(text, text).not.toMatch(/Seq Scan on recommendation_matches/);
    }
  });

  it("leaves recommended recipients, which share the visibility rule, on their indexes too", async () => {
    const works = await db().execute<{ artwork_id: string }>(
      sql`select artwork_id from recommendation_matches where contact_id = ${contactId} order by probability desc, id limit 20`,
    );
    const offer = await createOffer(g, { title: "Plan" });
    await setItems(
      g,
      offer.id,
      works.rows.map((w) => ({ artwork_id: w.artwork_id })),
    );
    const result = await db().execute<{ "QUERY PLAN": string }>(
      sql`explain (analyze, buffers) ${recommendedRecipientsQuery(g.id, offer.id, 20)}`,
    );
    const text = result.rows.map((r) => r["QUERY PLAN"]).join("\n");
    // The work's availability is a primary-key probe per candidate, never a scan.
    expect(text, text).toContain("Index Scan using artworks_pkey on artworks aw");
    expect(text, text).not.toMatch(/Seq Scan on (recommendation_matches|artworks)/);
  });

  it("pages through the API in order", async () => {
    const first = await listMatches(g.key, contactId, "limit=100");
    expect(first.data).toHaveLength(100);
    const ps = first.data.map((m) => m.probability);
    expect(ps).toEqual([...ps].sort((a, b) => b - a));
    expect(ps.every((p) => p >= RECOMMENDATION_FLOOR)).toBe(true);
    const second = await listMatches(g.key, contactId, `limit=100&cursor=${first.next_cursor}`);
    expect(second.data[0]!.probability).toBeLessThanOrEqual(ps[99]!);
    expect(new Set([...first.data, ...second.data].map((m) => m.id)).size).toBe(200);
  });
});
