import { classifyMedium, FAMILY_LABEL, type Family } from "./rubric-media";
import { cityInfo, findPlaces, fold, type Place } from "./rubric-places";
import { type Criteria, type Criterion, describe, read, type Window } from "./rubric-read";
import { familyTokens, phraseKeys, sameFamily } from "./rubric-words";
import { readWorkStyles, styleLabel, styleShown } from "./styles";
import type { ContactProfile, ModelName, RecordEvidence, RubricReading, RubricVerdict } from "./types";

/**
 * Segment rubrics: a dynamic list's `described_as` read into criteria (rubric-read.ts), then judged for one
 * contact against its records. Each criterion is decided by records (a sale, an engagement, a note, a profile
 * field) and says how sure that decision is: records decide at about 0.97; a medium matched by a weak cue, a
 * country inferred from a phone prefix or email domain, an interest read from notes (lower still for words the
 * reader only knew as interest words), or a currency converted at a reference rate lower it. A contact whose records cannot decide a criterion (no location at all for a
 * location rubric) is left unjudged: `judgeRubric` returns null.
 */

export const RUBRIC_MODEL: ModelName = "rubric-rules@1.3.0";

/** A work's style counts for an interest in it where the reading is fair: a tag, a description, a medium's hint. */
const STYLE_READ_WEIGHT = 0.5;

export type { Criteria, Criterion } from "./rubric-read";

export function readRubric(describedAs: string, now: Date): RubricReading {
  const result = read(describedAs, now);
  if (!result.ok) return { readable: false, model: RUBRIC_MODEL, reason: result.reason };
  return { readable: true, model: RUBRIC_MODEL, criteria: result.criteria, summary: result.summary };
}

type Reason = RubricVerdict["reasons"][number];

interface Outcome {
  /** null: the records cannot decide. */
  holds: boolean | null;
  /** How sure the decision is, 0.5–0.99. */
  confidence: number;
  reasons: Reason[];
}

/** Reference rates to US dollars, for comparing amounts across currencies (approximate by design). */
const USD_PER_UNIT: Record<string, number> = {
  USD: 1,
  GBP: 1.27,
  EUR: 1.08,
  CHF: 1.13,
  JPY: 0.0067,
  HKD: 0.128,
  SGD: 0.74,
  AUD: 0.66,
  CAD: 0.73,
  NZD: 0.6,
  SEK: 0.095,
  DKK: 0.145,
  NOK: 0.093,
  AED: 0.272,
  CNY: 0.138,
  KRW: 0.00073,
  INR: 0.012,
};

/** An amount in cents of `from` as whole units of `to`; null when a currency is unknown. */
function convert(cents: number, from: string | null, to: string): number | null {
  const f = USD_PER_UNIT[(from ?? to).toUpperCase()];
  const t = USD_PER_UNIT[to.toUpperCase()];
  if (f === undefined || t === undefined) return null;
  return ((cents / 100) * f) / t;
}

const COMPLETED = new Set(["completed", "complete", "paid", "settled"]);
const day = (at: string | null) => (at ? at.slice(0, 10) : "undated");

function inWindows(at: string, windows: Window[] | undefined, now: Date): boolean {
  const t = Date.parse(at);
  if (Number.isNaN(t) || t > now.getTime()) return false;
  if (!windows?.length) return true;
  return windows.some((w) => (!w.from || t >= Date.parse(w.from)) && (!w.to || t < Date.parse(w.to)));
}

function money(cents: number | null, currency: string | null) {
  if (cents === null) return "an unrecorded price";
  return `${(cents / 100).toLocaleString("en-GB", { maximumFractionDigits: 0 })} ${currency ?? ""}`.trim();
}

function saleLabel(s: ContactProfile["sales"][number]) {
  const a = s.artwork;
  const what = a
    ? `${a.title ?? "an untitled work"}${a.artistName ? ` by ${a.artistName}` : ""}${a.medium ? ` (${a.medium})` : ""}`
    : "a work";
  return `bought ${what} for ${money(s.priceCents, s.currency)} on ${day(s.at)}${s.status !== "completed" ? ` [${s.status}]` : ""}`;
}

function sameArtist(want: string, name: string | null) {
  if (!name) return false;
  const a = fold(want)
    .replace(/[^a-z ]/g, "")
    .trim();
  const b = fold(name)
    .replace(/[^a-z ]/g, "")
    .trim();
  return (
    a === b ||
    b.includes(a) ||
    (a.split(" ").length > 1 && a.split(" ").every((w) => b.split(" ").includes(w)))
  );
}

// ---------------------------------------------------------------------------------------------------------
// Purchases and spend

