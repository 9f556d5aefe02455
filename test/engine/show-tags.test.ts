import { describe, expect, it } from "vitest";
import { mediumFamily, suggestShowTags } from "../../lib/engine/show-tags";
import type { ShowTagSuggestion, ShowWorkFacts } from "../../lib/engine/types";
import { showTagFacets } from "../../lib/schemas/shows";

/** Show tags suggested from a show's works: checklists as a gallery's registrar types them in. */

let n = 0;
function work(facts: Partial<ShowWorkFacts>): ShowWorkFacts {
  n += 1;
  return {
    artworkId: `art_${String(n).padStart(26, "0")}`,
    artistName: null,
    medium: null,
    year: null,
    heightCm: null,
    widthCm: null,
    formats: [],
    ...facts,
  };
}

function names(tags: ShowTagSuggestion[]): string[] {
  return tags.map((t) => t.name);
}

function tag(tags: ShowTagSuggestion[], name: string): ShowTagSuggestion | undefined {
  return tags.find((t) => t.name === name);
}

describe("mediumFamily", () => {
  it("reads medium lines as catalogues write them", () => {
    const cases: [string, string | null][] = [
      ["Oil on canvas", "Painting"],
      ["acrylic and oil stick on linen", "Painting"],
      ["Gouache and graphite on Arches paper", "Works on paper"],
      ["Etching with aquatint, ed. 12/30", "Works on paper"],
      ["Screenprint in colours", "Works on paper"],
      ["watercolour", "Works on paper"],
      ["Charcoal", "Works on paper"],
      ["Gelatin silver print", "Photography"],
      ["archival inkjet print", "Photography"],
      ["C-print, Diasec mounted", "Photography"],
      ["Bronze with dark brown patina", "Sculpture"],
      ["carved limewood", "Sculpture"],
      ["Glazed stoneware", "Ceramics"],
      ["porcelain, celadon glaze", "Ceramics"],
      ["Hand-woven wool and silk", "Textile"],
      ["single-channel video, 12 min, sound", "Video"],
      ["Mixed media", "Mixed media"],
      ["Dimensions variable", null],
      ["", null],
    ];
    for (const [medium, family] of cases) expect(mediumFamily(medium), medium).toBe(family);
    expect(mediumFamily(null)).toBeNull();
  });
});

