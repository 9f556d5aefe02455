/**
 * Profile facts as the matcher reads them: a contact's collecting focus, wishlist, notes, budget and private
 * notes, read once per contact into what they say for or against medium families, artists, periods, sizes and
 * a budget. Sentences come from wink (lib/engine/nlp.ts); each sentence splits into clauses at commas,
 * semicolons, dashes and "but", and a clause's polarity is the last negation cue before a term unless a liking
 * word follows it ("Not interested in photography", "No more prints", "Moved away from painting, now buying
 * ceramics" → photography, prints and painting against; ceramics for). Styles and movements are read with the
 * shared style vocabulary (lib/engine/styles.ts), in every language it has terms for.
 */
import { sentences } from "./nlp";
import { type Family, MEDIUM_PHRASES } from "./rubric-media";
import { fold } from "./rubric-places";
import { findStyles } from "./styles";

export interface FactRef {
  id: string;
  kind: string;
  text: string;
  at: string | null;
}

/** One clause of a fact, folded, with its polarity. */
export interface FactClause {
  fact: FactRef;
  /** The clause as written (for labels). */
  phrase: string;
  folded: string;
  negative: boolean;
}

export interface FactReading {
  /** Families named for (positive) or against (negative), with the clause that named them. */
  media: { family: Family; negative: boolean; clause: FactClause }[];
  /**
   * Styles and movements named for or against (lib/engine/styles.ts: "colour-field painting", "Minimalismus");
   * `only` when the clause says so ("only interested in colour-field painting").
   */
  styles: { style: string; negative: boolean; only: boolean; clause: FactClause }[];
  /** Year ranges named ("contemporary", "19th-century", "post-war", "1960s"); `only` when the clause says so. */
  periods: { from: number; to: number; negative: boolean; only: boolean; clause: FactClause }[];
  /** A limit on size ("no room for large works", "nothing over a metre"), longest side in cm. */
  sizeCap: { cm: number; clause: FactClause } | null;
  /** Large work wanted ("large scale", "monumental"). */
  wantsLarge: FactClause | null;
  /** A budget in the gallery's currency units (not cents), from "budget around €8,000" or a band. */
  budget: { amount: number; clause: FactClause } | null;
  /** Every clause, for artist names (looked up per artist, cached). */
  clauses: FactClause[];
}

