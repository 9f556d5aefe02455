import { describe, expect, it } from "vitest";
import { readRubric } from "../../lib/engine/rubric";
import fixture from "./fixtures/rubric-translations.json";

/**
 * Translation invariance of the rubric reader: each of the fixture's English rubrics, written as a gallery's staff
 * would write it in twelve other languages, reads to the same criteria once the glossary
 * (lib/engine/vocabulary/rubric-gloss.json) has turned it into the grammar's English. The summary names every
 * criterion with its windows, amounts and places, so equal summaries are equal readings; its closing
 * ` (read from …)` names the glossary and is set aside. Pairs the reader still reads differently are listed in the
 * fixture's known_differences with the reason, and each listed pair must still differ: one that starts to read
 * the same fails until it is taken off the list.
 */

const NOW = new Date("2026-11-28T00:00:00Z");
const LANGUAGES = ["de", "fr", "it", "es", "nl", "pt", "sv", "da", "no", "ja", "zh", "ko"] as const;

type Rubric = { en: string } & Record<(typeof LANGUAGES)[number], string>;
const rubrics = fixture.rubrics as Rubric[];
const known = new Map(fixture.known_differences.map((k) => [`${k.rubric}:${k.language}`, k.why] as const));

function summary(text: string): string {
  const reading = readRubric(text, NOW);
  if (!reading.readable) return `unreadable: ${reading.reason}`;
  return reading.summary.replace(/ \(read from [a-z]{2}: ".*"\)$/s, "");
}

describe("rubric translations: the fixture", () => {
  it("holds 40 rubrics, each in English and the twelve languages", () => {
    expect(rubrics).toHaveLength(40);
    for (const r of rubrics) for (const l of ["en", ...LANGUAGES] as const) expect(r[l]?.trim()).toBeTruthy();
  });

  it("lists known differences only for pairs it holds, and at most a tenth of them", () => {
    for (const k of fixture.known_differences) {
      expect(k.rubric).toBeGreaterThanOrEqual(1);
      expect(k.rubric).toBeLessThanOrEqual(rubrics.length);
      expect(LANGUAGES).toContain(k.language);
      expect(k.why.length).toBeGreaterThan(0);
    }
    expect(known.size).toBe(fixture.known_differences.length);
    expect(known.size).toBeLessThanOrEqual(Math.floor((rubrics.length * LANGUAGES.length) / 10));
  });
});

rubrics.forEach((rubric, i) => {
  const n = i + 1;
  describe(`rubric ${n}: ${rubric.en}`, () => {
    const english = summary(rubric.en);

    it("reads in English", () => {
      expect(english).not.toMatch(/^unreadable/);
      expect(english).not.toMatch(/words read as an interest|not read:/);
    });

    for (const language of LANGUAGES) {
      const why = known.get(`${n}:${language}`);
      it(`${language}: ${rubric[language]}${why ? " (a known difference)" : ""}`, () => {
        const translated = summary(rubric[language]);
        if (why) {
          // Listed as reading differently: fails once it reads the same, so the list stays honest.
          expect(
            translated,
            `now reads as the English: take rubric ${n} (${language}) off known_differences`,
          ).not.toBe(english);
        } else {
          expect(translated).toBe(english);
        }
      });
    }
  });
});
