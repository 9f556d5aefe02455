/**
 * Inbox triage: judges the last inbound message of a thread (design §3's value sets) from weighted cues in its
 * new text, the thread's history, the channel and the time it was sent. Pure and deterministic; runs in workerd.
 *
 * How it reads a message:
 * - quoted replies and signatures are set aside, so a reply is judged on what the sender just wrote;
 * - cues are data (below): a pattern, the value it points to and a weight; a cue in a negation's scope within
 *   its clause ("not interested in buying") is weighed and set aside; a cue in a sentence that asks counts more;
 * - the precedence rules then decide between several asks: spam first, autoreplies are other, a seller is
 *   consignment, purchase_inquiry > price_request > availability, otherwise the strongest request;
 * - urgency starts from the intent's usual pace and moves with time cues, the channel and escalation;
 * - escalation comes from unanswered inbound messages since the last reply and chasing, frustration or
 *   walk-away phrases.
 */
import { isNegated, type JudgedText, judgedText, sentenceAt } from "./triage-text";
import {
  INTENTS,
  type Intent,
  type ModelName,
  type PhraseEvidence,
  type TriageInput,
  type TriageJudgment,
  type TriageMessage,
  URGENCIES,
  type Urgency,
} from "./types";

export const TRIAGE_MODEL: ModelName = "triage-rules@1";

interface Cue<T extends string> {
  to: T;
  /** Case-insensitive pattern over the judged text (word boundaries are the pattern's own business). */
  re: RegExp;
  weight: number;
  effect: string;
  /** Whether a negation in its clause cancels the cue ("not interested in buying"); a declined invitation or
   * "isn't sold yet?" still is what it is, so most cues are not. */
  negatable: boolean;
}

const cue = <T extends string>(to: T, weight: number, effect: string, ...patterns: string[]): Cue<T>[] =>
  patterns.map((p) => ({ to, weight, effect, negatable: false, re: new RegExp(p, "giu") }));

/** The same, for cues a negation cancels. */
const negatableCue = <T extends string>(
  to: T,
  weight: number,
  effect: string,
  ...patterns: string[]
): Cue<T>[] => cue(to, weight, effect, ...patterns).map((c) => ({ ...c, negatable: true }));

// ---------------------------------------------------------------------------------------------------------
// Intent cues (English first, then the languages the gallery's mail comes in)