/** A medium line that says the work is one of an edition ("ed. 12/30", "edition of 20", "multiple", "AP"). */
const EDITION =
  /\b(?:ed(?:ition)?\.?\s*(?:of\s*)?\d+|\d+\s*\/\s*\d+|editions?|editioned|multiples?|a\.?p\.?|artist'?s proof)\b/;

function purchase(
  c: Extract<Criterion, { kind: "purchase" }>,
  p: ContactProfile,
  now: Date,
  label: string,
): Outcome {
  const reasons: Reason[] = [];
  const done = p.sales.filter((s) => COMPLETED.has(s.status.toLowerCase()));
  const setAside = p.sales.filter(
    (s) => !COMPLETED.has(s.status.toLowerCase()) && inWindows(s.at, c.windows, now),
  );
  let confidence = 0.97;
  const candidates = done.filter((s) => inWindows(s.at, c.windows, now));
  const matched: typeof candidates = [];
  let unknownMedium = 0;
  let unknownPrice = 0;
  for (const s of candidates) {
    if (c.artists && !c.artists.some((a) => sameArtist(a, s.artwork?.artistName ?? null))) continue;
    if (c.made) {
      const year = s.artwork?.year ?? null;
      if (year === null) {
        unknownMedium++;
        continue;
      }
      const [from, to] = c.made.years;
      if ((from !== null && year < from) || (to !== null && year > to)) continue;
    }
    if (c.minCm) {
      const sides = [s.artwork?.heightCm, s.artwork?.widthCm].filter(
        (x): x is number => typeof x === "number",
      );
      if (sides.length === 0) {
        unknownMedium++;
        continue;
      }
      if (Math.max(...sides) < c.minCm) continue;
    }
    if (c.edition) {
      const medium = s.artwork?.medium ?? null;
      if (!medium) {
        unknownMedium++;
        continue;
      }
      if (!EDITION.test(fold(medium)) && !classifyMedium(medium).families.includes("print")) continue;
    }
    if (c.families) {
      const m = classifyMedium(s.artwork?.medium ?? null);
      if (m.family === null) {
        unknownMedium++;
        continue;
      }
      if (!m.families.some((f) => c.families!.includes(f))) continue;
      if (m.loose) confidence = Math.min(confidence, 0.8);
    }
    if (c.price) {
      if (s.priceCents === null) {
        unknownPrice++;
        continue;
      }
      let inBand = true;
      let unknown = false;
      for (const b of c.price) {
        const v = convert(s.priceCents, s.currency, b.money.currency);
        if (v === null) unknown = true;
        else {
          if ((s.currency ?? "").toUpperCase() !== b.money.currency) confidence = Math.min(confidence, 0.9);
          if (b.op === ">" ? !(v > b.money.amount) : !(v < b.money.amount)) inBand = false;
        }
      }
      if (unknown) {
        unknownPrice++;
        continue;
      }
      if (!inBand) continue;
    }
    matched.push(s);
  }
  let met: boolean;
  if (c.only) {
    const others = candidates.filter((s) => !matched.includes(s));
    met = matched.length > 0 && others.length === 0;
    for (const s of others.slice(0, 3)) {
      reasons.push({
        kind: "sale",
        id: s.id,
        label: `${saleLabel(s)}: not ${describeFamilies(c.families)}`,
        at: s.at,
        criterion: label,
        holds: false,
      });
    }
  } else {
    const n = matched.length;
    const want = c.count ?? { op: ">=", n: 1 };
    met = want.op === ">=" ? n >= want.n : want.op === "<=" ? n <= want.n : n === want.n;
  }
  const holds = c.negated ? !met : met;
  for (const s of matched.slice(0, 5)) {
    reasons.push({ kind: "sale", id: s.id, label: saleLabel(s), at: s.at, criterion: label, holds });
  }
  if (matched.length === 0) {
    reasons.push({
      kind: "profile",
      id: p.id,
      label: `no completed purchase matches (${done.length} completed sale${done.length === 1 ? "" : "s"} on record)`,
      at: null,
      criterion: label,
      holds,
    });
  }
  for (const s of setAside.slice(0, 2)) {
    reasons.push({
      kind: "sale",
      id: s.id,
      label: `${saleLabel(s)}: not a completed purchase, set aside`,
      at: s.at,
      criterion: label,
      holds,
    });
  }
  // Sales whose medium or price is unknown could change the answer: less sure, or undecidable.
  if (unknownMedium + unknownPrice > 0) {
    const couldFlip = c.negated || c.only || (c.count && c.count.op !== ">=") || !met;
    if (couldFlip) confidence = Math.min(confidence, 0.7);
    if (
      couldFlip &&
      !c.negated &&
      !met &&
      c.count &&
      c.count.op === ">=" &&
      matched.length + unknownMedium + unknownPrice >= c.count.n
    ) {
      return { holds: null, confidence: 0, reasons };
    }
  }
  return { holds, confidence, reasons };
}

function describeFamilies(f: Family[] | undefined) {
  return f ? f.map((x) => FAMILY_LABEL[x]).join(" or ") : "any work";
}

function spend(
  c: Extract<Criterion, { kind: "spend" }>,
  p: ContactProfile,
  now: Date,
  label: string,
): Outcome {
  const reasons: Reason[] = [];
  const currency = c.bounds[0]!.money.currency;
  let confidence = 0.97;
  let total = 0;
  let count = 0;
  let missing = 0;
  for (const s of p.sales) {
    if (!COMPLETED.has(s.status.toLowerCase()) || !inWindows(s.at, c.windows, now)) continue;
    if (c.families) {
      const m = classifyMedium(s.artwork?.medium ?? null);
      if (!m.families.some((f) => c.families!.includes(f))) continue;
    }
    count++;
    const v = s.priceCents === null ? null : convert(s.priceCents, s.currency, currency);
    if (v === null) {
      missing++;
      continue;
    }
    if ((s.currency ?? "").toUpperCase() !== currency) confidence = Math.min(confidence, 0.88);
    total += v;
    if (reasons.length < 6)
      reasons.push({ kind: "sale", id: s.id, label: saleLabel(s), at: s.at, criterion: label, holds: true });
  }
  const priced = count - missing;
  const value = c.average ? (priced ? total / priced : 0) : total;
  let met = c.bounds.every((b) => (b.op === ">" ? value > b.money.amount : value < b.money.amount));
  if (c.average && priced === 0) met = false;
  // Close to a line, a reference rate could tip it.
  const margin = Math.min(...c.bounds.map((b) => Math.abs(value - b.money.amount) / (b.money.amount || 1)));
  if (confidence < 0.97 && margin < 0.08) confidence = 0.62;
  // Unpriced sales could still add to a total: only a total already over every lower line is sure.
  if (missing > 0 && !(met && !c.average && c.bounds.every((b) => b.op === ">"))) {
    if (priced === 0) return { holds: null, confidence: 0, reasons };
    confidence = Math.min(confidence, 0.65);
  }
  const holds = c.negated ? !met : met;
  for (const r of reasons) r.holds = holds;
  reasons.push({
    kind: "profile",
    id: p.id,
    label: `${c.average ? "average per work" : "total"} about ${Math.round(value).toLocaleString("en-GB")} ${currency} over ${count} completed purchase${count === 1 ? "" : "s"}`,
    at: null,
    criterion: label,
    holds,
  });
  return { holds, confidence, reasons };
}

// ---------------------------------------------------------------------------------------------------------
// Engagement and interactions

function events(
  c: Extract<Criterion, { kind: "engagement" }>,
  p: ContactProfile,
  now: Date,
  label: string,
): Outcome {
  const hits = p.engagements.filter((e) => c.events.includes(e.kind) && inWindows(e.at, c.windows, now));
  const want = c.count ?? { op: ">=", n: 1 };
  let met =
    want.op === ">="
      ? hits.length >= want.n
      : want.op === "<="
        ? hits.length <= want.n
        : hits.length === want.n;
  // An unsubscribe may be recorded only as the contact's consent state.
  const consentSaysSo =
    c.events.includes("unsubscribed") && !c.windows && /^(unsubscribed|declined)$/.test(p.emailConsent ?? "");
  if (consentSaysSo) met = true;
  const holds = c.negated ? !met : met;
  const reasons: Reason[] = hits.slice(-5).map((e) => ({
    kind: "engagement",
    id: e.id,
    label: `${e.kind} on ${day(e.at)}`,
    at: e.at,
    criterion: label,
    holds,
  }));
  if (consentSaysSo) {
    reasons.push({
      kind: "profile",
      id: p.id,
      label: `email consent ${p.emailConsent}`,
      at: null,
      criterion: label,
      holds,
    });
  } else if (hits.length === 0) {
    const any = p.engagements.filter((e) => c.events.includes(e.kind));
    reasons.push({
      kind: "profile",
      id: p.id,
      label: any.length
        ? `${c.events.join("/")} only outside the window (last on ${day(any[any.length - 1]!.at)})`
        : `no ${c.events.join("/")} event on record`,
      at: null,
      criterion: label,
      holds,
    });
  }
  return { holds, confidence: 0.95, reasons };
}

function contactsWith(
  c: Extract<Criterion, { kind: "interaction" }>,
  p: ContactProfile,
  now: Date,
  label: string,
): Outcome {
  const typed = p.interactions.filter(
    (i) => (!c.types || c.types.includes(i.type)) && inWindows(i.at, c.windows, now),
  );
  // An event (a vernissage, a studio visit): an interaction whose summary names it, in any language, is sure;
  // one of the right type with no summary may have been it, and decides less surely; one whose summary names
  // something else was not it.
  const mentionRes = c.mentions?.map(termRe);
  const named = c.mentions
    ? typed.filter((i) => {
        if (!i.summary) return false;
        const tokens = familyTokens(i.summary);
        const folded = fold(i.summary).normalize("NFC");
        return (
          c.mentions!.some((m) => phraseKeys(m).every((keys) => tokens.some((t) => sameFamily(keys, t)))) ||
          mentionRes!.some((re) => re.test(folded))
        );
      })
    : typed;
  const unsaid = c.mentions ? typed.filter((i) => !i.summary) : [];
  const hits = named.length ? named : unsaid;
  const confidence =
    c.mentions && named.length === 0 ? (unsaid.length ? 0.6 : typed.length ? 0.85 : 0.93) : 0.93;
  const holds = c.negated ? hits.length === 0 : hits.length > 0;
  const reasons: Reason[] = hits.slice(-3).map((i) => ({
    kind: "interaction",
    id: i.id,
    label: `${i.type}${i.direction ? ` (${i.direction})` : ""} on ${day(i.at)}${i.summary ? `: ${i.summary.slice(0, 80)}` : ""}`,
    at: i.at,
    criterion: label,
    holds,
  }));
  if (hits.length === 0) {
    const last = p.interactions[p.interactions.length - 1];
    reasons.push({
      kind: "profile",
      id: p.id,
      label: last ? `last interaction ${day(last.at)}` : "no interaction on record",
      at: null,
      criterion: label,
      holds,
    });
  }
  if (c.mentions && named.length === 0 && typed.length > 0) {
    reasons.push({
      kind: "profile",
      id: p.id,
      label: unsaid.length
        ? `no interaction's summary names ${c.mentions[0]}; one of its kind without a summary may have been it`
        : `no interaction's summary names ${c.mentions[0]}`,
      at: null,
      criterion: label,
      holds,
    });
  }
  return { holds, confidence, reasons };
}

// ---------------------------------------------------------------------------------------------------------
// Interests read from notes

/** A negation before a term, in the languages notes are written in (folded). */
const NOTE_NEGATION =
  /\b(doesn't like|does not like|isn't into|not into|not a fan of|not interested in|no interest in|not keen on|leaves? (?:him|her|them) cold|allergic to|anything but|not|no|never|doesn't|don't|isn't|won't|hates?|dislikes?|avoids?|except|kein|keine|keinen|keinerlei|nicht|nie|pas|jamais|aucun|aucune|ni|non|mai|nessun|nessuna|nunca|ningun|ninguna|nada|geen|niet|nooit|nao|nenhum|nenhuma|inte|ej|aldrig|ingen|inget|ikke|aldri|intet)\b/;
/** A negation after a term, where Chinese, Japanese and Korean put it ("写真には興味がない"). */
const NOTE_NEGATION_AFTER =
  /^[^。.;!?]{0,12}(興味(?:が|は)?(?:ない|なし|ありません)|関心(?:が|は)?(?:ない|なし)|不感兴趣|不感興趣|没有兴趣|沒有興趣|不喜欢|不喜歡|관심(?:이|은)? ?없|좋아하지 ?않)/u;
/** Words that start a liking again after a negation ("not into photography, loves ceramics"). */
const NOTE_POSITIVE =
  /\b(loves?|likes?|wants?|collects?|collecting|keen on|into|interested in|prefers?|buys?|passionate about|fan of|big on|focus(?:es|ed)? on|only)\b/g;

/** A negation rules a term out when no liking word follows it before the term. */
function negatedBefore(before: string): boolean {
  const neg = [...before.matchAll(new RegExp(NOTE_NEGATION.source, "g"))].pop();
  if (!neg) return false;
  const end = neg.index + neg[0].length;
  return ![...before.matchAll(NOTE_POSITIVE)].some((m) => m.index >= end);
}

const RELATIVE =
  /\b(wife|husband|partner|son|daughter|kids|children|mother|father|mum|dad|brother|sister|friend|niece|nephew|colleague|neighbour|neighbor)\b/;

function clausesOfNote(text: string): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = [];
  const re = /[^.;!?\n]+/g;
  for (const m of text.matchAll(re)) {
    // Split further at dashes and "but": "Not minimal - likes colour" is two clauses.
    let offset = 0;
    for (const part of m[0].split(/\s[-–—]\s|\bbut\b/)) {
      out.push({ text: part, start: m.index + m[0].indexOf(part, offset) });
      offset += part.length;
    }
  }
  return out;
}

