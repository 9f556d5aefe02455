import { describe, expect, it } from "vitest";
import {
  readWorkStyles,
  STYLES,
  styleOfTopic,
  styleShown,
  stylesIn,
  styleTagPatterns,
  withNarrower,
} from "../../lib/engine/styles";
import vocabulary from "../../lib/engine/vocabulary/rubric.json";

/** The style reading shared by the matcher and the rubric reader (lib/engine/styles.ts, vocabulary/styles.json). */

const base = { medium: "Oil on canvas", year: 2020 };

describe("styles named in text", () => {
  it("finds synonyms and spellings, plural and inflected forms, in thirteen languages", () => {
    const cases: [string, string][] = [
      ["only interested in colour-field painting", "colour_field"],
      ["Color field paintings", "colour_field"],
      ["sammelt Farbfeldmalerei", "colour_field"],
      ["minimal art", "minimal_art"],
      ["Minimalism", "minimal_art"],
      ["the minimalists", "minimal_art"],
      ["Sammler minimalistischer Kunst", "minimal_art"],
      ["passionnée d'art minimal", "minimal_art"],
      ["arte povera", "arte_povera"],
      ["expressionnisme abstrait", "abstract_expressionism"],
      ["抽象表現主義", "abstract_expressionism"],
      ["波普艺术", "pop_art"],
      ["극사실주의 회화", "photorealism"],
      ["fotorrealismo", "photorealism"],
      ["arte urbano y grafiti", "street_art"],
      ["geometrische Abstraktion", "geometric_abstraction"],
      ["Surrealists", "surrealism"],
      ["konceptkonst", "conceptual_art"],
    ];
    for (const [text, style] of cases) expect(stylesIn(text), text).toContain(style);
  });

  it("reads the leftmost, then the longest, of two overlapping terms", () => {
    expect(stylesIn("non-figurative painting")).toEqual(["abstraction"]);
    expect(stylesIn("la peinture non figurative")).toEqual(["abstraction"]);
    expect(stylesIn("nicht-gegenständliche Malerei")).toEqual(["abstraction"]);
    expect(stylesIn("abstract expressionism")).toEqual(["abstract_expressionism"]);
    expect(stylesIn("figurative, not abstract")).toEqual(["figurative", "abstraction"]);
    // Whole words only.
    expect(stylesIn("a popular subject, popcorn and surfing")).toEqual([]);
    expect(stylesIn("oil on canvas")).toEqual([]);
  });
});

describe("a work's styles", () => {
  it("from its tags, description and medium, strongest first, with broader styles through narrower ones", () => {
    const styles = readWorkStyles({
      ...base,
      tags: ["Color field"],
      description: "Recalls minimalist grids.",
    });
    expect(styles.map((s) => [s.style, s.weight, s.via])).toEqual([
      ["colour_field", 1, "tag"],
      ["abstraction", 0.8, "tag"],
      ["minimal_art", 0.7, "description"],
    ]);
    expect(styles.find((s) => s.style === "abstraction")!.through).toBe("colour_field");
    expect(styleShown(styles[0]!)).toBe("tagged “Color field”");
    expect(styleShown(styles[2]!)).toBe("its description says “minimalist”");
    const sprayed = readWorkStyles({ medium: "Spray paint and stencil on panel", year: 2019 });
    expect(sprayed.map((s) => [s.style, s.via])).toEqual([["street_art", "medium"]]);
    expect(readWorkStyles({ ...base })).toEqual([]);
  });

  it("weighs a movement named in a description by when the work was made, or its artist worked", () => {
    const text = "A study that anticipates surrealism.";
    const early = readWorkStyles({ medium: null, year: 1905, description: text });
    const late = readWorkStyles({ medium: null, year: 1950, description: text });
    expect(early[0]!.weight).toBeCloseTo(0.35);
    expect(late[0]!.weight).toBeCloseTo(0.7);
    // Undated: the artist's working life (from 20) says it.
    const undated = readWorkStyles({
      medium: null,
      year: null,
      description: text,
      artistBirthYear: 1860,
      artistDeathYear: 1905,
    });
    expect(undated[0]!.weight).toBeCloseTo(0.35);
    // The gallery's own tag is not second-guessed.
    expect(readWorkStyles({ medium: null, year: 1905, tags: ["Surrealism"] })[0]!.weight).toBe(1);
  });
});

describe("the vocabulary", () => {
  it("links a style to the rubric topic of the same name, and every topic named exists", () => {
    const topics = new Set((vocabulary.topics as { name: string }[]).map((t) => t.name));
    for (const s of STYLES) if (s.topic) expect(topics.has(s.topic), s.key).toBe(true);
    expect(styleOfTopic("minimalism")?.key).toBe("minimal_art");
    for (const s of STYLES)
      for (const b of s.broader ?? []) expect(STYLES.some((x) => x.key === b)).toBe(true);
    expect(withNarrower("abstraction")).toContain("colour_field");
  });

  it("gives tag-name patterns for the candidate lookup, narrower styles included", () => {
    const minimal = styleTagPatterns(["minimal_art"]);
    expect(minimal).toContain("minimal art");
    expect(minimal).toContain("minimalis%");
    const abstraction = styleTagPatterns(["abstraction"]);
    expect(abstraction).toContain("abstraction");
    expect(abstraction).toContain("color field");
    expect(styleTagPatterns([])).toEqual([]);
  });
});