const INTENT_CUES: Cue<Intent>[] = [
  ...negatableCue(
    "purchase_inquiry",
    3,
    "commits to buying a work",
    String.raw`\b(i|we)('ll| will| would like to| want to|'d like to| wish to)? (take|buy|purchase|acquire) (it|them|both|the|this|that|no\.?|edition|one)\b`,
    String.raw`\b(i|we)('d| would) like to (buy|purchase|acquire|go ahead|proceed)\b`,
    String.raw`\b(want|wish|would like|looking) to (buy|purchase|acquire)\b`,
    String.raw`\blet'?s do it\b|\bgo ahead\b|\bwe have a deal\b|\bdeal\b(?! with)`,
    String.raw`\b(we|i)('ve)? (have )?decided( on)?\b|\bwe'?ve slept on it\b`,
    String.raw`\binterested in (acquiring|purchasing|buying)\b`,
    String.raw`\b(i|we) (really )?(want|need|'d love) (the|that|this|both)\b(?=[^.?!]{0,30}\b(one|piece|painting|print|drawing|work|sculpture|bronze|photo|canvas|bowl|vase|litho|woodcut|diptych|triptych)s?\b)`,
    String.raw`\b(confirm|approved) the (purchase|acquisition)\b|\bpurchase of\b`,
    String.raw`\bacquérir\b|\bacheter\b|\bje (le|la) prends\b|\bkaufen\b|\bprendiamo\b|\bcompr(o|amos|ar)\b|\blo prendo\b`,
  ),
  ...negatableCue(
    "purchase_inquiry",
    2.5,
    "asks to hold or reserve a work, or makes an offer",
    String.raw`\b(hold|reserve|reservation|reserving|first (right of )?refusal|on hold for (me|us))\b`,
    String.raw`\b(make|submit|submitting) an offer\b|\boffer (of|for)\b|\bcounter[- ]?offer\b|\bwould (you|u) (take|accept)\b`,
    String.raw`\b(put|place) (down )?a deposit\b|\bdeposit on\b|\bpay (for it )?now\b|\bcan pay now\b|\bpay for (the|it|this|that)\b`,
    String.raw`\bdiscount if (we|i) buy\b|\bfor both\b|\bcash buyer\b`,
    String.raw`\breservierung\b|\bréserv(er|ation)\b|\bprenot(are|azione)\b|\breserv(ar|a)\b`,
  ),
  ...cue(
    "purchase_inquiry",
    1,
    "names a step of buying",
    String.raw`\bnext steps?\b|\bflexibility on the price\b`,
  ),
  ...negatableCue(
    "price_request",
    2.5,
    "asks a price",
    String.raw`\bhow much\b|\bprice (list|range|of|on|for)\b|\bpricing\b|\bwhat('s| is| are| would)? (the )?(price|cost)s?\b`,
    String.raw`\b(the |its )?prices?\b\??|\bcost\b|\bgoing for\b|\bprice\?`,
    String.raw`\bprix\b|\bcombien\b|\bpreis(e|liste)?\b|\bwas kostet\b|\bquanto costa\b|\bprezzo\b|\bprecio\b|\bcuánto\b`,
  ),
  ...cue(
    "availability",
    2.5,
    "asks whether a work is available",
    String.raw`\b(still )?(available|avail)\b|\bstill (there|up|open|have)\b|\b(sold|gone|spoken for)( yet| out)?\b`,
    String.raw`\bunsold\b|\b(any|anything) (left|remaining)\b|\bdo you (still )?have any\b|\bremaining edition\b`,
    String.raw`\bdisponible\b|\bverfügbar\b|\bdisponibile\b|\bquedan\b|\bnoch zu haben\b`,
  ),
  ...cue(
    "logistics",
    2,
    "arranges shipping, delivery, installation or storage",
    String.raw`\b(ship|shipping|shipped|shipper|freight|courier|crat(e|es|ing)|packed|packing|pick[- ]?up|collect|delivery|deliver(ed)?|tracking( number)?)\b`,
    String.raw`\b(customs|carnet|export licen[cs]e|temporary import|truck|van|driver|loading bay|service lift|storage|warehouse)\b`,
    String.raw`\b(install(ation|er)?|hang(ing)?|hanging height|anchors|plinth delivery|condition report|loan return|travel frame)\b`,
    String.raw`\bin transit\b`,
    String.raw`\blieferung\b|\bliefern\b|\blivraison\b|\bretour\b|\bemballage\b|\bspedizione\b|\benvío\b|\btransporte?\b`,
  ),
  ...negatableCue(
    "consignment",
    3.5,
    "wants the gallery to sell a work for them",
    String.raw`\bconsign(ment|ing)?\b|\bresell (mine|it|ours|my|our)\b|\bsell (it|them|mine|ours) (for|on for|on) (me|us)\b|\bsell (mine|my|our)\b|\bsell it on\b`,
    String.raw`\bsell(ing)? (mine|my|our)\b|\b(i|we)('d| would| want| wish| am| are|'m|'re)?( like| looking| thinking( of)?| hoping)?( to)? (sell|selling|part with)\b|\b(like|want|need) you to sell\b|\bhave you sell\b|\bhandling the sale\b|\bfrom my collection\b`,
    String.raw`\bdépôts?-ventes?\b|\bje souhaite vendre\b|\bverkaufen\b.{0,60}\b(ich|wir)\b|\b(ich|wir) möchte(n)? .{0,60}verkaufen\b|\bin kommission\b|\bvorrei vendere\b|\bquiero vender\b|\bvender\b`,
  ),
  ...cue(
    "consignment",
    1.5,
    "an owner's terms of sale",
    String.raw`\bcommission (rate|if)\b|\bwhat'?s your commission\b|\bestimate\b|\bvalu(e|ation|ing) (them|it|our)\b|\bnet\b`,
  ),
  ...cue(
    "press",
    3,
    "a journalist's or publication's request",
    String.raw`\b(journalist|article|interview|quote from|a quote|fact[- ]?check(ing)?|podcast|documentary|radio|filming|film crew|review copy|press (preview|release|team|image)|picture desk|editorial)\b`,
    String.raw`\b(magazine|newspaper|the art newspaper|frieze|artforum|apollo|artreview|guardian|bbc|standard|time out|monopol|corriere|faz)\b`,
    String.raw`\b(writing|preparing) (a|an|the|it)\b.{0,30}\b(piece|article|review|feature|up)\b|\bfeature\b|\blistings?\b|\breproduce\b|\bcredit line\b|\bhigh[- ]res\b|\bcaptions?\b|\bgo to print\b|\bfiling\b`,
    String.raw`\bpressebild\b|\bredaktionsschluss\b|\bbericht\b|\bdemande presse\b|\bvisuels\b|\bcommuniqué\b|\bintervista\b|\bentrevista\b`,
  ),
  ...cue(
    "event_rsvp",
    3,
    "answers or asks about an invitation",
    String.raw`\b(invitation|invite|invited|rsvp|save the date|guest list|\+1|plus one|count me in|we'?ll be there|can'?t make it|(delighted|happy|love) to (attend|come)|attend|decline|accepted:)\b`,
    String.raw`\b(opening|private view|vernissage|preview evening|dinner|breakfast|artist talk|the talk|curator'?s tour|the tour)\b`,
    String.raw`\beröffnung\b|\babsage\b|\bci saremo\b|\bl'invito\b|\binvito\b|\bnous viendrons\b|\bje viendrai\b|\binvitación\b`,
  ),
  ...cue(
    "invoice_payment",
    3,
    "invoices or payment on an agreed sale",
    String.raw`\b(invoice|inv-[\d-]+|pro ?forma|remittance|receipt|refund|iban|bank details|payment( link| schedule| run| reference)?|instal(l)?ments?|balance|vat|resale right|swift)\b`,
    String.raw`\b(transfer(red)? done|bank transfer|pay (by|in|the|before)|will pay|settle|card payment|declined)\b`,
    String.raw`\bfacture\b|\brechnung\b|\büberweis\p{L}*\b|\bzahlung\b|\bbonifico\b|\brata\b|\bpago\b|\bfactura\b`,
  ),
  ...cue(
    "invoice_payment",
    1.5,
    "reports a payment made",
    String.raw`\b(wired|paid|transfer|bonifico fatto|pago hecho)\b`,
  ),
  ...cue(
    "spam",
    4,
    "reads as bulk or fraudulent mail",
    String.raw`\bunsubscribe\b|\bview in browser\b|\bmanage your email preferences\b|\byou are receiving this\b|\bthis week only\b|\blimited (spots|time)\b`,
    String.raw`\bclick (here|the link)\b|\bverify your account\b|\bconfirm your identity\b|\bwill be deactivated\b|\b(apple id|mailbox) .{0,30}(locked|quota)\b`,
    String.raw`\bcertified cheque\b|\bwestern union\b|\bmy shipper\b|\bgift card\b|\blottery\b|\bguaranteed\b.{0,20}\breturns\b|\bcrypto\b|\bnft\b`,
    String.raw`\btax refund\b|\bearn \$?\d+|\bwork(ing)? from home\b|\b(bank|payment) details have changed\b|\bfuture payments\b.{0,40}\bnew account\b`,
    String.raw`\bpublication fee\b|\bbooth spaces from\b|\b(buy|get) \d+ (five-star )?reviews\b|\bseo\b|\bpage 1 of google\b|\bhi mum\b`,
    String.raw`\bi need you to process a wire\b|\bcould not be delivered\b.{0,60}\bhttps?://|\bhttps?://[\w.-]+\.(top|ru|info|xyz|co)/`,
  ),
  ...cue(
    "spam",
    2,
    "mass-mail wording",
    String.raw`\bdear (customer|valued customer|sir|artist/gallery|gallery owner)\b|\bcongratulations\b.{0,40}\b(won|selected|reward)\b|\byou have been selected\b`,
  ),
  ...cue(
    "other",
    5,
    "an automatic reply",
    String.raw`\bout of (the )?office\b|\bautomatic reply\b|\bauto-?reply\b|\bon leave\b|\babsent(e)? du bureau\b|\bnicht im büro\b|\babwesenheit\p{L}*\b|\bfuori sede\b|\bréponse automatique\b|\bdelivery status notification\b|\bdelivery to the following recipient failed\b|\boffice is closed\b`,
  ),
  ...cue(
    "other",
    2,
    "a thank-you, an artist's submission or another matter",
    String.raw`\bthank(s| you)( so much)?\b|\bcongratulations\b|\bportfolio\b|\brepresentation\b|\bnew artists\b|\bstudio visit\b|\bvisit my studio\b|\bintern(ship)?\b|\bmailing list\b`,
    String.raw`\bchange of address\b|\bwe'?ve moved\b|\bwrong number\b|\bleft my\b|\bhas anyone found\b|\brecommend a\b|\barchive\b|\bthesis\b|\btake me off\b|\bok\b|\bperfect\b`,
  ),
];