const CJK_TERM = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * A vocabulary term in folded text: Chinese, Japanese and Korean terms anywhere (no spaces between words), a
 * trailing "*" any ending (German, Dutch and Nordic compounds: "altmeister*" finds "Altmeisterzeichnungen"),
 * otherwise the whole word with a plural ending.
 */
const termCache = new Map<string, RegExp>();

/** Compiled once per term per isolate: a topic's terms in thirteen languages are a hundred patterns. */
function termRe(term: string): RegExp {
  let re = termCache.get(term);
  if (!re) {
    re = compileTerm(term);
    termCache.set(term, re);
  }
  return re;
}

function compileTerm(term: string) {
  const folded = fold(term.normalize("NFC")).normalize("NFC");
  if (CJK_TERM.test(folded)) return new RegExp(folded.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "u");
  // A leading "*" takes any beginning ("*museum" finds "Kunstmuseum"), a trailing one any ending.
  const lead = folded.startsWith("*");
  const star = folded.endsWith("*");
  const body = folded
    .slice(lead ? 1 : 0, star ? -1 : undefined)
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/ /g, "\\s+");
  return new RegExp(
    `${lead ? "" : "(?<![\\p{L}\\d])"}${body}${star ? "[\\p{L}-]*" : "(?:s|es)?(?![\\p{L}\\d])"}`,
    "u",
  );
}

