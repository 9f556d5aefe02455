/**
 * Inbox triage: judges the last inbound message of a thread (design §3's value sets) from weighted cues in its
 * new text, the thread's history, the channel and the time it was sent. Pure and deterministic; runs in workerd.
 *
 * How it reads a message:
 * - quoted replies and signatures are set aside, so a reply is judged on what the sender just wrote;
 * - cues are data (below): a pattern, the value it points to and a weight; a cue in a negation's scope within
 *   its clause ("not interested in buying") is weighed and set aside; a cue in a clause that asks counts more;
 * - the precedence rules then decide between several asks: spam first, autoreplies are other, a seller is
 *   consignment, purchase_inquiry > price_request > availability, otherwise the strongest request;
 * - urgency starts from the intent's usual pace and moves with time cues, the channel and escalation;
 * - escalation comes from unanswered inbound messages since the last reply and chasing, frustration or
 *   walk-away phrases.
 */
import { lazy } from "./lazy";
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

/** The rules alone; the judge the API uses is lib/engine/triage-judge.ts (rules and learned weights). */
export const TRIAGE_RULES_MODEL: ModelName = "triage-rules@1";

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

/** Word edges that know letters beyond ASCII: JavaScript's \b sees "é" or "ü" as a non-letter, so "raisonné\b"
 * or "\bÜberweisung" would never match. A \b before a word's first character becomes "no letter before",
 * any other "no letter after" (one-sided lookarounds keep the patterns fast). */