// Cues read in the subject line, weighed lightly (a "Re:" subject is the history's, not the new ask).
const SUBJECT_WEIGHT = 0.6;
const REPLY_SUBJECT_WEIGHT = 0.25;
// An earlier unanswered message's asks, weighed when the judged one chases it.
const CHASED_WEIGHT = 0.6;

// ---------------------------------------------------------------------------------------------------------
// Urgency, reply and escalation cues

const URGENCY_CUES: Cue<Urgency>[] = [
  ...cue(
    "now",
    4,
    "someone is waiting in real time",
    String.raw`\b(downstairs|at (the )?reception|at the door|outside (the|in)|standing (in front|outside)|in the car|loading bay|gate (is )?locked|at (your|the) (booth|stand) now|on site|(here|there|in the gallery) (right )?now|in front of (the|your) (gallery|window|door|stand|booth)|call me now|need to know now|client waiting|can only wait|running \d+ ?mins?( late)?|nobody answering the buzzer|(can|could|want to|ready to) (pay|come in|come down|talk) now)\b`,
    String.raw`\b(im|i'm|we're|we are) (at|outside|in front of|standing|on the phone)\b`,
  ),
  ...cue(
    "today",
    3,
    "a same-day deadline",
    String.raw`(?<!\b(for|have|has|had|was|were|we|i) )\b(today|tonight|this (afternoon|evening)|by \d{1,2} ?(am|pm)|before \d{1,2} ?(am|pm)|\d{1,2} ?pm today|end of (the )?day|in (an|one|two|\d) hours?|asap|urgent(ly)?|tomorrow|go to print|filing)\b`,
    String.raw`\b(aujourd'hui|ce soir|heute|stasera|oggi|hoy)\b`,
  ),
  ...cue(
    "today",
    2,
    "a problem under way",
    String.raw`\b(declined|didn'?t go through|is wrong|bounced|damaged|broken|stuck)\b`,
  ),
  ...cue(
    "today",
    2,
    "a time of day",
    String.raw`\b(till|until|by|before|around|at|for the) \d{1,2}(:\d\d)? ?(am|pm)\b|\btill \d{1,2}\b`,
  ),
  ...cue(
    "this_week",
    2,
    "a deadline within days",
    String.raw`\b(by|before|on|next|this) (monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|thurs|fri|sat|the weekend)\b|\bthis week\b|\bnext week\b|\bin a few days\b|\bd'ici (lundi|mardi|mercredi|jeudi|vendredi)\b|\bbis donnerstag\b|\bdonnerstag\b`,
  ),
  ...cue(
    "later",
    3,
    "no hurry, or a date months away",
    String.raw`\b(portfolio|representation|new artists|studio visit|visit my studio|no (rush|hurry)|not in a rush|whenever|after the holidays|next year|in (the )?spring|in (january|february|march|april)|until (january|february|march)|closes in march|months?)\b|\b20(27|28)\b`,
  ),
];