function interest(
  c: Extract<Criterion, { kind: "interest" }>,
  p: ContactProfile,
  now: Date,
  label: string,
): Outcome {
  if (c.loose) return looseInterest(c, p, now, label);
  const reasons: Reason[] = [];
  let positive = 0;
  let negative = 0;
  const terms = c.terms.map(termRe);
  // Notes, and what the timeline says they asked about or looked at ("asked for prices on the ceramics").
  // A private note keeps its kind, so a read can withhold its words from those who may not see it.
  const texts: {
    id: string;
    kind: "note" | "private_note" | "interaction";
    text: string;
    at: string | null;
  }[] = [
    ...p.notes
      .filter((n) => !["billing_address", "phone", "email"].includes(n.kind))
      .map((n) => ({
        id: n.id,
        kind: n.kind === "private_note" ? ("private_note" as const) : ("note" as const),
        text: n.text,
        at: n.at,
      })),
    ...p.interactions
      .filter((i) => i.summary && i.direction !== "outbound")
      .map((i) => ({ id: i.id, kind: "interaction" as const, text: i.summary!, at: i.at })),
  ];
  for (const note of texts) {
    // Recomposed after folding, so Hangul stays whole (the offsets are only used within this text).
    const folded = fold(note.text).normalize("NFC");
    for (const cl of clausesOfNote(folded)) {
      const hits = terms.map((re) => re.exec(cl.text));
      if (c.allTerms && hits.some((h) => !h)) continue;
      const hit = hits.find((m) => m);
      if (!hit) continue;
      const before = cl.text.slice(0, hit.index);
      const phrase = note.text.slice(cl.start, cl.start + cl.text.length).trim();
      if (RELATIVE.test(before)) {
        reasons.push({
          kind: note.kind,
          id: note.id,
          label: `"${phrase}": about someone else, set aside`,
          at: note.at,
          criterion: label,
          holds: false,
        });
        continue;
      }
      const after = cl.text.slice(hit.index + hit[0].length);
      if (
        negatedBefore(before) ||
        NOTE_NEGATION_AFTER.test(after) ||
        /\bleaves? (?:him|her|them) cold\b/.test(cl.text)
      ) {
        negative++;
        reasons.push({
          kind: note.kind,
          id: note.id,
          label: `"${phrase}": rejects it`,
          at: note.at,
          criterion: label,
          holds: false,
        });
      } else {
        positive++;
        reasons.push({
          kind: note.kind,
          id: note.id,
          label: `"${phrase}"`,
          at: note.at,
          criterion: label,
          holds: true,
        });
      }
    }
  }
  for (const tag of p.tags) {
    if (terms.some((re) => re.test(fold(tag)))) {
      positive++;
      reasons.push({
        kind: "profile",
        id: p.id,
        label: `tagged "${tag}"`,
        at: null,
        criterion: label,
        holds: true,
      });
    }
  }
  let bought = 0;
  // A style: works of it bought, or asked about, show the interest (lib/engine/styles.ts, the matcher's reading).
  if (c.style) {
    const of = (a: NonNullable<ContactProfile["sales"][number]["artwork"]>) =>
      readWorkStyles(a).find((ws) => ws.style === c.style && ws.weight >= STYLE_READ_WEIGHT);
    for (const s of p.sales) {
      if (!s.artwork || !COMPLETED.has(s.status.toLowerCase()) || !inWindows(s.at, undefined, now)) continue;
      const ws = of(s.artwork);
      if (!ws) continue;
      bought++;
      if (bought <= 3)
        reasons.push({
          kind: "sale",
          id: s.id,
          label: `${saleLabel(s)}, ${styleLabel(c.style)}: ${styleShown(ws)}`,
          at: s.at,
          criterion: label,
          holds: true,
        });
    }
    for (const i of p.interactions) {
      if (!i.artwork || i.direction === "outbound" || !inWindows(i.at, undefined, now)) continue;
      const ws = of(i.artwork);
      if (!ws) continue;
      positive++;
      reasons.push({
        kind: "interaction",
        id: i.id,
        label: `asked about ${i.artwork.title ?? "an untitled work"}${i.artwork.artistName ? ` by ${i.artwork.artistName}` : ""} on ${day(i.at)}, ${styleLabel(c.style)}: ${styleShown(ws)}`,
        at: i.at,
        criterion: label,
        holds: true,
      });
    }
  }
  if (c.families || c.years) {
    const [from, to] = c.years ?? [null, null];
    for (const s of p.sales) {
      if (!COMPLETED.has(s.status.toLowerCase()) || !inWindows(s.at, undefined, now)) continue;
      const m = classifyMedium(s.artwork?.medium ?? null);
      const year = s.artwork?.year ?? null;
      const made = c.years && year !== null && (from === null || year >= from) && (to === null || year <= to);
      if (made || (c.families && m.families.some((f) => c.families!.includes(f)))) {
        bought++;
        if (bought <= 3)
          reasons.push({
            kind: "sale",
            id: s.id,
            label: saleLabel(s),
            at: s.at,
            criterion: label,
            holds: true,
          });
      }
    }
  }
  let met: boolean;
  let confidence: number;
  if (negative > 0 && positive === 0 && bought === 0) {
    met = false;
    confidence = 0.88;
  } else if (positive > 0 || bought > 0) {
    met = true;
    confidence = bought > 0 && positive > 0 ? 0.95 : bought > 0 ? 0.85 : 0.88;
  } else {
    met = false;
    confidence = 0.72;
    reasons.push({
      kind: "profile",
      id: p.id,
      label: `no note, tag or purchase shows an interest in ${c.topic}`,
      at: null,
      criterion: label,
      holds: false,
    });
  }
  const holds = c.negated ? !met : met;
  for (const r of reasons) if (c.negated) r.holds = !r.holds;
  return { holds, confidence, reasons };
}

