import { sentences } from "./nlp";
import { fold } from "./rubric-places";

/**
 * Word families for rubric words the grammar has no entry for ("ceramics", "Bauhaus furniture"): such a word is
 * read as an interest and looked for in a contact's own text, by family rather than by spelling. A word's family
 * keys are its folded form (accents and case removed), its wink-nlp lemma ("pots" → "pot", "weaving" → "weave")
 * and that lemma without a derivational ending, so "pottery" and "potter", "photography" and "photographer",
 * "minimalism" and "minimalist" share a key. A stem shorter than four letters keeps its ending ("paper" is not
 * "pap").
 */

export interface FamilyToken {
  start: number;
  end: number;
  keys: string[];
}

const ENDINGS = /(?:isms?|ists?|ics?|ers?|ery|ing|ies|es|ed|e|y|s)$/;

function familyOf(word: string): string {
  const m = ENDINGS.exec(word);
  if (!m) return word;
  const stem = word.slice(0, m.index);
  return stem.length >= 4 ? stem : word;
}

function keysOf(value: string, lemma: string): string[] {
  const v = fold(value).replace(/^[-']+|[-']+$/g, "");
  const l = fold(lemma).replace(/^[-']+|[-']+$/g, "");
  return [...new Set([v, l, familyOf(l), familyOf(v)].filter((k) => k.length > 1))];
}

/** Isolate-long memo of texts already tokenised: the same notes are read for every criterion of a rubric. */
const memo = new Map<string, FamilyToken[]>();

/** The words of a text with their family keys and offsets into the text. */
export function familyTokens(text: string): FamilyToken[] {
  const hit = memo.get(text);
  if (hit) return hit;
  const out: FamilyToken[] = [];
  for (const s of sentences(text)) {
    for (const t of s.tokens) {
      if (!/[\p{L}\d]/u.test(t.value)) continue;
      out.push({ start: t.start, end: t.end, keys: keysOf(t.value, t.lemma) });
    }
  }
  if (memo.size > 5000) memo.clear();
  memo.set(text, out);
  return out;
}

/** The family keys of one rubric word. */
export function wordKeys(word: string): string[] {
  const tokens = familyTokens(word);
  if (tokens.length === 1) return tokens[0]!.keys;
  const f = fold(word);
  return [...new Set([f, familyOf(f)])];
}

/** Whether a token is of a word's family. */
export function sameFamily(keys: string[], token: FamilyToken): boolean {
  return token.keys.some((k) => keys.includes(k));
}

/** The family keys of each word of a phrase ("auction house", "christie's": its possessive dropped). */
export function phraseKeys(phrase: string): string[][] {
  return phrase
    .split(/\s+/)
    .map((w) => w.replace(/['’]s$/, ""))
    .filter((w) => w.length > 1)
    .map(wordKeys);
}
