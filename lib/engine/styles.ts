/**
 * Styles and movements (vocabulary/styles.json, reviewed data), one reading shared by the matcher and the
 * segment-rubric reader: what style a work is of, from its tags, description and medium line weighed against
 * the years it was made (or its artist's working years), and which styles a piece of text names ("only interested
 * in colour-field painting", "Sammler minimalistischer Kunst", "collectors of minimal art").
 *
 * Matching, as the data is written: text folded (lower case, accents off); a term matches whole words, with a
 * plural ending ("color fields"), or any ending where it ends in "*" ("minimalis*": minimalist, Minimalismus,
 * minimaliste); Chinese, Japanese and Korean terms anywhere. Where two terms overlap the leftmost, then the longest,
 * match is read, so "non-figurative painting" is abstraction and "abstract expressionism" is not also plain
 * expressionism. Terms are
 * found through an index by their first two letters, so a description costs one pass over its words.
 */
import type { Family } from "./rubric-media";
import { fold } from "./rubric-places";
import vocabulary from "./vocabulary/styles.json";

export interface StyleEntry {
  key: string;
  /** What reasons call it: "colour-field painting". */
  label: string;
  /** The rubric topic it is (vocabulary/rubric.json topics, by name). */
  topic?: string;
  /** Styles a work of it belongs to as well ("colour_field" → "abstraction"). */
  broader?: string[];
  /** When a historical movement ran: a description naming it for a work made well before reads as a reference. */
  years?: [number, number];
  /** Media families the style implies (colour field is painting). */
  families?: Family[];
  terms: Record<string, string[]>;
  /** Words of a medium line that show it ("spray paint"). */
  medium?: string[];
}

export const STYLES: StyleEntry[] = (vocabulary.styles as unknown as StyleEntry[]).map((s) => ({ ...s }));
const BY_KEY = new Map(STYLES.map((s) => [s.key, s]));
const BY_TOPIC = new Map(STYLES.filter((s) => s.topic).map((s) => [s.topic!, s]));

export const styleEntry = (key: string): StyleEntry | undefined => BY_KEY.get(key);
/** The style a rubric topic is, if any. */
export const styleOfTopic = (topic: string): StyleEntry | undefined => BY_TOPIC.get(topic);
export const styleLabel = (key: string): string => BY_KEY.get(key)?.label ?? key.replace(/_/g, " ");
/** Every term of a style in every language (for a reader that looks for them in a contact's own text). */
export const styleTerms = (key: string): string[] => [
  ...new Set(Object.values(BY_KEY.get(key)?.terms ?? {}).flat()),
];

/** Narrower styles of a style ("abstraction" → colour field, minimal art, …), itself first. */
export function withNarrower(key: string): string[] {
  return [key, ...STYLES.filter((s) => s.broader?.includes(key)).map((s) => s.key)];
}

// ---------------------------------------------------------------------------------------------------------
// Finding terms in text

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

interface Term {
  style: string;
  term: string;
  /** Sticky: tried at a word's start. */
  re: RegExp;
}

interface Index {
  /** Latin-script terms by their first two letters. */
  byStart: Map<string, Term[]>;
  /** Unspaced-script terms, found anywhere. */
  unspaced: { style: string; term: string }[];
}

function compile(style: string, raw: string): Term | { style: string; term: string } {
  const term = fold(raw).normalize("NFC");
  if (UNSPACED.test(term)) return { style, term };
  const star = term.endsWith("*");
  const body = escapeRe(star ? term.slice(0, -1) : term).replace(/[ -]/g, "[\\s-]+");
  // Whole words: a plural ending, or any ending after a "*"; never inside a longer word.
  return {
    style,
    term,
    re: new RegExp(`${body}${star ? "[\\p{L}-]*" : "(?:s|es)?"}(?![\\p{L}\\d])`, "uy"),
  };
}