const NEGATION =
  /\b(not interested in|no interest in|not into|not a fan of|not keen on|doesn'?t (?:want|like|collect)|does not (?:want|like|collect)|don'?t (?:want|like|offer)|do not (?:want|like|offer)|won'?t|no more|moved away from|moving away from|away from|gone off|went off|tired of|done with|fell out with|stopped (?:buying|collecting)|anything but|allergic to|not|no|never|hates?|dislikes?|avoids?|except|nothing)\b/g;
const LIKING =
  /\b(loves?|likes?|wants?|collects?|collecting|keen on|into|interested in|prefers?|buys?|buying|passionate about|fan of|focus(?:es|ed)? on|only|now|especially|would love|looking for)\b/g;
const COLD = /\bleaves? (?:him|her|them|me) cold\b|\bnot for (?:him|her|them)\b/;
const RELATIVE =
  /\b(wife|husband|partner|son|daughter|kids|children|mother|father|brother|sister|friend|niece|nephew|colleague)\b/;

/** The negation that rules a term out: the last cue before it, with no liking word between. */
function negatedBefore(before: string): boolean {
  let end = -1;
  for (const m of before.matchAll(NEGATION)) end = m.index + m[0].length;
  if (end < 0) return false;
  for (const m of before.matchAll(LIKING)) if (m.index >= end) return false;
  return true;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Photographic processes a note names as "prints" ("silver prints", "pigment prints"): photography, not printmaking. */
const PHOTO_PRINT_PHRASES: [string, Family[]][] = [
  "silver prints",
  "silver print",
  "gelatin silver prints",
  "silver gelatin prints",
  "pigment prints",
  "pigment print",
  "c-prints",
  "c-print",
  "chromogenic prints",
  "platinum prints",
  "platinum print",
  "palladium prints",
].map((phrase) => [phrase, ["photography"]]);

// Longest first, so "silver prints" is read before "prints".
const MEDIUM_RES: [RegExp, Family[]][] = [...PHOTO_PRINT_PHRASES, ...MEDIUM_PHRASES]
  .sort((a, b) => b[0].length - a[0].length)
  .map(([phrase, families]) => [
    new RegExp(`(?<![\\p{L}\\d])${escapeRe(phrase).replace(/ /g, "\\s+")}(?![\\p{L}\\d])`, "gu"),
    families,
  ]);

const PERIODS: [RegExp, number, number][] = [
  [
    /\b(contemporary|recent work|living artists?'?|emerging|21st[- ]century|twenty-first[- ]century)\b/,
    1990,
    9999,
  ],
  [/\bpost-?war\b/, 1945, 1989],
  [/\bmid-?century\b/, 1940, 1975],
  [/\b(modern|modernist|modernism)\b/, 1900, 1975],
  [/\b(20th|twentieth)[- ]century\b/, 1900, 1999],
  [/\b(19th|nineteenth)[- ]century\b/, 1800, 1899],
  [/\b(18th|eighteenth)[- ]century\b/, 1700, 1799],
  [/\b(historical|old masters?|antique|antiquarian)\b/, 0, 1899],
];
const DECADE = /\b(1[89]\d0|20[0-2]0)s\b/g;
const SIZE_CAP =
  /\b(no room for (?:large|big)|nothing (?:over|above|bigger than) (?:a|one) (?:metre|meter)|only small|small (?:pieces|works) only|small flat)\b/;
const SIZE_CAP_CM = /\b(?:nothing|no more than|max(?:imum)?|under|up to) (?:over |above )?(\d{2,3}) ?cm\b/;
const WANTS_LARGE = /\b(large[- ]scale|monumental|large works|big works|a large)\b/;
const BUDGET = /(?:budget|spend|up to|under|around|about)[^\d€$£]{0,20}[€$£]?\s?(\d[\d,.]*)\s?(k|000)?/;
const BAND: Record<string, number> = {
  under_5k: 2_500,
  "5k_25k": 12_000,
  "25k_100k": 50_000,
  over_100k: 180_000,
};

function clausesOf(fact: FactRef): FactClause[] {
  const out: FactClause[] = [];
  for (const sentence of sentences(fact.text)) {
    let offset = 0;
    for (const part of sentence.text.split(/(?<!\d),|,(?!\d)|[;:]|\s[-–—]\s|\bbut\b/)) {
      const at = sentence.text.indexOf(part, offset);
      offset = at + part.length;
      const phrase = part.trim();
      if (!phrase) continue;
      const folded = fold(phrase);
      out.push({ fact, phrase, folded, negative: false });
    }
  }
  return out;
}

/** Reads a contact's facts once (the matcher caches the result for the contact). */
export function readFacts(facts: FactRef[]): FactReading {
  const reading: FactReading = {
    media: [],
    styles: [],
    periods: [],
    sizeCap: null,
    wantsLarge: null,
    budget: null,
    clauses: [],
  };
  for (const fact of facts) {
    if (fact.kind === "budget_band") {
      const amount = BAND[fact.text.trim()];
      if (amount)
        reading.budget = {
          amount,
          clause: { fact, phrase: fact.text, folded: fact.text, negative: false },
        };
      continue;
    }
    for (const clause of clausesOf(fact)) {
      const text = clause.folded;
      if (RELATIVE.test(text)) continue;
      const cold = COLD.test(text);
      clause.negative = cold || negatedBefore(text);
      reading.clauses.push(clause);
      const taken: [number, number][] = [];
      for (const [re, families] of MEDIUM_RES) {
        for (const m of text.matchAll(re)) {
          const start = m.index;
          const end = start + m[0].length;
          if (taken.some(([a, b]) => start < b && end > a)) continue;
          taken.push([start, end]);
          const negative = cold || negatedBefore(text.slice(0, start));
          for (const family of families) reading.media.push({ family, negative, clause });
        }
      }
      // Recomposed after folding (Hangul), the offsets into that text.
      const composed = text.normalize("NFC");
      for (const h of findStyles(composed)) {
        if (reading.styles.some((x) => x.clause === clause && x.style === h.style)) continue;
        reading.styles.push({
          style: h.style,
          negative: cold || negatedBefore(composed.slice(0, h.start)),
          only: /\bonly\b/.test(text),
          clause,
        });
      }
      for (const [re, from, to] of PERIODS) {
        const m = re.exec(text);
        if (m)
          reading.periods.push({
            from,
            to,
            negative: cold || negatedBefore(text.slice(0, m.index)),
            only: /\bonly\b/.test(text),
            clause,
          });
      }
      for (const m of text.matchAll(DECADE)) {
        const from = Number(m[1]);
        reading.periods.push({
          from,
          to: from + 9,
          negative: negatedBefore(text.slice(0, m.index)),
          only: /\bonly\b/.test(text),
          clause,
        });
      }
      const capCm = SIZE_CAP_CM.exec(text);
      if (capCm) reading.sizeCap = { cm: Number(capCm[1]), clause };
      else if (SIZE_CAP.test(text)) reading.sizeCap = { cm: 100, clause };
      else if (WANTS_LARGE.test(text) && !clause.negative) reading.wantsLarge = clause;
      const budget = /budget|spend|a piece|per piece|per work/.test(text) ? BUDGET.exec(text) : null;
      if (budget) {
        const n = Number(budget[1]!.replace(/[,.](?=\d{3}\b)/g, "").replace(",", "."));
        const amount = budget[2]?.toLowerCase() === "k" ? n * 1000 : n;
        if (Number.isFinite(amount) && amount >= 100) reading.budget = { amount, clause };
      }
    }
  }
  return reading;
}

/** The clauses that name an artist (by full name or surname of four letters or more), for or against. */
export function artistMentions(
  reading: FactReading,
  artistName: string,
): { clause: FactClause; negative: boolean }[] {
  const name = fold(artistName).trim();
  if (!name) return [];
  const parts = name.split(/\s+/);
  const surname = parts[parts.length - 1]!;
  if (reading.clauses.length === 0) return [];
  const keys = [name, ...(surname.length >= 4 ? [surname] : [])].map(
    (key) => new RegExp(`(?<![\\p{L}\\d])${escapeRe(key)}(?:'s)?(?![\\p{L}\\d])`, "u"),
  );
  const out: { clause: FactClause; negative: boolean }[] = [];
  for (const clause of reading.clauses) {
    if (!clause.folded.includes(surname)) continue;
    for (const re of keys) {
      const m = re.exec(clause.folded);
      if (!m) continue;
      const negative = COLD.test(clause.folded) || negatedBefore(clause.folded.slice(0, m.index));
      out.push({ clause, negative });
      break;
    }
  }
  return out;
}
