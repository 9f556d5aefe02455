import { describe, expect, it } from "vitest";
import { RECOMMENDATION_FLOOR } from "../../lib/schemas/matches";
import { judgeUntilSettled } from "../helpers/engine-loop";
import { call, createGallery, type TestGallery } from "../helpers/gallery";
import { contact, getMatch, listMatches } from "./helpers";

/**
 * What the matcher reads, through the API and the engine: a contact with a collecting focus and a budget and no
 * purchases gets matches from those facts (a work tagged with the style it asks for above the visible floor, its
 * reasons the focus), works found by the style's artwork tag and by a surname the focus names even where no
 * medium or price points at them, and a view in a viewing room named in the evidence.
 */

async function created(g: TestGallery, path: string, body: unknown): Promise<string> {
  const res = await call("POST", path, { key: g.key, body });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function work(g: TestGallery, body: Record<string, unknown>): Promise<string> {
  const id = await created(g, "/gallery/artworks", { currency: "USD", ...body });
  const res = await call("POST", `/gallery/artworks/${id}/publish`, { key: g.key });
  expect(res.status, await res.clone().text()).toBe(200);
  return id;
}

describe("facts without purchases, and rooms, through the engine and the API", () => {
  it("matches a focus and a budget to works of the style it names, the focus as the reason", async () => {
    const g = await createGallery();
    const lind = await created(g, "/gallery/artists", { name: "Mara Lind" });
    const ruiz = await created(g, "/gallery/artists", { name: "Bo Ruiz" });
    const tag = await created(g, "/gallery/tags", { name: "Color field", scope: "artwork" });
    const stained = await work(g, {
      title: "Ochre Veil",
      medium: "Acrylic on canvas",
      price_cents: 1_100_000,
      artists: [{ artist_id: lind }],
      tag_ids: [tag],
    });
    // No medium and no price: only the style's tag points at it.
    const untyped = await work(g, { title: "Rose Field", artists: [{ artist_id: lind }], tag_ids: [tag] });
    const figure = await work(g, {
      title: "Sitter in Blue",
      medium: "Oil on canvas",
      price_cents: 1_200_000,
      artists: [{ artist_id: ruiz }],
      description: "A figurative portrait of the painter's sister.",
    });
    const focused = await contact(g, {
      name: "Noa Focus",
      collector_profile: {
        collecting_focus: "Only interested in colour-field painting",
        budget_band: "5k_25k",
      },
    });
    // A surname alone: no medium, no budget, nothing bought.
    const named = await contact(g, {
      name: "Ivo Name",
      collector_profile: { collecting_focus: "Anything by Ruiz" },
    });
    await judgeUntilSettled(g);

    // The painting of the style, in budget, first; the tagged work of unknown medium and price, if visible, after.
    const visible = await listMatches(g.key, focused);
    expect(visible.data[0]?.artwork_id).toBe(stained);
    expect(visible.data.map((m) => m.artwork_id).every((id) => id === stained || id === untyped)).toBe(true);
    const match = visible.data[0]!;
    expect(match.probability).toBeGreaterThanOrEqual(RECOMMENDATION_FLOOR);
    expect(match.sub_scores.style).toBeGreaterThan(0.85);
    // Nothing bought, asked or viewed: the reasons are the contact's facts (and what the work itself is).
    expect(match.reasons.every((r) => r.kind === "memory_fact" || r.kind === "work_fact")).toBe(true);
    expect(
      match.reasons.filter((r) => r.kind === "memory_fact").every((r) => r.evidence_id === focused),
    ).toBe(true);
    expect(match.reasons).toContainEqual(
      expect.objectContaining({
        question: "style",
        source_label: "Collecting focus",
        label: "Collecting focus: Only interested in colour-field painting",
      }),
    );
    const all = (await listMatches(g.key, focused, "min_probability=0")).data.map((m) => m.artwork_id);
    expect(all).toContain(untyped);
    // A figurative work is not what "only colour field" asks for.
    expect(all).not.toContain(figure);

    const byName = (await listMatches(g.key, named, "min_probability=0")).data;
    expect(byName.map((m) => m.artwork_id)).toEqual([figure]);
    expect(byName[0]!.reasons[0]).toMatchObject({
      question: "artist",
      kind: "memory_fact",
      source_label: "Collecting focus",
      label: "Collecting focus: Anything by Ruiz",
    });
  });

  it("names the viewing room an engagement happened in", async () => {
    const g = await createGallery();
    const lind = await created(g, "/gallery/artists", { name: "Mara Lind" });
    const piece = await work(g, {
      title: "Ochre Veil",
      medium: "Acrylic on canvas",
      price_cents: 1_100_000,
      artists: [{ artist_id: lind }],
    });
    const room = await created(g, "/gallery/viewing-rooms", {
      title: "Spring Selection",
      artworks: [{ artwork_id: piece }],
    });
    const viewer = await contact(g, { name: "Vera Viewer" });
    const view = await created(g, `/gallery/contacts/${viewer}/engagements`, {
      kind: "artwork_viewed",
      artwork_id: piece,
      viewing_room_id: room,
    });
    await judgeUntilSettled(g);
    const match = (await listMatches(g.key, viewer, "min_probability=0")).data.find(
      (m) => m.artwork_id === piece,
    )!;
    const detail = await getMatch(g.key, viewer, match.id);
    const e = detail.evidence.find((x) => x.question === "engagement")!;
    expect(e).toMatchObject({ kind: "engagement", evidence_id: view, source_label: "Viewing room" });
    expect(e.label).toMatch(/^Viewed this work in the viewing room “Spring Selection” in \w+ \d{4}$/);
  });
});