const LETTER = String.raw`[\p{L}\p{N}_]`;
const unicodeEdges = (pattern: string) =>
  pattern.replace(
    /(?<!\\)\\b(?=((?:\((?!\?)|\(\?:|\(\?<[!=]|\[(?!\^)|\\[pdwu$.+]|[\p{L}\p{N}'$€£])?))/gu,
    (_m, next: string) => (next ? `(?<!${LETTER})` : `(?!${LETTER})`),
  );

const cue = <T extends string>(to: T, weight: number, effect: string, ...patterns: string[]): Cue<T>[] =>
  patterns.map((p) => ({ to, weight, effect, negatable: false, re: new RegExp(unicodeEdges(p), "giu") }));

/** The same, for cues a negation cancels. */
const negatableCue = <T extends string>(
  to: T,
  weight: number,
  effect: string,
  ...patterns: string[]
): Cue<T>[] => cue(to, weight, effect, ...patterns).map((c) => ({ ...c, negatable: true }));

// ---------------------------------------------------------------------------------------------------------
// Intent cues (English first, then the languages the gallery's mail comes in)

/** Words for a work of art in a message, for cues that need one near them. */
const WORK =
  "(one|piece|painting|picture|print|drawing|work|sculpture|bronze|photo(graph)?|canvas|bowl|vase|ceramic|litho(graph)?|woodcut|etching|gouache|watercolou?r|diptych|triptych|edition|maquette|study)s?";

const INTENT_CUES = lazy((): Cue<Intent>[] => [
  ...negatableCue(
    "purchase_inquiry",
    3,
    "commits to buying a work",
    String.raw`\b(i|we)('ll| will| would like to| want to|'d like to| wish to)? (take|buy|purchase|acquire|secure) (it|them|both|the|this|that|no\.?|edition|one|these|those)\b(?! (to|back|away|elsewhere)\b)`,
    String.raw`\b(i|we)('d| would) like to (buy|purchase|acquire|go ahead|proceed)\b|\bproceed with (the|it|this|that|our)\b`,
    String.raw`\b(want|wish|would like|looking|ready|keen) to (buy|purchase|acquire|secure|commit)\b`,
    String.raw`\blet'?s do it\b|\bgo ahead\b|\bwe have a deal\b|\bdeal\b(?! (with|in)\b)|\b(it'?s|is) (mine|ours)\b|\bsold to (me|us)\b|\bmark (it|them) (as )?sold\b|\bshake (hands|on it)\b|\b(we|i)('d| would) love to have (it|them)\b|\b(we'?re|i'?m) in[.!]|\b(cash|card) for the\b|\b(come|coming|comes|go|going) home with (us|me)\b|\bdecision made\b|\b(committee|board|trustees|client) (has |have )?(approved|signed off|agreed)\b|\b(can|could) (we|i) sign\b|\bmake (that|it) happen\b`,
    String.raw`\b(we|i)('d| would) (like|love|take) (it|them|both)\b(?! (to|if|when|for)\b)|\b(we|i)('d| would) (like|love) to (have|own|take) (it|them|both|the|this|that)\b|\b(and|we|i|we'?d|i'?d) (want|need|love) (it|them|both)\b(?! (to|if|when|for|back|returned|delivered|sent)\b)|\b(prepared|willing|happy|able|ready) to (pay|offer|go to) [€£$]?\s?\d|\bpay [€£$]\s?\d[\d,.]*\s?k?\s+for\b|\b(i'?m|we'?re) in\s*(?=[.!…]|$|\p{Extended_Pictographic})|\b(we|i)('ll| will| shall) have (it|them|both|the|this|that)\b(?![^.?!]{0,30}\b(ready|done|delivered|back|sent|packed|to)\b)|\bmake it official\b|\b(we|i)('ve)? (have )?decided( on)?\b|\bwe'?ve slept on it\b|\bblessing\b|\bhappy to go\b`,
    String.raw`\binterested in (acquiring|purchasing|buying)\b|\bapproved the (purchase|acquisition)\b|\bacquisition of\b`,
    String.raw`\b(i|we) (really )?(want|need|'d love) (the|that|this|both)\b(?=[^.?!]{0,30}\b${WORK}\b)`,
    String.raw`\b(confirm|approved) the (purchase|acquisition)\b|\bpurchase of\b|\btake payment\b`,
    String.raw`\bacquérir\b|\bacheter\b|\bje (le|la) prends\b|\bnous (le|la) prenons\b|\bkaufen\b|\b(wir|ich) nehmen?\b|\bprendiamo\b|\bprendo\b|\bcompr(o|amos|ar)\b|\bnos (lo|la) quedamos\b|\bnos quedamos con\b|\bme (lo|la) quedo\b|\bacquisto\b|\bachat\b|\bkaufe\b|\b(wir|ich) möchten? [^.?!]{0,40}\bnehmen\b|\bje prends\b|\bmake it (mine|ours)\b|\bi'?ll have it\b`,
  ),
  ...negatableCue(
    "purchase_inquiry",
    3,
    "a buying verb with the sender and a work in one clause",
    String.raw`\b(i|we|i'?d|we'?d|i'?ll|we'?ll|us|me)\b[^.?!,;]{0,25}\b(buy|purchase|acquire|secure|take|reserve|hold|want|erwerben|kaufen|acheter|acquérir|comprare|acquistare|comprar)\b(?! (to|a look|photos?|photographs|pictures|(it|them) (to|back|away|elsewhere))\b)(?! (a|an|our|my) ([\p{L}]+ ){0,2}(event|launch|party|reception|talk|meeting|workshop|dinner|screening)\b)(?![^.?!,;]{0,40}\b(elsewhere|somewhere else)\b)[^.?!,;]{0,40}\b(it|them|the|this|that|these|those|both|no\.|nos\.|das|die|den|le|la|les|il|lo|el)\b`,
    String.raw`\b(put|set|keep|hold) [^.?!,;]{0,40}\baside\b|\byes to (the|that|this|your)\b|\b(put|place|pay|leave) (a |the )?deposit (down )?(on|for)\b|\bput a deposit down\b|\bproporre\b|\bproponer\b|\bproposer\b|\bgern erwerben\b`,
  ),
  ...negatableCue(
    "purchase_inquiry",
    2.5,
    "asks to hold or reserve a work, or makes an offer",
    String.raw`(?<!(?<!\b(can|could|would|will|pls|please|kindly) )\b(you|they|we|i) |\bon )\bhold\b(?! (a|an|our|my) ([\p{L}]+ ){0,2}(event|launch|party|reception|talk|meeting|workshop|dinner|screening|class|session)\b| the line\b| on (a )?(sec|second|minute|moment)\b| on[.!,])|\b(reserve|reservation|reserving|first (right of )?refusal|on hold for (me|us)|keep (it|them) (aside|for (me|us))|(put|set) (it|them) aside)\b`,
    String.raw`\b(make|submit|submitting) an offer\b|\boffer (of|for)\b|\bcounter[- ]?offer\b|\bwould (you|u|the artist) (take|accept|consider|do) \d|\bwould (you|u|the artist) (take|accept|consider)\b(?! (a look|me|us|it|my|our))|\bis [€£$]?\s?\d[\d,.]*\s?k?\s?(€|eur|gbp|usd)? ?possible\b`,
    String.raw`\b(put|place) (down )?a deposit\b|\bdeposit on\b|\bpay (for it )?now\b|\bcan pay now\b|\bpay for (the|it|this|that)\b`,
    String.raw`\bdiscount if (we|i) buy\b|\bfor both\b|\bcash buyer\b|\bif (yes|so),? (it'?s|i'?ll|we'?ll)\b|\b\d+([.,]\d+)?\s?k? final\b|\b(go|going) to \d`,
    String.raw`\breservierung\b|\bréserv(er|ation)\b|\bprenot(are|azione)\b|\breserv(ar|a)\b|\b(vous|te|le) propos(ons|e)\b|\bproposition\b|\bangebot\b|\bofferta\b|\boferta\b|\boffre\b|\bzurücklegen\b|\breservieren\b|\btenere da parte\b|\briservar\w*\b|\bapart(ar|ármelo|ármela)\b`,
  ),
  // Whoever the buyer is (I, my client, the board, the Foundation), a will to acquire or an amount put on a
  // work moves towards buying it.
  ...negatableCue(
    "purchase_inquiry",
    3,
    "a buyer, or someone buying for one, moves to acquire",
    String.raw`\b(will|shall|'ll|pleased to|happy to|agreed to|decided to) (acquire|purchase)\b|\b(move|go|moving|going) (forward|ahead)\b|\bput forward\b|\b(my|our) client (would like|wants|wishes|is keen|is ready|has decided)\b|\bon behalf of (my|our) client\b[^.?!]{0,60}\b(offer|acquire|buy|purchase|take|[€£$]\s?\d)`,
    String.raw`(?<!\b(balance|payment|deposit|invoice|total|transfer|remainder|rest) of )[€£$]\s?\d[\d,.]*\s?k?\s+for (the|your|this|that|both)\b|\b\d[\d,.]*\s?k?\s?(€|eur|euros|gbp|pounds|usd|dollars) for (the|your|this|that|both)\b|\b(can|could|would|will) (you|u) do \d|\bdon'?t let (it|them|the [\p{L}]+|that [\p{L}]+) go\b|\b(grab|snap (it|them) up)\b|\bwe'?ll close\b|\band we close\b`,
  ),
  ...negatableCue(
    "purchase_inquiry",
    3,
    "settles on a named work, or commits in another language",
    String.raw`\b(proceed|go|going|settle|settled|decided) (ahead )?(with|for|on) (['"‘“«]|the (little |small |big |large )?${WORK}\b)|\blet'?s go (with|for)\b|\b(client|we|i) confirms? (['"‘“«]|the (purchase|acquisition|sale)|(both|the two|all))|\b(ficar|ficamos|fico) com\b|\bdecidimos\b|\b(wij|we|ik) (willen|wil) (graag )?[^.?!]{0,40}\bkopen\b|\baankoop\b|\b(mettre|poser) une option\b|\boption (sur|auf|su|on) (le|la|les|das|die|den|il|the)\b|\bopzione\b|\breserveren\b`,
  ),
  ...negatableCue(
    "purchase_inquiry",
    2.5,
    "someone else wants a work",
    String.raw`\b(wants|is after|has fallen for|has decided on|is keen on|loves) (the|both|those|these|that|this|two|three|all|one of)\b(?![^.?!,]{0,25}\b(invoice|receipt|details|address|report|images?|photos?|dates|list|prices?|number|credit|catalogue|information|info)\b)`,
  ),
  ...cue(
    "purchase_inquiry",
    1,
    "names a step of buying",
    String.raw`\bnext steps?\b|\bflexibility on the price\b|\bpaperwork\b`,
  ),
  ...negatableCue(
    "price_request",
    2.5,
    "asks a price",
    String.raw`\bhow much\b|\bprice (list|range|of|on|for|point)\b|\bpricing\b|\bwhat('s| is| are| would)? (the )?(price|cost)s?\b|\basking price\b|\bcheap(er|est)?\b|\b(less|least|most|more) expensive\b|\baffordable\b|\bwhat\b[^.?!]{0,30}\basking for\b|\bwhat (are )?you('re| are)? asking\b`,
    String.raw`\b(the |its )?prices?\b\??|(?<!\b(at|on) (your|our|my|their|the gallery'?s) )\bcosts?\b|\b(sell|go|going|selling) for\b|\bthe damage\b|\bballpark\b|\bbudget\b|\b(priced|listed) at\b|\bprice band\b|\bquote (for|on) (the|a|this)\b`,
    String.raw`\bprix\b|\btarifs?\b|\bcombien\b|\bpreis(e|liste)?\b|\bkostet\b|\bwas kosten\b|\bquanto (costa|viene)\b|\bprezz[oi]\b|\bcosto\b|\bprecios?\b|\bcuánto\b|\bcuesta\b|\bquanto custa\b|\bpreço\b|\bo valor d[aoe]\b|\bwat kost\b|\bprijs\b|\bprijzen\b`,
  ),
  ...cue(
    "availability",
    2.5,
    "asks whether a work is available",
    String.raw`\b(still )?(available|avail)\b|\bstill (there|up|open|have|free|for sale|on offer|going|with you|in stock|on the wall)\b|\bhas it sold\b|\bstill got\b|\bstill in\b|\b(sold|gone|spoken for|taken)( yet| out| already)?\b(?! (for|at|in|to|by|through|last|years|over) )|\bfor sale\b|\bon offer\b|\bin stock\b|\bon the market\b|\bfound a (home|buyer)\b`,
    String.raw`\bstil+ (there|here|around|avail\w*|for sale|got|have|up)\b|\bunsold\b|\b(any|anything)\b[^.?!]{0,40}\b(left|remaining)\b|\b(fully|all) (placed|sold|allocated)\b|\bdo you (still |currently )?have (any|anything)\b|\bremaining edition\b`,
    String.raw`\bdisponible\b(?! pour un)|\bnoch (exemplare|abzüge|arbeiten|welche|verfügbar)\b|\b(exemplare|abzüge) (übrig|verfügbar)\b|\bquedan? (ejemplares|copias)\b|\bil en reste\b|\breste-t-il\b|\b(noch )?zu erwerben\b|\bnoch erhältlich\b|\brestano\b|\bne avete ancora\b|\bdisponível\b|\bainda (está|tem|há)\b|\bverkauft\b|\berhältlich\b|\bnoch (bei ihnen|vorhanden|zu haben|im angebot)\b|\bbeschikbaar\b|\bverkocht\b|\bnog (te koop|beschikbaar)\b|\bin vendita\b|\ben venta\b|\bà venda\b|\bà vendre\b|\bvendu\b|\bvenduto\b|\bvendid[oa]\b|\bverfügbar\b|\bnoch da\b|\bdisponibil[ei]\b|\bquedan?\b|\btodav[ií]a\b|\bnoch zu haben\b|\bencore\b|\bancora\b|\bsigue\b`,
  ),
  ...cue(
    "logistics",
    2,
    "arranges shipping, delivery, installation or storage",
    String.raw`\b(ship|shipping|shipped|shipper|freight|courier|crat(e|es|ing)|pack(ed|ing)?|pick[- ]?up|collect(ion|ing)?|delivery|deliver(ed)?|tracking( number)?|handlers?)\b`,
    String.raw`\b(truck|van|driver|loading (bay|door)|service lift|lift|step-free|storage|store|warehouse|in transit)\b`,
    String.raw`\b(height|ceiling|eye level|centre line|arrived (damaged|broken|cracked|with)|(cracked|split|dented|scratched|broken) (in transit|on arrival)|install(ation|ers?|ing)?|hang(ing)?|hanging height|anchors|brackets|fixings?|wall|plinth|condition report|loan return|travel frame)\b`,
    String.raw`\b(parcel|package|shipment|delayed|eta|(needs?|requires?) (a )?signature|sign for|fedex|dhl|ups|tnt|dpd|royal mail|drop(ping)? off|lagern|einlagerung|lagerung|stockage|stoccaggio|almacenaje|opslag|shuttle|nail[- ]to[- ]nail|insurers?|leaves? (your|the|our) premises|book (the|a) slot|ophalen|afhalen|verzenden|bezorgen|abholen|versand|versenden|enviar|recoger|retirer|expédi\w+|ritir\w+|loan agreement|lender'?s?|loan form|courier to accompany|couriered|insurance value|wall to wall)\b|\bil corriere\b|\bcorriere espresso\b|\bcassa\b|\bconsegna\b|\bimballaggio\b|\bspedire\b|\bverzending\b|\bbezorging\b|\blieferung\b|\bliefern\b|\blivraison\b|\bretour\b|\bemballage\b|\bspedizione\b|\benvío\b|\btransporte?\b|\btrasporto\b`,
  ),
  ...cue(
    "logistics",
    3,
    "customs and export formalities",
    String.raw`\b(customs|carnet|export licen[cs]e|export|temporary import|eori|cites|import (vat|duty|duties|tax(es)?)|duties)\b`,
  ),
  ...negatableCue(
    "consignment",
    3.5,
    "wants the gallery to sell a work for them",
    String.raw`\bconsign(ment|ing)?\b(?! ?(#|no\b|number|ref|note|\d))|\bresell\w* [^.?!]{0,30}\bfor (clients|me|us|owners|collectors|people)\b|\bresale service\b|\bresell (mine|it|ours|my|our)\b|\bsell (it|them|mine|ours) (for|on for|on) (me|us)\b|\bsell it on\b|\bfind (it|them) a (new )?(buyer|home)\b|\bsay goodbye to\b|\b(ask|want|like|need|get) you to sell\b|\bfind (a )?buyers? for\b|\boffer(ing)? it to (your )?clients\b|\bsale or return\b|\bponer a la venta\b|\bverkaufen lassen\b|\bsecondary market\b|(?<!\byou\b[^.?!,;]{0,20})\b(want|like|hoping|decided|going|need) to sell\b|(?<!\byou\b[^.?!,;]{0,20})\bto sell (the|my|our|a|an|it|them|this|that)\b|\byou'?d sell\b|\bzum verkauf\b|\banvertrauen\b|\b(i|we) have [^.?!]{0,60}\bto sell\b|\bletting go of\b|\bpart with\b|\bplace (it|them) with\b|\boffload\b|\bsell (their|his|her)\b|\b(handle|handling) (it|the sale|their sale)\b`,
    String.raw`\bsell(ing)? (mine|my|our)\b|\b(i|we)('d| would| want| wish| may| might| am| are|'m|'re)?( want| like| looking| thinking( of)?| hoping)?( to)? (sell|selling)\b|\b(like|want|need) you to sell\b|\bhave you sell\b|\bhandling the sale\b|\bfrom my collection\b|\bsell [^.?!]{0,40}\b(through|via) (you|your|the gallery)\b|\b(would|could|will) (you|the gallery) (sell|take [^.?!]{0,20}to sell)\b`,
    String.raw`\bsell [^.?!]{0,30}\bon (my|our|his|her|their) behalf\b|\b(whether|considering|thinking about whether) to sell\b|\b(gallery|you) (might|would|could|will) take (it |them )?on\b|\btake (it|them|this|that|the [\p{L}]+|some|a selection|[\p{L}]+ of them) on\b(?! (tour|loan|a)\b)|\b(taking|take) (it|them|a selection|some|some of them|the [\p{L}]+) to sell\b|\bto sell\?|\b(agree|discuss) (the )?terms (for|of) (the )?sale\b|\bsell(ing)? (it|them|this|my|our)\b[^.?!]{0,30}\b(through|via|with) (you|your|a|the) (gallery|dealer)\b|\b(i|we) (own|inherited|have owned)\b[^.?!]{0,100}\b(sell|selling|sale|auction)\b|\b(place|placing) (it|them|this|the [\p{L}]+) (for (me|us)|with a (buyer|collector))\b|\bpart ways with\b|\bverkopen\b|\bconsignatie\b|\baffidar\w* la vendita\b|\bin conto vendita\b|\bdépôts?-ventes?\b|\bje souhaite vendre\b|\bmettre en vente\b|\bconfier\b|\bpour la vente\b|\bvender su\b|\bencargarse\b|(?<!à )\bvendre\b|\bestimer\b|\bconto vendita\b|\bverkaufen\b|\bin kommission\b|\bvorrei vendere\b|\bvendere\b|\bquiero vender\b|\bvender(la|lo)?\b|\bvend(an|er)(la|lo|me)\b|\bme la podr[ií]an vender\b`,
  ),
  ...cue(
    "consignment",
    1.5,
    "an owner's terms of sale",
    String.raw`\bcommission (rate|if)\b|\bwhat'?s your commission\b|\bprovision\b|\bconditions\b|\bestimate\b|\bnet\b|\binherited\b|\bmy late\b`,
  ),
  ...cue(
    "consignment",
    3,
    "asks a valuation of their own works",
    String.raw`\b(value|valu(ing|ation) of|valu(ing|e)) (my|our|them|it)\b|\bwhat (price )?could you (achieve|get) for (my|our)\b`,
  ),
  ...cue(
    "press",
    3,
    "a journalist's or publication's request",
    String.raw`\b(journalist|reporter|editor|critic|column|columnist|article|interview|quote from|a quote|a comment from|comment (for|from) the gallery|on the record|fact[- ]?check(ing)?|podcast|documentary|radio|filming|film crew|photographer|photo shoot|shoot|review copy|press (preview|release|team|image)|picture desk|editorial|image rights|copy is due)\b`,
    String.raw`\b(magazine|newspaper|the art newspaper|artnet|frieze|artforum|apollo|art monthly|artreview|guardian|the times|bbc|the (evening )?standard|time out|monopol|corriere della sera|from corriere|faz|die zeit|publication|the [\p{L}]+ (times|post|journal|herald|gazette|tribune)|financial times|channel \d|(tv|film|camera|news) crew|crew here|press kit|(tomorrow'?s|today'?s|the morning|the weekend) (paper|edition)|repubblica|le monde|figaro|spiegel|el país|vogue|elle decoration|wallpaper|monograph|catalogue raisonné|publishing)\b`,
    String.raw`\b(writing|preparing|filing|reviewing|editing) (a|an|the|it|my|our)\b|\bchecking (a|the|my|our) (piece|story|article|facts|feature)\b|\b(piece|story|article|feature|interview) (is )?(running|runs|going out|out on|published)\b|\bfor (the|a|our|my) (piece|story|article|issue|review|feature|guide)\b|\b(a|the|my|our) book (on|about)\b|\bediting a book\b|\bfeature\b|\blistings?\b|\blist "|\breproduce\b|\bcredit line\b|\bhigh[- ]res\b|\bcaptions?\b|\bgo to print\b|\bfiling\b|\breviewing\b|\brunning a piece\b|\bpress images?\b|\bnews (crew|team|desk)\b|\b(sky|bbc|itv|cnn|abc|cbs|nbc) news\b|\bwith the camera\b|\bzeitung\b|\bartikel\b|\bblog\b|\bquote you\b|\b(i'?d|we'?d) like to review\b|\b(two|a few) lines\b|\bla mostra\b|\bl'exposition\b`,
    String.raw`\b(scrivo|écris|schreibe|escribo) (per|pour|für|para)\b|\b(comunicato stampa|rubrica|communiqué de presse|pressemitteilung|nota de prensa)\b|\bgoing live\b|\boff the record\b|\bmarket report\b|\bbefore we publish\b|\bis it correct that\b|\bpresse ?(fotos?|bilder?|photos?)\b|\b(running|doing|writing|working on|filing) a (story|piece|feature|column)\b|\bcatalogue raisonné\b|\b(give|send) us a (line|quote|comment)\b|\bphotograph(ing)? (the|your) (installation|show|exhibition|hang)\b|\bgiornale\b|\b(alta risoluzione|haute (définition|résolution)|hochauflösend\w*|alta resolución)\b|\bpressebild\b|\bredaktionsschluss\b|\bjournaliste\b|\bperiodista\b|\bjournalist\b|\bentretien\b|\breportage\b|\breportaje\b|\bdemande presse\b|\bvisuels\b|\bcommuniqué\b|\bintervista\b|\bentrevista\b|\bil pezzo\b|\barticolo\b|\bperiodista\b|\bgiornalista\b`,
  ),
  ...cue(
    "event_rsvp",
    3,
    "answers or asks about an invitation",
    String.raw`\b(invitation|invite|invited|e-?vite|rsvp|save the date|guest list|\+1|plus one|count me in|we'?ll be there|i'?ll be there|(will|we'?ll) (both |all )?be there|tentative:|on the list|late view|space at|can'?t make|try to make it|(the|this|your|tonight'?s|thursday'?s|friday'?s) event|cannot make|won'?t make it|(places|spots|tickets|seats|spaces) (for|on|at) (the|tonight|tomorrow)|walk-?through|we'?d be (two|three|four|five|six|\d)|(delighted|happy|love) to (attend|come)|attend|decline[ds]?|(i'?ll|we'?ll|i will|we will) come|bring (two |a |my )?(friend|friends|guests?|clients?|partner|kids|children))\b|\b(accepted|declined|tentative):|(?<![\w+])\+ ?1\b|\byes to (monday|tuesday|wednesday|thursday|friday|saturday|sunday|tonight|tomorrow|the (opening|dinner|talk|preview|party|launch))\b`,
    String.raw`\b(?<!\b(before|after|until|till) )(opening(?! (hours|hrs|times))|the (\d{1,2}(:\d\d)? ?(am|pm)? )?(tour|talk|screening|walkthrough)|private view|vernissage|preview( slot| evening)?|dinner|breakfast|(?<!\b(from|at|after|before|during|over|for|to) )lunch|reception|gala|party|drinks|soirée|screening|launch party|artist talk|the talk|talk tonight|curator'?s tour|the tour|late opening)\b`,
    String.raw`\beröffnung\b|\beinladung\b|\babendessen\b|\bkomme gern\b|\bzusage\b|\babsage\b|\bci saremo\b|\bl'invito\b|\binvito\b|\bcena\b|\bvenire\b|\bnous viendrons\b|\bl'invitation\b|\bmerci pour l'invitation\b|\bje viendrai\b|\binvitación\b|\bcena\b`,
  ),
  ...cue(
    "invoice_payment",
    3,
    "invoices or payment on an agreed sale",
    String.raw`\b(invoices?|inv-[\d-]+|pro ?forma|remittance|receipt|refund|iban|bank details|payment( link| schedule| run| reference)?|instal(l)?ments?|the balance|vat|resale right|swift|credit note)\b`,
    String.raw`\bbalance of\b|\btransferred the (full |whole |total )?(amount|balance|payment|sum)\b|\b(full|total) amount\b|\b(balance|payment|deposit|remainder)\b[^.?!]{0,40}\b(sent|paid|transferred|wired|gone through)\b|\b(transfer(red)? done|bank transfer|pay (by|in|the|before)|will pay|(we'?ll|i'?ll) pay|deposit back|return (my|the) deposit|transferencia|settled?|card payment|declined|pay (half|part|the rest|in full)|money'?s? (has )?(gone|been sent))\b`,
    String.raw`\bfactur[ea]\b|\bfattura\b|\brechnung\b|\büberweis\p{L}*\b|\bzahlung\b|\bbonifico\b|\brata\b|\bpago\b|\bpagamento\b|\bpaiement\b|\bvirement\b|\bbetrag\b|\beingang\b`,
  ),
  ...cue(
    "invoice_payment",
    1.5,
    "reports a payment made",
    String.raw`\b(wired|paid|transfer(red)?|bonifico fatto|pago hecho)\b`,
  ),
  ...cue(
    "spam",
    4,
    "reads as bulk or fraudulent mail",
    String.raw`\bunsubscribe\b|\bview in browser\b|\b(manage|update) your (email )?preferences\b|\bforward to a friend\b|\byou are receiving this\b|\bthis week only\b|\blimited (spots|time|offer|pages|places)\b|\ban investment of\b|\breply yes\b|\bour audit\b|\bfree audit\b|\boffer ends\b|\b0% financing\b|\bin this issue\b`,
    String.raw`\bclick (here|below|the link)\b|\bverify your (account|identity)\b|\bconfirm your identity\b|\bwill be deactivated\b|\b(apple id|mailbox|account) .{0,30}(locked|quota|suspended)\b|\bpassword (expires|will expire)\b|\bif you did not authori[sz]e\b`,
    String.raw`\bcertified cheque\b|\bbank draft\b|\bwestern union\b|\bmy (shipper|mover|agent) will\b|\bat sea\b|\bgift card\b|\blottery\b|\bguaranteed\b|\bcrypto\b|\bnft\b|\binvestment club\b|\bearn(s|ing)? (up to )?(daily|\$?\d+)`,
    String.raw`\btax refund\b|\bwork(ing)? from home\b|\b(bank|payment) details have changed\b|\bfuture payments\b.{0,40}\bnew account\b|\bunpaid [^.?!]{0,30}fee\b`,
    String.raw`\bpublication fee\b|\bbooth spaces from\b|\bcashier'?s? che(que|ck)\b|\bshipping agent will\b|\bprocessing fee\b|\b(nominated|shortlisted)\b[^.?!]{0,80}\bfee\b|\bqualified leads\b|\boutreach\b|\blogin attempt\b|\bprivate courier\b|\bbusiness proposal\b|\b\$?\d[\d.,]* million\b|\battached zip\b|\bopen the attached\b|\bto stop receiving\b|\bsecure your listing\b|\bshortlisted\b|\bwholesale\b|\bbulk discounts?\b|\breproductions from\b|\brelease your (parcel|package)\b|\brenew now\b|\bredelivery fee\b|\bwe missed you\b|\bfollowers and likes\b|\bbusiness directory\b|\blog ?in to view\b|\bhtml file\b|\bregistration fee\b|\bpassive income\b|\bdropshipping\b|\bmy assistant will send\b|\bsign in with your (email )?password\b|\b(pay|confirm|verify|click|log ?in|sign in|claim|renew|listen|secure|download|open|update)\b[^\n]{0,80}\b[\w-]+\.(com|net|info|top|ru|xyz|co|uk|io)\b|\b\d+% (a|per) (week|month|day)\b|\bselected\b[^.?!]{0,80}\b(fee|\$|€)|\b(participation|entry) fee\b|\b(increase|boost|triple) your (online |art )?sales\b|\bfree strategy\b|\b(buy|get) \d+ (five-star )?reviews\b|\bseo\b|\bpage 1 of google\b|\bhi mum\b|\b\d[\d,]* (art )?journalists\b`,
    String.raw`\b(we|i)('ve| have)? helped \d+\+? (galleries|businesses|brands|clients|artists|dealers)\b|\b(your|the) website (isn'?t|is not|doesn'?t|does not|needs|could be)\b|\brank(ing)? (on|for|higher|first)\b|\bdear candidate\b|\b(process|processing|receive|handle) payments (from|for|on behalf)\b|\breply with your (full )?(name|bank|details|address|cv)\b|\bflexible hours\b|\bno experience (needed|required)\b|\bextra income\b|\bcollector leads\b|\b(can|may|could|shall) i send (over|you) (a|an|our|my) (short |quick |free |brief )?(video|case study|audit|proposal|deck|demo|portfolio of our)\b|\b(arrange|handle|send|use) (my|our) (own )?(shipping agent|shipper|movers?|pick-?up agent|courier agent)\b|\bcertified (check|cheque)\b`,
    String.raw`\b(barrister|next of kin|late relative|unclaimed (inheritance|funds?))\b|\b(guest post|do-?follow|backlinks?|sponsored post)\b|\b(offshore|oil) rig\b|\bcan only pay by (bank |certified |cashier'?s )?(cheque|check|money order)\b|\breply stop\b|\bto opt out\b|\bbook a (free |quick |\d+[- ]min(ute)? )?(demo|call)\b|\bget \d+% off\b|\bqualif(y|ies) for a\b|\bno credit check\b|\bpre-?approved\b|\bapply in \d+ minutes\b|\bgift ?cards?\b|\bupdate your (card|payment|billing|bank|account) details\b|\bclick to (activate|verify|claim|confirm|view|unlock)\b|\blog ?in with your (e-?mail )?password\b|\bhi (mum|mom|dad)\b|\bthis is my new number\b|\b(account|page|profile|listing) will be (permanently )?(disabled|removed|deleted|suspended|closed)\b|\b(packages?|placements?|features?|listings?) from [€£$]\s?\d|\b(booth|stand|exhibition|participation|listing|hanging) fee\b|\b(you have been|you'?ve been) (chosen|selected|nominated)\b|\bconfirm by replying\b|\b(guaranteed|\d+%) roi\b`,
    String.raw`\bi need you to process a wire\b|\bcould not be delivered\b.{0,60}\bhttps?://|\bhttps?://[\w.-]+\.(top|ru|info|xyz|co)/`,
  ),
  ...cue(
    "spam",
    2,
    "mass-mail wording or a link with a call to act",
    String.raw`\bdear (customer|valued customer|sir|sir/madam|artist/gallery|gallery owner|beneficiary)\b|\b(hi|hello) dear\b|\bgood day sir\b|\boffer valid\b|\breply for (details|our catalogue|more)\b|\b(duty|fee) of [€£$]\s?\d|\bunpaid\b|\boverdue\b|\bsuspended\b|\bgreetings\b|\bdear client\b|\bdear friend\b|\bwithin \d+ hours\b|\bexpires? in \d+ hours\b|\bbook a free call\b|\bworth a quick chat\b|\boverseas on business\b|\bcheque\b|\bdomain\b|\blegal action\b|\bfinal notice\b|\bshared a (file|document)\b|\bfinancial analyst\b|\bgold trading\b|\bpay (securely|£|\$|€)|\bcongratulations\b.{0,40}\b(won|selected|reward)\b|\byou have been selected\b`,
    String.raw`\bcame across your (gallery|website|page|profile)\b|\bpictures and prices\b|\b(my|our) new (home|house|apartment|office|villa) in\b|\b(some|a few) (artworks|art works|pieces) (for|from)\b|\b(pay|buy|order|act|call|register|claim) (now|today|immediately)\b|\bkeep (your |same )?password\b|\b[a-z]+-[a-z-]+\.(com|net|info|top|ru|xyz|co|uk)\b`,
  ),
  ...cue(
    "other",
    4,
    "thanks for an evening that has passed",
    String.raw`\bthank(s| you)( so much)? for (the|a|your|such a) ([\p{L}]+ ){0,2}(evening|night|drinks|dinner|opening|party|time|visit|tour)\b`,
  ),
  ...cue(
    "other",
    3.5,
    "lost property",
    String.raw`\b(did|has|have) (anyone|someone|somebody|you|your (team|staff)) (find|found|hand(ed)? in|pick(ed)? up|come across|seen?)\b|\b(left|lost|dropped|forgot|mislaid) (my|a|her|his|our|the) [\p{L}]+( [\p{L}]+)? (at|after|during|in|on)\b|\blost property\b`,
  ),
  ...cue(
    "other",
    3.5,
    "mail that reached the wrong person",
    String.raw`\bwrong (address|person|recipient|e-?mail|number)\b|\bnever (bought|ordered|purchased) anything\b|\bmeant for (someone|somebody) else\b`,
  ),
  ...cue(
    "other",
    3.5,
    "updates an address or contact detail",
    String.raw`\b(update|change|amend|correct) (my|our|the) [^.?!]{0,30}\b(address(es)?|e-?mail|phone number|contact details)\b`,
  ),
  ...cue(
    "other",
    4,
    "thanks for an evening that has passed",
    String.raw`\b(had|what) (a|the|such a) (best|great|lovely|wonderful|fab|fantastic|brilliant) (time|evening|night)\b|\bthank(s| you)\b[^.?!]{0,40}\b(last night|yesterday)\b|\b(last night|yesterday)\b[^.?!]{0,40}\bthank(s| you)\b`,
  ),
  ...cue(
    "other",
    3,
    "asks to hire the space",
    String.raw`\b(available|space|gallery) (to|for) hire\b|\bvenue hire\b|\bhire the (gallery|space)\b`,
  ),
  ...cue(
    "other",
    5,
    "an automatic reply",
    String.raw`\bout of (the )?office\b|\baway from the office\b|\bfuera de la oficina\b|\bestoy fuera\b|\bannual leave\b|\bin ferie\b|\ben vacances\b|\bim urlaub\b|\bde vacaciones\b|\bmail delivery (failed|subsystem|software)\b|\bundeliverable\b|\bcreated automatically\b|\bno access to (e-?mail|my e-?mails?)\b|\bkeinen zugriff\b|\babwesend\b|\bautomatic reply\b|\bauto-?reply\b|\bon ([\p{L}]+ )?leave\b|\bnot checking (my )?(e-?mails?|messages)\b|\ben congé\b|\babsent(e)? du bureau\b|\bnicht im büro\b|\babwesenheit\p{L}*\b|\bfuori sede\b|\bréponse automatique\b|\bdelivery status notification\b|\bdelivery to the following recipient failed\b|\boffice is closed\b|\blimited (connectivity|access to (e-?mail|my email))\b`,
  ),
  ...cue(
    "other",
    2,
    "a thank-you, an artist's submission or another matter",
    String.raw`\bthank(s| you)( so much| both)?\b|\bcongratulations\b|\bportfolio\b|\bsubmission\b|\bgroup show\b|\brepresentation\b|\bnew artists\b|\bstudio visit\b|\bvisit my studio\b|\bintern(ship)?\b|\bmailing list\b|\bremove me\b|\bdelete my\b`,
    String.raw`\bchange of address\b|\bwe'?ve moved\b|\bwrong (number|chat|person)\b|\bleft my\b|\bhand(ed)? in\b|\b(umbrella|scarf|gloves|coat|keys|wallet)\b|\bhas anyone found\b|\b(did|has) anyone (find|found|seen)\b|\blost\b|\bvolunteer(s|ing)?\b|\brecommend a\b|\barchive\b|\bthesis\b|\btake me off\b|\bgroup of\b|\bstudents\b`,
  ),
]);

// Cues read in the subject line, weighed lightly (a "Re:" subject is the history's, not the new ask).
const SUBJECT_WEIGHT = 0.6;
const REPLY_SUBJECT_WEIGHT = 0.15;
// An earlier unanswered message's asks, weighed when the judged one chases it.
const CHASED_WEIGHT = 0.6;

// ---------------------------------------------------------------------------------------------------------
// Urgency, reply and escalation cues

const SAME_DAY = "a same-day deadline";

const URGENCY_CUES = lazy((): Cue<Urgency>[] => [
  ...cue(
    "now",
    4,
    "someone is waiting in real time",
    String.raw`\b(downstairs|at (the )?reception|at the door|outside (the|in)|standing (in front|outside)|in the car|gate (is )?locked|can (you|someone|somebody) come (down|out|over|up|to the front)|nobody about|is (anyone|anybody|someone|somebody) (in|there|around|about)|double yellows|come (out )?quick(ly)?|no ?one (about|around)|(van|truck|lorry|courier|driver|handlers?)\b[^.?!]{0,15}\b(at|outside|in) (the|your) (loading (bay|door)|door|gate|entrance|back|front|side)|at (your|the) (booth|stand) now|(?<=[—–]\s?)(at|by) (your|ur) (stand|booth)|on site|(here|there|in the gallery) (right )?now|in front of (the|your) (gallery|window|door|stand|booth)|call me now|need to know now|client waiting|can only wait|running \d+ ?mins?( late)?|nobody answering the buzzer|buzzer|at (the|your) ([\p{L}]+ )?(door|entrance|gate|shutter|desk|reception|counter|till)|(parked|waiting|standing) (across|opposite|round the corner)|(van|truck|car|taxi|driver|courier) (is )?outside|meter running|(we'?re|we are|i'?m|i am) in front of|(parked|waiting|double parked|standing|stood) outside|outside [^.?!,]{0,20}\bnow|(in|at) (ur|your|the) (gallery|space|shop|booth|stand) (rn|now|right now)|rn|nobody at the (desk|door|front)|(i'?m|we'?re|we are|i am) here( now)?|waiting (in|at) (reception|the lobby|the front)|(can|could|want to|ready to) (pay|come in|come down|talk) now)\b`,
    String.raw`\b(im|i'm|we're|we are) (at|outside|in front of|standing|on the phone)\b`,
    // Someone present: in the gallery, standing by a work, or a crew that has arrived, in several languages.
    String.raw`\b(i'?m|we'?re|i am|we are) (in|at) (the|your|ur) (gallery|space|shop|booth|stand|front desk|showroom|(front|back|viewing|main|project|first) room)\b|\b(standing|sitting|waiting|stood) (by|next to|with|beside|in front of)\b[^.?!]{0,40}\bnow\b|\b(shipper|courier|driver|van|truck|handlers?|technicians?|installers?|crew|movers?|art handlers)( is| are|'s|'re)? (here|arrived|outside|downstairs)\b|\b(è arrivato|sono arrivati|aspetta la firma|sta aspettando|stiamo aspettando|está esperando|estamos esperando|ha llegado|est arrivé|attend (en bas|devant|dehors|la signature)|wartet (unten|draußen|vor)|ist jetzt da)\b`,
  ),
  // Negatable: "nothing urgent" or "not today" is no deadline.
  ...negatableCue(
    "today",
    3,
    SAME_DAY,
    String.raw`(?<!\b(have|has|had|was|were|we|i) )\b(today|tonight|this (afternoon|evening)|by \d{1,2} ?(am|pm)|before \d{1,2} ?(am|pm)|\d{1,2} ?pm today|end of (the )?day|in (an|one|two|\d) hours?|asap|urgent(ly)?|tomorrow|go to print|filing)\b`,
    String.raw`\b(aujourd'hui|ce soir|heute|heute abend|stasera|oggi|hoy|esta noche|domani|demain|mañana|amanhã)\b|(?<!guten )\bmorgen\b|\b(today|tonight)'s\b`,
  ),
  ...cue(
    "today",
    2,
    "a problem under way",
    String.raw`\b(declin(ed|ing)|didn'?t go through|flagged|blocked|rejected|failed|is wrong|bounced|damaged|broken|stuck)\b`,
  ),
  ...cue(
    "today",
    2,
    "a time of day",
    String.raw`\b(till|until|by|before|around|at|for|for the) \d{1,2}(:\d\d ?(am|pm)?| ?(am|pm))\b|\btill \d{1,2}\b|\b(i'?m|we'?re) (free|around|in|here) (until|till) \d{1,2}\b`,
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
    String.raw`\b((consider|review|look at) my (work|portfolio|practice|paintings)|(future|upcoming) (exhibition|show)s?|exhibit my|show my work|take me off|portfolio|represent(ed|ation)|new artists|studio visit|visit my studio|no (rush|hurry|urgency)|not in (a|any) (rush|hurry)|whenever|after the holidays|next year|in (the )?spring|in (january|february|march|april)|until (january|february|march)|closes in march|(in|for) (a few|two|three|six|\d+) months|(from )?next (summer|spring|autumn|winter)|months away|next month|in the (autumn|summer|fall)|after the summer)\b|\b20(27|28)\b`,
  ),
]);

/** A sentence told in the past: a place in it ("at the front desk") is no one waiting there now. */
const PAST = /\b(was|were|had|didn'?t|did not|yesterday|last (week|night|time|month))\b/i;

/** The sender or their driver is on the way, not yet there. */
const EN_ROUTE =
  /\b(stuck in traffic|on (my|our|his|the) way|running (\d+ ?(mins?|minutes) )?(late|behind)|will be (\d+ ?(mins?|minutes) )?late|be there in|eta)\b/i;

/** Words that make a time a deadline or an appointment rather than a report of the past. */
const DEADLINE =
  /\b(deadline|need(ed|s)?|by|before|until|till|due|filing|print|coming|arriv\w*|booked|can|will|must|urgent\w*|asap|running|necesito|brauche|besoin|serve|servirebbe)\b/i;

/** Sentences that ask for an answer or a decision. */
const REPLY_CUES = lazy((): Cue<"ask" | "status">[] => [
  ...cue(
    "ask",
    1,
    "asks for an answer or a decision",
    String.raw`\?|\b(could|can|would|will) (you|u|someone)\b|\bplease (send|confirm|let|advise|issue|fix|check|resend)\b|\blet me know\b|(?<!\b(will|'ll|to|shall) )\bconfirm\b|\bsend me\b|\bwhat do you need\b|\btell me\b`,
  ),
  ...cue(
    "status",
    1,
    "reports a status: nothing to answer",
    String.raw`\b(take me off|remove me from|unsubscribe me|tentative|transfer done|wired|paid|received, thank you|will pay|accepted:|count me in|we'?ll be there|can'?t make it|noted|saved!|thanks? (so much|again)|attached is the swift|balance will follow|remittance advice|payment confirmation)\b`,
  ),
]);

const ESCALATION_CUES = lazy((): Cue<"chase" | "frustration" | "walk_away">[] => [
  ...cue(
    "chase",
    1,
    "chases an unanswered message",
    String.raw`\b(following up|follow(ing)? up on|any (update|news)|still waiting|still no|(third|3rd|fourth|4th|second|2nd) (time|message|email|text|msg|try)|(asking|writing|chasing) again|just chasing|no (reply|answer|response)|nobody (answers|is answering)|haven'?t heard|had nothing back|have had nothing|i have now written|this is my (third|fourth|second)|hello\?+|(gentle |friendly )?reminder|as per my (last|previous) (email|message)|i'?ve (asked|written|emailed|called) (twice|three times|several times|again)|no ?one (has )?(got|gotten|come) back|waiting (for|on) (a|an|your) (reply|answer|response)|still haven'?t|didn'?t hear back|(it is|it'?s) now a week|(it'?s|it has|it'?s now) been (\d+|two|three|four|five|six|several|a few) (days|weeks|months)|nothing (has )?(arrived|come through|happened)|(messaged|emailed|written|called|rung|texted|asked) (you )?(three|four|five|several|\d+|multiple) times|waited long enough|it'?s now (monday|tuesday|wednesday|thursday|friday|saturday|sunday)|i asked (for|about) [^.?!]{0,40}\b(on|last|yesterday)\b)`,
    String.raw`\brelance\b|\btoujours pas de réponse\b|\bkeine antwort\b|\bimmer noch (keine|nicht)\b|\bnessuna risposta\b|\bsollecito\b|\bsin respuesta\b|\btodav[ií]a no\b`,
  ),
  ...cue(
    "frustration",
    1,
    "frustration with the gallery",
    String.raw`\b(unacceptable|ridiculous|disappointed|disappointing|frustrat\p{L}*|tired of|fed up|strange that nobody|hurt|annoyed|appalling|upset|angry|furious|losing patience|poor service|terrible service|rude|off-?putting|curtly|ignored|not on|dismissive|went unanswered|(nobody|no one|no-one) (called|rang|wrote) back|not good enough|shocked|unprofessional|not the first time|(getting|a bit|very|rather|quite|increasingly) (worried|concerned|anxious|nervous)|sort (it|this) out|left waiting|never (called|rang|got back|wrote) back|don'?t want my (money|business))\b|😤|🙄|😡|😠`,
    String.raw`\b(inacceptable|déçu|enttäuscht|inakzeptabel|inaccettabile|deluso|inaceptable)\b`,
  ),
  ...cue(
    "walk_away",
    1,
    "a threat to walk away",
    String.raw`\b(buy (it |one )?elsewhere|other gallery|go elsewhere|move on|take it to|give up|buy the one .{1,40} instead|involve my (bank|lawyer)|without the gallery'?s comment|keep buying from you|\b(go|going|buy|buying|try|trying|sell|selling|use|using|move|moving)( it| them)? (to|from|with|at|through) another (dealer|gallery|advis[eo]r)|take (my|our) [\p{L}]+ elsewhere|not sure (i|we)'?(ll| will) (be back|come back|buy)|look elsewhere|reconsider(ing)? (whether|buying)|not sure (i|we) want to (continue|keep|carry on)|put me off (coming|buying|the gallery)|take my business elsewhere|cancel (the|my) (order|purchase|sale)|assume you (don'?t|do not) want|last chance|formal complaint|will (give|sell) it to)\b`,
  ),
]);

// ---------------------------------------------------------------------------------------------------------
// Judging

export interface Hit<T extends string> {
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

/** A cue in a clause that asks weighs more than one in a clause that only tells: the request decides. */
const ASKING_CLAUSE = 1.5;
const TELLING_CLAUSE = 0.6;

/** Sum of a value's cue weights: overlapping phrases once, with diminishing returns past the first. */
function scoreOf<T extends string>(hits: Hit<T>[], to: T, weighAsks = true, additive = false): number {
  const kept: Hit<T>[] = [];
  for (const h of hits
    .filter((x) => x.to === to && !x.negated)
    .sort((a, b) => b.weight - a.weight || a.start - b.start)) {
    if (!kept.some((k) => h.start < k.end && k.start < h.end)) kept.push(h);
  }
  const anyAsks = weighAsks && hits.some((h) => h.asks && !h.negated);
  const factor = (h: Hit<T>) => (!anyAsks ? 1 : h.asks ? ASKING_CLAUSE : TELLING_CLAUSE);
  const weights = kept.map((h) => h.weight * factor(h)).sort((a, b) => b - a);
  return weights.reduce((sum, w, i) => sum + (additive ? w : w / (i + 1)), 0);
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
  commits: boolean,
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
  if (commits && (strongest === "invoice_payment" || strongest === "logistics")) {
    const rule =
      scores[strongest] > 0
        ? "a purchase being agreed comes before its payment and delivery"
        : "purchase_inquiry comes first";
    return { intent: "purchase_inquiry", rule };
  }
  if (buyer > 0 && buyer >= scores[strongest]) {
    if (scores.purchase_inquiry >= 2.5)
      return { intent: "purchase_inquiry", rule: "purchase_inquiry comes first" };
    if (scores.price_request >= 2.5)
      return { intent: "price_request", rule: "price_request before availability" };
    if (scores.availability > 0) return { intent: "availability", rule: null };
    return { intent: scores.price_request > 0 ? "price_request" : "purchase_inquiry", rule: null };
  }
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

/** What the rules read in a thread before deciding its intent: shared by the judge and the model's fitting. */
export interface TriageReading {
  message: TriageMessage;
  text: JudgedText;
  hits: Hit<Intent>[];
  /** Each intent's cue score (new text, subject, chased messages). */
  scores: Record<Intent, number>;
  /** The intent the rules' precedence picks, and the rule that picked it. */
  ruleIntent: Intent;
  rule: string | null;
  autoreply: boolean;
  commits: boolean;
  unanswered: number;
  outOfHours: boolean;
  replySubject: boolean;
  signals: string[];
}

export function readThread(input: TriageInput): TriageReading {
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
  const hits = findCues(INTENT_CUES(), text);
  const chased = input.messages
    .slice(lastInbound - unanswered + 1, lastInbound)
    .map((m) => findCues(INTENT_CUES(), judgedText(m.body)));
  const subject = message.subject ?? "";
  const subjectHits = findCues(INTENT_CUES(), judgedText(subject));
  const replySubject = /^\s*(re|aw|r|sv|antw|ré)\s*:/i.test(subject);
  const scores = {} as Record<Intent, number>;
  for (const intent of INTENTS) {
    const subjectWeight = replySubject ? REPLY_SUBJECT_WEIGHT : SUBJECT_WEIGHT;
    scores[intent] =
      // Spam is a property of the whole message, not of one request in it: its marks add up.
      scoreOf(hits, intent, intent !== "spam", intent === "spam") +
      subjectWeight * scoreOf(subjectHits, intent) +
      chased.reduce((sum, h) => sum + CHASED_WEIGHT * scoreOf(h, intent), 0);
  }
  if (chased.length > 0) signals.push(`asks of ${chased.length} earlier unanswered message(s) weighed`);
  const autoreply =
    [...hits, ...subjectHits].some((h) => h.to === "other" && h.weight >= 5 && !h.negated) ||
    /^\s*(automatic reply|auto(matic)?[- ]?reply|out of (the )?office|réponse automatique|risposta automatica|respuesta automática|automatische antwort|abwesenheit)/i.test(
      subject,
    );
  const commits = hits.some((h) => h.to === "purchase_inquiry" && h.weight >= 2.5 && !h.negated);
  const { intent: ruleIntent, rule } = decideIntent(scores, autoreply, commits);
  return {
    message,
    text,
    hits,
    scores,
    ruleIntent,
    rule,
    autoreply,
    commits,
    unanswered,
    outOfHours,
    replySubject,
    signals,
  };
}

/** What the rules make of urgency, a reply and escalation once the intent is decided. */
export interface TriageRest {
  escalating: number;
  expectsReply: number;
  urgencyScores: Record<Urgency, number>;
  urgencyHits: Hit<Urgency>[];
  escHits: Hit<"chase" | "frustration" | "walk_away">[];
  asks: boolean;
  status: boolean;
  signals: string[];
}

export function readRest(input: TriageInput, reading: TriageReading, intent: Intent): TriageRest {
  const { text, unanswered, autoreply } = reading;
  const signals: string[] = [];
  // Escalation.
  const escHits = findCues(ESCALATION_CUES(), text).filter((h) => !h.negated);
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
  const replyHits = findCues(REPLY_CUES(), text).filter((h) => !h.negated);
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
  // "Transferred today" reports; "by 3pm today" or "can we collect today?" asks: a same-day word counts fully
  // only in a sentence that asks or names a deadline.
  const urgencyHits = findCues(URGENCY_CUES(), text)
    .filter((h) => !h.negated)
    .map((h) => {
      const sentence = sentenceAt(text.sentences, h.start);
      const pressing = sentence !== undefined && (sentence.asks || DEADLINE.test(sentence.text));
      if (
        h.to === "now" &&
        sentence !== undefined &&
        PAST.test(sentence.text) &&
        !/\bnow\b/i.test(sentence.text)
      )
        return { ...h, weight: 0 };
      if (h.effect !== SAME_DAY) return h;
      // The request's own deadline ("could you send one today?") outweighs dates told around it.
      if (sentence?.asks) return { ...h, weight: h.weight * 1.5 };
      return pressing ? h : { ...h, weight: h.weight * 0.5 };
    });
  const uScores: Record<Urgency, number> = { now: 0, today: 0, this_week: 0, later: 0 };
  // Another matter that asks something is answered within the week, not left for later.
  const base = intent === "other" && !autoreply && expectsReply >= 0.5 ? "this_week" : BASE_URGENCY[intent];
  uScores[base] += 2.5;
  for (const u of URGENCIES) uScores[u] += scoreOf(urgencyHits, u, false);
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
  // Someone still on the way (late, in traffic, "be there in 20") is not yet waiting: today, not now.
  if (EN_ROUTE.test(text.text) && uScores.now > 0) {
    uScores.today += uScores.now;
    uScores.now = 0;
    signals.push("the sender is still on the way");
  } else if (uScores.now >= 4) {
    // Someone present and waiting outranks any same-day wording in the same message.
    uScores.now += uScores.today;
  }
  if (spamOrAuto) {
    uScores.now = 0;
    uScores.today = 0;
    uScores.later += 5;
  }
  if (escalating >= 0.5 && uScores.now < Math.max(uScores.today, uScores.this_week, uScores.later)) {
    // Anything escalating is at least today.
    uScores.today += uScores.this_week + uScores.later + 1;
    uScores.this_week = 0;
    uScores.later = 0;
  }
  return { escalating, expectsReply, urgencyScores: uScores, urgencyHits, escHits, asks, status, signals };
}

/** The rules' belief over intents: the chosen one on top, the others by their cue scores. */
export function ruleIntentDistribution(
  scores: Record<Intent, number>,
  intent: Intent,
): Record<Intent, number> {
  const adjusted = { ...scores };
  adjusted.other += 0.5; // what nothing else explains is other
  adjusted[intent] = Math.max(...INTENTS.map((i) => adjusted[i])) + 1.5;
  return softmax(INTENTS, adjusted, 0.9).dist;
}

/** The rules' urgency from their pace scores. */
export function ruleUrgency(rest: TriageRest): { dist: Record<Urgency, number>; best: Urgency } {
  return softmax(URGENCIES, rest.urgencyScores, 0.8);
}

/** The judgment of the rules alone (design §3's precedence and the cues' pace): the baseline the model is measured against. */
export function judgeTriageByRules(input: TriageInput): TriageJudgment {
  const reading = readThread(input);
  const { rule, hits, scores } = reading;
  const intent = reading.ruleIntent;
  const signals = [...reading.signals];
  const intentDistribution = ruleIntentDistribution(scores, intent);
  if (rule) signals.push(`precedence: ${rule}`);
  const rest = readRest(input, reading, intent);
  signals.push(...rest.signals);
  const { dist: urgencyDistribution, best: urgency } = ruleUrgency(rest);
  return {
    model: TRIAGE_RULES_MODEL,
    intent,
    intentProbability: intentDistribution[intent],
    intentDistribution,
    urgency,
    urgencyProbability: urgencyDistribution[urgency],
    urgencyDistribution,
    expectsReply: round(rest.expectsReply),
    escalating: rest.escalating,
    evidence: [
      ...phraseEvidence(hits, intent),
      ...phraseEvidence(rest.urgencyHits, urgency),
      ...phraseEvidence(rest.escHits, null),
    ],
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
export function phraseEvidence<T extends string>(hits: Hit<T>[], chosen: T | null): PhraseEvidence[] {
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
