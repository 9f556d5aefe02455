import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { MatchList } from "../../lib/schemas/matches";
import { call, callJson, createGallery, signedInMember, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import {
  artwork,
  bulkMatches,
  contact,
  DEFAULT_SUB_SCORES,
  daysFromNow,
  getMatch,
  inquiry,
  listMatches,
  matchesPath,
  matchPath,
  patchArtwork,
  sale,
  storedMatch,
  viewed,
} from "./helpers";

/**
 * GET /gallery/contacts/{id}/matches and GET …/matches/{matchId}: matches written as the engine writes them, read
 * through the API. Every response is also checked against the OpenAPI document by `call()`.
 */

let g: TestGallery;
let other: TestGallery;

beforeAll(async () => {
  [g, other] = await Promise.all([createGallery(), createGallery()]);
});

describe("GET /gallery/contacts/{id}/matches", () => {
  it("answers the contact's visible matches best first, each as stored", async () => {
    const ada = await contact(g);
    const [a, b, c] = [await artwork(g), await artwork(g), await artwork(g)];
    const sold = await sale(g, ada, [await artwork(g)]);
    const mid = await storedMatch(g, a, ada, {
      probability: 0.72,
      evidence: [
        {
          question: "artist",
          kind: "purchase",
          ref: sold,
          label: "Bought a work by Ines Marchetti",
          sourceLabel: "Sale",
        },
      ],
    });
    const top = await storedMatch(g, b, ada, { probability: 0.91 });
    const below = await storedMatch(g, c, ada, { probability: 0.41 });
    const page = await listMatches(g.key, ada);
    expect(page.next_cursor).toBeNull();
    expect(page.data.map((m) => m.id)).toEqual([top, mid]);
    expect(page.data.map((m) => m.id)).not.toContain(below);
    expect(page.data[1]).toEqual({
      id: mid,
      artwork_id: a,
      contact_id: ada,
      model: "matcher@1",
      counterpart_name: "Untitled, by Ines Marchetti",
      probability: 0.72,
      sub_scores: DEFAULT_SUB_SCORES,
      reasons: [
        {
          question: "artist",
          kind: "purchase",
          evidence_id: sold,
          label: "Bought a work by Ines Marchetti",
          source_label: "Sale",
          at: null,
        },
      ],
      evidence_count: 1,
      status: "active",
      hidden_until: null,
      judged_at: "2026-11-20T10:00:00.000Z",
    });
  });

  it("answers an empty page for a contact the engine has not judged; 404 for an unknown or another gallery's contact", async () => {
    const fresh = await contact(g);
    expect(await listMatches(g.key, fresh)).toEqual({ data: [], next_cursor: null });
    await expectProblem(await call("GET", matchesPath(newId("con")), { key: g.key }), 404, "not_found");
    const theirs = await contact(other);
    await storedMatch(other, await artwork(other), theirs, { probability: 0.9 });
    await expectProblem(await call("GET", matchesPath(theirs), { key: g.key }), 404, "not_found");
    expect((await listMatches(other.key, theirs)).data).toHaveLength(1);
  });

  it("pages through equal probabilities in a stable (probability, id) order, neither skipping nor repeating", async () => {
    const bo = await contact(g);
    const probabilities = Array.from({ length: 23 }, (_, i) => [0.9, 0.8, 0.8, 0.8, 0.7][i % 5]!);
    const ids = await bulkMatches(g, bo, probabilities);
    const expected = ids
      .map((id, i) => ({ id, p: probabilities[i]! }))
      .sort((x, y) => y.p - x.p || (x.id < y.id ? 1 : -1))
      .map((x) => x.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await listMatches(g.key, bo, `limit=5${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.data.length).toBeLessThanOrEqual(5);
      seen.push(...page.data.map((m) => m.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toEqual(expected);
    // Backwards (dir=asc) reads the same set from the bottom.
    const asc = await listMatches(g.key, bo, "limit=100&dir=asc");
    expect(asc.data.map((m) => m.id)).toEqual([...expected].reverse());
    // A cursor is bound to its direction.
    const first = await listMatches(g.key, bo, "limit=5");
    await expectProblem(
      await call("GET", matchesPath(bo, `dir=asc&cursor=${first.next_cursor}`), { key: g.key }),
      400,
      "invalid_request",
      { field: "cursor" },
    );
  });

  it("min_probability lowers or raises the floor, inclusive at both ends", async () => {
    const cy = await contact(g);
    const at = async (p: number) => storedMatch(g, await artwork(g), cy, { probability: p });
    const [zero, low, floor, high, one] = [
      await at(0),
      await at(0.35),
      await at(0.6),
      await at(0.85),
      await at(1),
    ];
    const ids = async (q: string) => (await listMatches(g.key, cy, q)).data.map((m) => m.id);
    expect(await ids("")).toEqual([one, high, floor]);
    expect(await ids("min_probability=0.35")).toEqual([one, high, floor, low]);
    expect(await ids("min_probability=0")).toEqual([one, high, floor, low, zero]);
    expect(await ids("min_probability=1")).toEqual([one]);
    expect(await ids("min_probability=0.86")).toEqual([one]);
  });

  it("400 naming min_probability for a value out of range or not a number", async () => {
    const dee = await contact(g);
    for (const bad of ["1.01", "-0.1", "2", "abc", "", "1e-1", ".5", "NaN", "0x1", " 0.5"]) {
      await expectProblem(
        await call("GET", matchesPath(dee, `min_probability=${encodeURIComponent(bad)}`), { key: g.key }),
        400,
        "invalid_request",
        { field: "min_probability" },
      );
    }
    await expectProblem(
      await call("GET", matchesPath(dee, "include_hidden=yes"), { key: g.key }),
      400,
      "invalid_request",
      { field: "include_hidden" },
    );
  });

  it("omits hidden and dismissed pairs unless include_hidden=true; a past hidden_until is back; inactive never", async () => {
    const eve = await contact(g);
    const pair = async (row: Parameters<typeof storedMatch>[3]) => storedMatch(g, await artwork(g), eve, row);
    const shown = await pair({ probability: 0.9 });
    const hidden = await pair({ probability: 0.8, hiddenUntil: daysFromNow(3) });
    const back = await pair({ probability: 0.75, hiddenUntil: daysFromNow(-1) });
    const dismissed = await pair({ probability: 0.7, status: "dismissed" });
    const inactive = await pair({ probability: 0.95, status: "inactive" });
    const ids = async (q: string) => (await listMatches(g.key, eve, q)).data.map((m) => m.id);
    expect(await ids("")).toEqual([shown, back]);
    expect(await ids("include_hidden=false")).toEqual([shown, back]);
    expect(await ids("include_hidden=true")).toEqual([shown, hidden, back, dismissed]);
    expect(await ids("include_hidden=true&min_probability=0")).not.toContain(inactive);
    // An inactive match is still readable by id.
    expect((await getMatch(g.key, eve, inactive)).match.status).toBe("inactive");
  });

  it("leaves out a pair whose work is no longer available, before the engine marks it inactive", async () => {
    const fay = await contact(g);
    const [sold, reserved, held, onSale] = [
      await artwork(g),
      await artwork(g),
      await artwork(g),
      await artwork(g),
    ];
    const m = {
      sold: await storedMatch(g, sold, fay, { probability: 0.9 }),
      reserved: await storedMatch(g, reserved, fay, { probability: 0.85 }),
      held: await storedMatch(g, held, fay, { probability: 0.8 }),
      onSale: await storedMatch(g, onSale, fay, { probability: 0.7 }),
    };
    expect((await listMatches(g.key, fay)).data.map((x) => x.id)).toEqual([
      m.sold,
      m.reserved,
      m.held,
      m.onSale,
    ]);
    await patchArtwork(g, sold, { availability_state: "sold" });
    await patchArtwork(g, reserved, { availability_state: "reserved" });
    await patchArtwork(g, held, { availability_state: "on_hold" });
    const after = (await listMatches(g.key, fay, "include_hidden=true")).data.map((x) => x.id);
    // A hold keeps the work for someone: it leaves the lists like a sale.
    expect(after).toEqual([m.onSale]);
    // Still readable by id, as stored (the engine has not judged the change yet).
    expect((await getMatch(g.key, fay, m.sold)).match.status).toBe("active");
    await patchArtwork(g, sold, { availability_state: "available" });
    expect((await listMatches(g.key, fay)).data.map((x) => x.id)).toEqual([m.sold, m.onSale]);
  });

  it("needs contacts:read and artworks:read", async () => {
    const gus = await contact(g);
    await storedMatch(g, await artwork(g), gus, { probability: 0.9 });
    const contactsOnly = await g.keyWith(["contacts:read"]);
    const body = await expectProblem(
      await call("GET", matchesPath(gus), { key: contactsOnly }),
      403,
      "forbidden",
    );
    expect(body.details).toHaveProperty("missing_scopes", ["artworks:read"]);
    const artworksOnly = await g.keyWith(["artworks:read"]);
    await expectProblem(await call("GET", matchesPath(gus), { key: artworksOnly }), 403, "forbidden");
    const both = await g.keyWith(["contacts:read", "artworks:read"]);
    const { status, body: page } = await callJson(MatchList, "GET", matchesPath(gus), { key: both });
    expect(status).toBe(200);
    expect(page.data).toHaveLength(1);
  });
});

describe("price evidence for a read-only caller", () => {
  let hal: string;
  let privateWork: string;
  let publicWork: string;
  let privateMatch: string;
  let publicMatch: string;
  let reader: string;
  const evidence = (saleId: string) => [
    {
      question: "price" as const,
      kind: "purchase",
      ref: saleId,
      label: "Spent $42,000 on a work in 2024",
      sourceLabel: "Sale",
    },
    {
      question: "medium" as const,
      kind: "purchase",
      ref: saleId,
      label: "Bought an oil painting",
      sourceLabel: "Sale",
    },
    { question: "price" as const, kind: "work_fact", ref: null, label: "Priced $38,000, within the band" },
    { question: "artist" as const, kind: "work_fact", ref: null, label: "By Ines Marchetti" },
  ];

  beforeAll(async () => {
    hal = await contact(g);
    const saleId = await sale(g, hal, [await artwork(g)]);
    privateWork = await artwork(g, { price_cents: 3_800_000, currency: "USD" });
    publicWork = await artwork(g, { price_cents: 3_800_000, currency: "USD", show_price_publicly: true });
    privateMatch = await storedMatch(g, privateWork, hal, { probability: 0.9, evidence: evidence(saleId) });
    publicMatch = await storedMatch(g, publicWork, hal, { probability: 0.8, evidence: evidence(saleId) });
    reader = await g.keyWith(["contacts:read", "artworks:read"]);
  });

  it("leaves price reasons and evidence out for a work that is not public-priced, keeping the count and sub-score", async () => {
    const [priv, pub] = (await listMatches(reader, hal)).data;
    expect(priv!.id).toBe(privateMatch);
    expect(priv!.reasons.map((r) => r.question)).toEqual(["medium"]);
    expect(priv!.evidence_count).toBe(4);
    expect(priv!.sub_scores.price).toBe(0.6);
    expect(pub!.reasons.map((r) => r.question)).toEqual(["price", "medium", "price"]);
    const detail = await getMatch(reader, hal, privateMatch);
    expect(detail.match.reasons.map((r) => r.question)).toEqual(["medium"]);
    expect(detail.evidence.map((e) => e.question)).toEqual(["medium", "artist"]);
    expect(JSON.stringify(detail)).not.toContain("$");
    const open = await getMatch(reader, hal, publicMatch);
    expect(open.evidence.map((e) => e.question)).toEqual(["medium", "artist", "price", "price"]);
  });

  it("gates a viewer's session the same way; an editor's session sees everything", async () => {
    const viewer = await signedInMember(g.id, "viewer");
    const [priv] = (await listMatches(viewer.token, hal)).data;
    expect(priv!.reasons.map((r) => r.question)).toEqual(["medium"]);
    expect((await getMatch(viewer.token, hal, privateMatch)).evidence.map((e) => e.question)).toEqual([
      "medium",
      "artist",
    ]);
    const editor = await g.editor();
    const [open] = (await listMatches(editor.token, hal)).data;
    expect(open!.reasons.map((r) => r.question)).toEqual(["price", "medium", "price"]);
  });

  it("shows everything to a caller holding a write scope", async () => {
    const [priv] = (await listMatches(g.key, hal)).data;
    expect(priv!.reasons.map((r) => r.question)).toEqual(["price", "medium", "price"]);
    const detail = await getMatch(g.key, hal, privateMatch);
    expect(detail.evidence.map((e) => [e.question, e.label])).toEqual([
      ["medium", "Bought an oil painting"],
      ["artist", "By Ines Marchetti"],
      ["price", "Spent $42,000 on a work in 2024"],
      ["price", "Priced $38,000, within the band"],
    ]);
  });
});

describe("GET /gallery/contacts/{id}/matches/{matchId}", () => {
  it("shows every piece of evidence with its sub-score, pointing at real rows, by question and as stored", async () => {
    const ida = await contact(g);
    const bought = await artwork(g, { title: "Harbour at dusk" });
    const work = await artwork(g, { title: "Harbour at dawn" });
    const saleId = await sale(g, ida, [bought]);
    const interactionId = await inquiry(g, ida, work);
    const engagementId = await viewed(g, ida, work);
    const id = await storedMatch(g, work, ida, {
      probability: 0.83,
      subScores: { engagement: 0.95, artist: 0.88 },
      evidence: [
        {
          question: "engagement",
          kind: "interaction",
          ref: interactionId,
          label: "Asked about this work",
          sourceLabel: "Inquiry by email",
          at: "2026-11-01T09:00:00.000Z",
        },
        {
          question: "artist",
          kind: "purchase",
          ref: saleId,
          label: "Bought Harbour at dusk",
          sourceLabel: "Sale",
          at: "2026-10-01T09:00:00.000Z",
        },
        {
          question: "engagement",
          kind: "engagement",
          ref: engagementId,
          label: "Viewed this work",
          sourceLabel: "Viewing room",
          at: "2026-11-02T09:00:00.000Z",
        },
        { question: "recency", kind: "work_fact", ref: null, label: "New to the gallery this month" },
      ],
    });
    const detail = await getMatch(g.key, ida, id);
    expect(detail.match.id).toBe(id);
    expect(detail.match.evidence_count).toBe(4);
    expect(detail.match.reasons.map((r) => r.evidence_id)).toEqual([interactionId, saleId, engagementId]);
    expect(detail.evidence).toEqual([
      {
        question: "artist",
        kind: "purchase",
        evidence_id: saleId,
        label: "Bought Harbour at dusk",
        source_label: "Sale",
        at: "2026-10-01T09:00:00.000Z",
        sub_score: 0.88,
      },
      {
        question: "engagement",
        kind: "interaction",
        evidence_id: interactionId,
        label: "Asked about this work",
        source_label: "Inquiry by email",
        at: "2026-11-01T09:00:00.000Z",
        sub_score: 0.95,
      },
      {
        question: "engagement",
        kind: "engagement",
        evidence_id: engagementId,
        label: "Viewed this work",
        source_label: "Viewing room",
        at: "2026-11-02T09:00:00.000Z",
        sub_score: 0.95,
      },
      {
        question: "recency",
        kind: "work_fact",
        evidence_id: null,
        label: "New to the gallery this month",
        source_label: null,
        at: null,
        sub_score: 0.3,
      },
    ]);
    expect(detail.feedback).toEqual([]);
    // The evidence ids resolve to the rows they name.
    expect((await call("GET", `/gallery/sales/${saleId}`, { key: g.key })).status).toBe(200);
    const interactions = (await (
      await call("GET", `/gallery/contacts/${ida}/interactions`, { key: g.key })
    ).json()) as { data: { id: string }[] };
    expect(interactions.data.map((x) => x.id)).toContain(interactionId);
    const engagements = (await (
      await call("GET", `/gallery/contacts/${ida}/engagements`, { key: g.key })
    ).json()) as { data: { id: string }[] };
    expect(engagements.data.map((x) => x.id)).toContain(engagementId);
  });

  it("404 for another contact's match, another gallery's match, or an unknown one", async () => {
    const jo = await contact(g);
    const kim = await contact(g);
    const mine = await storedMatch(g, await artwork(g), jo, { probability: 0.9 });
    await expectProblem(await call("GET", matchPath(kim, mine), { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", matchPath(jo, newId("match")), { key: g.key }), 404, "not_found");
    const theirContact = await contact(other);
    const theirs = await storedMatch(other, await artwork(other), theirContact, { probability: 0.9 });
    await expectProblem(await call("GET", matchPath(theirContact, theirs), { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", matchPath(jo, theirs), { key: g.key }), 404, "not_found");
    await expectProblem(
      await call("GET", matchPath(jo, "match_NOPE"), { key: g.key }),
      400,
      "invalid_request",
      {
        field: "matchId",
        location: "path",
      },
    );
  });

  it("needs contacts:read and artworks:read", async () => {
    const lu = await contact(g);
    const id = await storedMatch(g, await artwork(g), lu, { probability: 0.9 });
    const body = await expectProblem(
      await call("GET", matchPath(lu, id), { key: await g.keyWith(["contacts:read"]) }),
      403,
      "forbidden",
    );
    expect(body.details).toHaveProperty("missing_scopes", ["artworks:read"]);
  });
});