/** Sentences that ask for an answer or a decision. */
const REPLY_CUES: Cue<"ask" | "status">[] = [
  ...cue(
    "ask",
    1,
    "asks for an answer or a decision",
    String.raw`\?|\b(could|can|would|will) (you|u|someone)\b|\bplease (send|confirm|let|advise|issue|fix|check|resend)\b|\blet me know\b|\bconfirm\b|\bsend me\b|\bwhat do you need\b|\btell me\b`,
  ),
  ...cue(
    "status",
    1,
    "reports a status: nothing to answer",
    String.raw`\b(transfer done|wired|paid|received, thank you|will pay|accepted:|count me in|we'?ll be there|can'?t make it|noted|saved!|thanks? (so much|again)|attached is the swift|balance will follow|remittance advice|payment confirmation)\b`,
  ),
];

const ESCALATION_CUES: Cue<"chase" | "frustration" | "walk_away">[] = [
  ...cue(
    "chase",
    1,
    "chases an unanswered message",
    String.raw`\b(following up|follow(ing)? up on|any (update|news)|still waiting|still no|(third|3rd|fourth|4th|second|2nd) (time|message|email|text|msg|try)|(asking|writing|chasing) again|just chasing|no (reply|answer|response)|nobody (answers|is answering)|haven'?t heard|had nothing back|have had nothing|i have now written|this is my (third|fourth|second)|hello\?+)`,
  ),
  ...cue(
    "frustration",
    1,
    "frustration with the gallery",
    String.raw`\b(unacceptable|ridiculous|disappointed|frustrat\p{L}*|tired of|fed up|strange that nobody|hurt|annoyed|appalling)\b|😤|🙄|😡`,
  ),
  ...cue(
    "walk_away",
    1,
    "a threat to walk away",
    String.raw`\b(buy (it |one )?elsewhere|other gallery|go elsewhere|move on|take it to|give up|buy the one .{1,40} instead|involve my (bank|lawyer)|without the gallery'?s comment|keep buying from you)\b`,
  ),
];