function buildIndex(pick: (s: StyleEntry) => string[]): Index {
  const index: Index = { byStart: new Map(), unspaced: [] };
  for (const s of STYLES) {
    for (const raw of new Set(pick(s))) {
      const t = compile(s.key, raw);
      if (!("re" in t)) {
        index.unspaced.push(t);
        continue;
      }
      const key = t.term.slice(0, 2);
      const list = index.byStart.get(key);
      if (list) list.push(t);
      else index.byStart.set(key, [t]);
    }
  }
  return index;
}

let textIndex: Index | null = null;
let mediumIndex: Index | null = null;
const termsIndex = () => {
  textIndex ??= buildIndex((s) => Object.values(s.terms).flat());
  return textIndex;
};
const mediumTermsIndex = () => {
  mediumIndex ??= buildIndex((s) => s.medium ?? []);
  return mediumIndex;
};

/** A style named in folded text: where, and the words. */
export interface StyleHit {
  style: string;
  start: number;
  end: number;
  /** The words as they stand in the folded text. */
  words: string;
}

const WORD_START = /(?<![\p{L}\d])[\p{L}\d]/gu;

function find(folded: string, index: Index): StyleHit[] {
  const hits: StyleHit[] = [];
  for (const m of folded.matchAll(WORD_START)) {
    const at = m.index;
    for (const t of index.byStart.get(folded.slice(at, at + 2)) ?? []) {
      t.re.lastIndex = at;
      const hit = t.re.exec(folded);
      if (hit) hits.push({ style: t.style, start: at, end: at + hit[0].length, words: hit[0] });
    }
  }
  if (UNSPACED.test(folded))
    for (const t of index.unspaced) {
      let at = folded.indexOf(t.term);
      while (at >= 0) {
        hits.push({ style: t.style, start: at, end: at + t.term.length, words: t.term });
        at = folded.indexOf(t.term, at + t.term.length);
      }
    }
  // Leftmost, then longest: of two overlapping matches the one that starts first is read ("non-figurative
  // painting" is abstraction), and of two that start together the longer ("abstract expressionism").
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: StyleHit[] = [];
  for (const h of hits) if (!kept.some((k) => h.start < k.end && h.end > k.start)) kept.push(h);
  return kept;
}

/** The styles named in text already folded (lib/engine/rubric-places fold), in order, with offsets into it. */
export function findStyles(folded: string): StyleHit[] {
  return find(folded, termsIndex());
}

/** The styles a phrase names, in order, each once. */
export function stylesIn(text: string): string[] {
  return [...new Set(findStyles(fold(text).normalize("NFC")).map((h) => h.style))];
}

// ---------------------------------------------------------------------------------------------------------
// A work's styles

/** What a work's style is read from (lib/engine/types.ts MatchWork has these fields). */
export interface StyleWorkFields {
  medium: string | null;
  year: number | null;
  tags?: string[];
  description?: string | null;
  artistBirthYear?: number | null;
  artistDeathYear?: number | null;
}

/** One style of a work, how sure (0–1), and what shows it. */
export interface WorkStyle {
  style: string;
  weight: number;
  via: "tag" | "description" | "medium";
  /** The tag, or the words of the description or medium line, that show it. */
  words: string;
  /** Read through a narrower style ("colour field" is abstraction too). */
  through?: string;
}

/** How sure each source makes the reading: the gallery's own tag, its description, a medium line's hint. */
const SOURCE_WEIGHT = { tag: 1, description: 0.7, medium: 0.6 } as const;
/** A broader style read through a narrower one. */
const BROADER_SHARE = 0.8;
/**
 * Years before a movement began in which a work naming it in its description reads as looking ahead to it ("a
 * 1905 drawing that anticipates surrealism"), not as of it. A work made after a movement can be of it still.
 */
const BEFORE_MOVEMENT_YEARS = 10;

/** The years the work was made in: its year, else its artist's working life (from 20 to death, or to 80). */
function madeIn(w: StyleWorkFields): [number, number] | null {
  if (w.year !== null && w.year !== undefined) return [w.year, w.year];
  const born = w.artistBirthYear ?? null;
  if (born === null) return null;
  return [born + 20, w.artistDeathYear ?? born + 80];
}