describe("suggestShowTags", () => {
  it("a solo show of paintings from the 1960s: the artist, solo, painting and the decade", () => {
    const works = [
      work({ artistName: "Rita Okafor", medium: "Oil on canvas", year: 1963, heightCm: 152, widthCm: 183 }),
      work({ artistName: "Rita Okafor", medium: "oil on canvas", year: 1964, heightCm: 100, widthCm: 81 }),
      work({
        artistName: "Rita  Okafor",
        medium: "Oil and sand on canvas",
        year: 1966,
        heightCm: 198,
        widthCm: 152,
      }),
      work({ artistName: "Rita Okafor", medium: "Gouache on paper", year: 1962, heightCm: 50, widthCm: 65 }),
      work({ artistName: "Rita Okafor", medium: "Oil on board", year: 1971, heightCm: 61, widthCm: 46 }),
    ];
    const tags = suggestShowTags(works);
    expect(names(tags)).toEqual(["Solo show", "Rita Okafor", "Painting", "1960s"]);
    expect(tag(tags, "Rita Okafor")).toMatchObject({ facet: "subject", probability: 1 });
    expect(tag(tags, "Painting")).toMatchObject({ facet: "medium", probability: 0.8 });
    expect(tag(tags, "1960s")).toMatchObject({ facet: "period", probability: 0.8 });
    // Evidence names the works behind each tag, and only those.
    expect(tag(tags, "Painting")!.evidence.map((e) => e.id)).toEqual(
      works.filter((w) => w.medium !== "Gouache on paper").map((w) => w.artworkId),
    );
    expect(tag(tags, "1960s")!.evidence.every((e) => e.kind === "artwork" && e.label.startsWith("196"))).toBe(
      true,
    );
    // 2 of 5 large works is not enough for "Large scale"; 1 of 5 on paper is not enough for its medium.
    expect(tag(tags, "Large scale")).toBeUndefined();
    expect(tag(tags, "Works on paper")).toBeUndefined();
  });

  it("a group show of recent works: group, contemporary, no artist tag", () => {
    const tags = suggestShowTags([
      work({ artistName: "Jun Park", medium: "Acrylic on canvas", year: 2022 }),
      work({ artistName: "Jun Park", medium: "acrylic on canvas", year: 2023 }),
      work({ artistName: "Lena Vogt", medium: "Pigment print", year: 2019 }),
      work({ artistName: "Tomás Ruiz", medium: "bronze", year: 2024 }),
      work({ artistName: "Amaka Eze", medium: "Oil on linen", year: 2021 }),
      work({ artistName: "Amaka Eze", medium: "Charcoal on paper", year: 2020 }),
    ]);
    expect(tag(tags, "Group show")).toMatchObject({ facet: "format", probability: 1 });
    expect(tag(tags, "Contemporary")).toMatchObject({ facet: "period", probability: 1 });
    expect(tag(tags, "Painting")?.probability).toBe(0.5);
    for (const artist of ["Jun Park", "Lena Vogt", "Tomás Ruiz", "Amaka Eze"])
      expect(tag(tags, artist)).toBeUndefined();
    expect(tags.some((t) => /^20\d0s$/.test(t.name))).toBe(false);
  });

  it("a group show one artist dominates names that artist, without calling it solo", () => {
    const tags = suggestShowTags([
      work({ artistName: "Henri Duval", medium: "lithograph", year: 1955 }),
      work({ artistName: "Henri Duval", medium: "Lithograph in colours", year: 1957 }),
      work({ artistName: "Henri Duval", medium: "lithograph", year: 1958 }),
      work({ artistName: "Henri Duval", medium: "etching", year: 1959 }),
      work({ artistName: "Colette Marchal", medium: "woodcut", year: 1961 }),
    ]);
    expect(tag(tags, "Henri Duval")).toMatchObject({ facet: "subject", probability: 0.8 });
    expect(tag(tags, "Solo show")).toBeUndefined();
    expect(tag(tags, "Two-person show")).toBeUndefined();
    expect(tag(tags, "Works on paper")?.probability).toBe(1);
    // Printmaking is editioned by nature.
    expect(tag(tags, "Editions")).toMatchObject({ facet: "format", probability: 1 });
    expect(tag(tags, "1950s")?.probability).toBe(0.8);
  });

  it("three artists none of whom dominates is a group show, even when one has most of the works", () => {
    const tags = suggestShowTags([
      ...Array.from({ length: 6 }, (_, i) =>
        work({ artistName: "Noor Haddad", medium: "ink on paper", year: 2010 + i }),
      ),
      ...Array.from({ length: 3 }, () => work({ artistName: "Piet de Wit", medium: "Inkt op papier" })),
      work({ artistName: "Ida Berg", medium: "pencil" }),
    ]);
    expect(tag(tags, "Group show")?.probability).toBe(1);
    expect(tags.filter((t) => t.facet === "subject")).toEqual([]);
    expect(tag(tags, "Works on paper")?.probability).toBe(1);
    expect(tag(tags, "Contemporary")?.probability).toBe(0.6);
  });

  it("a two-person show of photographs and their editions", () => {
    const tags = suggestShowTags([
      work({
        artistName: "Sara Lindqvist",
        medium: "Gelatin silver print",
        year: 1978,
        isEdition: true,
        editionSize: 15,
      }),
      work({
        artistName: "Sara Lindqvist",
        medium: "gelatin silver print",
        year: 1981,
        formats: ["Print, edition of 15"],
      }),
      work({
        artistName: "Sara Lindqvist",
        medium: "Gelatin silver print",
        year: 1979,
        formats: ["Unique vintage print"],
      }),
      work({ artistName: "Omar Haddad", medium: "chromogenic print", year: 1988, formats: ["AP 1/2"] }),
      work({
        artistName: "Omar Haddad",
        medium: "Chromogenic print",
        year: 1990,
        isEdition: true,
        editionSize: 5,
      }),
    ]);
    expect(tag(tags, "Two-person show")).toMatchObject({ facet: "format", probability: 1 });
    // Three works of five is not dominance beside a second artist with two.
    expect(tags.filter((t) => t.facet === "subject")).toEqual([]);
    expect(tag(tags, "Photography")?.probability).toBe(1);
    expect(tag(tags, "Editions")?.probability).toBe(0.8);
    expect(tag(tags, "Unique works")).toBeUndefined();
    // No decade carries the show (two works each in the 1970s and 1980s): "20th century" instead.
    expect(tag(tags, "1970s")).toBeUndefined();
    expect(tag(tags, "20th century")).toMatchObject({ facet: "period", probability: 1 });
  });

  it("scale: large works and small ones, from their longer side", () => {
    const large = suggestShowTags([
      work({ medium: "acrylic on canvas", heightCm: 210, widthCm: 300 }),
      work({ medium: "acrylic on canvas", heightCm: 180, widthCm: 140 }),
      work({ medium: "acrylic on canvas", heightCm: 120, widthCm: 100 }),
    ]);
    expect(tag(large, "Large scale")).toMatchObject({ facet: "format", probability: 0.667 });
    expect(tag(large, "Large scale")!.evidence.map((e) => e.label)).toEqual(["300 cm", "180 cm"]);
    const small = suggestShowTags([
      work({ medium: "oil on copper", heightCm: 18, widthCm: 24 }),
      work({ medium: "oil on panel", heightCm: 25, widthCm: 20 }),
      work({ medium: "oil on panel", heightCm: null, widthCm: null }),
    ]);
    expect(tag(small, "Small works")?.probability).toBe(0.667);
    expect(tag(small, "Large scale")).toBeUndefined();
  });

  it("unique works only when the record says so", () => {
    const tags = suggestShowTags([
      work({ medium: "Monotype on paper" }),
      work({ medium: "monotype" }),
      work({ medium: "Unique gelatin silver print" }),
      work({ medium: "Etching, edition of 20" }),
    ]);
    expect(tag(tags, "Unique works")?.probability).toBe(0.75);
    expect(tag(tags, "Editions")).toBeUndefined();
    // Paintings are unique by nature, but that says nothing worth a tag.
    expect(
      tag(
        suggestShowTags([work({ medium: "oil on canvas" }), work({ medium: "oil on canvas" })]),
        "Unique works",
      ),
    ).toBeUndefined();
  });

  it("suggests nothing from works that say nothing, and nothing for an empty show", () => {
    expect(suggestShowTags([])).toEqual([]);
    expect(suggestShowTags([work({}), work({}), work({ medium: "  " })])).toEqual([]);
  });

  it("one supporting work is not enough in a larger show, but a one-work show is tagged by it", () => {
    const single = suggestShowTags([work({ artistName: "Mira Sol", medium: "Bronze", year: 2024 })]);
    expect(names(single)).toEqual(["Solo show", "Mira Sol", "Sculpture", "Contemporary"]);
    const spread = suggestShowTags([
      work({ medium: "bronze" }),
      work({ medium: "oil on canvas" }),
      work({ medium: "video" }),
    ]);
    expect(spread.filter((t) => t.facet === "medium")).toEqual([]);
  });

  it("a work listed twice counts once; every tag uses a show tag facet and a name of at most 60 characters", () => {
    const twice = work({ artistName: "Ana Lee", medium: "ink on paper", year: 1999 });
    const tags = suggestShowTags([
      twice,
      twice,
      work({ artistName: "Ben Ito", medium: "oil on canvas", year: 1998 }),
      work({
        artistName: "A very long name of a collective that goes on and on past sixty characters in all",
        medium: "oil on canvas",
        year: 1997,
      }),
    ]);
    expect(tag(tags, "1990s")?.evidence).toHaveLength(3);
    for (const t of tags) {
      expect(showTagFacets).toContain(t.facet);
      expect(t.name.length).toBeLessThanOrEqual(60);
      expect(t.probability).toBeGreaterThan(0);
      expect(t.probability).toBeLessThanOrEqual(1);
    }
  });
});