// ---------------------------------------------------------------------------------------------------------
// Judging

interface Hit<T extends string> {
  to: T;
  weight: number;
  start: number;
  end: number;
  phrase: string;
  effect: string;
  negated: boolean;
  asks: boolean;
}

function findCues<T extends string>(cues: Cue<T>[], text: JudgedText): Hit<T>[] {
  const hits: Hit<T>[] = [];
  for (const c of cues) {
    c.re.lastIndex = 0;
    for (let m = c.re.exec(text.text); m !== null; m = c.re.exec(text.text)) {
      if (m[0].length === 0) {
        c.re.lastIndex++;
        continue;
      }
      const start = m.index;
      const end = start + m[0].length;
      const sentence = sentenceAt(text.sentences, start);
      const clause = sentence?.clauses.find((k) => start >= k.start && start < k.end);
      hits.push({
        to: c.to,
        weight: c.weight,
        start,
        end,
        phrase: m[0],
        effect: c.effect,
        negated: c.negatable && isNegated(text.sentences, start, end),
        asks: clause?.asks ?? sentence?.asks ?? false,
      });
    }
  }
  return hits;
}

/** A cue in a clause that asks weighs more: the request decides, not what the sender mentions. */
const ASKING_CLAUSE = 1.5;

/** Sum of a value's cue weights: overlapping phrases once, with diminishing returns past the first. */
function scoreOf<T extends string>(hits: Hit<T>[], to: T): number {
  const kept: Hit<T>[] = [];
  for (const h of hits
    .filter((x) => x.to === to && !x.negated)
    .sort((a, b) => b.weight - a.weight || a.start - b.start)) {
    if (!kept.some((k) => h.start < k.end && k.start < h.end)) kept.push(h);
  }
  const weights = kept.map((h) => h.weight * (h.asks ? ASKING_CLAUSE : 1)).sort((a, b) => b - a);
  return weights.reduce((sum, w, i) => sum + w / (i + 1), 0);
}

