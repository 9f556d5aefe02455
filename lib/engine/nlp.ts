/**
 * A small wrapper over wink-nlp for the judges: the English model is loaded once per isolate, and a text comes
 * back as sentences of tokens, each with character offsets into the original string (so evidence can point at
 * the exact phrase), its lemma, part of speech and wink's negation flag.
 */
import model from "wink-eng-lite-web-model";
import winkNLP, { type ItemSentence, type ItemToken } from "wink-nlp";
import { lazy } from "./lazy";

export interface NlpToken {
  /** The token as written, `text.slice(start, end)`. */
  value: string;
  start: number;
  end: number;
  lemma: string;
  pos: string;
  /** True when wink marks the token as inside a negation's scope. */
  negated: boolean;
}

export interface NlpSentence {
  text: string;
  start: number;
  end: number;
  tokens: NlpToken[];
}

/** The pipeline, built on first use and kept for the isolate's life. */
const pipeline = lazy(() => winkNLP(model, ["sbd", "negation", "pos"]));

/**
 * Sentences with offsets. A line break always ends a sentence (notes are often lists, one item a line). wink ends
 * a sentence at every full stop, so an abbreviation ("Sl. foxing", "approx. 3 mm", "Cond. fair") would split
 * one; a sentence that starts in lower case or with a digit is joined back onto the one before it on its line.
 */
export function sentences(text: string): NlpSentence[] {
  const out: NlpSentence[] = [];
  for (const line of text.matchAll(/[^\r\n]+/g)) {
    if (line[0].trim() === "") continue;
    for (const tokens of lineSentences(line[0], line.index)) {
      const start = tokens[0]!.start;
      const end = tokens[tokens.length - 1]!.end;
      out.push({ text: text.slice(start, end), start, end, tokens });
    }
  }
  return out;
}

/** One line's sentences as token lists, offsets shifted by where the line starts. */
function lineSentences(line: string, offset: number): NlpToken[][] {
  const nlp = pipeline();
  const its = nlp.its;
  const doc = nlp.readDoc(line);
  const raw: NlpToken[][] = [];
  let cursor = 0;
  doc.sentences().each((sentence: ItemSentence) => {
    const tokens: NlpToken[] = [];
    sentence.tokens().each((token: ItemToken) => {
      const value = token.out(its.value) as string;
      const at = line.indexOf(value, cursor);
      // wink keeps the original characters; a token it could not place is left out rather than mis-placed.
      if (at < 0 || value === "") return;
      cursor = at + value.length;
      tokens.push({
        value,
        start: offset + at,
        end: offset + cursor,
        // The package's typings declare its.lemma with an addons parameter out() does not accept; it works.
        lemma: String(token.out(its.lemma as unknown as typeof its.value)).toLowerCase(),
        pos: String(token.out(its.pos)),
        negated: token.out(its.negationFlag) === true,
      });
    });
    if (tokens.length > 0) raw.push(tokens);
  });
  const merged: NlpToken[][] = [];
  for (const tokens of raw) {
    const previous = merged[merged.length - 1];
    if (previous && /^[a-z0-9(]/.test(tokens[0]!.value)) previous.push(...tokens);
    else merged.push(tokens);
  }
  return merged;
}
