/**
 * Rubrics written in a gallery's other languages, read by the one grammar: a reviewed glossary
 * (vocabulary/rubric-gloss.json) turns a German, French, Japanese… description into the plain English words the
 * reader knows ("Sammler, die seit 2023 Fotografie gekauft haben" → "collectors who since 2023 photography
 * bought"). The grammar finds its facts anywhere in a clause, so the source's word order may stay; what the
 * glossary does not hold stays as written and is read as an interest in the contact's own text, as an unknown
 * English word is.
 *
 * Which glossary: the detected language's (the same detector as the judges'), or, when that glossary finds
 * nothing, the one that covers most of the text; English text is left alone.
 */
import { detectLanguage } from "./language";
import glossary from "./vocabulary/rubric-gloss.json";

interface Table {
  /** Whole words or phrases (lower case, accents folded), longest first when applied. */
  phrases: Record<string, string>;
  /** Regular expressions over the folded text, for constructions a phrase cannot say ("(\d{4})年以降"). */
  patterns?: [string, string][];
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

interface Compiled {
  language: string;
  patterns: [RegExp, string][];
  /** One alternation of every phrase, longest first. */
  phrases: RegExp;
  map: Map<string, string>;
}

/** English words a rubric is made of, to tell English from a language whose glossary would match a little. */
const ENGLISH =
  /(?<![\p{L}])(?:who|whom|the|and|or|have|has|had|bought|purchased|since|before|after|in|at|of|from|with|never|not|no|any|anyone|people|collectors|clients|buyers|a|an|to|than|more|last|this|year|years|months|our|us|we|they|their|been|are|is|were|was|interested|love|loves|like|likes)(?![\p{L}])/gu;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Lower case and accents folded, Hangul and kana kept whole (NFC again after the marks go). */
export function foldGloss(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .normalize("NFC")
    .toLowerCase()
    .replace(/[’‘`]/g, "'");
}

const SOURCES = glossary.languages as unknown as Record<string, Table>;

function compile(language: string, table: Table): Compiled {
  const keys = Object.keys(table.phrases).sort((a, b) => b.length - a.length);
  // Latin words match whole ("sammler", not inside "sammlerin" unless listed); CJK phrases anywhere. One
  // word boundary around one group, longest first, keeps the pattern quick to compile and to run.
  const latin = keys.filter((k) => !CJK.test(k)).map((k) => escapeRe(k).replace(/ /g, "\\s+"));
  const cjk = keys.filter((k) => CJK.test(k)).map(escapeRe);
  const alternation = [
    ...(latin.length ? [`(?<![\\p{L}\\d])(?:${latin.join("|")})(?![\\p{L}\\d])`] : []),
    ...(cjk.length ? [cjk.join("|")] : []),
  ].join("|");
  return {
    language,
    patterns: (table.patterns ?? []).map(([re, to]) => [new RegExp(re, "gu"), to] as [RegExp, string]),
    phrases: new RegExp(alternation || "(?!)", "gu"),
    map: new Map(keys.map((k) => [k.replace(/\s+/g, " "), table.phrases[k]!])),
  };
}

/** Each language's table compiled when first needed, so loading the engine costs none of them. */
const compiled = new Map<string, Compiled>();
function tableOf(language: string): Compiled | undefined {
  const source = SOURCES[language];
  if (!source) return undefined;
  let t = compiled.get(language);
  if (!t) {
    t = compile(language, source);
    compiled.set(language, t);
  }
  return t;
}
const LANGUAGES_GLOSSED = Object.keys(SOURCES);

/** How many letters of the text a glossary's phrases cover. */
function coverage(table: Compiled, text: string): number {
  let n = 0;
  // A word glossed as itself ("kunsthalle", "vernissage") says nothing of the language.
  for (const m of text.matchAll(table.phrases)) {
    const key = m[0].replace(/\s+/g, " ");
    if (table.map.get(key) !== key) n += m[0].length;
  }
  for (const [re] of table.patterns) for (const m of text.matchAll(re)) n += m[0].length;
  return n;
}

export interface Glossed {
  /** The text the grammar reads: the description itself when it is English or no glossary knows it. */
  text: string;
  /** The glossary's language, when one was applied. */
  language: string | null;
}

/**
 * Glossing tries a language's few hundred patterns (every table's, when the detector's guess finds nothing), a
 * tenth of a second or more; a gallery's lists keep their descriptions, so each is glossed once per isolate.
 */
const memo = new Map<string, Glossed>();
const MEMO_SIZE = 500;

export function gloss(describedAs: string): Glossed {
  const known = memo.get(describedAs);
  if (known) return known;
  const glossed = glossUncached(describedAs);
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  memo.set(describedAs, glossed);
  return glossed;
}

function glossUncached(describedAs: string): Glossed {
  const folded = foldGloss(describedAs);
  // Scripts name their language surely: Hangul is Korean, kana Japanese, Han alone Chinese unless the detector
  // says Japanese.
  const found = detectLanguage(describedAs);
  const detected = /\p{Script=Hangul}/u.test(folded)
    ? "ko"
    : /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(folded)
      ? "ja"
      : /\p{Script=Han}/u.test(folded) && found !== "ja"
        ? "zh"
        : found;
  if (detected === "en" && !CJK.test(folded)) return { text: describedAs, language: null };
  let table = tableOf(detected);
  if (!table || coverage(table, folded) === 0) {
    let best = 0;
    table = undefined;
    for (const language of LANGUAGES_GLOSSED) {
      const t = tableOf(language)!;
      const c = coverage(t, folded);
      if (c > best) {
        best = c;
        table = t;
      }
    }
  }
  if (!table) return { text: describedAs, language: null };
  // English words the glossary would leave as they are ("registrars at a kunsthalle" reads as German to the
  // detector): the text stays English unless the glossary covers more of it than English's own small words.
  const english = [...folded.matchAll(ENGLISH)].reduce((n, m) => n + m[0].length, 0);
  if (coverage(table, folded) <= english) return { text: describedAs, language: null };
  let out = folded;
  for (const [re, to] of table.patterns) out = out.replace(re, ` ${to} `);
  out = out.replace(table.phrases, (m) => ` ${table!.map.get(m.replace(/\s+/g, " ")) ?? m} `);
  // CJK punctuation and particles the glossary left are separators.
  out = out
    .replace(
      /[、，。；：！？（）「」『』]/gu,
      (p) => ({ "、": ",", "，": ",", "；": ";", "：": ":" })[p] ?? " ",
    )
    .replace(/\s+([,;:])/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
  return { text: out, language: table.language };
}