function softmax<T extends string>(values: readonly T[], scores: Record<T, number>, sharpness: number) {
  const top = Math.max(...values.map((v) => scores[v]));
  const exps = values.map((v) => Math.exp((scores[v] - top) * sharpness));
  const total = exps.reduce((a, b) => a + b, 0);
  const dist = {} as Record<T, number>;
  values.forEach((v, i) => {
    dist[v] = Math.round(((exps[i] ?? 0) / total) * 10000) / 10000;
  });
  // Rounding may leave the sum a hair off 1: the top value absorbs it.
  const sum = values.reduce((a, v) => a + dist[v], 0);
  const best = values.reduce((a, v) => (dist[v] > dist[a] ? v : a), values[0] as T);
  dist[best] = Math.round((dist[best] + 1 - sum) * 10000) / 10000;
  return { dist, best };
}

/** Picks the intent by design §3's precedence, and returns the scores it rests on with the winner on top. */
function decideIntent(
  scores: Record<Intent, number>,
  autoreply: boolean,
): { intent: Intent; rule: string | null } {
  if (scores.spam >= 4) return { intent: "spam", rule: "spam comes first" };
  if (autoreply) return { intent: "other", rule: "an automatic reply is other" };
  if (scores.consignment >= 3.5) return { intent: "consignment", rule: "a seller is consignment" };
  const buyer = Math.max(scores.purchase_inquiry, scores.price_request, scores.availability);
  const rest = (INTENTS as readonly Intent[]).filter(
    (i) => !["purchase_inquiry", "price_request", "availability", "spam"].includes(i),
  );
  const strongest = rest.reduce((a, i) => (scores[i] > scores[a] ? i : a), rest[0] as Intent);
  // A sale being agreed in this very message comes before its payment or delivery, which are steps of it.
  if (scores.purchase_inquiry >= 3 && (strongest === "invoice_payment" || strongest === "logistics"))
    return {
      intent: "purchase_inquiry",
      rule: "a purchase being agreed comes before its payment and delivery",
    };
  if (buyer > 0 && buyer >= scores[strongest]) {
    if (scores.purchase_inquiry >= 2.5)
      return { intent: "purchase_inquiry", rule: "purchase_inquiry comes first" };
    if (scores.price_request >= 2.5)
      return { intent: "price_request", rule: "price_request before availability" };
    if (scores.availability > 0) return { intent: "availability", rule: null };
    return { intent: scores.price_request > 0 ? "price_request" : "purchase_inquiry", rule: null };
  }
  if (scores[strongest] <= 0 && scores.spam > 0) return { intent: "spam", rule: null };
  if (scores[strongest] <= 0) return { intent: "other", rule: "no ask recognised" };
  return { intent: strongest, rule: null };
}

/** The pace an intent's message usually needs, before any cue says otherwise. */
const BASE_URGENCY: Record<Intent, Urgency> = {
  purchase_inquiry: "today",
  price_request: "today",
  availability: "today",
  logistics: "this_week",
  consignment: "this_week",
  press: "this_week",
  event_rsvp: "this_week",
  invoice_payment: "this_week",
  spam: "later",
  other: "later",
};

/** How likely an intent's message asks for an answer when no cue says either way. */
const BASE_REPLY: Record<Intent, number> = {
  purchase_inquiry: 0.85,
  price_request: 0.9,
  availability: 0.9,
  logistics: 0.8,
  consignment: 0.85,
  press: 0.85,
  event_rsvp: 0.4,
  invoice_payment: 0.5,
  spam: 0.03,
  other: 0.3,
};

const rank = (u: Urgency) => URGENCIES.indexOf(u);

function localTime(iso: string, timeZone: string | null): { hour: number; minute: number; weekday: string } {
  const date = new Date(iso);
  let zone = timeZone ?? "UTC";
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: zone });
  } catch {
    zone = "UTC";
  }
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    hour: "2-digit",
    minute: "2-digit",
    weekday: "short",
    hourCycle: "h23",
  }).formatToParts(date);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "0";
  return { hour: Number(get("hour")), minute: Number(get("minute")), weekday: get("weekday") };
}