type OwnText = {
  id: string;
  kind: "note" | "private_note" | "interaction" | "sale" | "profile";
  /** Where the words were found, for the reason: "a note", "a bought work". */
  where: string;
  text: string;
  at: string | null;
};

/**
 * The contact's own words: notes (profile, collecting focus, wishlist, private), what inbound interactions say,
 * the titles, media and artists of works they bought, the works their engagements point at, their tags and
 * the company on record.
 */
function ownText(p: ContactProfile, now: Date): OwnText[] {
  const work = (a: NonNullable<ContactProfile["sales"][number]["artwork"]>) =>
    [a.title, a.medium, a.artistName].filter(Boolean).join(". ");
  const artworks = new Map(p.sales.flatMap((s) => (s.artwork ? [[s.artwork.id, s.artwork] as const] : [])));
  return [
    ...p.notes
      .filter((n) => !["billing_address", "phone", "email"].includes(n.kind))
      .map((n) => ({
        id: n.id,
        kind: n.kind === "private_note" ? ("private_note" as const) : ("note" as const),
        where: n.kind === "private_note" ? "a private note" : "a note",
        text: n.text,
        at: n.at,
      })),
    ...p.interactions
      .filter((i) => i.summary && i.direction !== "outbound")
      .map((i) => ({
        id: i.id,
        kind: "interaction" as const,
        where: "an interaction",
        text: i.summary!,
        at: i.at,
      })),
    ...p.sales
      .filter((s) => s.artwork && COMPLETED.has(s.status.toLowerCase()) && inWindows(s.at, undefined, now))
      .map((s) => ({
        id: s.id,
        kind: "sale" as const,
        where: "a bought work",
        text: work(s.artwork!),
        at: s.at,
      })),
    ...p.engagements
      .filter((e) => e.artworkId && artworks.has(e.artworkId) && inWindows(e.at, undefined, now))
      .map((e) => ({
        id: p.id,
        kind: "profile" as const,
        where: `a work they engaged with (${e.kind.replace(/_/g, " ")})`,
        text: work(artworks.get(e.artworkId!)!),
        at: e.at,
      })),
    ...p.tags.map((t) => ({ id: p.id, kind: "profile" as const, where: "a tag", text: t, at: null })),
    ...(p.company
      ? [{ id: p.id, kind: "profile" as const, where: "the company", text: p.company, at: null }]
      : []),
  ];
}

