/**
 * The matcher: how likely a contact is to want an artwork (buy it, ask about it, or a member calls it a good
 * match), as a calibrated probability with the evidence behind it. Pure and deterministic: no database, no
 * network, no clock (`now` is passed). docs/decisions.md "The matcher: questions, model and calibration".
 *
 * Eight questions each give a sub-score from 0 to 1 (MATCH_QUESTIONS); a logistic model turns them into a
 * probability, p = σ(bias + Σ w·s). The prior model (PRIOR_MATCH_MODEL) serves a gallery with no history; a
 * gallery's own outcomes (trainingExamples) fit its model (fitMatchModel), the prior as the regulariser; in the
 * same step its contacts teach the model which artists go together (fitArtistAffinity, optional on the model).
 */
import {
  applyCalibration,
  type CalibrationMap,
  fitCalibration,
  IDENTITY_CALIBRATION,
  type Outcome,
  shrinkTowards,
} from "./calibration";
import { artistMentions, type FactClause, type FactReading, readFacts } from "./match-facts";
import shippedCalibration from "./models/calibration.json";
import { classifyMedium, FAMILY_LABEL, type Family, type MediumReading } from "./rubric-media";
import { fold } from "./rubric-places";
import {
  readWorkStyles,
  styleEntry,
  styleLabel,
  styleShown,
  styleSignature,
  styleTagPatterns,
  type WorkStyle,
} from "./styles";
import {
  MATCH_QUESTIONS,
  type MatchArtistAffinity,
  type MatchCandidateQuery,
  type MatchContact,
  type MatchEvidenceItem,
  type MatchJudgment,
  type MatchModel,
  type MatchQuestion,
  type MatchWork,
  type ModelName,
} from "./types";

export const MATCH_MODEL_NAME: ModelName = "matcher@1";
export const MATCH_STORE_FLOOR = 0.2;
export const MAX_STORED_MATCHES = 50;
export const MAX_REASONS = 3;

/**
 * The global calibration of a fitted model's probability (lib/engine/calibration.ts), fitted by
 * `npx tsx scripts/engine-train/calibrate.ts` on cross-fitted outcomes of the labelled collectors' train split:
 * the map a gallery without its own uses, and the prior its own map is shrunk toward.
 */
export const GLOBAL_MATCH_CALIBRATION = shippedCalibration.matcher as CalibrationMap;

/**
 * The prior: hand-set log-odds, before any gallery's data (docs/decisions.md). An unsupported pair (another
 * medium, no artist, price off, nothing engaged) comes out near 3% before calibration; the medium and price of
 * what the contact buys alone near 25%; add the artist it buys, or the work itself viewed, and it passes 0.6. A
 * style its facts ask for counts as much as an artist they name (style, like artist and engagement, is 0 when
 * nothing says): a contact with no purchases whose focus names a style, a medium and a budget the work fits
 * passes 0.6 too. Its probabilities pass through a calibration of their own (fitted on the labelled train split's
 * outcomes, which the hand-set weights never saw).
 */
export const PRIOR_MATCH_MODEL: MatchModel = {
  model: MATCH_MODEL_NAME,
  bias: -4.2,
  weights: {
    medium: 1.6,
    artist: 2.0,
    price: 1.0,
    size: 0.5,
    period: 0.7,
    style: 2.0,
    engagement: 2.2,
    recency: 0.6,
  },
  examples: 0,
  positives: 0,
  calibration: shippedCalibration.matcherPrior as CalibrationMap,
};

const DAY = 86_400_000;
const NEW_WORK_HALF_LIFE_DAYS = 120;
const ARTIST_VIEW_SHARE = 0.5;
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const monthYear = (at: string) => {
  const d = new Date(at);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};
const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;
const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
/** Code-unit order: the same everywhere, unlike localeCompare. */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// ---------------------------------------------------------------------------------------------------------
// Vocabulary shared with the candidate lookups

/** The medium families of a work (rubric-media's vocabulary): a print is also a work on paper. */
export function mediumWords(medium: string | null): string[] {
  return [...readMedium(medium).families];
}

/** The stored price band of an amount in cents (the contact's band vocabulary). */
export function priceBandOf(cents: number | null): string | null {
  if (cents === null || !Number.isFinite(cents)) return null;
  if (cents < 500_000) return "under_5k";
  if (cents < 2_500_000) return "5k_25k";
  if (cents < 10_000_000) return "25k_100k";
  return "over_100k";
}

const BAND_MID_CENTS: Record<string, number> = {
  under_5k: 250_000,
  "5k_25k": 1_200_000,
  "25k_100k": 5_000_000,
  over_100k: 18_000_000,
};
const BAND_LABEL: Record<string, string> = {
  under_5k: "under 5k",
  "5k_25k": "5k–25k",
  "25k_100k": "25k–100k",
  over_100k: "over 100k",
};

// ---------------------------------------------------------------------------------------------------------
// A contact, read once

type SupportKind = "purchase" | "inquiry" | "engagement" | "good_match";

/** One thing the contact did with a work: bought it, asked about it, looked at it, a member's good match. */
interface Support {
  kind: SupportKind;
  id: string;
  at: string;
  atMs: number;
  work: MatchWork;
  families: Family[];
  /** The work's styles (lib/engine/styles.ts). */
  styles: WorkStyle[];
  artistKey: string | null;
  /** How much it says about taste: a purchase 1, an inquiry 0.6, a good match 0.6, an engagement 0.3. */
  strength: number;
  /** "an oil on canvas by Ines Marchetti" */
  desc: string;
  label: string;
  sourceLabel: string;
}

export interface Prepared {
  contact: MatchContact;
  nowMs: number;
  facts: FactReading;
  supports: Support[];
  byFamily: Map<Family, Support[]>;
  familyWeight: Map<Family, number>;
  familyTotal: number;
  familyFacts: Map<Family, { clause: FactClause; negative: boolean }[]>;
  byArtist: Map<string, Support[]>;
  byWork: Map<string, Support[]>;
  artistFacts: Map<string, { clause: FactClause; negative: boolean }[]>;
  /** Styles its facts name for or against, by style (a broader style's fact is under its own key). */
  styleFacts: Map<string, { clause: FactClause; negative: boolean }[]>;
  /** Styles its facts ask for and nothing else ("only interested in colour-field painting"). */
  onlyStyles: { style: string; clause: FactClause }[];
  /** Works it bought or asked about, by each style they are of. */
  byStyle: Map<string, { s: Support; ws: WorkStyle }[]>;
  mediumCache: Map<string, Scored>;
  /** The style question by the work's style reading (styleSignature), for works outside its history. */
  styleCache: Map<string, Scored>;
  /** Log of the reference price in cents and its currency, with the rows it rests on. */
  price: { log: number; currency: string | null; band: string | null; ev: MatchEvidenceItem[] } | null;
  sizes: { cm: number; support: Support }[];
  years: { year: number; support: Support }[];
  excluded: Set<string>;
  /** Good-match feedback on works the history does not otherwise hold, by artwork id. */
  goodMatches: Map<string, { id: string; at: string }>;
  /** How often its purchases were of new arrivals (Laplace-smoothed share), and the latest such purchase. */
  newArrivals: { appetite: number; latest: Support | null };
  /** The contact's artists seen through a model's artist affinity (built on first use, per affinity). */
  neighbours?: { source: MatchArtistAffinity; byArtist: Map<string, Neighbour[]> };
}

/** An artist the contact is drawn to (`pull`, 0–1), and its strongest row, seen from a neighbouring artist. */
interface Neighbour {
  from: Support;
  pull: number;
  strength: number;
}

