import { beforeAll, describe, expect, it } from "vitest";
import { Artwork } from "../../lib/schemas/artworks";
import { call, createGallery, readJson, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { countRows } from "../helpers/seed";
import { create, getArtwork, patch, seedArtist } from "./helpers";

/** The artwork's field rules: editions and what they show through, credits, money, metadata, sources. */

async function post(g: TestGallery, body: unknown) {
  return call("POST", "/gallery/artworks", { key: g.key, body });
}

describe("editions", () => {
  let g: TestGallery;
  let other: TestGallery;
  let artist: string;
  let parent: Awaited<ReturnType<typeof create>>;
  beforeAll(async () => {
    [g, other] = await Promise.all([createGallery(), createGallery()]);
    artist = await seedArtist(g.id, "Edition Maker");
    parent = await create(g, {
      title: "Blue Series",
      medium: "Screenprint",
      year: 1971,
      edition_size: 50,
      edition_type: "numbered",
      height_cm: 70,
      width_cm: 50,
      artists: [{ artist_id: artist }],
    });
  });

  it("an edition shows its parent's fields through, except those it overrides", async () => {
    const edition = await create(g, {
      title: "ignored?",
      is_edition: true,
      edition_number: 7,
      parent_artwork_id: parent.id,
      price_cents: 90000,
      currency: "USD",
    });
    // It wrote its own title, so the title is an override; the rest comes from the parent.
    expect(edition).toMatchObject({
      title: "ignored?",
      edition_overrides: ["title"],
      medium: "Screenprint",
      year: 1971,
      edition_size: 50,
      edition_type: "numbered",
      height_cm: 70,
      artist_id: artist,
      artist_name: "Edition Maker",
      artists: [{ artist_id: artist, role: "primary", position: 0, artist_name: "Edition Maker" }],
      price_cents: 90000,
    });

    // A change to the parent shows through at once, but not over the edition's own title.
    await patch(g, parent.id, { medium: "Silkscreen on paper", title: "Blue Series (renamed)" });
    expect(await getArtwork(g, edition.id)).toMatchObject({
      medium: "Silkscreen on paper",
      title: "ignored?",
    });
    // Dropping the override reads the parent's title again.
    const reverted = await readJson(Artwork, await patch(g, edition.id, { edition_overrides: [] }));
    expect(reverted).toMatchObject({ title: "Blue Series (renamed)", edition_overrides: [] });
    // The list filters see an edition as it is shown.
    const page = (await (
      await call("GET", `/gallery/artworks?medium=${encodeURIComponent("Silkscreen on paper")}&limit=100`, {
        key: g.key,
      })
    ).json()) as { data: { id: string }[] };
    expect(page.data.map((a) => a.id).sort()).toEqual([parent.id, edition.id].sort());
  });

  it("a deleted parent leaves its editions standing with the values they showed", async () => {
    const p = await create(g, { title: "Short-lived parent", medium: "Etching" });
    const e = await create(g, {
      title: "x",
      is_edition: true,
      parent_artwork_id: p.id,
      edition_overrides: [],
    });
    expect(e.title).toBe("Short-lived parent");
    expect((await call("DELETE", `/gallery/artworks/${p.id}`, { key: g.key })).status).toBe(200);
    expect(await getArtwork(g, e.id)).toMatchObject({ parent_artwork_id: null, medium: "Etching" });
  });

  it("refuses an edition number over the edition size, from the request or from the stored work", async () => {
    await expectProblem(
      await post(g, { title: "x", is_edition: true, edition_number: 11, edition_size: 10 }),
      400,
      "invalid_request",
      { field: "edition_number", location: "body" },
    );
    const e = await create(g, { title: "Ten", is_edition: true, edition_number: 3, edition_size: 10 });
    await expectProblem(await patch(g, e.id, { edition_number: 12 }), 400, "invalid_request", {
      field: "edition_number",
      location: "body",
    });
    await expectProblem(await patch(g, e.id, { edition_size: 2 }), 400, "invalid_request", {
      field: "edition_number",
      location: "body",
    });
  });

  it("refuses a parent that is itself an edition, itself, another gallery's work, or a parent of a non-edition", async () => {
    const edition = await create(g, { title: "E", is_edition: true, parent_artwork_id: parent.id });
    const problem = await expectProblem(
      await post(g, { title: "x", is_edition: true, parent_artwork_id: edition.id }),
      400,
      "invalid_request",
      { field: "parent_artwork_id", location: "body" },
    );
    expect(problem.detail).toMatch(/not itself an edition/);
    await expectProblem(
      await patch(g, edition.id, { parent_artwork_id: edition.id }),
      400,
      "invalid_request",
      { field: "parent_artwork_id", location: "body" },
    );
    const foreign = await create(other, { title: "Elsewhere" });
    await expectProblem(
      await post(g, { title: "x", is_edition: true, parent_artwork_id: foreign.id }),
      400,
      "invalid_request",
      { field: "parent_artwork_id", location: "body" },
    );
    await expectProblem(await post(g, { title: "x", parent_artwork_id: parent.id }), 400, "invalid_request", {
      field: "parent_artwork_id",
      location: "body",
    });
    // A work with editions cannot become an edition itself.
    await expectProblem(await patch(g, parent.id, { is_edition: true }), 400, "invalid_request", {
      field: "is_edition",
      location: "body",
    });
    await expectProblem(
      await post(g, { title: "x", is_edition: true, edition_overrides: ["price_cents"] }),
      400,
      "invalid_request",
      { field: "edition_overrides.0", location: "body" },
    );
  });
});

describe("field rules", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  it("takes negative years, keeps end_year at or after year, and every date precision", async () => {
    const work = await create(g, {
      title: "Ancient",
      year: -500,
      end_year: -450,
      date_precision: "circa",
      date_display: "c. 500–450 BC",
    });
    expect(work).toMatchObject({ year: -500, end_year: -450, date_precision: "circa" });
    await expectProblem(await post(g, { title: "x", year: -450, end_year: -500 }), 400, "invalid_request", {
      field: "end_year",
      location: "body",
    });
  });

  it("refuses two primary artists, a price without currency, negative lengths, unknown values, oversize metadata", async () => {
    const a = await seedArtist(g.id, "A");
    const b = await seedArtist(g.id, "B");
    const before = await countRows("artworks", g.id);
    const cases: [unknown, string][] = [
      [
        {
          title: "x",
          artists: [
            { artist_id: a, role: "primary" },
            { artist_id: b, role: "primary" },
          ],
        },
        "artists",
      ],
      [{ title: "x", price_cents: 100 }, "currency"],
      [{ title: "x", height_cm: -1 }, "height_cm"],
      [{ title: "x", framed_depth_cm: -0.5 }, "framed_depth_cm"],
      [{ title: "x", dimensions: [{ width_cm: -3 }] }, "dimensions.0.width_cm"],
      [{ title: "x", availability_state: "lost" }, "availability_state"],
      [{ title: "x", dimension_unit: "mm" }, "dimension_unit"],
      [{ title: "x", metadata: { k: "v".repeat(501) } }, "metadata.k"],
      [
        { title: "x", metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])) },
        "metadata",
      ],
      [{ title: "x", metadata: { k: 1 } }, "metadata.k"],
    ];
    for (const [body, field] of cases) {
      await expectProblem(await post(g, body), 400, "invalid_request", { field, location: "body" });
    }
    expect(await countRows("artworks", g.id)).toBe(before);
    // One primary artist and any number of others is fine.
    const ok = await create(g, {
      title: "Together",
      artists: [
        { artist_id: a, role: "primary" },
        { artist_id: b, role: "collaborator" },
      ],
    });
    expect(ok.artist_id).toBe(a);
  });

  it("a price change on its own keeps the stored currency", async () => {
    const work = await create(g, { title: "Priced", price_cents: 100, currency: "GBP" });
    const after = await readJson(Artwork, await patch(g, work.id, { price_cents: 250 }));
    expect([after.price_cents, after.currency]).toEqual([250, "GBP"]);
  });

  it("source_system + source_external_id is unique per gallery: a repeat is a 409 naming the work that has it", async () => {
    const first = await create(g, { title: "Imported", source_system: "legacy", source_external_id: "A-1" });
    const problem = await expectProblem(
      await post(g, { title: "Again", source_system: "legacy", source_external_id: "A-1" }),
      409,
      "conflict",
    );
    expect(problem.details).toMatchObject({ existing_id: first.id });
    expect(problem.detail).toContain(first.id);
    // Another system's id, or the same id in another gallery, is another work.
    await create(g, { title: "Other system", source_system: "other", source_external_id: "A-1" });
    await create(await createGallery(), {
      title: "Elsewhere",
      source_system: "legacy",
      source_external_id: "A-1",
    });
  });
});