/**
 * An interest in words the grammar has no entry for: looked for by word family in the contact's own text, each
 * clause read as a note is (a negation before the words rejects them, words about a relative are set aside).
 * Less sure than a topic the vocabulary knows: a shared word is weaker evidence than a known topic's terms.
 */
function looseInterest(
  c: Extract<Criterion, { kind: "interest" }>,
  p: ContactProfile,
  now: Date,
  label: string,
): Outcome {
  const reasons: Reason[] = [];
  let positive = 0;
  let negative = 0;
  // A term of several words ("auction house") is found when all its words are in one clause.
  const terms = c.terms.map((t) => phraseKeys(t));
  for (const own of ownText(p, now)) {
    const tokens = familyTokens(own.text);
    for (const cl of clausesOfNote(own.text)) {
      const inClause = tokens.filter((t) => t.start >= cl.start && t.end <= cl.start + cl.text.length);
      const hits = terms.map((words) => {
        const found = words.map((keys) => inClause.find((t) => sameFamily(keys, t)));
        return found.every(Boolean) ? found[0] : undefined;
      });
      if (hits.some((h) => !h)) {
        if (c.allTerms || hits.every((h) => !h)) continue;
      }
      const first = hits.filter((h) => !!h).sort((a, b) => a!.start - b!.start)[0]!;
      const words = hits
        .filter((h) => !!h)
        .map((h) => `'${own.text.slice(h!.start, h!.end)}'`)
        .join(", ");
      const before = fold(own.text.slice(cl.start, first.start));
      const phrase = cl.text.trim();
      const base = { kind: own.kind, id: own.id, at: own.at, criterion: label };
      if (own.kind === "note" || own.kind === "private_note" || own.kind === "interaction") {
        if (RELATIVE.test(before)) {
          reasons.push({
            ...base,
            label: `matched ${words} in ${own.where} about someone else, set aside: "${phrase}"`,
            holds: false,
          });
          continue;
        }
        if (negatedBefore(before) || /\bleaves? (?:him|her|them) cold\b/.test(fold(cl.text))) {
          negative++;
          reasons.push({
            ...base,
            label: `matched ${words} in ${own.where}, which rejects it: "${phrase}"`,
            holds: false,
          });
          continue;
        }
      }
      positive++;
      reasons.push({
        ...base,
        label: `matched ${words} in ${own.where} as an interest: "${phrase}"`,
        holds: true,
      });
      break;
    }
  }
  let met: boolean;
  let confidence: number;
  if (negative > 0 && positive === 0) {
    met = false;
    confidence = 0.75;
  } else if (positive > 0) {
    met = true;
    confidence = positive > 1 ? 0.8 : 0.75;
  } else {
    met = false;
    confidence = 0.62;
    reasons.push({
      kind: "profile",
      id: p.id,
      label: `no note, interaction, bought work or tag mentions ${c.topic} (read as an interest word)`,
      at: null,
      criterion: label,
      holds: false,
    });
  }
  const holds = c.negated ? !met : met;
  for (const r of reasons) if (c.negated) r.holds = !r.holds;
  return { holds, confidence, reasons };
}

// ---------------------------------------------------------------------------------------------------------
// Roles: what a contact does, from their company and own notes

/** A role someone no longer holds, or denies: "former curator", "not a dealer". */
const NOT_NOW =
  /\b(former|formerly|retired|ex|previously|used to be|until|not|no longer|never)\b[^,;]{0,45}$/;

function role(c: Extract<Criterion, { kind: "role" }>, p: ContactProfile, now: Date, label: string): Outcome {
  const reasons: Reason[] = [];
  const within = c.within?.terms.map(termRe);
  const company = p.company ? fold(p.company).normalize("NFC") : "";
  // What the contact is on record as: the company, notes and tags (not what they bought or asked about).
  const texts = ownText(p, now).filter(
    (t) => t.kind === "note" || t.kind === "private_note" || t.where === "the company" || t.where === "a tag",
  );
  let denied = false;
  for (const own of texts) {
    const folded = fold(own.text).normalize("NFC");
    for (const x of c.roles) {
      for (const re of x.terms.map(termRe)) {
        const m = re.exec(folded);
        if (!m) continue;
        const before = folded.slice(Math.max(0, m.index - 40), m.index);
        const phrase = own.text.trim().slice(0, 160);
        const base = { kind: own.kind, id: own.id, at: own.at, criterion: label };
        if (NOT_NOW.test(before) || RELATIVE.test(before)) {
          denied = true;
          reasons.push({
            ...base,
            label: `${own.where} names ${x.name} of someone else or not now: "${phrase}"`,
            holds: false,
          });
          continue;
        }
        if (within && !within.some((w) => w.test(folded) || w.test(company))) {
          reasons.push({
            ...base,
            label: `${x.name}, but not at a ${c.within!.name}: "${phrase}"`,
            holds: false,
          });
          denied = true;
          continue;
        }
        reasons.push({ ...base, label: `${own.where} says ${x.name}: "${phrase}"`, holds: true });
        return { holds: true, confidence: 0.9, reasons };
      }
    }
  }
  // A contact type that records the role decides; one that usually means it, only where nothing else is said.
  const silent = texts.every(
    (t) => t.kind !== "note" && t.kind !== "private_note" && t.where !== "the company",
  );
  const typed = c.roles.find((x) => x.types?.includes(p.contactType));
  const usually = silent && c.roles.find((x) => x.typesIfSilent?.includes(p.contactType));
  if ((typed || usually) && !within && !denied) {
    reasons.push({
      kind: "profile",
      id: p.id,
      label: typed
        ? `contact type ${p.contactType}`
        : `contact type ${p.contactType}, and nothing on record says what they do`,
      at: null,
      criterion: label,
      holds: true,
    });
    return { holds: true, confidence: typed ? 0.93 : 0.6, reasons };
  }
  if (!reasons.length)
    reasons.push({
      kind: "profile",
      id: p.id,
      label: `neither the company nor a note names ${c.roles.map((x) => x.name).join(" or ")}`,
      at: null,
      criterion: label,
      holds: false,
    });
  return { holds: false, confidence: denied ? 0.88 : 0.85, reasons };
}