/** An engagement's label ({work} is the work) and where it happened. */
const ENGAGEMENT_WORDS: Record<string, [string, string]> = {
  artwork_viewed: ["Viewed {work}", "Viewing room"],
  favorite_added: ["Saved {work} as a favourite", "Viewing room"],
  inquiry_submitted: ["Sent an inquiry about {work}", "Viewing room"],
  waitlist_joined: ["Joined the waitlist for {work}", "Viewing room"],
  checkout_started: ["Started checkout for {work}", "Viewing room"],
  link_clicked: ["Opened a link to {work}", "Email"],
  document_viewed: ["Opened a document on {work}", "Viewing room"],
};
const ENGAGEMENT_STRENGTH: Record<string, number> = {
  artwork_viewed: 0.3,
  favorite_added: 0.45,
  inquiry_submitted: 0.6,
  waitlist_joined: 0.55,
  checkout_started: 0.6,
};
const FACT_SOURCE: Record<string, string> = {
  collecting_focus: "Collecting focus",
  wishlist_notes: "Wishlist",
  notes: "Profile notes",
  private_note: "Private note",
  budget_band: "Budget",
};
/** Interactions in person about a work: how the evidence says it ({work} is the work) and where it happened. */
const IN_PERSON: Record<string, [string, string]> = {
  visit: ["Saw {work} on a visit", "Visit"],
  viewing: ["Saw {work} at a private viewing", "Viewing"],
  event: ["Spent time with {work} at an event", "Event"],
  meeting: ["Discussed {work} at a meeting", "Meeting"],
};
const CHANNEL: Record<string, string> = {
  email: "email",
  call: "phone",
  phone: "phone",
  visit: "visit",
  whatsapp: "WhatsApp",
  sms: "text message",
  meeting: "meeting",
};

/** classifyMedium with a cache: a catalogue repeats a few hundred medium lines across many works. */
const mediumCache = new Map<string, MediumReading>();
function readMedium(medium: string | null): MediumReading {
  const key = medium ?? "";
  let reading = mediumCache.get(key);
  if (!reading) {
    reading = classifyMedium(medium);
    if (mediumCache.size > 5_000) mediumCache.clear();
    mediumCache.set(key, reading);
  }
  return reading;
}

const artistKeyOf = (w: MatchWork) =>
  w.artistId ?? (w.artistName ? `name:${w.artistName.trim().toLowerCase()}` : null);
const maxCm = (w: MatchWork) =>
  w.heightCm === null && w.widthCm === null ? null : Math.max(w.heightCm ?? 0, w.widthCm ?? 0);

