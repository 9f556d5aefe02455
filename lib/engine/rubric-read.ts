import { casual as chrono, type ParsedResult } from "chrono-node";
import { sentences } from "./nlp";
import { gloss } from "./rubric-gloss";
import { type Family, MEDIUM_PHRASES } from "./rubric-media";
import { findPlaces, fold, type Place } from "./rubric-places";
import { findStyles, styleEntry, styleLabel, styleOfTopic, styleTerms } from "./styles";
import vocabulary from "./vocabulary/rubric.json";

/**
 * Reading a segment rubric: plain words ("collectors in the UK who bought works on paper but never a painting")
 * into criteria the judge evaluates against a contact's records. A small grammar: the rubric is cut into
 * clauses (at commas, colons, "but", "who", "that", and at "and"/"or" before a new predicate); each clause holds
 * at most one predicate (bought, spent, opened, contacted, interested in) with its facets (media, artist,
 * count, price, time window) and the negation in front of it; a clause without a predicate continues the one
 * before ("…, nothing since"; "…but never a painting"). Subject words (collectors, museums, VIPs), places and
 * lead states hold across clauses. Roles, events and kinds of work the grammar has no pattern for come from a
 * reviewed vocabulary (vocabulary/rubric.json); dates it has no pattern for come from chrono-node, seasons from
 * its own rules. A word still left unread is not a refusal: its content words become an interest looked for in
 * the contact's own text (rubric-words.ts), less surely than a known criterion. A rubric is refused only for a
 * judgement no record holds ("would", "best"), a time it cannot place, an action it has no entry for, or when no
 * criterion at all can be formed.
 */

/** A time window: from inclusive, to exclusive, ISO timestamps; a missing end is open. */
export interface Window {
  from?: string;
  to?: string;
  /** "haven't been back since": from the latest record that met the criterion before this one. */
  afterPrevious?: true;
  label: string;
}

export interface Money {
  amount: number;
  currency: string;
}

/** One side of an amount comparison; "between £10k and £50k" is two. */
export interface Bound {
  op: ">" | "<";
  money: Money;
}

export type Criterion =
  | { kind: "type"; types: string[]; phrase: string }
  | {
      kind: "role";
      /** Alternatives: "curators and registrars" is either. */
      roles: { name: string; terms: string[]; types?: string[]; typesIfSilent?: string[] }[];
      /** Where the role is held ("museum curators"): its words in the same note or the company. */
      within?: { name: string; terms: string[] };
      phrase: string;
    }
  | { kind: "vip"; phrase: string }
  | { kind: "lead"; statuses: string[]; phrase: string }
  | { kind: "consent"; values: string[]; phrase: string }
  | { kind: "place"; places: Place[]; negated: boolean; phrase: string }
  | {
      kind: "purchase";
      negated: boolean;
      families?: Family[];
      artists?: string[];
      windows?: Window[];
      count?: { op: ">=" | "<=" | "="; n: number };
      price?: Bound[];
      only?: boolean;
      /** A work of an edition (a multiple, a print, "ed. 12/30"). */
      edition?: boolean;
      /** The work's longer side at least this many centimetres ("monumental"). */
      minCm?: number;
      /** The work was made in these years ("modernist works on paper": 1900–1970). */
      made?: { name: string; years: [number | null, number | null] };
      phrase: string;
    }
  | {
      kind: "spend";
      negated: boolean;
      bounds: Bound[];
      average: boolean;
      windows?: Window[];
      families?: Family[];
      phrase: string;
    }
  | {
      kind: "engagement";
      negated: boolean;
      events: string[];
      windows?: Window[];
      count?: { op: ">=" | "<=" | "="; n: number };
      phrase: string;
    }
  | {
      kind: "interaction";
      negated: boolean;
      types?: string[];
      windows?: Window[];
      /** Words an interaction's summary names to show it was this event (a vernissage, a studio visit). */
      mentions?: string[];
      /** The events the mentions are words for ("studio visit", "talk"), for the summary. */
      events?: string[];
      phrase: string;
    }
  | { kind: "created"; windows?: Window[]; phrase: string }
  | { kind: "tag"; names: string[]; negated: boolean; phrase: string }
  | {
      kind: "interest";
      negated: boolean;
      topic: string;
      terms: string[];
      /** A topic outside the vocabulary: a note shows it only when it has every one of the topic's words. */
      allTerms?: boolean;
      /**
       * Words the grammar has no entry for, read as an interest: matched by word family (rubric-words.ts) in
       * the contact's own text, and less surely than a topic the vocabulary knows.
       */
      loose?: boolean;
      families?: Family[];
      /** Works made in these years show the interest too ("old masters": up to 1800). */
      years?: [number | null, number | null];
      /** A style or movement (lib/engine/styles.ts): works of it bought or asked about show the interest too. */
      style?: string;
      phrase: string;
    };

/** What a readable rubric means: every criterion must hold (a group of alternatives holds when one does). */
export interface Criteria {
  all: (Criterion | { kind: "any"; items: Criterion[]; phrase: string })[];
  /** Words the reader left out (a time it could not place, a verb it has no entry for): a "yes" is less sure. */
  unread?: string[];
}

export type ReadResult = { ok: true; criteria: Criteria; summary: string } | { ok: false; reason: string };

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  single: 1,
  two: 2,
  couple: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  eighteen: 18,
  twenty: 20,
  "twenty-four": 24,
  thirty: 30,
};
const NUM =
  "(\\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen|twenty|twenty-four|thirty)";
const num = (s: string) => (/^\d+$/.test(s) ? Number(s) : (NUMBER_WORDS[s] ?? Number.NaN));

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const MONTH_RE =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const monthIndex = (s: string) => MONTHS.findIndex((m) => m.startsWith(s.slice(0, 3)));

/** Words that carry no criterion of their own. */
const FILLER = new Set(
  `a an the any some of in on at to from for with by who whom whose that which this these those have has had having
  been be being is are was were do does did ever also already still yet and or but as than then just only all
  people person anyone anybody everyone everybody someone contacts contact clients client customers customer
  folks those them they their there we us our you your he she his her it its work works piece pieces artwork
  artworks thing things anything something item items one ones total overall based located living live lives
  single individual per each private
  who've who'd who's any us from gallery list segment yet made make record records here`
    .split(/\s+/)
    .filter(Boolean),
);

/** Rankings ("top 20 spenders") compare contacts with each other: no single contact's records decide them. */
const RANKING =
  /\b(top|biggest|largest|best|highest|leading) (\d+|ten|twenty|fifty|hundred)?\s*(?:spenders|buyers|collectors|clients|contacts|customers)?\b/;