// ---------------------------------------------------------------------------------------------------------
// Where a contact is

interface Located {
  country: string | null;
  region: string | null;
  city: string | null;
  confidence: number;
  evidence: RecordEvidence;
}

const LOCATION_CUE =
  /\b(based in|lives? in|living in|home in|homes in|moved to|relocated to|resident in|residing in|lives between|splits? (?:her|his|their) time between|apartment in|flat in|house in|address in|from)\b|[- ]based\b|\bapartment\b/;

/** Where the records place a contact, strongest source first. */
export function locate(p: ContactProfile): Located[] {
  const out: Located[] = [];
  const billing = p.notes.find((n) => n.kind === "billing_address");
  const phone = p.notes.find((n) => n.kind === "phone");
  const email = p.notes.find((n) => n.kind === "email");
  const fromNotes: Located[] = [];
  for (const note of p.notes) {
    if (["billing_address", "phone", "email"].includes(note.kind)) continue;
    for (const cl of clausesOfNote(note.text)) {
      const cue = LOCATION_CUE.exec(fold(cl.text));
      if (!cue) continue;
      for (const m of findPlaces(cl.text)) {
        // The cue and the place share a clause ("Bristol apartment", "Zurich-based", "lives between A and B").
        const city = m.place.city ? m.place.city : null;
        fromNotes.push({
          country: m.place.countries.length === 1 ? m.place.countries[0]! : null,
          region: m.place.region ?? (city ? (cityInfo(city)?.region ?? null) : null),
          city,
          confidence: 0.9,
          evidence: {
            kind: note.kind === "private_note" ? "private_note" : "note",
            id: note.id,
            label: `note: "${cl.text.trim()}"`,
            at: note.at,
          },
        });
      }
    }
  }
  if (p.country || p.city) {
    const city = p.city;
    const region = p.region ?? (city ? (cityInfo(city)?.region ?? null) : null);
    if (billing) {
      out.push({
        country: p.country,
        region,
        city,
        confidence: 0.97,
        evidence: {
          kind: "invoice",
          id: billing.id,
          label: `billing/tax address: ${billing.text}`,
          at: billing.at,
        },
      });
    } else if (city || (!phone && !email)) {
      // A city on the profile is a record the gallery keeps, whatever a phone or an email domain suggests; so is
      // a country with neither to have been inferred from.
      out.push({
        country: p.country,
        region,
        city,
        confidence: 0.95,
        evidence: {
          kind: "profile",
          id: p.id,
          label: `location on record: ${[city, region, p.country].filter(Boolean).join(", ")}`,
          at: null,
        },
      });
    } else if (phone && fromNotes.length === 0) {
      out.push({
        country: p.country,
        region,
        city,
        confidence: 0.82,
        evidence: {
          kind: "profile",
          id: p.id,
          label: `country ${p.country} inferred from the phone prefix (${phone.text.slice(0, 6)}…)`,
          at: null,
        },
      });
    } else if (email && fromNotes.length === 0) {
      out.push({
        country: p.country,
        region,
        city,
        confidence: 0.78,
        evidence: {
          kind: "profile",
          id: p.id,
          label: `country ${p.country} inferred from the email domain (${email.text.split("@")[1] ?? ""})`,
          at: null,
        },
      });
    }
  }
  // A note placing the contact outranks an inference from a phone or an email domain ("moved to Lisbon").
  return [...out, ...fromNotes];
}

function placeHolds(place: Place, at: Located): boolean | null {
  if (place.city) {
    if (at.city)
      return (
        fold(at.city) === place.city ||
        (cityInfo(at.city) === cityInfo(place.city) && fold(at.city) === place.city)
      );
    if (at.country && !place.countries.includes(at.country)) return false;
    return null;
  }
  if (place.region) {
    const region = at.region ?? (at.city ? (cityInfo(at.city)?.region ?? null) : null);
    if (region) return region === place.region;
    if (at.country && !place.countries.includes(at.country)) return false;
    return null;
  }
  if (!at.country) return null;
  return place.countries.includes(at.country);
}

function located(c: Extract<Criterion, { kind: "place" }>, p: ContactProfile, label: string): Outcome {
  const where = locate(p);
  if (where.length === 0) {
    return {
      holds: null,
      confidence: 0,
      reasons: [
        {
          kind: "profile",
          id: p.id,
          label: "no address, phone, email domain or note places this contact",
          at: null,
          criterion: label,
          holds: false,
        },
      ],
    };
  }
  const reasons: Reason[] = [];
  let anyTrue: Located | null = null;
  let undecided = false;
  for (const at of where) {
    const results = c.places.map((pl) => placeHolds(pl, at));
    const h = results.some((x) => x === true) ? true : results.every((x) => x === false) ? false : null;
    if (h === null) undecided = true;
    if (h === true && (!anyTrue || at.confidence > anyTrue.confidence)) anyTrue = at;
    reasons.push({ ...at.evidence, criterion: label, holds: h === null ? false : c.negated ? !h : h });
  }
  if (anyTrue) return { holds: !c.negated, confidence: anyTrue.confidence, reasons };
  if (undecided) return { holds: null, confidence: 0, reasons };
  return { holds: c.negated, confidence: Math.max(...where.map((w) => w.confidence)), reasons };
}

// ---------------------------------------------------------------------------------------------------------