const noisyOr = (beliefs: number[]) => 1 - beliefs.reduce((acc, b) => acc * (1 - b), 1);
const round = (x: number) => Math.round(x * 1000) / 1000;

export function judgeTriage(input: TriageInput): TriageJudgment {
  const lastInbound = findLastInbound(input.messages);
  const message: TriageMessage = input.messages[lastInbound] ?? {
    direction: "inbound",
    body: "",
    subject: null,
    sentAt: new Date(0).toISOString(),
    fromName: null,
    fromAddress: null,
  };
  const signals: string[] = [];
  const text = judgedText(message.body);
  if (text.setAside > 0) signals.push(`quoted text and signature set aside (${text.setAside} characters)`);

  // Thread facts: unanswered inbound messages since the last reply, channel, local time.
  const unanswered = countUnanswered(input.messages, lastInbound);
  if (unanswered >= 2) signals.push(`${ordinal(unanswered)} unanswered inbound message since the last reply`);
  const when = localTime(message.sentAt, input.timeZone);
  const outOfHours = when.hour < 9 || when.hour >= 19 || when.weekday === "Sat" || when.weekday === "Sun";
  const hhmm = `${String(when.hour).padStart(2, "0")}:${String(when.minute).padStart(2, "0")}`;
  signals.push(`sent on ${input.channel} at ${hhmm} ${when.weekday}${outOfHours ? " (out of hours)" : ""}`);

  // Intent: cues in the new text, lightly the subject's and the earlier unanswered messages' (a chaser
  // repeats their ask), then the precedence rules.
  const hits = findCues(INTENT_CUES, text);
  const chased = input.messages
    .slice(lastInbound - unanswered + 1, lastInbound)
    .map((m) => findCues(INTENT_CUES, judgedText(m.body)));
  const subject = message.subject ?? "";
  const subjectHits = findCues(INTENT_CUES, judgedText(subject));
  const isReplySubject = /^\s*(re|aw|r|sv|antw|ré)\s*:/i.test(subject);
  const scores = {} as Record<Intent, number>;
  for (const intent of INTENTS) {
    const subjectWeight = isReplySubject ? REPLY_SUBJECT_WEIGHT : SUBJECT_WEIGHT;
    scores[intent] =
      scoreOf(hits, intent) +
      subjectWeight * scoreOf(subjectHits, intent) +
      chased.reduce((sum, h) => sum + CHASED_WEIGHT * scoreOf(h, intent), 0);
  }
  if (chased.length > 0) signals.push(`asks of ${chased.length} earlier unanswered message(s) weighed`);
  const autoreply =
    [...hits, ...subjectHits].some((h) => h.to === "other" && h.weight >= 5 && !h.negated) ||
    /^\s*(automatic reply|auto(matic)?[- ]?reply|out of (the )?office|réponse automatique|abwesenheit)/i.test(
      subject,
    );
  const { intent, rule } = decideIntent(scores, autoreply);
  const adjusted = { ...scores };
  adjusted.other += 0.5; // what nothing else explains is other
  adjusted[intent] = Math.max(...INTENTS.map((i) => adjusted[i])) + 1.5;
  const { dist: intentDistribution } = softmax(INTENTS, adjusted, 0.9);
  if (rule) signals.push(`precedence: ${rule}`);

  // Escalation.
  const escHits = findCues(ESCALATION_CUES, text).filter((h) => !h.negated);
  const has = (k: string) => escHits.some((h) => h.to === k);
  const beliefs: number[] = [0.03];
  if (unanswered >= 3) beliefs.push(0.95);
  else if (unanswered === 2) beliefs.push(has("chase") ? 0.85 : 0.4);
  if (has("chase")) beliefs.push(0.75);
  if (has("frustration")) beliefs.push(0.7);
  if (has("walk_away")) beliefs.push(0.8);
  const spamOrAuto = intent === "spam" || autoreply;
  const escalating = spamOrAuto ? 0.02 : round(noisyOr(beliefs));

  // Expects a reply.
  const replyHits = findCues(REPLY_CUES, text).filter((h) => !h.negated);
  const asks = replyHits.some((h) => h.to === "ask") || text.sentences.some((s) => s.asks);
  const status = replyHits.some((h) => h.to === "status");
  let expectsReply = BASE_REPLY[intent];
  if (asks) expectsReply = Math.max(expectsReply, 0.9);
  else if (status) expectsReply = Math.min(expectsReply, 0.15);
  else if (intent === "other" || intent === "event_rsvp" || intent === "invoice_payment")
    expectsReply = Math.min(expectsReply, 0.3);
  if (escalating >= 0.5) expectsReply = Math.max(expectsReply, 0.9);
  if (spamOrAuto) expectsReply = intent === "spam" ? 0.03 : 0.02;

  // Urgency: the intent's pace, moved by time cues, channel and escalation.
  const urgencyHits = findCues(URGENCY_CUES, text).filter((h) => !h.negated);
  const uScores: Record<Urgency, number> = { now: 0, today: 0, this_week: 0, later: 0 };
  // Another matter that asks something is answered within the week, not left for later.
  const base = intent === "other" && !autoreply && expectsReply >= 0.5 ? "this_week" : BASE_URGENCY[intent];
  uScores[base] += 2.5;
  for (const u of URGENCIES) uScores[u] += scoreOf(urgencyHits, u);
  if (!spamOrAuto && intent !== "other") {
    if (input.channel !== "email") {
      uScores.now += 0.5;
      uScores.today += 0.5;
    }
    // A "no rush" on a buyer's or a practical ask slows it by a step, not to months away.
    if (uScores.later > 0 && rank(base) < rank("later") && !hasFarDate(urgencyHits)) {
      const slower = URGENCIES[rank(base) + 1] as Urgency;
      uScores[slower] += uScores.later;
      uScores.later = 0;
    }
  }
  if (spamOrAuto) {
    uScores.now = 0;
    uScores.today = 0;
    uScores.later += 5;
  }
  if (escalating >= 0.5) {
    // Anything escalating is at least today.
    uScores.today += uScores.this_week + uScores.later + 1;
    uScores.this_week = 0;
    uScores.later = 0;
  }
  const { dist: urgencyDistribution, best: urgency } = softmax(URGENCIES, uScores, 0.8);

  const evidence: PhraseEvidence[] = [
    ...phraseEvidence(hits, intent),
    ...phraseEvidence(urgencyHits, urgency),
    ...phraseEvidence(escHits, null),
  ];

  return {
    model: TRIAGE_MODEL,
    intent,
    intentProbability: intentDistribution[intent],
    intentDistribution,
    urgency,
    urgencyProbability: urgencyDistribution[urgency],
    urgencyDistribution,
    expectsReply: round(expectsReply),
    escalating,
    evidence,
    signals,
  };
}