/** Vague or hypothetical words: the rubric asks for a judgement no record holds. */
const VAGUE =
  /\b(would|'d|might|may|could|should|likely|probably|potential(?:ly)?|best|favou?rite|good|great|nice|usual|suspects|interesting|important|serious|friends?|love to|taste|flip|recently|lately|soon|next|big|huge|rich|wealthy|deep-pocketed)\b/;

interface Clause {
  start: number;
  end: number;
  /** How the clause joins the one before it. */
  join: "and" | "or";
}

interface Reader {
  original: string;
  text: string;
  used: boolean[];
  now: Date;
}

function take(r: Reader, start: number, end: number) {
  for (let i = start; i < end; i++) r.used[i] = true;
}

function matchAll(r: Reader, re: RegExp, from = 0, to = r.text.length) {
  const out: RegExpExecArray[] = [];
  const g = new RegExp(re.source, re.flags.includes("g") ? re.flags : `${re.flags}g`);
  const slice = r.text.slice(0, to);
  g.lastIndex = from;
  for (let m = g.exec(slice); m; m = g.exec(slice)) {
    if (m[0].length === 0) {
      g.lastIndex++;
      continue;
    }
    out.push(m);
  }
  return out;
}

const iso = (d: Date) => d.toISOString();
function utc(y: number, m = 0, d = 1) {
  return new Date(Date.UTC(y, m, d));
}
function minusUnit(now: Date, n: number, unit: string) {
  const d = new Date(now.getTime());
  if (unit.startsWith("day")) d.setUTCDate(d.getUTCDate() - n);
  else if (unit.startsWith("week")) d.setUTCDate(d.getUTCDate() - 7 * n);
  else if (unit.startsWith("month")) d.setUTCMonth(d.getUTCMonth() - n);
  // A gallery's season is half a year: the spring and the autumn programme.
  else if (unit.startsWith("season")) d.setUTCMonth(d.getUTCMonth() - 6 * n);
  else d.setUTCFullYear(d.getUTCFullYear() - n);
  return d;
}

/** Time windows in a clause; `negated` reads "not since 2022" as nothing after 2022. */
function readWindows(
  r: Reader,
  c: Clause,
  negated: boolean,
  previous: Window[] | undefined,
): Window[] | undefined {
  const out: Window[] = [];
  const now = r.now;
  const seg = (re: RegExp) => matchAll(r, re, c.start, c.end);
  for (const m of seg(
    new RegExp(
      `\\b(?:in |during |within |over |for )?(?:the )?(?:last|past|previous) ${NUM}? ?(days?|weeks?|months?|seasons?|years?)\\b`,
    ),
  )) {
    // Bare "last year" is the calendar year before; "the last year" and "past year" are twelve months.
    if (!m[1] && /^(?:in |during |for )?last (year|month)$/.test(m[0].trim())) continue;
    if (/^since /.test(r.text.slice(Math.max(0, m.index - 6), m.index + 1))) continue;
    const n = m[1] ? num(m[1]) : 1;
    if (Number.isNaN(n)) continue;
    out.push({ from: iso(minusUnit(now, n, m[2]!)), label: m[0].trim() });
    take(r, m.index, m.index + m[0].length);
  }
  for (const m of seg(
    new RegExp(
      `\\b(?:in|for) (?:over|more than|longer than) ${NUM} (days?|weeks?|months?|seasons?|years?)\\b`,
    ),
  )) {
    const n = num(m[1]!);
    if (Number.isNaN(n)) continue;
    out.push({ from: iso(minusUnit(now, n, m[2]!)), label: m[0].trim() });
    take(r, m.index, m.index + m[0].length);
  }
  for (const m of seg(new RegExp(`\\b(?:in|within|for) ${NUM} (days?|weeks?|months?|seasons?|years?)\\b`))) {
    if (r.used[m.index]) continue;
    const n = num(m[1]!);
    if (Number.isNaN(n)) continue;
    out.push({ from: iso(minusUnit(now, n, m[2]!)), label: m[0].trim() });
    take(r, m.index, m.index + m[0].length);
  }
  for (const m of seg(
    new RegExp(
      `\\b(?:(more than|over|at least|less than|under|within) )?${NUM} (days?|weeks?|months?|seasons?|years?) ago\\b`,
    ),
  )) {
    const n = num(m[2]!);
    if (Number.isNaN(n)) continue;
    const at = iso(minusUnit(now, n, m[3]!));
    const recent = m[1] === "less than" || m[1] === "under" || m[1] === "within";
    out.push(recent ? { from: at, label: m[0].trim() } : { to: at, label: m[0].trim() });
    take(r, m.index, m.index + m[0].length);
  }
  for (const m of seg(/\bsince (?:last year|the start of last year)\b/)) {
    out.push({ from: iso(utc(now.getUTCFullYear() - 1)), label: m[0] });
    take(r, m.index, m.index + m[0].length);
  }
  for (const m of seg(
    /\b(?:since|from) the (?:start|beginning) of (?:the|this) year\b|\bso far this year\b|\byear to date\b|\bytd\b/,
  )) {
    out.push({ from: iso(utc(now.getUTCFullYear())), label: m[0] });
    take(r, m.index, m.index + m[0].length);
  }
  for (const m of seg(/\b(?:in |during )?this (year|month)\b/)) {
    const from = m[1] === "year" ? utc(now.getUTCFullYear()) : utc(now.getUTCFullYear(), now.getUTCMonth());
    out.push({ from: iso(from), label: m[0].trim() });
    take(r, m.index, m.index + m[0].length);
  }
  // The pandemic as a date: it began for galleries in March 2020.
  for (const m of seg(
    /\b(since before|before|prior to|since|after|during) (?:covid(?:-19)?|corona|the pandemic|the lockdowns?|lockdown)(?: hit| started| began)?\b/,
  )) {
    const at = iso(utc(2020, 2));
    const w: Window = /^(?:before|prior to)$/.test(m[1]!)
      ? { to: at, label: m[0] }
      : m[1] === "during"
        ? { from: at, to: iso(utc(2022, 2)), label: m[0] }
        : { from: at, label: m[0] };
    out.push(w);
    take(r, m.index, m.index + m[0].length);
  }
  // "the second half of 2024", "the first half of the year".
  for (const m of seg(
    /\b(?:in |during )?the (first|second|1st|2nd) half of (?:((?:19|20)\d{2})|(?:the|this) year|last year)\b/,
  )) {
    const y = m[2] ? Number(m[2]) : /last year/.test(m[0]) ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
    const first = /first|1st/.test(m[1]!);
    out.push({
      from: iso(utc(y, first ? 0 : 6)),
      to: iso(first ? utc(y, 6) : utc(y + 1)),
      label: m[0].trim(),
    });
    take(r, m.index, m.index + m[0].length);
  }
  for (const m of seg(/\b(?:in )?last year\b/)) {
    if (r.used[m.index + m[0].length - 1]) continue;
    const y = now.getUTCFullYear() - 1;
    out.push({ from: iso(utc(y)), to: iso(utc(y + 1)), label: m[0].trim() });
    take(r, m.index, m.index + m[0].length);
  }
  for (const m of seg(
    /\bbetween (\d{4}) and (\d{4})\b|\b(?:in |from )?(\d{4}) ?(?:-|–|to|through|until|till) ?(\d{4})\b/,
  )) {
    const a = Number(m[1] ?? m[3]);
    const b = Number(m[2] ?? m[4]);
    out.push({ from: iso(utc(Math.min(a, b))), to: iso(utc(Math.max(a, b) + 1)), label: m[0].trim() });
    take(r, m.index, m.index + m[0].length);
  }
  for (const m of seg(
    new RegExp(
      `\\b(since|after|from|before|prior to|until|till|up to|in|during|across|throughout) (?:the (?:start|beginning|end) of )?(?:${MONTH_RE} ?)?((?:19|20)\\d{2})?(?: onwards?| on)?\\b`,
    ),
  )) {
    const [whole, word, month, yearText] = m;
    if (!month && !yearText) continue;
    if (r.used[m.index]) continue;
    const endOf = /the end of/.test(whole);
    let year = yearText ? Number(yearText) : now.getUTCFullYear();
    const mi = month ? monthIndex(month) : -1;
    if (!yearText && mi >= 0 && utc(year, mi) > now) year -= 1;
    const start = mi >= 0 ? utc(year, mi) : utc(year);
    const after = mi >= 0 ? utc(year, mi + 1) : utc(year + 1);
    let w: Window;
    if (word === "since" || word === "from") {
      // "not since 2022" reads as nothing after 2022; "since June" starts on the first of June.
      w = { from: iso(endOf || (negated && !month && word === "since") ? after : start), label: whole };
    } else if (word === "after") w = { from: iso(after), label: whole };
    else if (word === "before" || word === "prior to") w = { to: iso(endOf ? after : start), label: whole };
    else if (word === "until" || word === "till" || word === "up to") w = { to: iso(after), label: whole };
    else {
      // in 2025, in 2019 or 2020, in March 2024
      w = { from: iso(start), to: iso(after), label: whole };
    }
    out.push(w);
    take(r, m.index, m.index + whole.length);
  }
  out.push(...readSeasons(r, c), ...readDates(r, c));
  // "2019 or 2020": further bare years after an "in <year>" window.
  if (out.some((w) => w.from && w.to)) {
    for (const m of seg(/\b(?:or|and|,) ((?:19|20)\d{2})\b/)) {
      const y = Number(m[1]);
      out.push({ from: iso(utc(y)), to: iso(utc(y + 1)), label: m[1]! });
      take(r, m.index, m.index + m[0].length);
    }
  }
  // "nothing since": since the end of the window the clause before named.
  for (const m of seg(/\bsince\b(?!\s*(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|the))/)) {
    if (r.used[m.index]) continue;
    const bound = previous?.find((w) => w.to)?.to;
    out.push(bound ? { from: bound, label: "since then" } : { afterPrevious: true, label: "since then" });
    take(r, m.index, m.index + m[0].length);
  }
  if (out.length === 0) return undefined;
  // Several bounds in one clause ("since 2020 … before 2024") narrow one window; several "in <year>" widen it.
  const closed = out.filter((w) => w.from && w.to);
  const open = out.filter((w) => !(w.from && w.to));
  if (open.length > 1 || (open.length && closed.length)) {
    const from = out
      .map((w) => w.from)
      .filter(Boolean)
      .sort()
      .pop();
    const to = out
      .map((w) => w.to)
      .filter(Boolean)
      .sort()[0];
    return [{ ...(from ? { from } : {}), ...(to ? { to } : {}), label: out.map((w) => w.label).join(", ") }];
  }
  return out;
}

/** Meteorological seasons of the northern hemisphere: the month each starts (winter starts in December). */
const SEASON_START: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };

/** The start of the latest season `name` begun on or before `now`, `back` seasons of that name earlier. */
function seasonStart(name: string, now: Date, back = 0): Date {
  const m = SEASON_START[name]!;
  let y = now.getUTCFullYear();
  if (utc(y, m) > now) y -= 1;
  return utc(y - back, m);
}

/**
 * Seasons (and fortnights and decades), which no date parser reads: "this spring" (the latest spring begun), "last summer" (the latest one
 * over), "since the autumn", "spring 2024" (winter 2024 is the one its January falls in), "the past two seasons"
 * (three months each), "this season" and "last season".
 */
function readSeasons(r: Reader, c: Clause): Window[] {
  const out: Window[] = [];
  const seg = (re: RegExp) => matchAll(r, re, c.start, c.end).filter((m) => !r.used[m.index]);
  for (const m of seg(
    new RegExp(`\\b(?:(?:in|during|over|within|for) )?(?:the )?(?:last|past|previous) ${NUM}? ?seasons?\\b`),
  )) {
    const n = m[1] ? num(m[1]) : 1;
    if (Number.isNaN(n)) continue;
    out.push({ from: iso(minusUnit(r.now, 3 * n, "months")), label: m[0].trim() });
    take(r, m.index, m.index + m[0].length);
  }
  for (const m of seg(
    new RegExp(
      `\\b(?:(?:in|during|over|within|for) )?(?:the )?(?:last|past|previous) ${NUM}? ?(fortnights?|decades?)\\b`,
    ),
  )) {
    const n = m[1] ? num(m[1]) : 1;
    if (Number.isNaN(n)) continue;
    const from = m[2]!.startsWith("fortnight")
      ? minusUnit(r.now, 14 * n, "days")
      : minusUnit(r.now, 10 * n, "years");
    out.push({ from: iso(from), label: m[0].trim() });
    take(r, m.index, m.index + m[0].length);
  }
  for (const m of seg(/\b(?:(?:in|during) )?(this|last|the current|the previous) season\b/)) {
    // The current season is the one of the four begun latest.
    const starts = Object.keys(SEASON_START).map((k) => seasonStart(k, r.now));
    const current = new Date(Math.max(...starts.map((d) => d.getTime())));
    const from = /this|current/.test(m[1]!) ? current : minusUnit(current, 3, "months");
    const to = /this|current/.test(m[1]!) ? undefined : current;
    out.push({ from: iso(from), ...(to ? { to: iso(to) } : {}), label: m[0].trim() });
    take(r, m.index, m.index + m[0].length);
  }
  for (const m of seg(
    /\b(?:(since|after|before|until|in|during|over|across|throughout) )?(?:(this|last|the) )?(spring|summer|autumn|fall|winter)(?: (?:of )?((?:19|20)\d{2}))?\b/,
  )) {
    const [whole, cue, which, name, yearText] = m;
    if (!cue && !which && !yearText) continue;
    let start: Date;
    if (yearText) {
      const y = Number(yearText) - (name === "winter" ? 1 : 0);
      start = utc(y, SEASON_START[name!]!);
    } else {
      start = seasonStart(name!, r.now);
      // "last summer" while it is summer is the one before.
      if (which === "last" && minusUnit(r.now, 3, "months") < start) start = seasonStart(name!, r.now, 1);
    }
    const end = utc(start.getUTCFullYear(), start.getUTCMonth() + 3);
    let w: Window;
    if (cue === "since") w = { from: iso(start), label: whole };
    else if (cue === "after") w = { from: iso(end), label: whole };
    else if (cue === "before") w = { to: iso(start), label: whole };
    else if (cue === "until") w = { to: iso(end), label: whole };
    else w = { from: iso(start), to: iso(end), label: whole };
    out.push(w);
    take(r, m.index, m.index + whole.length);
  }
  return out;
}

/** Words before a date that say which side of it the window lies. */
const DATE_CUE =
  /\b(since|after|from|starting|before|prior to|until|till|up to|by|in|during|on|across|throughout|between|and|to|through)\s+(?:the\s+)?$/;

/** A date chrono found as a UTC day, month or year, with the span its certain parts name. */
function span(res: ParsedResult["start"], now: Date): { start: Date; end: Date } {
  const y = res.get("year")!;
  const mo = res.get("month")! - 1;
  const d = res.get("day")!;
  let start: Date;
  let end: Date;
  if (res.isCertain("day")) {
    start = utc(y, mo, d);
    end = utc(y, mo, d + 1);
  } else if (res.isCertain("month")) {
    start = utc(y, mo);
    end = utc(y, mo + 1);
  } else {
    start = utc(y);
    end = utc(y + 1);
  }
  // A date written without its year is the latest one not after the judging day.
  if (!res.isCertain("year") && start > now) {
    start = new Date(Date.UTC(start.getUTCFullYear() - 1, start.getUTCMonth(), start.getUTCDate()));
    end = new Date(Date.UTC(end.getUTCFullYear() - 1, end.getUTCMonth(), end.getUTCDate()));
  }
  return { start, end };
}