function evaluate(
  c: Criterion | { kind: "any"; items: Criterion[]; phrase: string },
  p: ContactProfile,
  now: Date,
): Outcome {
  const label = describe(c);
  switch (c.kind) {
    case "any": {
      const outs = c.items.map((i) => evaluate(i, p, now));
      const yes = outs.filter((o) => o.holds === true);
      const reasons = outs.flatMap((o) => o.reasons);
      if (yes.length) return { holds: true, confidence: Math.max(...yes.map((o) => o.confidence)), reasons };
      if (outs.some((o) => o.holds === null)) return { holds: null, confidence: 0, reasons };
      return { holds: false, confidence: Math.min(...outs.map((o) => o.confidence)), reasons };
    }
    case "type": {
      const holds = c.types.includes(p.contactType);
      return {
        holds,
        confidence: 0.97,
        reasons: [
          {
            kind: "profile",
            id: p.id,
            label: `contact type ${p.contactType}`,
            at: null,
            criterion: label,
            holds,
          },
        ],
      };
    }
    case "role":
      return role(c, p, now, label);
    case "vip": {
      const tagged = p.tags.some((t) => /\bvip\b/i.test(t));
      const holds = p.vip || tagged;
      return {
        holds,
        confidence: 0.96,
        reasons: [
          {
            kind: "profile",
            id: p.id,
            label: p.vip ? "VIP on the collector profile" : tagged ? "tagged VIP" : "not marked VIP",
            at: null,
            criterion: label,
            holds,
          },
        ],
      };
    }
    case "lead": {
      const holds = c.statuses.includes(p.leadStatus ?? "");
      return {
        holds,
        confidence: 0.97,
        reasons: [
          {
            kind: "profile",
            id: p.id,
            label: `lead status ${p.leadStatus ?? "unset"}`,
            at: null,
            criterion: label,
            holds,
          },
        ],
      };
    }
    case "consent": {
      if (!p.emailConsent) return { holds: null, confidence: 0, reasons: [] };
      const holds = c.values.includes(p.emailConsent);
      return {
        holds,
        confidence: 0.97,
        reasons: [
          {
            kind: "profile",
            id: p.id,
            label: `email consent ${p.emailConsent}`,
            at: null,
            criterion: label,
            holds,
          },
        ],
      };
    }
    case "place":
      return located(c, p, label);
    case "purchase":
      return purchase(c, p, now, label);
    case "spend":
      return spend(c, p, now, label);
    case "engagement":
      return events(c, p, now, label);
    case "interaction":
      return contactsWith(c, p, now, label);
    case "interest":
      return interest(c, p, now, label);
    case "tag": {
      const want = c.names.map((x) => fold(x).trim());
      const found = p.tags.find((t) => want.includes(fold(t).trim()));
      const holds = c.negated ? !found : !!found;
      const text = found ? `tagged "${found}"` : `not tagged ${c.names.join(" or ")}`;
      return {
        holds,
        confidence: 0.97,
        reasons: [{ kind: "profile", id: p.id, label: text, at: null, criterion: label, holds }],
      };
    }
    case "created": {
      const holds = inWindows(p.createdAt, c.windows, now);
      return {
        holds,
        confidence: 0.97,
        reasons: [
          {
            kind: "profile",
            id: p.id,
            label: `added on ${day(p.createdAt)}`,
            at: p.createdAt,
            criterion: label,
            holds,
          },
        ],
      };
    }
  }
}

/**
 * Judges one contact against a readable rubric. Every criterion must hold; one that fails decides false (as
 * sure as the record that fails it); when none fails and one cannot be decided, the contact stays unjudged.
 */
type Any = Criteria["all"][number];

/** A "since then" window placed after the latest record that met the criterion before (none: from now). */
function sinceThen(c: Any, before: Outcome | undefined): Any {
  const windows = "windows" in c ? c.windows : undefined;
  if (c.kind === "any") return { ...c, items: c.items.map((i) => sinceThen(i, before) as Criterion) };
  if (!windows?.some((w) => w.afterPrevious)) return c;
  const latest =
    before?.reasons
      .filter((r) => r.holds && r.at)
      .map((r) => r.at!)
      .sort()
      .pop() ?? null;
  return {
    ...c,
    windows: windows.map((w) =>
      w.afterPrevious
        ? { from: latest ?? new Date(8.64e15).toISOString(), label: `since ${latest ? day(latest) : "then"}` }
        : w,
    ),
  } as Any;
}

export function judgeRubric(
  reading: Extract<RubricReading, { readable: true }>,
  profile: ContactProfile,
  now: Date,
): RubricVerdict | null {
  const criteria = reading.criteria as Criteria;
  const outs: Outcome[] = [];
  for (const c of criteria.all) {
    // "…but haven't been back since": from the latest record that met the criterion before.
    const before = outs[outs.length - 1];
    outs.push(evaluate(sinceThen(c, before), profile, now));
  }
  const reasons = outs.flatMap((o) => o.reasons);
  const failed = outs.filter((o) => o.holds === false);
  if (failed.length) {
    const confidence = Math.max(...failed.map((o) => o.confidence));
    return { model: RUBRIC_MODEL, verdict: false, probability: round(confidence), reasons };
  }
  if (outs.some((o) => o.holds === null)) return null;
  // Words left unread may have narrowed the rubric further: a "yes" is less sure.
  const confidence = outs.reduce((acc, o) => acc * o.confidence, 1) * (criteria.unread?.length ? 0.8 : 1);
  return { model: RUBRIC_MODEL, verdict: true, probability: round(Math.max(0.5, confidence)), reasons };
}

const round = (x: number) => Math.round(Math.min(0.99, Math.max(0.5, x)) * 1000) / 1000;
