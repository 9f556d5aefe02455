/**
 * Text helpers for the triage judge: what part of a message is the sender's new text (quoted replies,
 * forwarded headers and signatures set aside), and its sentences and tokens with character offsets and
 * negation scope from wink-nlp. Offsets always index the original message body.
 */
import model from "wink-eng-lite-web-model";
import winkNLP, { type ItemSentence } from "wink-nlp";
import { lazy } from "./lazy";

/** wink's pipeline over the English model: built on the first text read, kept for the isolate's life. */
const pipeline = lazy(() => winkNLP(model));

/** A token of the judged text: its offsets in the body and whether wink puts it in a negation's scope. */
export interface TextToken {
  text: string;
  start: number;
  end: number;
  negated: boolean;
}

export interface TextSentence {
  start: number;
  end: number;
  text: string;
  tokens: TextToken[];
  /** Ends with a question mark or carries a request form ("could you", "please send", "können Sie"). */
  asks: boolean;
  /** The sentence's clauses (split at commas, semicolons and "but"), each with whether it asks. */
  clauses: { start: number; end: number; asks: boolean }[];
}

export interface JudgedText {
  /** The body with quoted and signature lines blanked to spaces: same length, same offsets. */
  text: string;
  /** Characters set aside as quoted text, forwarded headers or signature. */
  setAside: number;
  sentences: TextSentence[];
}

/** A line that opens a quoted earlier message: everything from it on is the history, not the new text. */
const QUOTE_HEADER = [
  /^\s*on .{4,120}(wrote|a écrit|schrieb)\s*:?\s*$/i,
  /^\s*le .{4,120}a écrit\s*:?\s*$/i,
  /^\s*am .{4,120}schrieb .{0,80}:?\s*$/i,
  /^\s*il giorno .{4,120}ha scritto\s*:?\s*$/i,
  /^\s*el .{4,120}escribió\s*:?\s*$/i,
  /^\s*-{2,}\s*(original message|forwarded message|ursprüngliche nachricht|message d'origine)\s*-{2,}\s*$/i,
  /^\s*from:\s.+$/i,
  /^\s*_{8,}\s*$/,
];

/** A line that starts the sender's signature block. */
const SIGNATURE_START = [
  /^--\s*$/,
  /^\s*sent from my \w+/i,
  /^\s*envoyé de mon \w+/i,
  /^\s*von meinem \w+ gesendet/i,
];

/** A sign-off ("Kind regards,", "Best, Kai", "MfG"): the lines after it are the signature. */
const CLOSING =
  /^\s*(best( wishes| regards)?|kind regards|warm(est)? regards|regards|many thanks|thanks( again)?|thank you|cheers|warmly|yours (sincerely|faithfully)|sincerely|all (the )?best|with (best|kind) regards|mit freundlichen grüßen|mfg|viele grüße|beste grüße|herzliche grüße|gruß|(bien )?cordialement|amitiés|bien à vous|saluti|cordiali saluti|un saluto|saludos|un abrazo)\b[,.!]?\s*([A-Z][\p{L}.'-]*(\s+[A-Z&][\p{L}.'-]*){0,3})?\s*$/iu;