function hasFarDate(hits: Hit<Urgency>[]): boolean {
  return hits.some((h) => h.to === "later" && !/rush|hurry|whenever/i.test(h.phrase));
}

function findLastInbound(messages: TriageMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.direction === "inbound") return i;
  return messages.length - 1;
}

/** Inbound messages up to and including the judged one since the gallery last wrote. */
function countUnanswered(messages: TriageMessage[], judged: number): number {
  let n = 0;
  for (let i = judged; i >= 0; i--) {
    if (messages[i]?.direction === "outbound") break;
    n++;
  }
  return n;
}

function ordinal(n: number): string {
  return n === 2 ? "second" : n === 3 ? "third" : `${n}th`;
}

/** The weighed phrases: the ones pointing at the chosen value decide, the others were set aside. */
function phraseEvidence<T extends string>(hits: Hit<T>[], chosen: T | null): PhraseEvidence[] {
  const seen = new Set<string>();
  const out: PhraseEvidence[] = [];
  for (const h of hits.sort((a, b) => a.start - b.start)) {
    const key = `${h.start}:${h.end}:${h.to}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const decisive = !h.negated && (chosen === null || h.to === chosen);
    out.push({
      source: "message",
      phrase: h.phrase,
      start: h.start,
      end: h.end,
      effect: h.negated ? `negated: ${h.effect}` : `${h.effect} (${h.to})`,
      decisive,
    });
  }
  return out;
}