function describeWork(w: MatchWork): string {
  const reading = readMedium(w.medium);
  const what = w.medium?.trim()
    ? w.medium.trim().split(",")[0]!.toLowerCase()
    : reading.family
      ? FAMILY_LABEL[reading.family]
      : "work";
  const article = /^[aeiou]/.test(what) ? "an" : "a";
  return `${article} ${what}${w.artistName ? ` by ${w.artistName}` : ""}`;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Reads a contact once: its facts, the works behind its history by family, artist and work. */
export function prepareContact(contact: MatchContact, now: Date): Prepared {
  const nowMs = now.getTime();
  const supports: Support[] = [];
  const add = (
    kind: SupportKind,
    id: string,
    at: string,
    work: MatchWork | null,
    strength: number,
    label: string,
    sourceLabel: string,
  ) => {
    if (!work) return;
    const atMs = Date.parse(at);
    const desc = describeWork(work);
    if (!(atMs <= nowMs)) return;
    supports.push({
      kind,
      id,
      at,
      atMs,
      work,
      families: readMedium(work.medium).families,
      styles: readWorkStyles(work),
      artistKey: artistKeyOf(work),
      strength,
      desc,
      label: label.replace("{work}", desc),
      sourceLabel,
    });
  };
  for (const p of contact.purchases)
    add(
      "purchase",
      p.id,
      p.at,
      p.work,
      1,
      p.pending
        ? `Reserved {work} (sale pending) in ${monthYear(p.at)}`
        : `Bought {work} in ${monthYear(p.at)}`,
      "Sale",
    );
  for (const i of contact.interactions) {
    if (!i.work || i.direction === "outbound") continue;
    // A work seen in person (a visit, a viewing, a fair's booth) is said so; anything else is an inquiry.
    const seen = IN_PERSON[i.type];
    const channel = CHANNEL[i.type] ?? i.type;
    add(
      "inquiry",
      i.id,
      i.at,
      i.work,
      0.6,
      `${seen ? seen[0] : "Asked about {work}"} in ${monthYear(i.at)}`,
      seen ? seen[1] : `Inquiry by ${channel}`,
    );
  }
  for (const e of contact.engagements) {
    if (!e.work) continue;
    const [words, source] = ENGAGEMENT_WORDS[e.kind] ?? ["Engaged with {work}", "Engagement"];
    // Where it happened, when the event names a viewing room: "Viewed this work in the viewing room “Spring”".
    const room = e.room?.trim() ? ` in the viewing room “${e.room.trim()}”` : "";
    add(
      "engagement",
      e.id,
      e.at,
      e.work,
      ENGAGEMENT_STRENGTH[e.kind] ?? 0.15,
      `${words}${room} in ${monthYear(e.at)}`,
      source,
    );
  }
  const worksById = new Map<string, MatchWork>();
  for (const s of supports) worksById.set(s.work.id, s.work);
  const excluded = new Set<string>();
  const goodMatches = new Map<string, { id: string; at: string }>();
  for (const p of contact.purchases) if (p.work) excluded.add(p.work.id);
  // Oldest first, so the latest word on a pair stands: an unhide after "not interested" takes the dismissal back.
  const feedback = [...contact.feedback].sort(
    (a, b) => Date.parse(a.at) - Date.parse(b.at) || cmp(a.id, b.id),
  );
  const dismissed = new Set<string>();
  for (const f of feedback) {
    if (Date.parse(f.at) > nowMs) continue;
    if (f.action === "not_interested") dismissed.add(f.artworkId);
    if (f.action === "unhide") dismissed.delete(f.artworkId);
    if (f.action !== "good_match") continue;
    const work = worksById.get(f.artworkId);
    // A good match on a work the history knows feeds its family and artist too; on any work, its own pair.
    if (work) add("good_match", f.id, f.at, work, 0.6, "A member marked {work} a good match", "Feedback");
    else goodMatches.set(f.artworkId, { id: f.id, at: f.at });
  }
  for (const id of dismissed) excluded.add(id);
  supports.sort((a, b) => b.atMs - a.atMs || cmp(a.id, b.id));

  const facts = readFactsCached(contact.facts.filter((f) => f.at === null || Date.parse(f.at) <= nowMs));
  const byFamily = new Map<Family, Support[]>();
  const byArtist = new Map<string, Support[]>();
  const byWork = new Map<string, Support[]>();
  const familyWeight = new Map<Family, number>();
  let familyTotal = 0;
  for (const s of supports) {
    const w = s.strength * decay(nowMs - s.atMs, 3 * 365);
    s.families.forEach((family, i) => {
      push(byFamily, family, s);
      const share = i === 0 ? w : w * 0.5;
      familyWeight.set(family, (familyWeight.get(family) ?? 0) + share);
      familyTotal += share;
    });
    if (s.artistKey) push(byArtist, s.artistKey, s);
    push(byWork, s.work.id, s);
  }
  const familyFacts = new Map<Family, { clause: FactClause; negative: boolean }[]>();
  for (const m of facts.media) {
    push(familyFacts, m.family, { clause: m.clause, negative: m.negative });
    if (!m.negative) {
      const w = m.clause.fact.kind === "collecting_focus" ? 1.2 : 0.8;
      familyWeight.set(m.family, (familyWeight.get(m.family) ?? 0) + w);
      familyTotal += w;
    }
  }
  const styleFacts = new Map<string, { clause: FactClause; negative: boolean }[]>();
  const onlyStyles: Prepared["onlyStyles"] = [];
  for (const st of facts.styles) {
    push(styleFacts, st.style, { clause: st.clause, negative: st.negative });
    if (st.negative) continue;
    if (st.only) onlyStyles.push({ style: st.style, clause: st.clause });
    // A style implies its media (colour field is painting), less than a medium named outright.
    for (const family of styleEntry(st.style)?.families ?? []) {
      familyWeight.set(family, (familyWeight.get(family) ?? 0) + 0.5);
      familyTotal += 0.5;
    }
  }
  const byStyle = new Map<string, { s: Support; ws: WorkStyle }[]>();
  for (const s of supports)
    if (s.kind === "purchase" || s.kind === "inquiry" || s.kind === "good_match")
      for (const ws of s.styles) push(byStyle, ws.style, { s, ws });

  // Reference price: what it paid (recency-weighted, in the currency it pays most in), else its band, else a budget.
  let price: Prepared["price"] = null;
  const priced = supports
    .filter((s) => s.kind === "purchase")
    .flatMap((s) => {
      const p = contact.purchases.find((x) => x.id === s.id)!;
      return p.priceCents && p.priceCents > 0 ? [{ s, cents: p.priceCents, currency: p.currency }] : [];
    });
  if (priced.length > 0) {
    const currencyCount = new Map<string | null, number>();
    for (const p of priced) currencyCount.set(p.currency, (currencyCount.get(p.currency) ?? 0) + 1);
    const currency = [...currencyCount.entries()].sort(
      (a, b) => b[1] - a[1] || cmp(String(a[0]), String(b[0])),
    )[0]![0];
    const same = priced.filter((p) => p.currency === currency);
    let sw = 0;
    let sl = 0;
    for (const p of same) {
      const w = decay(nowMs - p.s.atMs, 4 * 365) + 0.1;
      sw += w;
      sl += w * Math.log(p.cents);
    }
    // A budget the gallery wrote down counts as much as a recent purchase.
    if (facts.budget) {
      sw += 1;
      sl += Math.log(facts.budget.amount * 100);
    }
    const log = sl / sw;
    const band = priceBandOf(Math.exp(log));
    // The purchases shown are those in the band the typical price falls in; when none is (a cheap work and a
    // dear one average out between them), the evidence says it is an average.
    const inBand = same.filter((p) => priceBandOf(p.cents) === band);
    const lead =
      inBand.length > 0
        ? `Usually spends in the ${BAND_LABEL[band!]} band`
        : `Spends about ${BAND_LABEL[band!]} a work on average`;
    price = {
      log,
      currency,
      band,
      ev: (inBand.length > 0 ? inBand : same).slice(0, 3).map((p) => ({
        question: "price" as const,
        kind: "purchase",
        evidence_id: p.s.id,
        label: `${lead}: ${p.s.label.replace(/^Bought/, "bought").replace(/^Reserved/, "reserved")}`,
        source_label: "Sale",
        at: p.s.at,
        weight: 0,
      })),
    };
    if (facts.budget)
      price.ev.unshift(
        factEvidence(contact, "price", facts.budget.clause, factLabel(facts.budget.clause), 0),
      );
  } else if (contact.totalSpendCents && contact.totalSpendCents > 0 && contact.purchases.length > 0) {
    // Sales without an amount of their own: the contact's total spend over its purchases.
    const cents = contact.totalSpendCents / contact.purchases.length;
    const band = priceBandOf(cents);
    price = {
      log: Math.log(cents),
      currency: null,
      band,
      ev: [
        {
          question: "price",
          kind: "memory_fact",
          evidence_id: contact.id,
          label: `Average purchase in the ${BAND_LABEL[band!]} band`,
          source_label: "Contact profile",
          at: null,
          weight: 0,
        },
      ],
    };
  } else if (contact.priceBand && BAND_MID_CENTS[contact.priceBand]) {
    price = {
      log: Math.log(BAND_MID_CENTS[contact.priceBand]!),
      currency: null,
      band: contact.priceBand,
      ev: [
        {
          question: "price",
          kind: "memory_fact",
          evidence_id: contact.id,
          label: `Price band: ${BAND_LABEL[contact.priceBand]}`,
          source_label: "Contact profile",
          at: null,
          weight: 0,
        },
      ],
    };
  } else if (facts.budget) {
    const cents = facts.budget.amount * 100;
    price = {
      log: Math.log(cents),
      currency: null,
      band: priceBandOf(cents),
      ev: [factEvidence(contact, "price", facts.budget.clause, factLabel(facts.budget.clause), 0)],
    };
  }
  // A purchase of a new arrival: the work had been in the inventory under NEW_WORK_HALF_LIFE_DAYS.
  let boughtNew = 0;
  let bought = 0;
  let latestNew: Support | null = null;
  for (const s of supports) {
    if (s.kind !== "purchase") continue;
    bought++;
    const inStock = s.atMs - Date.parse(s.work.createdAt);
    if (inStock >= 0 && inStock < NEW_WORK_HALF_LIFE_DAYS * DAY) {
      boughtNew++;
      latestNew ??= s;
    }
  }
  const newArrivals = { appetite: (1 + boughtNew) / (2 + bought), latest: latestNew };
  const sizes = supports.flatMap((s) => {
    const cm = maxCm(s.work);
    return s.kind === "purchase" && cm ? [{ cm, support: s }] : [];
  });
  const years = supports.flatMap((s) =>
    (s.kind === "purchase" || s.kind === "inquiry") && s.work.year !== null
      ? [{ year: s.work.year, support: s }]
      : [],
  );
  return {
    contact,
    nowMs,
    facts,
    supports,
    byFamily,
    familyWeight,
    familyTotal,
    familyFacts,
    byArtist,
    byWork,
    artistFacts: new Map(),
    styleFacts,
    onlyStyles,
    byStyle,
    mediumCache: new Map(),
    styleCache: new Map(),
    price,
    sizes,
    years,
    excluded,
    goodMatches,
    newArrivals,
  };
}

/**
 * readFacts with a bounded cache keyed by the facts' content: the same contact is read again when it is
 * re-judged and for each of its outcomes in trainingExamples, and the sentence split is the costly part.
 */
const factCache = new Map<string, FactReading>();
function readFactsCached(facts: MatchContact["facts"]): FactReading {
  if (facts.length === 0) return readFacts(facts);
  const key = JSON.stringify(facts.map((f) => [f.id, f.kind, f.text, f.at]));
  let reading = factCache.get(key);
  if (!reading) {
    reading = readFacts(facts);
    if (factCache.size >= 2_000) factCache.delete(factCache.keys().next().value!);
    factCache.set(key, reading);
  }
  return reading;
}

/** Half-life decay of an age in ms. */
function decay(ageMs: number, halfLifeDays: number): number {
  return 0.5 ** (Math.max(0, ageMs) / (halfLifeDays * DAY));
}

function factEvidence(
  contact: MatchContact,
  question: MatchQuestion,
  clause: FactClause,
  label: string,
  weight: number,
): MatchEvidenceItem {
  const fact = clause.fact;
  return {
    question,
    kind: "memory_fact",
    evidence_id: fact.kind === "private_note" ? fact.id : contact.id,
    label,
    source_label: FACT_SOURCE[fact.kind] ?? "Contact profile",
    at: fact.at,
    weight: round(weight, 3),
  };
}

const factLabel = (clause: FactClause) => {
  const phrase = clause.phrase.replace(/[.\s]+$/, "");
  // A budget band is stored as a code (5k_25k): shown in words, as the price evidence shows it.
  const words = clause.fact.kind === "budget_band" ? (BAND_LABEL[phrase] ?? phrase) : phrase;
  return `${FACT_SOURCE[clause.fact.kind] ?? "Profile"}: ${words}`;
};

function supportEvidence(
  question: MatchQuestion,
  s: Support,
  weight: number,
  label?: string,
): MatchEvidenceItem {
  return {
    question,
    kind:
      s.kind === "purchase"
        ? "purchase"
        : s.kind === "inquiry"
          ? "interaction"
          : s.kind === "engagement"
            ? "engagement"
            : "feedback",
    evidence_id: s.id,
    label: label ?? s.label,
    source_label: s.sourceLabel,
    at: s.at,
    weight: round(weight, 3),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The questions

type Scored = { score: number; evidence: MatchEvidenceItem[] };

function mediumScore(p: Prepared, work: MatchWork): Scored {
  const veto = styleVeto(p, work);
  if (veto) return veto;
  const families = readMedium(work.medium).families;
  if (families.length === 0) return { score: 0.3, evidence: [] };
  const key = families.join("+");
  let cached = p.mediumCache.get(key);
  if (!cached) {
    cached = mediumOfFamilies(p, families);
    p.mediumCache.set(key, cached);
  }
  // Evidence items are shared between this contact's judgments; nothing mutates them.
  return { score: cached.score, evidence: [...cached.evidence] };
}

/** A work's style weighs in a veto only where the reading is fair: a tag, a description, a medium's hint. */
const STYLE_VETO_WEIGHT = 0.5;

/**
 * A style the contact's facts reject ("not into abstraction"), or a work read as other styles only when the facts
 * ask for one alone ("only interested in colour-field painting"): the kind of work is wrong, as a rejected medium
 * is, so the medium question says so. The style question is one-sided (0 when nothing says) and cannot.
 */
function styleVeto(p: Prepared, work: MatchWork): Scored | null {
  if (p.styleFacts.size === 0) return null;
  const styles = readWorkStyles(work).filter((ws) => ws.weight >= STYLE_VETO_WEIGHT);
  if (styles.length === 0) return null;
  for (const ws of styles) {
    const against = (p.styleFacts.get(ws.style) ?? []).find((f) => f.negative);
    if (against)
      return {
        score: 0.02,
        evidence: [factEvidence(p.contact, "medium", against.clause, factLabel(against.clause), 0.05)],
      };
  }
  const only = p.onlyStyles[0];
  if (only && !p.onlyStyles.some((o) => styles.some((ws) => ws.style === o.style)))
    return {
      score: 0.05,
      evidence: [factEvidence(p.contact, "medium", only.clause, factLabel(only.clause), 0.05)],
    };
  return null;
}

/** The medium question depends only on the work's families: judged once per family set and contact. */
function mediumOfFamilies(p: Prepared, families: Family[]): Scored {
  const evidence: MatchEvidenceItem[] = [];
  const main = families[0]!;
  const against = (p.familyFacts.get(main) ?? []).find((f) => f.negative);
  if (against) {
    return {
      score: 0.02,
      evidence: [factEvidence(p.contact, "medium", against.clause, factLabel(against.clause), 0.05)],
    };
  }
  if (p.familyTotal <= 0) return { score: 0.3, evidence: [] };
  let w = 0;
  families.forEach((f, i) => {
    w += (p.familyWeight.get(f) ?? 0) * (i === 0 ? 1 : 0.5);
  });
  const share = Math.min(1, w / p.familyTotal);
  const score = 0.1 + 0.9 * Math.sqrt(share);
  for (const f of families) {
    for (const fact of p.familyFacts.get(f) ?? [])
      if (!fact.negative)
        evidence.push(factEvidence(p.contact, "medium", fact.clause, factLabel(fact.clause), 0.8));
    for (const s of (p.byFamily.get(f) ?? []).slice(0, 4))
      evidence.push(supportEvidence("medium", s, s.strength * 0.8 * decay(p.nowMs - s.atMs, 3 * 365)));
  }
  return { score, evidence };
}

function artistFactsOf(p: Prepared, work: MatchWork, key: string) {
  let facts = p.artistFacts.get(key);
  if (!facts) {
    facts = work.artistName ? artistMentions(p.facts, work.artistName) : [];
    p.artistFacts.set(key, facts);
  }
  return facts;
}

function artistScore(p: Prepared, work: MatchWork): Scored {
  const key = artistKeyOf(work);
  if (!key) return { score: 0, evidence: [] };
  const facts = artistFactsOf(p, work, key);
  const against = facts.find((f) => f.negative);
  if (against)
    return {
      score: 0,
      evidence: [factEvidence(p.contact, "artist", against.clause, factLabel(against.clause), 0.05)],
    };
  const evidence: MatchEvidenceItem[] = [];
  let miss = 1;
  for (const s of p.byArtist.get(key) ?? []) {
    if (s.work.id === work.id && s.kind !== "purchase") continue; // this very work is engagement's
    // A view of another work by the artist says less of the artist than of that work: half its strength here.
    const kind = s.kind === "engagement" ? ARTIST_VIEW_SHARE : 1;
    const w = kind * s.strength * (0.4 + 0.6 * decay(p.nowMs - s.atMs, 4 * 365));
    miss *= 1 - 0.9 * w;
    evidence.push(supportEvidence("artist", s, w));
  }
  for (const f of facts) {
    miss *= 0.15;
    evidence.push(factEvidence(p.contact, "artist", f.clause, factLabel(f.clause), 0.85));
  }
  // What the gallery's other collectors teach: those drawn to a neighbouring artist often buy this one.
  for (const n of (work.artistId && p.neighbours?.byArtist.get(work.artistId)) || []) {
    const w = Math.min(AFFINITY_CAP, AFFINITY_GAIN * n.strength * n.pull);
    miss *= 1 - w;
    evidence.push(
      supportEvidence(
        "artist",
        n.from,
        w,
        `Collectors of ${n.from.work.artistName ?? "an artist it collects"} often buy ${work.artistName ?? "this artist"}`,
      ),
    );
  }
  return { score: 1 - miss, evidence };
}

// ---------------------------------------------------------------------------------------------------------
// Artist affinity: "collectors of A also buy B", learned from the gallery's own sales and inquiries

export const AFFINITY_MAX_NEIGHBOURS = 10;
export const AFFINITY_MAX_ARTISTS = 2_000;
/** Pseudo-count in the strength's denominator: a pair seen once in a small gallery stays weak. */
const AFFINITY_SHRINK = 2;
/** Weaker neighbours are not kept. */
const AFFINITY_FLOOR = 0.05;
/** A neighbour's pull on the artist question: gain on strength × the contact's pull to the neighbour, capped. */
const AFFINITY_GAIN = 0.6;
const AFFINITY_CAP = 0.6;

/** How much one contact's history says about each artist it bought (1) or asked about (0.6): the strongest. */
function artistPulls(c: MatchContact): Map<string, number> {
  const out = new Map<string, number>();
  const bump = (w: MatchWork | null, x: number) => {
    if (w?.artistId) out.set(w.artistId, Math.max(out.get(w.artistId) ?? 0, x));
  };
  for (const p of c.purchases) bump(p.work, 1);
  for (const i of c.interactions) if (i.direction !== "outbound") bump(i.work, 0.6);
  return out;
}

interface Cooccurrence {
  /** Per artist: the sum of its contacts' pulls. */
  n: Map<string, number>;
  /** Per pair of artists (both ways): the sum over contacts of the smaller pull. */
  pair: Map<string, Map<string, number>>;
  /** Contacts with at least one artist: chance's denominator. */
  contacts: number;
}

function addPulls(co: Cooccurrence, pulls: Map<string, number>, sign: 1 | -1) {
  if (pulls.size > 0) co.contacts += sign;
  for (const [a, wa] of pulls) {
    co.n.set(a, (co.n.get(a) ?? 0) + sign * wa);
    let row = co.pair.get(a);
    for (const [b, wb] of pulls) {
      if (a === b) continue;
      if (!row) {
        row = new Map();
        co.pair.set(a, row);
      }
      row.set(b, (row.get(b) ?? 0) + sign * Math.min(wa, wb));
    }
  }
}

function cooccurrence(contacts: MatchContact[]): Cooccurrence {
  const co: Cooccurrence = { n: new Map(), pair: new Map(), contacts: 0 };
  // In id order: the sums are of fractions, and the same contacts in any order give the same affinity.
  for (const c of [...contacts].sort((a, b) => cmp(a.id, b.id))) addPulls(co, artistPulls(c), 1);
  return co;
}

/** An artist's strongest neighbours: (co(a,b) − n(a)·n(b)/N) / (√(n(a)·n(b)) + SHRINK), N the contacts. */
function neighboursOf(co: Cooccurrence, a: string): { artistId: string; strength: number }[] {
  const na = co.n.get(a) ?? 0;
  const out: { artistId: string; strength: number }[] = [];
  for (const [b, both] of co.pair.get(a) ?? []) {
    if (both <= 1e-9) continue;
    const nb = co.n.get(b) ?? 0;
    // Above what chance would give (independent draws over the same contacts): an artist everyone buys
    // shares collectors with every other without being kin to any.
    const excess = both - (na * nb) / Math.max(co.contacts, 1);
    const strength = excess / (Math.sqrt(na * nb) + AFFINITY_SHRINK);
    if (strength >= AFFINITY_FLOOR) out.push({ artistId: b, strength: round(strength) });
  }
  out.sort((x, y) => y.strength - x.strength || cmp(x.artistId, y.artistId));
  return out.slice(0, AFFINITY_MAX_NEIGHBOURS);
}

function affinityFor(co: Cooccurrence, artists: Iterable<string>, contacts: number): MatchArtistAffinity {
  const neighbours: MatchArtistAffinity["neighbours"] = {};
  for (const a of artists) {
    const list = neighboursOf(co, a);
    if (list.length > 0) neighbours[a] = list;
  }
  return { neighbours, contacts };
}

/**
 * Artist affinity from a gallery's contacts (docs/decisions.md "The matcher"): two artists are neighbours when
 * the same collectors buy or ask about both. Bounded: the AFFINITY_MAX_ARTISTS artists with the most support,
 * each with its AFFINITY_MAX_NEIGHBOURS strongest neighbours. Deterministic. Fitted in the same step as the
 * model (with trainingExamples(…, { affinity: true })) and stored on it as `affinity`.
 */
export function fitArtistAffinity(contacts: MatchContact[]): MatchArtistAffinity {
  const co = cooccurrence(contacts);
  const artists = [...co.n.entries()]
    .filter(([a]) => co.pair.has(a))
    .sort((x, y) => y[1] - x[1] || cmp(x[0], y[0]))
    .slice(0, AFFINITY_MAX_ARTISTS)
    .map(([a]) => a)
    .sort(cmp);
  return affinityFor(co, artists, contacts.length);
}

/** The contact's artists through an affinity: for each neighbouring artist, who leads there and how strongly. */
function neighbourIndex(p: Prepared, affinity: MatchArtistAffinity): Map<string, Neighbour[]> {
  // The contact's pull to each artist: its rows on that artist, each decayed by age, combined as 1 − Π(1 − x).
  const pulls = new Map<string, { miss: number; best: Support; bestW: number }>();
  for (const s of p.supports) {
    const id = s.work.artistId;
    if (!id) continue;
    const kind = s.kind === "engagement" ? ARTIST_VIEW_SHARE : 1;
    const x = kind * s.strength * (0.4 + 0.6 * decay(p.nowMs - s.atMs, 4 * 365));
    const cur = pulls.get(id);
    if (!cur) pulls.set(id, { miss: 1 - x, best: s, bestW: x });
    else {
      cur.miss *= 1 - x;
      if (x > cur.bestW) {
        cur.best = s;
        cur.bestW = x;
      }
    }
  }
  const byArtist = new Map<string, Neighbour[]>();
  for (const [a, pull] of pulls)
    for (const n of affinity.neighbours[a] ?? [])
      push(byArtist, n.artistId, { from: pull.best, pull: 1 - pull.miss, strength: n.strength });
  return byArtist;
}

function priceScore(p: Prepared, work: MatchWork): Scored {
  if (work.priceCents === null || work.priceCents <= 0 || !p.price) return { score: 0.5, evidence: [] };
  if (p.price.currency && work.currency && p.price.currency !== work.currency)
    return { score: 0.5, evidence: [] };
  const d = Math.log(work.priceCents) - p.price.log;
  const spread = d > 0 ? 0.8 : 1.1; // a cheaper work is less out of reach than a dearer one
  const score = Math.exp(-(d * d) / (2 * spread * spread));
  return { score, evidence: p.price.ev.map((e) => ({ ...e, weight: round(score * 0.6, 3) })) };
}

function sizeScore(p: Prepared, work: MatchWork): Scored {
  const cm = maxCm(work);
  if (!cm) return { score: 0.5, evidence: [] };
  const cap = p.facts.sizeCap;
  if (cap && cm > cap.cm)
    return {
      score: 0.05,
      evidence: [factEvidence(p.contact, "size", cap.clause, factLabel(cap.clause), 0.05)],
    };
  let score = 0.5;
  const evidence: MatchEvidenceItem[] = [];
  if (p.sizes.length > 0) {
    let best = p.sizes[0]!;
    for (const s of p.sizes) if (Math.abs(Math.log(s.cm / cm)) < Math.abs(Math.log(best.cm / cm))) best = s;
    const d = Math.log(cm / best.cm);
    score = 0.15 + 0.85 * Math.exp(-(d * d) / (2 * 0.5 * 0.5));
    evidence.push(
      supportEvidence(
        "size",
        best.support,
        score * 0.4,
        `Similar in size: ${best.support.label.replace(/^Bought/, "bought")}`,
      ),
    );
  }
  if (cap) {
    score = Math.max(score, 0.7);
    evidence.push(factEvidence(p.contact, "size", cap.clause, factLabel(cap.clause), 0.4));
  }
  if (p.facts.wantsLarge && cm >= 150) {
    score = Math.max(score, 0.85);
    evidence.push(factEvidence(p.contact, "size", p.facts.wantsLarge, factLabel(p.facts.wantsLarge), 0.5));
  }
  return { score, evidence };
}

function periodScore(p: Prepared, work: MatchWork): Scored {
  const year = work.year;
  if (year === null) return { score: 0.5, evidence: [] };
  const evidence: MatchEvidenceItem[] = [];
  let score = 0.5;
  if (p.years.length > 0) {
    // Distance in the log of a work's age: periods widen going back (2004 and 2020 are closer kin than 1935
    // and 1951 are far apart, and 1935 and 2015 are apart).
    const nowYear = new Date(p.nowMs).getUTCFullYear();
    const age = (y: number) => Math.log(Math.max(0, nowYear - y) + 10);
    let best = p.years[0]!;
    for (const y of p.years)
      if (Math.abs(age(y.year) - age(year)) < Math.abs(age(best.year) - age(year))) best = y;
    const d = age(best.year) - age(year);
    score = 0.15 + 0.85 * Math.exp(-(d * d) / (2 * 0.6 * 0.6));
    evidence.push(supportEvidence("period", best.support, score * 0.4));
  }
  for (const period of p.facts.periods) {
    const inside = year >= period.from && year <= period.to;
    if (period.negative && inside) {
      return {
        score: 0.05,
        evidence: [factEvidence(p.contact, "period", period.clause, factLabel(period.clause), 0.05)],
      };
    }
    if (!period.negative && inside) {
      score = Math.max(score, 0.9);
      evidence.push(factEvidence(p.contact, "period", period.clause, factLabel(period.clause), 0.7));
    } else if (!period.negative && period.only) score = Math.min(score, 0.05);
    else if (!period.negative) score = Math.min(score, 0.35);
  }
  return { score, evidence };
}

/** A style a fact asks for: as sure as the work's reading of it allows (a tag 1, a description 0.7). */
const STYLE_FACT_GAIN = 0.9;
/** Works of the style it bought or asked about raise the question a little, never past this. */
const STYLE_HISTORY_CAP = 0.35;
const STYLE_HISTORY_GAIN = 0.2;
const STYLE_HISTORY_SHOWN = 2;

/**
 * Is the work of a style the contact asks for, or has bought? Its facts naming one of the work's styles (for)
 * count most; its purchases, inquiries and good matches of works of a style it shares a little (capped). Zero
 * when the work has no style reading or nothing of the contact's touches it.
 */
function styleScore(p: Prepared, work: MatchWork): Scored {
  const styles = readWorkStyles(work);
  if (styles.length === 0 || (p.styleFacts.size === 0 && p.byStyle.size === 0))
    return { score: 0, evidence: [] };
  // A work of its own history is scored without itself; any other by its reading, once per contact.
  if (p.byWork.has(work.id)) return styleOf(p, styles, work.id);
  const key = styleSignature(styles);
  let cached = p.styleCache.get(key);
  if (!cached) {
    cached = styleOf(p, styles, null);
    p.styleCache.set(key, cached);
  }
  // Evidence items are shared between this contact's judgments; nothing mutates them.
  return { score: cached.score, evidence: [...cached.evidence] };
}

function styleOf(p: Prepared, styles: WorkStyle[], workId: string | null): Scored {
  const evidence: MatchEvidenceItem[] = [];
  let miss = 1;
  let historyMiss = 1;
  for (const ws of styles) {
    for (const f of p.styleFacts.get(ws.style) ?? []) {
      if (f.negative) continue;
      miss *= 1 - STYLE_FACT_GAIN * ws.weight;
      evidence.push(factEvidence(p.contact, "style", f.clause, factLabel(f.clause), 0.85 * ws.weight));
    }
    let shown = 0;
    for (const { s, ws: had } of (p.byStyle.get(ws.style) ?? []).slice(0, 6)) {
      if (s.work.id === workId) continue;
      const x =
        STYLE_HISTORY_GAIN *
        s.strength *
        ws.weight *
        had.weight *
        (0.4 + 0.6 * decay(p.nowMs - s.atMs, 4 * 365));
      historyMiss *= 1 - x;
      // The newest two rows of each style say it; the rest count without a line of their own.
      if (++shown > STYLE_HISTORY_SHOWN) continue;
      evidence.push(
        supportEvidence(
          "style",
          s,
          x,
          `Also ${styleLabel(ws.style)} (${styleShown(ws)}): ${s.label.replace(/^./, (c) => c.toLowerCase())}`,
        ),
      );
    }
  }
  const history = Math.min(STYLE_HISTORY_CAP, 1 - historyMiss);
  return { score: 1 - miss * (1 - history), evidence };
}

function engagementScore(p: Prepared, work: MatchWork): Scored {
  const evidence: MatchEvidenceItem[] = [];
  let miss = 1;
  const good = p.goodMatches.get(work.id);
  if (good) {
    miss = 0.05;
    evidence.push({
      question: "engagement",
      kind: "feedback",
      evidence_id: good.id,
      label: "A member marked this work a good match",
      source_label: "Feedback",
      at: good.at,
      weight: 0.95,
    });
  }
  for (const s of p.byWork.get(work.id) ?? []) {
    if (s.kind === "purchase") continue;
    const base = s.kind === "inquiry" || s.kind === "good_match" ? 1 : s.strength * 2.2;
    // Interest in a work is a moment: a view last month says more than one three years ago.
    const w = Math.min(1, base) * (0.25 + 0.75 * decay(p.nowMs - s.atMs, 120));
    miss *= 1 - 0.95 * w;
    evidence.push(supportEvidence("engagement", s, w, s.label.replace(s.desc, "this work")));
  }
  // Other works by the artist are the artist question's: counted once, there.
  return { score: 1 - miss, evidence };
}

/**
 * How new the work is to the inventory, for a contact who buys new arrivals: newness (half-life 120 days)
 * times the contact's appetite for new work. How recent the contact's own activity is belongs to the other
 * questions (each decays its rows by age), not here.
 */
function recencyScore(p: Prepared, work: MatchWork): Scored {
  const age = p.nowMs - Date.parse(work.createdAt);
  if (!(age >= 0)) return { score: 0, evidence: [] };
  const newness = decay(age, NEW_WORK_HALF_LIFE_DAYS);
  const score = newness * (0.3 + 0.7 * p.newArrivals.appetite);
  const evidence: MatchEvidenceItem[] = [];
  if (age < 90 * DAY) {
    evidence.push({
      question: "recency",
      kind: "work_fact",
      evidence_id: null,
      label: "New to the inventory",
      source_label: "Artwork",
      at: work.createdAt,
      weight: round(0.15 * score, 3),
    });
    const latest = p.newArrivals.latest;
    if (latest)
      evidence.push(
        supportEvidence(
          "recency",
          latest,
          round(0.2 * score, 3),
          `Buys new arrivals: ${latest.label.replace(/^Bought/, "bought")}, soon after it came in`,
        ),
      );
  }
  return { score, evidence };
}

const QUESTION_FNS: Record<MatchQuestion, (p: Prepared, w: MatchWork) => Scored> = {
  medium: mediumScore,
  artist: artistScore,
  price: priceScore,
  size: sizeScore,
  period: periodScore,
  style: styleScore,
  engagement: engagementScore,
  recency: recencyScore,
};

// ---------------------------------------------------------------------------------------------------------
// Judging

/** Strongest first, then newest, then by question, row and label; one item per (question, row, label). */
function orderEvidence(evidence: MatchEvidenceItem[]): MatchEvidenceItem[] {
  const seen = new Set<string>();
  return evidence
    .sort(
      (a, b) =>
        b.weight - a.weight ||
        cmp(b.at ?? "", a.at ?? "") ||
        cmp(a.question, b.question) ||
        cmp(String(a.evidence_id), String(b.evidence_id)) ||
        cmp(a.label, b.label),
    )
    .filter((e) => {
      const key = `${e.question}|${e.evidence_id}|${e.label}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/**
 * Judges one work for a contact read once by prepareContact. With `floor`, a pair below it comes back without
 * its evidence ordered (empty): it is not stored, and ordering is most of a pair's cost.
 */
export function judgePrepared(p: Prepared, work: MatchWork, model: MatchModel, floor = 0): MatchJudgment {
  if (!model.affinity) p.neighbours = undefined;
  else if (p.neighbours?.source !== model.affinity)
    p.neighbours = { source: model.affinity, byArtist: neighbourIndex(p, model.affinity) };
  const subScores = {} as Record<MatchQuestion, number>;
  const evidence: MatchEvidenceItem[] = [];
  let z = model.bias;
  for (const q of MATCH_QUESTIONS) {
    const { score, evidence: ev } = QUESTION_FNS[q](p, work);
    const s = round(clamp01(score));
    subScores[q] = s;
    z += (model.weights[q] ?? 0) * s;
    for (const e of ev) evidence.push(e);
  }
  const probability = round(applyCalibration(model.calibration, sigmoid(z)));
  return {
    artworkId: work.id,
    contactId: p.contact.id,
    model: model.model,
    probability,
    subScores,
    evidence: probability >= floor ? orderEvidence(evidence) : [],
  };
}

/** Judges one pair. For many works of one contact use matchContact (the contact is read once). */
export function judgeMatch(
  contact: MatchContact,
  work: MatchWork,
  model: MatchModel,
  now: Date,
): MatchJudgment {
  return judgePrepared(prepareContact(contact, now), work, model);
}

/**
 * Judges candidates for one contact: drops works it bought and pairs it dismissed (not_interested), keeps
 * probability >= MATCH_STORE_FLOOR, best MAX_STORED_MATCHES, sorted probability desc then artworkId.
 */
export function matchContact(
  contact: MatchContact,
  candidates: MatchWork[],
  model: MatchModel,
  now: Date,
): MatchJudgment[] {
  const p = prepareContact(contact, now);
  const out: MatchJudgment[] = [];
  const seen = new Set<string>();
  for (const work of candidates) {
    if (p.excluded.has(work.id) || seen.has(work.id)) continue;
    seen.add(work.id);
    const j = judgePrepared(p, work, model, MATCH_STORE_FLOOR);
    if (j.probability >= MATCH_STORE_FLOOR) out.push(j);
  }
  out.sort((a, b) => b.probability - a.probability || cmp(a.artworkId, b.artworkId));
  return out.slice(0, MAX_STORED_MATCHES);
}

/**
 * The head of a judgment's evidence: what `reasons[]` stores. One record that answered two questions (a collecting
 * focus naming both the medium and the period) is one reason, at its strongest.
 */
export function reasonsOf(j: MatchJudgment): MatchEvidenceItem[] {
  const seen = new Set<string>();
  const out: MatchEvidenceItem[] = [];
  for (const e of j.evidence) {
    const key = `${e.kind}|${e.evidence_id}|${e.label}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
    if (out.length === MAX_REASONS) break;
  }
  return out;
}

/** Capitalised words of four letters or more in a contact's facts: the surnames its notes may name. */
const NAME_WORD = /(?<![\p{L}\d])\p{Lu}[\p{L}'’-]{3,}/gu;
export const CANDIDATE_NAMES = 30;
export const CANDIDATE_PERIODS = 4;

/**
 * What a contact's history and facts point at, each answered by an index: its artists (and the surnames its
 * facts name), media, price range and works, the styles its facts ask for (by artwork tag) and the years of
 * making they name. With a model that carries an artist affinity, the artists' neighbours too (up to
 * AFFINITY_MAX_NEIGHBOURS). A contact with facts and no history still gets candidates.
 */
export function candidateQuery(contact: MatchContact, now: Date, model?: MatchModel): MatchCandidateQuery {
  const p = prepareContact(contact, now);
  const artistIds = new Set<string>();
  for (const s of p.supports) if (s.work.artistId) artistIds.add(s.work.artistId);
  if (model?.affinity) {
    // The strongest neighbours of what the contact is drawn to, the same reading the artist question uses.
    const pulls = [...neighbourIndex(p, model.affinity).entries()]
      .map(([id, ns]) => [id, Math.max(...ns.map((n) => AFFINITY_GAIN * n.strength * n.pull))] as const)
      .filter(([id]) => !artistIds.has(id))
      .sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]))
      .slice(0, AFFINITY_MAX_NEIGHBOURS);
    for (const [id] of pulls) artistIds.add(id);
  }
  const against = new Set(p.facts.media.filter((m) => m.negative).map((m) => m.family));
  const media = [...p.familyWeight.entries()]
    .filter(([f, w]) => w > 0 && !against.has(f))
    .map(([f]) => f as string)
    .sort();
  const artworkIds = new Set<string>();
  for (const s of p.supports)
    if (s.kind !== "purchase" && !p.excluded.has(s.work.id)) artworkIds.add(s.work.id);
  let priceRange: MatchCandidateQuery["priceRange"] = null;
  if (p.price) {
    // The reference widened by about 2.5 sigma of the price question each way.
    priceRange = {
      min: Math.max(0, Math.floor(Math.exp(p.price.log - 2.5))),
      max: Math.ceil(Math.exp(p.price.log + 2)),
    };
  }
  const names = new Set<string>();
  for (const clause of p.facts.clauses) {
    if (clause.negative) continue;
    for (const m of clause.phrase.matchAll(NAME_WORD)) {
      const word = fold(m[0].replace(/['’]s$/, "")).replace(/['’-]+$/, "");
      if (word.length >= 4) names.add(word);
    }
  }
  const styles = [...new Set(p.facts.styles.filter((st) => !st.negative).map((st) => st.style))];
  const periods = p.facts.periods
    .filter((x) => !x.negative)
    .map((x) => ({ from: x.from, to: Math.min(x.to, 9999) }))
    .slice(0, CANDIDATE_PERIODS);
  return {
    artistIds: [...artistIds].sort(),
    media,
    priceRange,
    artworkIds: [...artworkIds].sort(),
    styleTags: styleTagPatterns(styles),
    artistNames: [...names].sort().slice(0, CANDIDATE_NAMES),
    periods,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Learning from the gallery's outcomes

/** A labelled outcome's sub-scores; `contactId` names whose outcome it is (cross-fitting folds by contact). */
export type MatchExample = { subScores: Record<MatchQuestion, number>; label: 0 | 1; contactId?: string };

/** The model's probability before calibration: σ(bias + Σ weights[q] · sub_scores[q]). */
export function rawMatchProbability(model: MatchModel, subScores: Record<MatchQuestion, number>): number {
  let z = model.bias;
  for (const q of MATCH_QUESTIONS) z += (model.weights[q] ?? 0) * (subScores[q] ?? 0);
  return sigmoid(z);
}

/** The model's probability as the judge gives it: the raw probability through the model's calibration. */
export function matchProbability(model: MatchModel, subScores: Record<MatchQuestion, number>): number {
  return applyCalibration(model.calibration, rawMatchProbability(model, subScores));
}

/** The contact as it stood strictly before `at`. */
function historyBefore(c: MatchContact, atMs: number): MatchContact {
  const before = <T extends { at: string }>(xs: T[]) => xs.filter((x) => Date.parse(x.at) < atMs);
  const purchases = before(c.purchases);
  // The stored band and total spend are of every purchase, later ones too: recomputed from those before.
  const priced = purchases.filter((p) => p.priceCents !== null && p.priceCents > 0);
  const spend = priced.reduce((sum, p) => sum + p.priceCents!, 0);
  return {
    ...c,
    priceBand: priced.length > 0 ? priceBandOf(spend / priced.length) : null,
    totalSpendCents: priced.length > 0 ? spend : null,
    purchases,
    interactions: before(c.interactions),
    engagements: before(c.engagements),
    feedback: before(c.feedback),
    facts: c.facts.filter((f) => f.at === null || Date.parse(f.at) < atMs),
  };
}

/** FNV-1a, for a deterministic sample. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Negative works sampled for each positive from the inventory at the time. */
export const SAMPLED_NEGATIVES = 3;

/**
 * Labelled examples from a gallery's own outcomes (docs/decisions.md "The matcher"). Positives: a purchase, an
 * inquiry about a work, a member's good_match. Negatives: not_interested, and non-response: for each positive,
 * SAMPLED_NEGATIVES works that were in the inventory then (not sold) and that the contact never bought, asked
 * about or was given feedback on, chosen by a hash (deterministic). A viewed work can be sampled: viewing
 * without a response is non-response. Features come from the history strictly before the outcome.
 */
export function trainingExamples(
  contacts: MatchContact[],
  works: MatchWork[],
  now: Date,
  options: { affinity?: boolean } = {},
): MatchExample[] {
  const nowMs = now.getTime();
  const soldAt = new Map<string, number>();
  for (const c of contacts)
    for (const p of c.purchases)
      if (p.work) soldAt.set(p.work.id, Math.min(soldAt.get(p.work.id) ?? Infinity, Date.parse(p.at)));
  const sortedWorks = [...works].sort((a, b) => cmp(a.id, b.id));
  const byId = new Map(sortedWorks.map((w) => [w.id, w]));
  const examples: MatchExample[] = [];
  // With affinity, each contact's examples see the affinity of the others (leave-one-out): its own outcomes
  // must not teach the affinity that then scores them.
  const co = options.affinity ? cooccurrence(contacts) : null;
  for (const c of [...contacts].sort((a, b) => cmp(a.id, b.id))) {
    let model = PRIOR_MATCH_MODEL;
    if (co) {
      const own = artistPulls(c);
      addPulls(co, own, -1);
      const artists = new Set<string>();
      for (const x of [...c.purchases, ...c.interactions, ...c.engagements])
        if (x.work?.artistId) artists.add(x.work.artistId);
      model = {
        ...PRIOR_MATCH_MODEL,
        affinity: affinityFor(co, [...artists].sort(cmp), contacts.length - 1),
      };
      addPulls(co, own, 1);
    }
    // Works the contact responded to at any time are never sampled as negatives.
    const responded = new Set<string>();
    for (const p of c.purchases) if (p.work) responded.add(p.work.id);
    for (const i of c.interactions) if (i.work && i.direction !== "outbound") responded.add(i.work.id);
    for (const f of c.feedback) responded.add(f.artworkId);
    const outcomes: { id: string; atMs: number; work: MatchWork; label: 0 | 1; featuresAt: number }[] = [];
    for (const p of c.purchases)
      if (p.work)
        outcomes.push({
          id: p.id,
          atMs: Date.parse(p.at),
          work: p.work,
          label: 1,
          featuresAt: Date.parse(p.at),
        });
    for (const i of c.interactions)
      if (i.work && i.direction !== "outbound")
        outcomes.push({
          id: i.id,
          atMs: Date.parse(i.at),
          work: i.work,
          label: 1,
          featuresAt: Date.parse(i.at),
        });
    for (const f of c.feedback) {
      const work = byId.get(f.artworkId);
      if (!work) continue;
      if (f.action === "good_match" || f.action === "not_interested")
        outcomes.push({
          id: f.id,
          atMs: Date.parse(f.at),
          work,
          label: f.action === "good_match" ? 1 : 0,
          featuresAt: Date.parse(f.at),
        });
    }
    outcomes.sort((a, b) => a.atMs - b.atMs || cmp(a.id, b.id));
    for (const o of outcomes) {
      if (o.atMs > nowMs) continue;
      const history = prepareContact(historyBefore(c, o.featuresAt), new Date(o.featuresAt));
      examples.push({
        subScores: judgePrepared(history, o.work, model).subScores,
        label: o.label,
        contactId: c.id,
      });
      if (o.label !== 1) continue;
      const pool = sortedWorks.filter(
        (w) =>
          !responded.has(w.id) &&
          Date.parse(w.createdAt) <= o.atMs &&
          (soldAt.get(w.id) ?? Infinity) > o.atMs,
      );
      const taken = new Set<number>();
      for (let k = 0; k < SAMPLED_NEGATIVES && taken.size < pool.length; k++) {
        let i = hash(`${c.id}|${o.id}|${k}`) % pool.length;
        while (taken.has(i)) i = (i + 1) % pool.length;
        taken.add(i);
        examples.push({
          subScores: judgePrepared(history, pool[i]!, model).subScores,
          label: 0,
          contactId: c.id,
        });
      }
    }
  }
  return examples;
}

/** Prior standard deviation of each weight around the prior model's value (log-odds per unit sub-score). */
export const PRIOR_SD = 1.0;

/**
 * MAP logistic regression with the prior as a Gaussian regulariser (mean the prior's weights and bias, sd
 * PRIOR_SD): with no examples it returns the prior; with many, the data's fit. Newton's method from the prior,
 * a fixed number of steps: deterministic.
 */
export function fitMatchModel(examples: MatchExample[], prior: MatchModel = PRIOR_MATCH_MODEL): MatchModel {
  const dims = MATCH_QUESTIONS.length + 1;
  const mean = [prior.bias, ...MATCH_QUESTIONS.map((q) => prior.weights[q])];
  const theta = [...mean];
  const lambda = 1 / (PRIOR_SD * PRIOR_SD);
  const xs = examples.map((e) => [1, ...MATCH_QUESTIONS.map((q) => e.subScores[q])]);
  for (let step = 0; step < 25; step++) {
    const grad = theta.map((t, i) => lambda * (t - mean[i]!));
    const hess = Array.from({ length: dims }, (_, i) =>
      Array.from({ length: dims }, (_, j) => (i === j ? lambda : 0)),
    );
    xs.forEach((x, n) => {
      let z = 0;
      for (let i = 0; i < dims; i++) z += theta[i]! * x[i]!;
      const p = sigmoid(z);
      const r = p - examples[n]!.label;
      const v = p * (1 - p);
      for (let i = 0; i < dims; i++) {
        grad[i]! += r * x[i]!;
        for (let j = 0; j < dims; j++) hess[i]![j]! += v * x[i]! * x[j]!;
      }
    });
    const delta = solve(hess, grad);
    let size = 0;
    for (let i = 0; i < dims; i++) {
      theta[i]! -= delta[i]!;
      size = Math.max(size, Math.abs(delta[i]!));
    }
    if (size < 1e-9) break;
  }
  const weights = {} as Record<MatchQuestion, number>;
  MATCH_QUESTIONS.forEach((q, i) => {
    weights[q] = round(theta[i + 1]!);
  });
  return {
    model: prior.model,
    bias: round(theta[0]!),
    weights,
    examples: examples.length,
    positives: examples.filter((e) => e.label === 1).length,
  };
}

/** Folds of a cross-fit: a contact's outcomes are all in one fold (by a hash of its id). */
export const CALIBRATION_FOLDS = 5;

/**
 * Outcomes judged by models that never saw them: the examples split into CALIBRATION_FOLDS folds by contact,
 * each fold judged (raw, before calibration) by the model fitted on the other folds with the same prior.
 */
export function crossFittedOutcomes(
  examples: MatchExample[],
  prior: MatchModel = PRIOR_MATCH_MODEL,
  folds = CALIBRATION_FOLDS,
): Outcome[] {
  const foldOf = (e: MatchExample) => hash(e.contactId ?? "") % folds;
  const out: Outcome[] = [];
  for (let k = 0; k < folds; k++) {
    const held = examples.filter((e) => foldOf(e) === k);
    if (held.length === 0) continue;
    const model = fitMatchModel(
      examples.filter((e) => foldOf(e) !== k),
      prior,
    );
    for (const e of held) out.push({ p: rawMatchProbability(model, e.subScores), label: e.label });
  }
  return out;
}

/**
 * A fitted model's calibration from its own examples, cross-fitted (crossFittedOutcomes): isotonic or Platt
 * (lib/engine/calibration.ts fitCalibration); with `towards`, shrunk toward that map by how many outcomes it
 * rests on (a gallery's map toward the global one).
 */
export function fitMatchCalibration(
  examples: MatchExample[],
  options: { prior?: MatchModel; towards?: CalibrationMap; fittedOn?: string } = {},
): CalibrationMap {
  const outcomes = crossFittedOutcomes(examples, options.prior ?? PRIOR_MATCH_MODEL);
  const towards = options.towards;
  const local = fitCalibration(outcomes, towards ?? IDENTITY_CALIBRATION, options.fittedOn);
  return towards ? shrinkTowards(local, towards) : local;
}

/** Solves A x = b by Gaussian elimination with partial pivoting (A is small and positive definite). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const d = m[col]![col]!;
    for (let r = col + 1; r < n; r++) {
      const f = m[r]![col]! / d;
      for (let k = col; k <= n; k++) m[r]![k]! -= f * m[col]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}

/** Reliability table: bins of predicted probability with mean predicted, observed rate, n. */
export function reliabilityTable(
  pairs: { p: number; label: 0 | 1 }[],
  bins = 10,
): { bin: string; predicted: number; observed: number; n: number }[] {
  const out: { bin: string; predicted: number; observed: number; n: number }[] = [];
  for (let i = 0; i < bins; i++) {
    const from = i / bins;
    const to = (i + 1) / bins;
    const inBin = pairs.filter(({ p }) => (p >= from && p < to) || (i === bins - 1 && p === 1));
    if (inBin.length === 0) continue;
    out.push({
      bin: `${from.toFixed(1)}–${to.toFixed(1)}`,
      predicted: round(inBin.reduce((s, x) => s + x.p, 0) / inBin.length, 3),
      observed: round(inBin.reduce((s, x) => s + x.label, 0) / inBin.length, 3),
      n: inBin.length,
    });
  }
  return out;
}