/** Request forms that make a sentence an ask even without a question mark. */
const ASK_FORMS =
  /\b(could you|can you|would you|will you|can u|could u|(?<!yes )(pls|please)(?! (give|find|note|see|feel)\b)|let me know|lmk|kindly|(i|we)('d| would) (like|love) (to (know|ask|see|have|book|arrange|reserve|receive|get|confirm|check|buy|purchase|acquire|proceed|sell|consign|offer|hold|come|bring|visit|order|interview|feature|include|borrow|discuss|talk|speak|meet|make|move|put|go)|(for )?(you|the gallery) to|a |an |the |some )|(i|we)('d| would) (be grateful|appreciate)|(^|\s)would appreciate|need (to know|you to)|if you('d| would| could) (consider|have a look|take a look)|(attach|enclose)(ed)? (is )?my (cv|résumé|resume|application)|if (that'?s|it'?s|this is) (ok|okay|alright|all right|fine)|send me|tell me|(please|kindly|you) confirm|confirm (the|that|if|whether|receipt)|pourriez-vous|pouvez-vous|merci de|können sie|könnten sie|bitte|potete|potresti|mi confermi|me confirmas|podrían|puede)\b/i;

/** The sender's new text of a message body, with quoted history and signature blanked out. */
export function judgedText(body: string): JudgedText {
  const lines = body.split("\n");
  const keep: boolean[] = lines.map(() => true);
  let cut = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (/^\s*>/.test(line)) keep[i] = false;
    if (i > 0 && QUOTE_HEADER.some((re) => re.test(line))) {
      cut = i;
      break;
    }
  }
  let contentSeen = false;
  for (let i = 0; i < cut; i++) {
    const line = lines[i] ?? "";
    if (SIGNATURE_START.some((re) => re.test(line))) {
      cut = i;
      break;
    }
    // A sign-off ends the message only when something came before it and little follows it.
    if (contentSeen && CLOSING.test(line) && cut - i <= 6) {
      cut = i + 1;
      break;
    }
    if (keep[i] && line.trim().length > 0) contentSeen = true;
  }
  for (let i = cut; i < lines.length; i++) keep[i] = false;
  let setAside = 0;
  const text = lines
    .map((line, i) => {
      if (keep[i]) return line;
      setAside += line.length;
      return " ".repeat(line.length);
    })
    .join("\n");
  return { text, setAside, sentences: sentencesOf(text) };
}

/** Sentences of a text with token offsets; a line break also ends a sentence (chat messages rarely punctuate). */
function sentencesOf(text: string): TextSentence[] {
  const out: TextSentence[] = [];
  const lineRe = /[^\n]+/g;
  for (let m = lineRe.exec(text); m !== null; m = lineRe.exec(text)) {
    const line = m[0];
    if (line.trim().length === 0) continue;
    const base = m.index;
    const nlp = pipeline();
    const its = nlp.its;
    const doc = nlp.readDoc(line);
    const values = doc.tokens().out(its.value) as string[];
    const negations = doc.tokens().out(its.negationFlag) as unknown as boolean[];
    const tokens: TextToken[] = [];
    let at = 0;
    values.forEach((value, i) => {
      const found = line.indexOf(value, at);
      const start = found >= 0 ? found : at;
      at = start + value.length;
      tokens.push({ text: value, start: base + start, end: base + at, negated: negations[i] === true });
    });
    doc.sentences().each((s: ItemSentence) => {
      const [first, last] = s.out(its.span) as unknown as [number, number];
      const toks = tokens.slice(first, last + 1);
      const head = toks[0];
      const tail = toks[toks.length - 1];
      if (head === undefined || tail === undefined) return;
      const sentence = text.slice(head.start, tail.end);
      const question = /\?/.test(sentence);
      const clauses: TextSentence["clauses"] = [];
      let from = 0;
      toks.forEach((t, i) => {
        const last = i === toks.length - 1;
        if (last || /^([,;]|but|aber|mais|ma|pero)$/i.test(t.text)) {
          const end = last ? t.end : t.start;
          const a = toks[from]?.start ?? t.start;
          const clause = text.slice(a, end);
          clauses.push({
            start: a,
            end,
            asks: (question && last) || /\?/.test(clause) || ASK_FORMS.test(clause),
          });
          from = i + 1;
        }
      });
      out.push({
        clauses,
        start: head.start,
        end: tail.end,
        text: sentence,
        tokens: toks,
        asks: /\?/.test(sentence) || ASK_FORMS.test(sentence),
      });
    });
  }
  return out;
}

/** Negators of the languages the gallery's mail arrives in, for what wink's English model does not flag. */
const NEGATOR =
  /^(not|no|never|n't|nothing|neither|nor|without|don't|dont|doesn't|won't|can't|cannot|isn't|aren't|nicht|kein|keine|nie|pas|jamais|non|nessun|nessuno|nunca|ni)$/i;

const SUBJECT = /^(i|we|he|she|they)$/i;

const CLAUSE_BREAK = /^([,;:.!?]|but|aber|mais|ma|pero|and|so)$/i;

/** Whether the phrase at [start, end) lies in a negation's scope within its clause. */
export function isNegated(sentences: TextSentence[], start: number, end: number): boolean {
  const sentence = sentences.find((s) => start >= s.start && start < s.end);
  if (sentence === undefined) return false;
  const inside = sentence.tokens.filter((t) => t.start >= start && t.end <= end);
  // A negator inside the phrase itself ("I'm not in a position to buy it").
  if (inside.some((t) => NEGATOR.test(t.text))) return true;
  // English negates after the subject ("I won't buy"): a phrase opening with its subject is negated only from
  // inside, and a negator before it ("if it's not here today I'll buy") belongs to an earlier clause.
  if (SUBJECT.test(inside[0]?.text ?? "")) return false;
  const winkFlags = inside.length > 0 && inside.every((t) => t.negated);
  // wink's scope runs to the next punctuation; a chat line rarely has any, so the negator must also be near:
  // within six tokens before the phrase (four when wink did not flag it), with no clause break in between.
  const before = sentence.tokens.filter((t) => t.end <= start).slice(winkFlags ? -6 : -4);
  for (let i = before.length - 1; i >= 0; i--) {
    const t = before[i];
    if (t === undefined) break;
    if (CLAUSE_BREAK.test(t.text) || !/[\p{L}\p{N}']/u.test(t.text)) return false;
    if (NEGATOR.test(t.text)) return !/^(if|or|whether)$/i.test(before[i - 1]?.text ?? "");
  }
  return false;
}

/** The sentence holding an offset. */
export function sentenceAt(sentences: TextSentence[], offset: number): TextSentence | undefined {
  return sentences.find((s) => offset >= s.start && offset < s.end);
}