const workCache = new Map<string, WorkStyle[]>();
/** The same work object read again (each pair reads it more than once): no key to build. */
const objectCache = new WeakMap<object, WorkStyle[]>();

/**
 * A work's styles, strongest first: its tags (weight 1), its description (0.7; half that for a movement that began
 * well after the work was made, by its year or its artist's working life), its medium line's hints (0.6), and the broader
 * styles of each (0.8 of it). Cached by the fields it reads.
 */
export function readWorkStyles(w: StyleWorkFields): WorkStyle[] {
  const known = objectCache.get(w);
  if (known) return known;
  const key = JSON.stringify([
    w.tags ?? [],
    w.description ?? null,
    w.medium,
    w.year,
    w.artistBirthYear ?? null,
    w.artistDeathYear ?? null,
  ]);
  let out = workCache.get(key);
  if (!out) {
    out = readWork(w);
    if (workCache.size >= 5_000) workCache.delete(workCache.keys().next().value!);
    workCache.set(key, out);
  }
  objectCache.set(w, out);
  return out;
}

/** What a work's style reading says, as a key: works read alike score alike for a contact. */
export function styleSignature(styles: WorkStyle[]): string {
  let key = "";
  for (const s of styles) key += `${s.style}:${s.weight}:${s.via}:${s.words}|`;
  return key;
}

function readWork(w: StyleWorkFields): WorkStyle[] {
  const best = new Map<string, WorkStyle>();
  const add = (s: WorkStyle) => {
    const cur = best.get(s.style);
    if (!cur || s.weight > cur.weight) best.set(s.style, s);
  };
  const made = madeIn(w);
  for (const tag of w.tags ?? []) {
    for (const h of findStyles(fold(tag).normalize("NFC")))
      add({ style: h.style, weight: SOURCE_WEIGHT.tag, via: "tag", words: tag });
  }
  if (w.description) {
    const folded = fold(w.description).normalize("NFC");
    for (const h of findStyles(folded)) {
      const years = BY_KEY.get(h.style)?.years;
      const before = years && made && made[1] < years[0] - BEFORE_MOVEMENT_YEARS;
      add({
        style: h.style,
        weight: SOURCE_WEIGHT.description * (before ? 0.5 : 1),
        via: "description",
        words: w.description.slice(h.start, h.end) || h.words,
      });
    }
  }
  if (w.medium) {
    for (const h of find(fold(w.medium).normalize("NFC"), mediumTermsIndex()))
      add({ style: h.style, weight: SOURCE_WEIGHT.medium, via: "medium", words: h.words });
  }
  for (const s of [...best.values()]) {
    for (const b of BY_KEY.get(s.style)?.broader ?? [])
      add({ style: b, weight: s.weight * BROADER_SHARE, via: s.via, words: s.words, through: s.style });
  }
  return [...best.values()].sort((a, b) => b.weight - a.weight || (a.style < b.style ? -1 : 1));
}

/** How a work's style is shown, for a reason: "tagged “Color field”", "its description says “colour field”". */
export function styleShown(s: WorkStyle): string {
  const words = s.words.trim();
  return s.via === "tag"
    ? `tagged “${words}”`
    : s.via === "description"
      ? `its description says “${words}”`
      : `its medium is ${words}`;
}

/**
 * Tag names (lower-cased LIKE patterns) that read as these styles or a narrower one, for the candidate lookup by
 * artwork tag: a term is its name ("minimal art") and its plural, a term ending in "*" a prefix ("minimalis%").
 */
export function styleTagPatterns(keys: string[]): string[] {
  const out = new Set<string>();
  const like = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
  for (const key of new Set(keys.flatMap(withNarrower))) {
    for (const raw of styleTerms(key)) {
      const term = fold(raw).normalize("NFC");
      if (term.endsWith("*")) out.add(`${like(term.slice(0, -1))}%`);
      else {
        out.add(like(term));
        if (UNSPACED.test(term)) continue;
        out.add(`${like(term)}s`);
        if (term.includes(" ")) out.add(like(term.replace(/ /g, "-")));
      }
    }
  }
  return [...out].sort();
}
