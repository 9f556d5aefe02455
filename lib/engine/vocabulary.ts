/**
 * The gallery vocabulary (lib/engine/vocabulary/concepts.json, reviewed data): what people write to a gallery and
 * in condition notes, as concepts ("price", "reserve", "cn_intervention") each with its words in thirteen
 * languages. A concept found in a text is one feature whatever the language, so a weight learned from English,
 * German and Japanese examples of "price" carries to a Danish message nobody labelled.
 *
 * Matching, as the data is written: lower case with accents folded; a Latin-script term of four letters or
 * more matches any word it begins ("reserv" → reservieren, réservation), a shorter one only the whole word; a
 * phrase matches its words in a row, the last by its beginning; a one-word term of a compounding language
 * (German, Dutch, the Scandinavian languages) also matches as a later part of a longer word; Chinese, Japanese
 * and Korean terms match anywhere in the text.
 */
import vocabulary from "./vocabulary/concepts.json";

interface Entry {
  concept: string;
  words: string[];
}

interface Index {
  /** Latin-script entries by their first word's first three letters (or the whole word if shorter). */
  byStart: Map<string, Entry[]>;
  /**
   * Single-word terms of the compounding languages (de, nl, sv, da, no) by their first three letters: such a
   * term also counts as a later part of a longer word ("vlek" in "vochtvlekken", "Riss" in "Einriss").
   */
  compoundParts: Map<string, Entry[]>;
  /** Unspaced-script terms by their first character. */
  byChar: Map<string, { concept: string; term: string }[]>;
}

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const COMBINING = /[\u0300-\u036f]/g;

export const foldWord = (word: string) =>
  word.toLowerCase().normalize("NFD").replace(COMBINING, "").normalize("NFC");

/** Languages that write compounds as one word. */
const COMPOUNDING = new Set(["de", "nl", "sv", "da", "no"]);
/** Letters a compound's first part has at least, before a known term can be its later part. */
const COMPOUND_HEAD_FROM = 3;

const startKey = (word: string) => (word.length >= 3 ? word.slice(0, 3) : `=${word}`);

let built: Index | null = null;

function index(): Index {
  if (built) return built;
  const byStart = new Map<string, Entry[]>();
  const compoundParts = new Map<string, Entry[]>();
  const byChar = new Map<string, { concept: string; term: string }[]>();
  const concepts = vocabulary.concepts as Record<string, { terms: Record<string, string[]> }>;
  for (const [concept, { terms }] of Object.entries(concepts)) {
    for (const [language, list] of Object.entries(terms)) {
      for (const raw of list) {
        const term = foldWord(raw.trim());
        if (!term) continue;
        if (UNSPACED.test(term)) {
          const first = Array.from(term)[0] as string;
          const at = byChar.get(first) ?? [];
          at.push({ concept, term });
          byChar.set(first, at);
          continue;
        }
        const words = term.split(/[\s\u00a0]+/).filter(Boolean);
        const key = startKey(words[0] as string);
        const at = byStart.get(key) ?? [];
        at.push({ concept, words });
        byStart.set(key, at);
        if (COMPOUNDING.has(language) && words.length === 1 && term.length >= 4) {
          const parts = compoundParts.get(term.slice(0, 3)) ?? [];
          parts.push({ concept, words });
          compoundParts.set(term.slice(0, 3), parts);
        }
      }
    }
  }
  built = { byStart, compoundParts, byChar };
  return built;
}

const wordMatches = (written: string, term: string, last: boolean) =>
  last && term.length >= 4 ? written.startsWith(term) : written === term;

export interface ConceptHit {
  concept: string;
  start: number;
  end: number;
}

/** The concepts of the vocabulary found in a text, with the span of each finding. */
export function findConcepts(
  text: string,
  words: { word: string; start: number; end: number }[],
): ConceptHit[] {
  const { byStart, compoundParts, byChar } = index();
  const hits: ConceptHit[] = [];
  const folded = words.map((w) => foldWord(w.word));
  folded.forEach((word, i) => {
    const span = words[i] as { start: number; end: number };
    for (let at = COMPOUND_HEAD_FROM; at + 4 <= word.length; at++) {
      for (const entry of compoundParts.get(word.slice(at, at + 3)) ?? []) {
        if (word.startsWith(entry.words[0] as string, at))
          hits.push({ concept: entry.concept, start: span.start, end: span.end });
      }
    }
    for (const entry of byStart.get(startKey(word)) ?? []) {
      const n = entry.words.length;
      if (i + n > folded.length) continue;
      let ok = true;
      for (let j = 0; j < n && ok; j++)
        ok = wordMatches(folded[i + j] as string, entry.words[j] as string, j === n - 1);
      if (ok)
        hits.push({
          concept: entry.concept,
          start: (words[i] as { start: number }).start,
          end: (words[i + n - 1] as { end: number }).end,
        });
    }
  });
  const lower = text.toLowerCase();
  if (lower.length === text.length && UNSPACED.test(text)) {
    for (let at = 0; at < lower.length; at++) {
      const terms = byChar.get(lower[at] as string);
      if (!terms) continue;
      for (const { concept, term } of terms)
        if (lower.startsWith(term, at)) hits.push({ concept, start: at, end: at + term.length });
    }
  }
  return hits;
}