/**
 * Dates by chrono-node, where the hand-written grammar has none: days ("since 3 March 2024", "before
 * 15/06/2025", "from the 3rd of March 2022", "since 2024-03-01") and ranges chrono reads whole ("between 1
 * March and 15 April 2024"). Only a date with a month or a year, or a relative phrase chrono places against the
 * judging day, is taken: a weekday or a time of day ("sun prints", "at 5") is no window.
 */
function readDates(r: Reader, c: Clause): Window[] {
  const out: Window[] = [];
  const segment = r.text.slice(c.start, c.end);
  let results: ParsedResult[];
  try {
    results = chrono.parse(segment, { instant: r.now, timezone: 0 });
  } catch {
    return out;
  }
  let pendingFrom: { from: Date; at: number; stop: number; yearCertain: boolean } | null = null;
  for (const res of results) {
    const at = c.start + res.index;
    const stop = at + res.text.length;
    if (r.used.slice(at, stop).some(Boolean)) continue;
    const s = res.start;
    if (s.isCertain("hour") || /^(?:now|right now|today|tonight)$/.test(res.text.trim())) continue;
    if (!s.isCertain("month") && !s.isCertain("year")) continue;
    const { start, end } = span(s, r.now);
    const cue = DATE_CUE.exec(r.text.slice(c.start, at));
    const cueStart = cue ? c.start + cue.index : at;
    const word = cue?.[1];
    const label = r.text.slice(cueStart, stop);
    if (res.end) {
      const e = span(res.end, r.now);
      out.push({ from: iso(start), to: iso(e.end), label });
    } else if (
      word === "between" ||
      (word === "from" && /\b(?:to|until|till|and)\b/.test(r.text.slice(stop, c.end)))
    ) {
      pendingFrom = { from: start, at: cueStart, stop, yearCertain: s.isCertain("year") };
      continue;
    } else if (pendingFrom && (word === "and" || word === "to" || word === "until" || word === "till")) {
      // "between 1 March and 15 April 2024": a start written without its year takes the end's.
      let from = pendingFrom.from;
      if (!pendingFrom.yearCertain && s.isCertain("year")) {
        from = utc(start.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
        if (from > start) from = utc(start.getUTCFullYear() - 1, from.getUTCMonth(), from.getUTCDate());
      }
      out.push({ from: iso(from), to: iso(end), label: r.text.slice(pendingFrom.at, stop) });
      take(r, pendingFrom.at, stop);
      pendingFrom = null;
      continue;
    } else if (word === "since" || word === "from" || word === "starting")
      out.push({ from: iso(start), label });
    else if (word === "after") out.push({ from: iso(end), label });
    else if (word === "before" || word === "prior to") out.push({ to: iso(start), label });
    else if (word === "until" || word === "till" || word === "up to" || word === "by")
      out.push({ to: iso(end), label });
    else out.push({ from: iso(start), to: iso(end), label });
    take(r, cueStart, stop);
  }
  if (pendingFrom) {
    // A "from" whose end was not a date reads as a start.
    out.push({ from: iso(pendingFrom.from), label: r.text.slice(pendingFrom.at, pendingFrom.stop) });
    take(r, pendingFrom.at, pendingFrom.stop);
  }
  return out;
}

const CURRENCY: Record<string, string> = {
  "£": "GBP",
  $: "USD",
  "€": "EUR",
  gbp: "GBP",
  usd: "USD",
  eur: "EUR",
  chf: "CHF",
  pounds: "GBP",
  pound: "GBP",
  dollars: "USD",
  dollar: "USD",
  euros: "EUR",
  euro: "EUR",
  francs: "CHF",
  us$: "USD",
  hk$: "HKD",
  hkd: "HKD",
  jpy: "JPY",
  yen: "JPY",
  "¥": "JPY",
  sgd: "SGD",
};

function amountOf(n: string, mult: string | undefined) {
  const v = Number(n.replace(/,/g, ""));
  if (!mult) return v;
  if (mult === "k" || mult === "thousand") return v * 1000;
  return v * 1_000_000;
}

/** Comparisons with amounts of money: "over £50k", "for under €2,000", "between $10k and $20k". */
function readMoney(r: Reader, c: Clause): Bound[] | null {
  const cur = "(£|\\$|€|us\\$|hk\\$|¥|gbp|usd|eur|chf|hkd|jpy|sgd)";
  const amt = "(\\d[\\d,.]*) ?(k|m|thousand|million)?";
  const word = "(gbp|usd|eur|chf|hkd|jpy|sgd|pounds?|dollars?|euros?|francs|yen)";
  const value = `(?:${cur} ?${amt}|${amt} ?${word}?)`;
  const parse = (g: (string | undefined)[]): { amount: number; currency: string | null } => {
    const [c1, a1, m1, a2, m2, w2] = g;
    if (a1) return { amount: amountOf(a1, m1), currency: CURRENCY[c1!] ?? null };
    return { amount: amountOf(a2!, m2), currency: w2 ? (CURRENCY[w2] ?? null) : null };
  };
  const between = matchAll(
    r,
    new RegExp(`\\b(?:between|from) ${value} (?:and|to|-) ${value}(?![\\w])`),
    c.start,
    c.end,
  )[0];
  if (between) {
    const lo = parse(between.slice(1, 7));
    const hi = parse(between.slice(7, 13));
    const currency = lo.currency ?? hi.currency;
    if (!currency) return null;
    take(r, between.index, between.index + between[0].length);
    return [
      { op: ">", money: { amount: lo.amount, currency } },
      { op: "<", money: { amount: hi.amount, currency } },
    ];
  }
  const cmp =
    "(over|above|more than|greater than|at least|in excess of|upwards of|north of|under|below|less than|up to|at most|no more than|>|<)";
  const lead = "(?:(?:priced|costing|worth|valued|at|for) )?";
  const after = matchAll(
    r,
    new RegExp(
      `${lead}${value}(?: ?\\+| or more| or above| and (?:up|above|over)| plus| or less| or under| and under| or below)(?![\\w])`,
    ),
    c.start,
    c.end,
  )[0];
  if (after) {
    const v = parse(after.slice(1, 7));
    if (v.currency) {
      take(r, after.index, after.index + after[0].length);
      const op = /less|under|below/.test(after[0]) ? "<" : ">";
      return [{ op, money: { amount: v.amount, currency: v.currency } }];
    }
  }
  const m = matchAll(r, new RegExp(`\\b${lead}${cmp} (?:a total of )?${value}(?![\\w])`), c.start, c.end)[0];
  if (!m) return null;
  const v = parse(m.slice(2, 8));
  if (!v.currency) return null;
  const op = /^(under|below|less than|up to|at most|no more than|<)$/.test(m[1]!) ? "<" : ">";
  take(r, m.index, m.index + m[0].length);
  return [{ op, money: { amount: v.amount, currency: v.currency } }];
}

interface VocabularyEntry {
  name?: string;
  phrases: string[];
  types?: string[];
  /** Words that show the entry in a contact's own text: one list, or one per language. */
  terms?: string[] | Record<string, string[]>;
  /** Contact types that usually mean the role, for a contact whose company and notes say nothing. */
  typesIfSilent?: string[];
  /** A place a role is held ("museum" in "museum curators"): qualifies the role next to it. */
  within?: boolean;
  interactions?: string[];
  families?: string[];
  edition?: boolean;
  minCm?: number;
}

/** The reviewed vocabulary (vocabulary/rubric.json), each section's phrases longest first. */
function section(entries: VocabularyEntry[]): { re: RegExp; phrase: string; entry: VocabularyEntry }[] {
  return entries
    .flatMap((entry) =>
      entry.phrases.map((phrase) => ({
        phrase,
        entry,
        re: new RegExp(
          `(?<![\\w-])${fold(phrase)
            .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
            .replace(/ /g, "\\s+")}(?![\\w-])`,
        ),
      })),
    )
    .sort((a, b) => b.phrase.length - a.phrase.length);
}
/** An entry's terms in every language, as one list. */
export const termsOf = (e: VocabularyEntry): string[] =>
  e.terms ? [...new Set(Array.isArray(e.terms) ? e.terms : Object.values(e.terms).flat())] : [];

const ROLES = section((vocabulary.roles as unknown as VocabularyEntry[]).filter((e) => !e.within));
const ROLE_PLACES = section((vocabulary.roles as unknown as VocabularyEntry[]).filter((e) => e.within));
const EVENTS = section(vocabulary.events as unknown as VocabularyEntry[]);
const WORK_FAMILIES = section((vocabulary.works as unknown as VocabularyEntry[]).filter((e) => e.families));
const WORK_FACTS = section((vocabulary.works as unknown as VocabularyEntry[]).filter((e) => !e.families));

/** The first unread phrase of a vocabulary section in a stretch of the rubric, taken. */
function readVocabulary(r: Reader, list: typeof ROLES, from: number, to: number) {
  for (const v of list) {
    for (const m of matchAll(r, v.re, from, to)) {
      if (r.used.slice(m.index, m.index + m[0].length).some(Boolean)) continue;
      take(r, m.index, m.index + m[0].length);
      return { ...v, start: m.index, text: r.original.slice(m.index, m.index + m[0].length) };
    }
  }
  return null;
}

/** Kinds of work by size or edition named in a clause ("monumental", "multiples"). */
function readWorkFacts(r: Reader, c: Clause): { edition?: boolean; minCm?: number } | undefined {
  const out: { edition?: boolean; minCm?: number } = {};
  for (
    let v = readVocabulary(r, WORK_FACTS, c.start, c.end);
    v;
    v = readVocabulary(r, WORK_FACTS, c.start, c.end)
  ) {
    if (v.entry.edition) out.edition = true;
    if (v.entry.minCm) out.minCm = v.entry.minCm;
  }
  return out.edition || out.minCm ? out : undefined;
}

/** Media families named in a clause ("sculpture or ceramics", "works on paper"). */
function readFamilies(r: Reader, c: Clause): Family[] | undefined {
  const out = new Set<Family>();
  for (const [phrase, fams] of MEDIUM_PHRASES) {
    const re = new RegExp(`(?<![\\w-])${phrase.replace(/ /g, "\\s+")}(?![\\w-])`);
    for (const m of matchAll(r, re, c.start, c.end)) {
      if (r.used.slice(m.index, m.index + m[0].length).some(Boolean)) continue;
      for (const f of fams) out.add(f);
      take(r, m.index, m.index + m[0].length);
    }
  }
  // Kinds of work the reviewed vocabulary names ("site-specific", "moving image").
  for (
    let v = readVocabulary(r, WORK_FAMILIES, c.start, c.end);
    v;
    v = readVocabulary(r, WORK_FAMILIES, c.start, c.end)
  ) {
    for (const f of v.entry.families as Family[]) out.add(f);
  }
  return out.size ? [...out] : undefined;
}

/** Capitalised words that are vocabulary, not a name ("VIP", "UK", a sentence's first word). */
const NOT_NAMES =
  /^(vips?|uk|us|usa|eu|gb|uae|nyc|i|collectors?|clients?|contacts?|people|anyone|museums?|institutions?|press|advisors?|buyers?|lapsed|dormant|new|repeat|first|top|our|the|all|any|european|asian)$/;

/**
 * Artists: capitalised words after "by"/"of" ("work by Ilse Marten"), or a capitalised name before a noun ("a
 * Callum Boyd painting"), that are not a place; a list joined by "or"/"and" names several.
 */
function readArtists(r: Reader, c: Clause): string[] | undefined {
  const name =
    "((?:[A-ZÀ-Ý][\\p{L}'’-]+)(?: (?:(?:de|van|von|der|da|di|le|la|del|du) )?[A-ZÀ-Ý][\\p{L}'’-]+)+)";
  const slice = r.original.slice(c.start, c.end);
  const candidates = [
    ...slice.matchAll(new RegExp(`\\b(?:by|of|from) ${name}`, "gu")),
    ...slice.matchAll(new RegExp(`(?<![\\p{L}])${name}`, "gu")),
  ];
  const isName = (text: string) => {
    if (NOT_NAMES.test(fold(text.split(" ")[0]!))) return false;
    const places = findPlaces(text);
    return !places.some((p) => p.end - p.start >= text.length - 1);
  };
  for (const m of candidates) {
    const raw = m[1]!;
    const start = c.start + m.index + m[0].length - raw.length;
    if (r.used.slice(start, start + raw.length).some(Boolean) || !isName(raw)) continue;
    const out = [raw.replace(/['’]s$/, "")];
    take(r, c.start + m.index, start + raw.length);
    // Further names in a list: "by Callum Boyd or Tomás Reyes".
    let end = start + raw.length;
    const more = new RegExp(`^(?:,\\s*|\\s+or\\s+|\\s+and\\s+|,\\s*(?:or|and)\\s+)${name}`, "u");
    for (
      let next = more.exec(r.original.slice(end, c.end));
      next && isName(next[1]!);
      next = more.exec(r.original.slice(end, c.end))
    ) {
      out.push(next[1]!.replace(/['’]s$/, ""));
      take(r, end, end + next[0].length);
      end += next[0].length;
    }
    return out;
  }
  return undefined;
}

/** What a count counts: works, purchases, times, kinds of work. */
const COUNT_NOUN =
  "(?:works?|pieces?|artworks?|purchases?|acquisitions?|sales?|times|paintings?|prints?|photographs?|sculptures?|drawings?|editions?|newsletters?|emails?|rooms?|things)";
// Up to two describing words may stand between the number and the noun ("two or more contemporary paintings",
// "at least 3 large works"); they are left for the other readers. A unit of time, a currency or a verb is never one.
const COUNT_DESCRIBING =
  "(?:(?!(?:days?|weeks?|months?|years?|seasons?|decades?|and|or|of|in|since|before|after|for|by|with|who|that|bought|buys?|buying|purchased|k|m|eur|euros?|usd|dollars?|gbp|pounds?|chf|francs?|yen|jpy|cny|rmb|yuan|won|krw|sek|dkk|nok|kronor|kroner|krona|krone)\\b)[\\p{L}][\\p{L}'’-]* ){0,2}";
const COUNT = new RegExp(
  `\\b(at least|min(?:imum)?(?: of)?|more than|over|fewer than|less than|under|at most|no more than|exactly|only|just)? ?${NUM} ?(?:\\+ ?)?(?:or more |or fewer |or less )?(?:(?:different|separate|individual|other) )?(?=${COUNT_DESCRIBING}${COUNT_NOUN}\\b)`,
  "u",
);
/** "two paintings or more": the comparison after the noun. */
const COUNT_AFTER = new RegExp(
  `^(?:[\\p{L}][\\p{L}'’-]* ){0,3}?${COUNT_NOUN}( or (?:more|fewer|less))\\b`,
  "u",
);

/** A count of works or events: "at least 3 works", "more than one work", "two purchases", "twice". */
function readCount(r: Reader, c: Clause): { op: ">=" | "<=" | "="; n: number } | undefined {
  for (const m of matchAll(r, COUNT, c.start, c.end)) {
    const n = num(m[2]!);
    if (Number.isNaN(n)) continue;
    // An amount of money is no count ("€5000 bought works").
    if (/[€$£¥₩]\s?$/u.test(r.text.slice(Math.max(0, m.index - 2), m.index + (m[1] ? m[1].length + 1 : 0))))
      continue;
    const mod = m[1];
    // "two paintings or more": the comparison after the noun, taken with the count.
    const after = COUNT_AFTER.exec(r.text.slice(m.index + m[0].length, c.end));
    const tail = `${m[0]}${after?.[1] ?? ""}`;
    if (after?.[1]) {
      const at = m.index + m[0].length + after[0].length - after[1].length;
      take(r, at, at + after[1].length);
    }
    // "a painting" is an object, not a count, unless a comparison is written.
    if ((m[2] === "a" || m[2] === "an") && !mod) {
      take(r, m.index, m.index + m[0].length);
      return undefined;
    }
    let op: ">=" | "<=" | "=" = ">=";
    let value = n;
    if (mod === "more than" || mod === "over") value = n + 1;
    else if (mod === "fewer than" || mod === "less than" || mod === "under") {
      op = "<=";
      value = n - 1;
    } else if (mod === "at most" || mod === "no more than" || /or (fewer|less)/.test(tail)) op = "<=";
    else if (mod === "exactly" || mod === "only" || mod === "just") op = "=";
    take(r, m.index, m.index + m[0].length);
    return { op, n: value };
  }
  for (const m of matchAll(
    r,
    /\b(?:(at least|more than) )?(once|twice|three times|several times|multiple times|repeatedly)(?: or more)?\b/,
    c.start,
    c.end,
  )) {
    const base = {
      once: 1,
      twice: 2,
      "three times": 3,
      "several times": 3,
      "multiple times": 2,
      repeatedly: 2,
    }[m[2]!]!;
    take(r, m.index, m.index + m[0].length);
    if (m[1] === "more than") return { op: ">=", n: base + 1 };
    if (!m[1] && base === 1) return { op: "=", n: 1 };
    return { op: ">=", n: base };
  }
  for (const m of matchAll(r, /\b(multiple|several|many|repeat|repeated)\b/, c.start, c.end)) {
    take(r, m.index, m.index + m[0].length);
    return { op: ">=", n: m[1] === "several" || m[1] === "many" ? 3 : 2 };
  }
  return undefined;
}

const PREDICATE_KINDS = ["purchase", "spend", "engagement", "interaction", "interest", "created"] as const;
type PredicateKind = (typeof PREDICATE_KINDS)[number];

const NEG =
  /\b(never|not|no|nothing|none|without|haven't|hasn't|hadn't|didn't|don't|doesn't|isn't|aren't|wasn't|weren't|havent|hasnt|didnt|dont|doesnt|no longer|neither|nor)\b/;

const ENGAGEMENTS: [RegExp, string[]][] = [
  [
    /\b(?:opened|opens|open|read|reads)(?: (?:a|an|the|our|any|one of our|one of the))? (?:newsletters?|e-?mails?|mail-?outs?|mailers?|campaigns?|e-?blasts?)\b|\bnewsletter (?:openers?|opens)\b/,
    ["email_opened"],
  ],
  [
    /\b(?:viewed|visited|opened|looked at|saw|seen|browsed|went into|checked out)(?: (?:a|an|the|our|any))?(?: (?:online|virtual|digital|private))*(?: viewing)? rooms?\b|\b(?:online|virtual) (?:viewing )?rooms?\b|\bviewing rooms?\b/,
    ["room_opened"],
  ],
  [
    /\b(?:viewed|looked at|browsed)(?: (?:a|an|the|our|any))? (?:artworks?|works?|pieces?) (?:online|on (?:the |our )?(?:website|site))\b/,
    ["artwork_viewed"],
  ],
  [/\bclicked(?: (?:a|an|the|on|through))*(?: (?:link|links|newsletter|email))?\b/, ["link_clicked"]],
  [/\b(?:started|began|abandoned|opened)(?: (?:a|the))? checkouts?\b|\bcheckouts?\b/, ["checkout_started"]],
  [
    /\b(?:joined|on|signed up (?:to|for))(?: (?:a|the|any))? wait ?-?lists?\b|\bwait ?-?listed\b|\bwait ?-?lists?\b/,
    ["waitlist_joined"],
  ],
  [
    /\bfavou?rit(?:ed|ised|ized)\b|\badded(?: (?:a|an|the))? (?:works? |artworks? )?to (?:their )?favou?rites\b/,
    ["favorite_added"],
  ],
  [
    /\b(?:submitted|sent|made)(?: (?:a|an))?(?: online)? (?:inquiry|enquiry|inquiries|enquiries)(?: online)?\b|\b(?:inquired|enquired)(?: online| about (?:a |an |the )?(?:work|artwork|piece)s?)?\b|\bmade (?:an )?(?:inquiry|enquiry)\b/,
    ["inquiry_submitted"],
  ],
  [/\bunsubscribed\b|\bopted[ -]out\b/, ["unsubscribed"]],
  [
    /\b(?:downloaded|viewed|opened)(?: (?:a|the|our))? (?:pdf|catalogue|catalog|price ?list|documents?)\b/,
    ["document_viewed"],
  ],
  [/\b(?:entered|joined)(?: (?:a|the))? (?:drop|ballot)s?\b/, ["drop_entered"]],
];

const INTERACTIONS: [RegExp, string[] | undefined][] = [
  [
    /\b(?:visited|came (?:in)?to|came in to|been (?:in)?to|been back(?: to| in)?|come back(?: to| in)?|came back(?: to| in)?|returned to|stopped by)(?: (?:the|our))? (?:gallery|space|show|opening|private view)\b|\bcame in\b|\b(?:been|come|came) back\b/,
    ["visit"],
  ],
  [
    // Seeing someone (or seeing or speaking to them) is a call, a meeting or a visit; an email is neither.
    /\b(?:seen or spoken (?:to|with)|seen or talked (?:to|with)|seen)\b/,
    ["call", "meeting", "visit"],
  ],
  [
    /\b(?:in touch|contacted|spoken (?:to|with)|spoke (?:to|with)|talked (?:to|with)|heard from|reached out to|reached|followed up with|contact with|touched base|no contact|contact at all|contact)\b/,
    undefined,
  ],
  [/\b(?:called|phoned|rang|calls?)\b/, ["call"]],
  [
    /\b(?:interactions?|touch ?points?|conversations?|contact from us|contact with us|any contact)\b/,
    undefined,
  ],
  [/\b(?:met|meeting|meetings|met with)\b/, ["meeting", "visit"]],
  [
    /\b(?:visits?|visited|attended|came to)\b(?: (?:an|a|the|our)\b)?(?: (?:openings?|private views?|shows?|exhibitions?|gallery|events?|dinners?)\b)?/,
    ["visit"],
  ],
];

const PURCHASE =
  /\b(completed (?:a |any )?(?:purchases?|sales?)|bought|buy|buys|buying|paid|purchased|purchases?|purchasing|acquired|acquisitions?|own|owns|owned|buyers?|purchasers?|sales?|sold to)\b/;
const SPEND =
  /\b((?:big |high |heavy |serious )?(?:spent|spend|spends|spending|spender|spenders)|average purchase|average spend|avg)\b/;
const INTEREST =
  /\b(interested in|interest in|interests? include|into|keen on|fans? of|loves?|likes?|passionate about|collects?|collecting|focus(?:ed|es)? on|enthusiasts?|obsessed with)\b/;

interface TopicEntry {
  name: string;
  /** The rubric's words for it (folded; a trailing "*" takes any ending). */
  phrases: string[];
  /** Words and names that show it in a contact's own text, per language; the judge looks for all of them. */
  terms: Record<string, string[]>;
  families?: Family[];
  /** Works made in these years show it too ("old masters": before 1800). */
  years?: [number | null, number | null];
}

/** A vocabulary phrase as a pattern over folded text: whole words, a trailing "*" any ending. */
export function phrasePattern(phrase: string): string {
  const star = phrase.endsWith("*");
  const body = (star ? phrase.slice(0, -1) : phrase)
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/ /g, "[\\s-]+");
  return `(?<![\\p{L}\\d])${body}${star ? "[\\p{L}-]*" : ""}(?![\\p{L}\\d])`;
}

/** Topics of interest people write in notes (vocabulary/rubric.json topics), first match wins. */
const TOPICS = (vocabulary.topics as unknown as TopicEntry[]).map((t) => ({
  re: new RegExp(t.phrases.map(phrasePattern).join("|"), "u"),
  entry: t,
}));

/** A period or movement with years named with a purchase ("modernist works on paper"): when the work was made. */
function readPeriod(
  r: Reader,
  c: Clause,
): { name: string; years: [number | null, number | null] } | undefined {
  for (const { re, entry } of TOPICS) {
    if (!entry.years) continue;
    const m = matchAll(r, re, c.start, c.end).find((x) => !r.used[x.index]);
    if (!m) continue;
    take(r, m.index, m.index + m[0].length);
    return { name: entry.name, years: entry.years };
  }
  return undefined;
}

type InterestTopic = {
  topic: string;
  terms: string[];
  families?: Family[];
  years?: [number | null, number | null];
  style?: string;
};

/**
 * The topic an interest names (vocabulary/rubric.json topics, first match wins), with the style it is where the
 * shared style vocabulary has it (lib/engine/styles.ts: its terms in every language join the topic's). A style
 * named with a medium ("colour-field painting") is the style, not the medium's topic; a style the topics do not
 * have ("arte povera", "photorealism") is read from the style vocabulary alone.
 */
function readInterestTopic(topic: string): InterestTopic | null {
  const named = findStyles(fold(topic).normalize("NFC"))[0]?.style;
  for (const { re, entry } of TOPICS) {
    if (!re.test(topic)) continue;
    if (named && entry.families && styleOfTopic(entry.name)?.key !== named) break;
    const style = styleOfTopic(entry.name)?.key;
    return {
      topic: entry.name,
      terms: [...new Set([...Object.values(entry.terms).flat(), ...(style ? styleTerms(style) : [])])],
      ...(entry.families ? { families: entry.families } : {}),
      ...(entry.years ? { years: entry.years } : {}),
      ...(style ? { style } : {}),
    };
  }
  return named ? styleInterest(named) : null;
}

/** An interest in a style, from the style vocabulary (and its rubric topic's terms, where it is one). */
function styleInterest(style: string): InterestTopic {
  const entry = styleEntry(style);
  const topic = entry?.topic ? TOPICS.find((t) => t.entry.name === entry.topic)?.entry : undefined;
  return {
    topic: topic?.name ?? styleLabel(style),
    terms: [...new Set([...Object.values(topic?.terms ?? {}).flat(), ...styleTerms(style)])],
    ...(topic?.years ? { years: topic.years } : {}),
    style,
  };
}

function clausesOf(r: Reader): Clause[] {
  const splitter =
    /,(?!\d{3})|[;:()]|\bbut\b|\bwho(?:m|'ve|'d|'s)?\b|\bwhose\b|\bthat\b|\bwhich\b|\b(and|or)\b(?= (?:never|not|no|nothing(?! else)|have|has|had|haven't|hasn't|bought|purchased|opened|viewed|clicked|joined|started|spent|own|owns|are|is|were|was|did|didn't|also|then|who|those|anyone|people|contacts)\b)/g;
  const out: Clause[] = [];
  let start = 0;
  let join: "and" | "or" = "and";
  for (const m of r.text.matchAll(splitter)) {
    out.push({ start, end: m.index, join });
    join = m[1] === "or" ? "or" : "and";
    take(r, m.index, m.index + m[0].length);
    start = m.index + m[0].length;
  }
  out.push({ start, end: r.text.length, join });
  return out.filter((c) => r.text.slice(c.start, c.end).trim().length > 0);
}

const TYPES: [RegExp, string[]][] = [
  // "collectors' dinner" names an event, not who.
  [/\bcollectors?\b(?!'\s*\w)/, ["collector"]],
  [
    /\b(?:institutions?|institutional|museums?|foundations?|public collections?|universit(?:y|ies)|libraries|kunsthallen?)\b/,
    ["institution"],
  ],
  [/\b(?:art )?(?:advisors?|advisers?|consultants?|advisories)\b/, ["advisor"]],
  [/\b(?:press|journalists?|critics?|writers?|editors?|reporters?|media contacts?)\b/, ["press"]],
  [/\bconsignors?\b/, ["consignor"]],
  [/\blenders?\b/, ["lender"]],
];

const LEADS: [RegExp, string][] = [
  [/\bdormant\b/, "dormant"],
  [/\bactive (?:leads?|contacts?)\b/, "active"],
  [/\bengaged (?:leads?|contacts?)\b/, "engaged"],
  [/\bnew leads?\b/, "new"],
  [/\bclosed (?:leads?|contacts?)\b/, "closed"],
];

/** Unread words that name a time the reader could not place: the rubric is refused rather than the time dropped. */
const UNPLACED_TIME =
  /^(?:time|times|period|era|moment|when|whenever|while|around|seasons?|spring|summer|autumn|fall|winter|weeks?|weekends?|fortnights?|months?|years?|decades?|days?|ago|earlier|later|before|after|until|till|since|during|past|previous|half|quarter|easter|christmas|xmas|(?:19|20)\d{2})$/;

/** A past participle after "'d" makes it a "had": "who'd bought", "who'd been in". */
const PARTICIPLE =
  /^(?:\w+ed|been|bought|seen|spent|met|had|done|made|come|gone|read|sold|given|taken|spoken|heard|shown|lent|left|paid|sent|got|gotten|never|not|already|ever|once)$/;

const LIKING =
  /^(?:loves?|loved|likes?|liked|adores?|enjoys?|appreciates?|wants?|keen|fans?|passionate|into|interested|interests?|admires?|prefers?)$/;

/** Parts of speech that carry a topic; other unread words (a stray "very", "about") are read as nothing. */
const TOPIC_POS = new Set(["NOUN", "PROPN", "ADJ", "X", "NUM"]);

/**
 * Words the grammar has no entry for, as interests: each run of adjacent unread words in a clause is one topic
 * ("Bauhaus furniture" needs both words in one clause of the contact's text), its nouns and adjectives the
 * terms (a run of verbs alone is an action the grammar does not know, and refuses); runs joined by "or" are
 * alternatives. The clause's negation holds when
 * the clause formed no criterion of its own ("not ceramics"). Null when a word cannot be an interest (a bare
 * number, a negation left over, an amount).
 */
function looseInterests(
  r: Reader,
  leftover: { start: number; end: number; word: string }[],
  clauses: Clause[],
  clauseState: Map<Clause, { negated: boolean; formed: boolean }>,
  asides: { start: number; end: number }[],
): { criteria: Criteria["all"]; unread: string[] } | null {
  const tokens = sentences(r.original).flatMap((s) => s.tokens);
  const unread: string[] = [];
  const clauseAt = (at: number) => clauses.find((c) => at >= c.start && at < c.end);
  type Word = (typeof leftover)[number] & { topic: boolean; verb: boolean };
  const words: Word[] = [];
  for (const w of leftover) {
    // A negation left over could turn the reading around: refused. A stray amount is named as unread.
    if (NEG.test(w.word)) return null;
    if (/^[\d£$€¥,.'-]+$/.test(w.word) || CURRENCY[w.word]) {
      take(r, w.start, w.end);
      unread.push(r.original.slice(w.start, w.end));
      continue;
    }
    const pos = tokens.filter((t) => t.start < w.end && t.end > w.start).map((t) => t.pos);
    // A liking word left unread ("love" when its topic was read as something else) is a verb, never a topic.
    const liking = LIKING.test(w.word);
    const verb = liking || pos.includes("VERB");
    const topic =
      !liking && (pos.some((p) => TOPIC_POS.has(p)) || (verb && /ing$/.test(w.word)) || pos.length === 0);
    words.push({ ...w, topic, verb });
  }
  const runs: Word[][] = [];
  for (const w of words) {
    const last = runs[runs.length - 1];
    const prev = last?.[last.length - 1];
    if (
      prev &&
      /^[\s-]*$/.test(r.text.slice(prev.end, w.start)) &&
      clauseAt(prev.start) === clauseAt(w.start)
    )
      last!.push(w);
    else runs.push([w]);
  }
  const out: Criteria["all"] = [];
  let before: { end: number; clause: Clause | undefined; c: Criterion; at: number } | null = null;
  for (const run of runs) {
    const start = run[0]!.start;
    const end = run[run.length - 1]!.end;
    take(r, start, end);
    // A topic word is a word: one Chinese or Japanese character, or two Latin letters, is a fragment.
    const chosen = run.filter(
      (w) =>
        w.topic &&
        (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(w.word)
          ? w.word.length > 1
          : w.word.length > 2 || run.length > 1),
    );
    const clause = clauseAt(start);
    const state = clause ? clauseState.get(clause) : undefined;
    // Words the reader cannot place become an interest only where they are the clause's whole point. Beside a
    // criterion their clause formed ("through the website", "at a fair"), or in an aside ("(banks, insurers)",
    // "— after-opening dinners —"), they qualify what was read in ways it cannot check: named as unread, not
    // made a condition of their own. So is a verb with no topic, or a fragment.
    const aside = asides.some((a) => start >= a.start && end <= a.end);
    if (chosen.length === 0 || state?.formed || aside) {
      if (chosen.length || run.some((w) => w.verb)) unread.push(r.original.slice(start, end));
      continue;
    }
    const phrase = r.original.slice(start, end);
    // A style the shared vocabulary knows ("collectors of minimal art") is that style, not loose words.
    const style = findStyles(fold(r.text.slice(start, end)).normalize("NFC"))[0]?.style;
    const c: Criterion = style
      ? { kind: "interest", negated: !!state?.negated && !state.formed, ...styleInterest(style), phrase }
      : {
          kind: "interest",
          negated: !!state?.negated && !state.formed,
          topic: chosen.map((w) => r.original.slice(w.start, w.end)).join(" "),
          terms: chosen.map((w) => w.word),
          ...(chosen.length > 1 ? { allTerms: true } : {}),
          loose: true,
          phrase,
        };
    // "ceramics or textiles": alternatives in one clause.
    if (before && before.clause === clause && /^\s*,?\s*or\s*$/.test(r.text.slice(before.end, start))) {
      take(r, before.end, start);
      const prevItem = out[before.at]!;
      if (prevItem.kind === "any") {
        prevItem.items.push(c);
        prevItem.phrase += ` or ${phrase}`;
      } else
        out[before.at] = {
          kind: "any",
          items: [prevItem as Criterion, c],
          phrase: `${prevItem.phrase} or ${phrase}`,
        };
    } else out.push(c);
    before = { end, clause, c, at: out.length - 1 };
  }
  return { criteria: out, unread };
}

/** Reads a rubric; `ok: false` names the words that could not be read. */
export function read(describedAs: string, now: Date): ReadResult {
  // Another language's words in the grammar's English; the reading names the glossary it went through.
  const glossed = gloss(describedAs);
  const result = readEnglish(glossed.text, now);
  if (!glossed.language || !result.ok) return result;
  return { ...result, summary: `${result.summary} (read from ${glossed.language}: "${glossed.text}")` };
}

function readEnglish(describedAs: string, now: Date): ReadResult {
  const original = describedAs.replace(/[’‘`]/g, "'").replace(/[“”]/g, '"');
  if (!original.trim()) return { ok: false, reason: "the rubric is empty" };
  const text = fold(original);
  const r: Reader = { original, text, used: new Array(text.length).fill(false), now };
  const ranking = RANKING.exec(text);
  if (ranking && /\d|ten|twenty|fifty|hundred|spenders|buyers/.test(ranking[0])) {
    return {
      ok: false,
      reason: `"${original.slice(ranking.index, ranking.index + ranking[0].length)}" ranks contacts against each other; a rubric judges each contact on its own records`,
    };
  }
  const all: Criteria["all"] = [];

  // A head named before a colon ("lapsed buyers: two purchases before 2024, nothing since") is the segment's
  // name: its words are not read as criteria, the definition after the colon is.
  const colon = /^([^:—–]{1,60})(?::|\s[—–-]\s)\s*\S/.exec(text);
  let headEnd = 0;
  if (colon && !/\b(who|that|in|with)\b/.test(colon[1]!)) {
    headEnd = colon[0].length - 1;
    const head = colon[1]!;
    // Subject words in the head still say who ("VIP collectors: …").
    for (const [re, types] of TYPES) {
      const m = re.exec(head);
      if (m) all.push({ kind: "type", types, phrase: m[0] });
    }
    take(r, 0, colon[0].length - 1);
  }

  // Places: after "in/from/based in/outside", before a subject noun, or "X-based".
  const subjectAfter =
    /^(?:-based|-born)?\s*(?:based\s+)?(?:collectors?|contacts?|clients?|customers?|buyers?|people|advisors?|advisers?|institutions?|museums?|foundations?|press|vips?|consignors?|lenders?|leads?|friends|audience|members)\b/;
  const placeMentions = findPlaces(original).filter((p) => !r.used[p.start]);
  const places: Place[] = [];
  let placeNegated = false;
  const placePhrases: string[] = [];
  // Decide from the last mention back, so "German or Austrian collectors" carries the subject to both.
  const accepted = new Set<number>();
  for (let i = placeMentions.length - 1; i >= 0; i--) {
    const p = placeMentions[i]!;
    const before = text.slice(Math.max(0, p.start - 40), p.start);
    const after = text.slice(p.end);
    const cue =
      /\b(?:in|from|based in|located in|living in|resident in|around|across|near|outside(?: of)?|outwith)\s+(?:the\s+)?$/.exec(
        before,
      );
    const interestCue = /\b(?:interested|interest|into)\s+in\s+$|\binterested in\s+$/.test(before);
    const next = placeMentions[i + 1];
    const listedBefore =
      !!next &&
      accepted.has(i + 1) &&
      /^\s*(?:,|or|and|&|, or|, and)\s*(?:the\s+)?$/.test(text.slice(p.end, next.start));
    const subj = subjectAfter.exec(after) || /^-based\b/.test(after);
    if ((!cue || interestCue) && !subj && !listedBefore) continue;
    accepted.add(i);
  }
  // A list after one cue ("in Germany or Switzerland") takes the cue's place.
  for (let i = 0; i < placeMentions.length; i++) {
    const prev = placeMentions[i - 1];
    if (!prev || !accepted.has(i - 1) || accepted.has(i)) continue;
    const p = placeMentions[i]!;
    if (/^\s*(?:,|or|and|&|, or|, and)\s*(?:the\s+)?$/.test(text.slice(prev.end, p.start))) accepted.add(i);
  }
  for (let i = 0; i < placeMentions.length; i++) {
    if (!accepted.has(i)) continue;
    const p = placeMentions[i]!;
    const before = text.slice(Math.max(0, p.start - 40), p.start);
    const cue =
      /\b(?:(?:not|never)\s+(?:based\s+|located\s+|living\s+)?in|from|based in|located in|living in|resident in|around|across|near|outside(?: of)?|outwith|in)\s+(?:the\s+)?$/.exec(
        before,
      );
    if (cue && /outside|outwith|not|never/.test(cue[0])) placeNegated = true;
    places.push({ ...p.place, label: original.slice(p.start, p.end) });
    placePhrases.push(original.slice(p.start, p.end));
    take(r, p.start, p.end);
    if (cue) take(r, p.start - cue[0].length, p.start);
    const based = /^-based\b/.exec(text.slice(p.end));
    if (based) take(r, p.end, p.end + based[0].length);
  }
  for (const m of matchAll(r, /\b(?:or|and)\b|&/)) {
    // Connectors inside an accepted list of places.
    const prevUsed = r.used[m.index - 2];
    const nextUsed = r.used[m.index + m[0].length + 1];
    if (prevUsed && nextUsed) take(r, m.index, m.index + m[0].length);
  }
  if (places.length) {
    all.push({ kind: "place", places, negated: placeNegated, phrase: placePhrases.join(" or ") });
  }

  // Tags: "tagged Frieze 2025", "with the tag 'press list'", "not tagged VIP".
  for (const m of matchAll(
    r,
    /\b(not |never |un)?(?:tagged(?: as| with)?|with (?:the )?tags?|carrying (?:the )?tags?)\s+["'“‘]?([^"'”’,;]+?)["'”’]?(?=$|[,;]| who\b| and\b| but\b| or\b| that\b)/,
  )) {
    const at = m.index + m[0].indexOf(m[2]!);
    const names = original
      .slice(at, at + m[2]!.length)
      .split(/\s+or\s+/)
      .map((x) => x.trim())
      .filter(Boolean);
    all.push({ kind: "tag", names, negated: !!m[1], phrase: m[0].trim() });
    take(r, m.index, m.index + m[0].length);
  }

  // Subject types, VIPs, lead states, consent.
  const typeSet = new Set<string>();
  const typePhrases: string[] = [];
  // Roles from the reviewed vocabulary ("registrars", "dealers", "corporate collections"): what a contact does,
  // read from their company and own notes in any language, or a contact type where one records it. Roles named
  // together are alternatives; a place before one ("museum curators and registrars") qualifies them all.
  const roles: Extract<Criterion, { kind: "role" }>["roles"] = [];
  let within: { name: string; terms: string[] } | undefined;
  const rolePhrases: { start: number; end: number }[] = [];
  for (let v = readVocabulary(r, ROLES, 0, text.length); v; v = readVocabulary(r, ROLES, 0, text.length)) {
    const name = v.entry.name ?? v.phrase;
    if (!roles.some((x) => x.name === name))
      roles.push({
        name,
        terms: termsOf(v.entry),
        ...(v.entry.types ? { types: v.entry.types } : {}),
        ...(v.entry.typesIfSilent ? { typesIfSilent: v.entry.typesIfSilent } : {}),
      });
    rolePhrases.push({ start: v.start, end: v.start + v.text.length });
    // "museum curators", "registrars at a kunsthalle": the place word just before the role or after "at".
    const before = text.slice(0, v.start);
    const after = text.slice(v.start + v.text.length);
    for (const q of ROLE_PLACES) {
      const pre = new RegExp(`${q.re.source}(?:'s)?\\s*$`).exec(before);
      // "museum and kunsthalle curators": a place joined to the one before the role qualifies it too.
      const joined = pre
        ? ROLE_PLACES.map((o) =>
            new RegExp(`${o.re.source}\\s+(?:and|or|&|,)\\s+$`).exec(before.slice(0, pre.index)),
          )
            .filter((x): x is RegExpExecArray => !!x)
            .map((x) => ({
              x,
              entry: ROLE_PLACES.find((o) => new RegExp(`^${o.re.source}`).test(x[0]))!.entry,
            }))[0]
        : undefined;
      const post = new RegExp(`^\\s+(?:at|in|of|for)\\s+(?:a|an|the|our)?\\s*${q.re.source}`).exec(after);
      const m = pre ?? post;
      if (!m) continue;
      const from = pre ? pre.index : v.start + v.text.length;
      const to = pre ? v.start : from + post![0].length;
      if (r.used.slice(from, to).some(Boolean)) continue;
      take(r, from, to);
      within = { name: q.entry.name ?? q.phrase, terms: termsOf(q.entry) };
      rolePhrases.push({ start: from, end: to });
      if (joined && !r.used[joined.x.index]) {
        take(r, joined.x.index, from);
        within = {
          name: `${joined.entry.name ?? joined.x[0].trim()} or ${within.name}`,
          terms: [...new Set([...termsOf(joined.entry), ...within.terms])],
        };
        rolePhrases.push({ start: joined.x.index, end: from });
      }
      break;
    }
  }
  if (roles.length) {
    const from = Math.min(...rolePhrases.map((x) => x.start));
    const to = Math.max(...rolePhrases.map((x) => x.end));
    // The connectors between roles ("curators and registrars") are read with them.
    for (const m of matchAll(r, /\b(?:and|or)\b|,/, from, to)) take(r, m.index, m.index + m[0].length);
    all.push({ kind: "role", roles, ...(within ? { within } : {}), phrase: original.slice(from, to) });
  }
  for (const [re, types] of TYPES) {
    for (const m of matchAll(r, re)) {
      if (r.used[m.index]) continue;
      for (const t of types) typeSet.add(t);
      typePhrases.push(m[0]);
      take(r, m.index, m.index + m[0].length);
    }
  }
  if (typeSet.size) all.push({ kind: "type", types: [...typeSet], phrase: typePhrases.join(", ") });
  for (const m of matchAll(r, /\bvips?\b|\bvery important\b|\bkey (?:collectors|clients)\b/)) {
    if (r.used[m.index]) continue;
    if (!all.some((c) => c.kind === "vip")) all.push({ kind: "vip", phrase: m[0] });
    take(r, m.index, m.index + m[0].length);
  }
  for (const [re, status] of LEADS) {
    for (const m of matchAll(r, re)) {
      all.push({ kind: "lead", statuses: [status], phrase: m[0] });
      take(r, m.index, m.index + m[0].length);
    }
  }
  for (const m of matchAll(r, /\b(?:leads?|prospects?)\b/)) take(r, m.index, m.index + m[0].length);
  for (const m of matchAll(
    r,
    /\b(?:opted in|opted-in|consented|gave consent|marketing consent|email consent|(?:newsletter |mailing list |email )?subscribers|subscribed to (?:the |our )?(?:newsletter|mailing list|emails))\b/,
  )) {
    all.push({ kind: "consent", values: ["granted"], phrase: m[0] });
    take(r, m.index, m.index + m[0].length);
  }

  // A size written out ("more than 2 m on at least one side", "over 150 cm"): the work's longer side, for the
  // purchase it is written beside; the size words it defines ("a really big painting") are read with it.
  let size: { minCm: number; at: number } | undefined;
  const sized = matchAll(
    r,
    /\b(?:more than|over|at least|larger than|bigger than|above|wider than|taller than|>)\s*(\d+(?:[.,]\d+)?)\s*(m|metres?|meters?|cm|centimetres?|centimeters?)\b(?:\s+(?:on|along|in)\s+(?:at least\s+)?(?:one|any|either|the longest|the longer)\s+(?:side|edge|dimension))?(?:\s+(?:tall|wide|high|long|across))?/,
  )[0];
  if (sized) {
    const n = Number(sized[1]!.replace(",", "."));
    size = { minCm: Math.round(/^c/.test(sized[2]!) ? n : n * 100), at: sized.index };
    take(r, sized.index, sized.index + sized[0].length);
    for (const v of matchAll(r, /\b(?:really |very )?(?:big|large|huge|massive|oversized|sizeable)\b/))
      take(r, v.index, v.index + v[0].length);
  }

  // Clauses with predicates.
  const clauses = clausesOf(r);
  let previous: Criterion | undefined;
  let lastWindows: Window[] | undefined;
  const produced: { c: Criterion; join: "and" | "or"; at?: number }[] = [];
  /** Per clause: its negation, and whether it formed a criterion of its own (for words left unread in it). */
  const clauseState = new Map<Clause, { negated: boolean; formed: boolean }>();
  /** A clause named spending without an amount: the next amount with no verb of its own is its. */
  let spendWanted = false;
  for (const clause of clauses) {
    const formedBefore = produced.length;
    // The segment's name before a colon or dash is read already: blank it for this clause's own patterns.
    const seg = text
      .slice(clause.start, clause.end)
      .split("")
      .map((ch, i) => (clause.start + i < headEnd ? " " : ch))
      .join("");
    // "nothing else" limits what was bought; it negates nothing.
    const negMatch = NEG.exec(seg.replace(/\bnothing (else|but)\b/g, (w) => " ".repeat(w.length)));
    const negated = !!negMatch;
    const state = { negated, formed: false };
    clauseState.set(clause, state);
    if (negMatch) {
      const at = clause.start + negMatch.index;
      take(r, at, at + negMatch[0].length);
    }
    const phrase = original.slice(clause.start, clause.end).trim();

    // "lapsed" without a definition: bought before, nothing in the last two years.
    const lapsed = /\blapsed\b/.exec(seg);
    if (lapsed && !r.used[clause.start + lapsed.index]) {
      take(r, clause.start + lapsed.index, clause.start + lapsed.index + lapsed[0].length);
      const from = iso(minusUnit(now, 2, "years"));
      produced.push({
        c: { kind: "purchase", negated: false, phrase: "lapsed: bought before" },
        join: clause.join,
      });
      produced.push({
        c: {
          kind: "purchase",
          negated: true,
          windows: [{ from, label: "in the last two years" }],
          phrase: "lapsed: nothing in the last two years",
        },
        join: "and",
      });
    }
    // "first-time buyers": exactly one purchase ever (and it in the clause's window, if one is named).
    const firstTime = /\b(?:first-?\s?time|new) (?:buyers?|purchasers?|collectors?)\b/.exec(seg);
    if (firstTime) {
      const s = clause.start + firstTime.index;
      take(r, s, s + firstTime[0].length);
      if (/collectors?/.test(firstTime[0])) typeSet.add("collector");
      const windows = readWindows(r, clause, false, lastWindows);
      produced.push({
        c: { kind: "purchase", negated: false, count: { op: "=", n: 1 }, phrase: firstTime[0] },
        join: clause.join,
      });
      if (windows) produced.push({ c: { kind: "purchase", negated: false, windows, phrase }, join: "and" });
      previous = produced[produced.length - 1]!.c;
      state.formed = true;
      continue;
    }

    let kind: PredicateKind | null = null;
    let events: string[] | undefined;
    let itypes: string[] | undefined;
    let interest: (InterestTopic & { allTerms?: boolean }) | null = null;
    for (const [re, ev] of ENGAGEMENTS) {
      const m = matchAll(r, re, clause.start, clause.end)[0];
      if (m) {
        kind = "engagement";
        events = [...(events ?? []), ...ev];
        take(r, m.index, m.index + m[0].length);
      }
    }
    const created = matchAll(
      r,
      /\b(?:new (?:contacts?|clients?|people|names)|(?:contacts?|clients?|people) (?:added|created)|added to (?:the )?(?:crm|database|contacts|list)|added|created)\b/,
      clause.start,
      clause.end,
    )[0];
    if (created && !kind) {
      kind = "created";
      take(r, created.index, created.index + created[0].length);
    }
    // Events from the reviewed vocabulary first ("a studio visit" before the verb "visit"): an interaction by
    // itself, or naming which one a visit was ("came to the vernissage").
    let mentions: string[] | undefined;
    let eventTypes: string[] | undefined;
    let eventNames: string[] | undefined;
    // A purchase verb keeps the clause a purchase ("bought at the art fair").
    const buys = matchAll(r, PURCHASE, clause.start, clause.end).some((x) => !r.used[x.index]);
    if (!kind && !buys) {
      // "a studio visit or an artist talk": every event named in the clause, any of them.
      for (
        let ev = readVocabulary(r, EVENTS, clause.start, clause.end);
        ev;
        ev = readVocabulary(r, EVENTS, clause.start, clause.end)
      ) {
        eventTypes = [...new Set([...(eventTypes ?? []), ...(ev.entry.interactions ?? [])])];
        mentions = [...new Set([...(mentions ?? []), ...termsOf(ev.entry)])];
        eventNames = [...(eventNames ?? []), ev.entry.name ?? ev.phrase];
      }
    }
    if (!kind) {
      for (const [re, types] of INTERACTIONS) {
        // Not a phrase whose words were read already (a negation's "no" before "contact" is read by the clause).
        const m = matchAll(r, re, clause.start, clause.end).find((x) => !r.used[x.index + x[0].length - 1]);
        if (m) {
          kind = "interaction";
          itypes = types ?? eventTypes;
          take(r, m.index, m.index + m[0].length);
          break;
        }
      }
      if (!kind && mentions) {
        kind = "interaction";
        itypes = eventTypes;
      }
    }
    if (!kind) {
      const m = matchAll(r, SPEND, clause.start, clause.end)[0];
      if (m) {
        kind = "spend";
        take(r, m.index, m.index + m[0].length);
      }
    }
    if (!kind) {
      const m = matchAll(r, INTEREST, clause.start, clause.end)[0];
      if (
        m &&
        !(m[1]!.startsWith("collect") && /^\s*(?:any|anything)\b/.test(text.slice(m.index + m[0].length)))
      ) {
        const rest = text.slice(m.index + m[0].length, clause.end);
        const t = readInterestTopic(rest);
        const fams = readFamilies(r, { start: m.index + m[0].length, end: clause.end, join: "and" });
        // A medium after a liking word ("loves printmaking"): shown by buying it. "into" may be a preposition.
        if (t || (fams && m[1] !== "into")) {
          kind = "interest";
          interest = t ?? { topic: rest.trim(), terms: [], families: fams };
          take(r, m.index, clause.end);
        } else if (
          /^(?:interested in|interest in|keen on|fans? of|passionate about|into|loves?|likes?|enthusiasts?|obsessed with)$/.test(
            m[1]!,
          ) &&
          rest.trim()
        ) {
          // An interest in a topic the vocabulary does not know: its own content words are what notes must say.
          const words = rest
            .replace(/[^\p{L}\s-]/gu, " ")
            .split(/\s+/)
            .filter((w) => w.length > 1 && !FILLER.has(w));
          if (words.length && !VAGUE.test(rest)) {
            kind = "interest";
            interest = {
              topic: words.join(" "),
              terms: words.map((w) => w.replace(/(ies)$/, "y").replace(/s$/, "")),
              allTerms: true,
            };
            take(r, m.index, clause.end);
          }
        }
      }
    }
    if (!kind) {
      const m = matchAll(r, PURCHASE, clause.start, clause.end)[0];
      if (m) {
        kind = "purchase";
        take(r, m.index, m.index + m[0].length);
      }
    }
    // Objects that stand for a purchase on their own ("nothing since", "never a painting").
    const objectOnly = /\b(nothing(?! else| but)|anything|none)\b/.exec(seg);
    if (objectOnly)
      take(r, clause.start + objectOnly.index, clause.start + objectOnly.index + objectOnly[0].length);

    const money = readMoney(r, clause);
    const made = kind === "interest" ? undefined : readPeriod(r, clause);
    const families = kind === "interest" ? undefined : readFamilies(r, clause);
    const facts = kind === "interest" ? undefined : readWorkFacts(r, clause);
    const artists = readArtists(r, clause);
    const count = readCount(r, clause);
    const windows = readWindows(r, clause, negated, lastWindows);
    const hasFacet = !!(money || made || families || facts || artists || count || windows || objectOnly);
    if (!kind && !hasFacet) {
      state.formed = produced.length > formedBefore;
      continue;
    }
    if (!kind) {
      // Ellipsis: the clause continues the predicate before it ("but never a painting", "nothing since").
      const carried: PredicateKind =
        previous && PREDICATE_KINDS.includes(previous.kind as PredicateKind) && previous.kind !== "interest"
          ? (previous.kind as PredicateKind)
          : "purchase";
      kind = spendWanted && money ? "spend" : carried;
      if (kind === "spend") spendWanted = false;
      if (previous?.kind === "engagement") events = previous.events;
      if (previous?.kind === "interaction") itypes = previous.types;
    }
    let c: Criterion;
    if (
      kind === "spend" ||
      (kind === "purchase" && money && /\b(total|in all|altogether|overall|combined|worth of)\b/.test(seg))
    ) {
      if (!money) {
        // "big spenders …: more than €40k": the amount may come in the next clause.
        if (clauses.indexOf(clause) < clauses.length - 1) {
          previous = { kind: "spend", negated: false, bounds: [], average: false, phrase };
          spendWanted = true;
          continue;
        }
        return { ok: false, reason: `"${phrase}" names spending without an amount` };
      }
      c = {
        kind: "spend",
        negated,
        bounds: money,
        average: /\baverage|avg\b/.test(seg),
        ...(windows ? { windows } : {}),
        ...(families ? { families } : {}),
        phrase,
      };
      for (const m of matchAll(
        r,
        /\b(?:in total|in all|altogether|overall|combined|total|worth of (?:art|works?|artworks?|pieces))\b|\bworth of\b/,
        clause.start,
        clause.end,
      )) {
        take(r, m.index, m.index + m[0].length);
      }
    } else if (kind === "purchase") {
      const onlyWords = /\b(only|exclusively|nothing else|nothing but)\b/.exec(seg);
      const only = !!onlyWords && !!families && !count;
      if (onlyWords)
        take(r, clause.start + onlyWords.index, clause.start + onlyWords.index + onlyWords[0].length);
      c = {
        kind: "purchase",
        negated,
        ...(families ? { families } : {}),
        ...(artists ? { artists } : {}),
        ...(windows ? { windows } : {}),
        ...(count ? { count } : {}),
        ...(money ? { price: money } : {}),
        ...(made ? { made } : {}),
        ...(only ? { only } : {}),
        ...(facts ?? {}),
        phrase,
      };
    } else if (kind === "engagement") {
      c = {
        kind: "engagement",
        negated,
        events: events ?? [],
        ...(windows ? { windows } : {}),
        ...(count ? { count } : {}),
        phrase,
      };
    } else if (kind === "created") {
      c = { kind: "created", ...(windows ? { windows } : {}), phrase };
    } else if (kind === "interaction") {
      c = {
        kind: "interaction",
        negated,
        ...(itypes ? { types: itypes } : {}),
        ...(windows ? { windows } : {}),
        ...(mentions ? { mentions, events: eventNames } : {}),
        phrase,
      };
    } else {
      c = { kind: "interest", negated, ...interest!, phrase };
    }
    if (money && kind !== "purchase" && kind !== "spend")
      return { ok: false, reason: `"${phrase}": an amount of money on something that is not a purchase` };
    produced.push({ c, join: clause.join, at: clause.start });
    state.formed = true;
    previous = c;
    if (windows) lastWindows = windows;
  }
  // The size goes to the purchase written nearest before it (or the first after it).
  if (size) {
    const purchases = produced.filter((x) => x.c.kind === "purchase" && !x.c.negated);
    const target = [...purchases].reverse().find((x) => (x.at ?? 0) <= size!.at) ?? purchases[0];
    if (target && target.c.kind === "purchase") target.c.minCm = size.minCm;
    else
      produced.push({
        c: { kind: "purchase", negated: false, minCm: size.minCm, phrase: "a work of that size" },
        join: "and",
      });
  }
  // Types found late (first-time collectors).
  if (typeSet.size && !all.some((c) => c.kind === "type"))
    all.push({ kind: "type", types: [...typeSet], phrase: typePhrases.join(", ") || "collectors" });

  // Join: "or" between clauses groups them as alternatives.
  for (let i = 0; i < produced.length; i++) {
    const item = produced[i]!;
    const next = produced[i + 1];
    if (next?.join === "or") {
      const items = [item.c];
      let j = i + 1;
      while (produced[j]?.join === "or") items.push(produced[j++]!.c);
      all.push({ kind: "any", items, phrase: items.map((x) => x.phrase).join(" or ") });
      i = j - 1;
    } else all.push(item.c);
  }

  // "buyers" as the subject: at least one purchase, when nothing else says what they bought.
  if (
    /\b(?:buyers?|purchasers?)\b/.test(text) &&
    !all.some((c) => c.kind === "purchase" || c.kind === "spend" || c.kind === "any")
  ) {
    all.push({ kind: "purchase", negated: false, phrase: "buyers" });
  }

  // Whatever is left unread: a vague word or a time the reader cannot place refuses the rubric; other content
  // words become interests, looked for in the contact's own text.
  const leftover: { start: number; end: number; word: string }[] = [];
  for (const m of text.matchAll(/[\p{L}\d'£$€¥-]+/gu)) {
    const word = m[0].replace(/^'+|'+$/g, "");
    // A possessive's apostrophe is read with its word ("the collectors' trip").
    const lead = m[0].length - m[0].replace(/^'+/, "").length;
    const read = word
      ? r.used.slice(m.index + lead, m.index + lead + word.length).every(Boolean)
      : r.used.slice(m.index, m.index + m[0].length).every(Boolean);
    if (read || FILLER.has(word) || word === "-" || word === "'s") continue;
    if (!word) return { ok: false, reason: `could not read "${m[0]}"` };
    leftover.push({ start: m.index, end: m.index + m[0].length, word });
  }
  const notRead: string[] = [];
  // Asides: "(…)" and a stretch between two dashes, which explain what they follow.
  const asides = [
    ...[...original.matchAll(/\([^)]*\)/g)].map((m) => ({ start: m.index, end: m.index + m[0].length })),
    ...[...original.matchAll(/\s[—–-]\s[^—–]*?\s[—–-]\s/g)].map((m) => ({
      start: m.index,
      end: m.index + m[0].length,
    })),
  ];
  const unread = (ws: typeof leftover) => ws.map((w) => `"${original.slice(w.start, w.end)}"`).join(", ");
  const vague = [...text.matchAll(new RegExp(VAGUE.source, "g"))].find((m) => !r.used[m.index]);
  if (vague) {
    return {
      ok: false,
      reason: `"${original.slice(vague.index, vague.index + vague[0].length)}" asks for a judgement no contact record holds${leftover.length ? ` (also unread: ${unread(leftover)})` : ""}`,
    };
  }
  if (leftover.length) {
    // "who'd appreciate" is a would (a judgement), "who'd bought" a had: the splitter took the "'d" either way.
    const would = /\b\w+'d (\w+)/.exec(text);
    if (would && !PARTICIPLE.test(would[1]!)) {
      return {
        ok: false,
        reason: `"${original.slice(would.index, would.index + would[0].length)}" asks for a judgement no contact record holds (also unread: ${unread(leftover)})`,
      };
    }
    // A time the reader cannot place: it and the words after it in its clause are left unread and named, the
    // rest of the rubric read (a rubric is unreadable only when no criterion at all can be formed).
    const clauseEnd = (at: number) => clauses.find((c) => at >= c.start && at < c.end)?.end ?? text.length;
    const dropped = new Set<(typeof leftover)[number]>();
    for (const t of leftover.filter((w) => UNPLACED_TIME.test(w.word))) {
      for (const w of leftover) if (w.start >= t.start && w.start < clauseEnd(t.start)) dropped.add(w);
    }
    const timeWords = leftover.filter((w) => dropped.has(w));
    for (const w of timeWords) take(r, w.start, w.end);
    const interests = looseInterests(
      r,
      leftover.filter((w) => !dropped.has(w)),
      clauses,
      clauseState,
      asides,
    );
    if (!interests) {
      return {
        ok: false,
        reason: `could not read ${unread(leftover)}: a negation no criterion takes`,
      };
    }
    all.push(...interests.criteria);
    notRead.push(
      ...(timeWords.length ? [timeWords.map((w) => original.slice(w.start, w.end)).join(" ")] : []),
    );
    notRead.push(...interests.unread);
  }
  if (all.length === 0) {
    return {
      ok: false,
      reason: notRead.length
        ? `could not read ${notRead.map((w) => `"${w}"`).join(", ")}: no criterion matches these words`
        : "the rubric names no fact a contact record holds",
    };
  }
  const criteria: Criteria = notRead.length ? { all, unread: notRead } : { all };
  return {
    ok: true,
    criteria,
    summary: `${summarise(all)}${notRead.length ? `; not read: ${notRead.map((w) => `"${w}"`).join(", ")}` : ""}`,
  };
}

function boundsText(bounds: Bound[]) {
  return bounds.map((b) => `${b.op} ${b.money.amount} ${b.money.currency}`).join(" and ");
}

function windowText(ws: Window[] | undefined) {
  return ws?.length ? ` ${ws.map((w) => w.label).join(" or ")}` : "";
}

export function describe(c: Criterion | { kind: "any"; items: Criterion[] }): string {
  switch (c.kind) {
    case "any":
      return `either ${c.items.map(describe).join(" or ")}`;
    case "type":
      return `contact type is ${c.types.join(" or ")}`;
    case "role":
      return `works as ${c.roles.map((x) => x.name).join(" or ")}${c.within ? ` at a ${c.within.name}` : ""}`;
    case "vip":
      return "is a VIP";
    case "lead":
      return `lead status is ${c.statuses.join(" or ")}`;
    case "consent":
      return `email consent is ${c.values.join(" or ")}`;
    case "place":
      return `${c.negated ? "not " : ""}located in ${c.places.map((p) => p.label).join(" or ")}`;
    case "purchase": {
      const what = c.families ? c.families.join("/") : "any work";
      const by = c.artists ? ` by ${c.artists.join(" or ")}` : "";
      const count = c.count ? ` (count ${c.count.op} ${c.count.n})` : "";
      const price = c.price ? ` priced ${boundsText(c.price)}` : "";
      const kindOf = `${c.edition ? " (an edition)" : ""}${c.minCm ? ` (at least ${c.minCm} cm)` : ""}${c.made ? ` (${c.made.name}: made ${c.made.years[0] ?? "before"}–${c.made.years[1] ?? "now"})` : ""}`;
      return `${c.negated ? "never bought" : c.only ? "only ever bought" : "bought"} ${what}${kindOf}${by}${price}${count}${windowText(c.windows)}`;
    }
    case "spend":
      return `${c.negated ? "did not spend" : c.average ? "average purchase" : "spent in total"} ${boundsText(c.bounds)}${windowText(c.windows)}`;
    case "engagement":
      return `${c.negated ? "no" : ""} ${c.events.join("/")}${c.count ? ` (count ${c.count.op} ${c.count.n})` : ""}${windowText(c.windows)}`.trim();
    case "interaction":
      return `${c.negated ? "no" : "an"} interaction${c.types ? ` (${c.types.join("/")})` : ""}${c.mentions ? ` naming ${(c.events ?? c.mentions.slice(0, 1)).join(" or ")}` : ""}${windowText(c.windows)}`;
    case "interest":
      return `${c.negated ? "not " : ""}interested in ${c.topic}${c.loose ? " (words read as an interest)" : ""}`;
    case "created":
      return `added as a contact${windowText(c.windows)}`;
    case "tag":
      return `${c.negated ? "not " : ""}tagged ${c.names.join(" or ")}`;
  }
}

function summarise(all: Criteria["all"]): string {
  return all.map(describe).join("; ");
}
