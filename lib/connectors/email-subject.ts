/**
 * The prefixes mail clients put before a subject when a message is answered or passed on, in the languages they
 * write them. Email threads by In-Reply-To and References first; a client that drops those (a phone's mail app,
 * a web form's notification, a reply written as a new message) still leaves the subject, so the inbox falls back
 * to the subject read without its prefixes (`subjectKey`). Outlook marks a forward by nothing but its prefix, so
 * the forward reader asks the same table what a subject opens with (`outermostPrefix`).
 */

export type SubjectPrefixKind = "reply" | "forward";

/**
 * The prefixes, compared case-insensitively, each followed in a subject by `:` or `：` (an optional counter such
 * as `[2]` or `(2)` before it). A prefix written alike for a reply in one language and a forward in another is a
 * reply here: reading a reply as a forward would put the member's own words in the client's mouth.
 */
export const SUBJECT_PREFIXES: readonly { prefix: string; kind: SubjectPrefixKind; written: string }[] = [
  { prefix: "Re", kind: "reply", written: "most clients, most languages" },
  { prefix: "Fwd", kind: "forward", written: "Gmail, Apple Mail, Thunderbird" },
  { prefix: "Fw", kind: "forward", written: "Outlook (English, Dutch, Japanese, Russian…)" },
  { prefix: "AW", kind: "reply", written: "German (Antwort)" },
  { prefix: "WG", kind: "forward", written: "German Outlook (Weitergeleitet)" },
  { prefix: "SV", kind: "reply", written: "Swedish, Danish, Norwegian (Svar)" },
  {
    prefix: "VS",
    kind: "reply",
    written: "Finnish (Vastaus); a forward in Danish and Norwegian (Videresendt)",
  },
  { prefix: "VB", kind: "forward", written: "Swedish Outlook (Vidarebefordrat)" },
  { prefix: "VL", kind: "forward", written: "Finnish Outlook (Välitetty)" },
  { prefix: "Antw", kind: "reply", written: "Dutch (Antwoord)" },
  { prefix: "Doorst", kind: "forward", written: "Dutch (Doorsturen)" },
  { prefix: "TR", kind: "forward", written: "French Outlook (Transféré)" },
  { prefix: "RV", kind: "forward", written: "Spanish Outlook (Reenviado)" },
  { prefix: "R", kind: "reply", written: "Italian (Risposta)" },
  { prefix: "RIF", kind: "reply", written: "Italian (Riferimento)" },
  { prefix: "I", kind: "forward", written: "Italian Outlook (Inoltrato)" },
  { prefix: "Enc", kind: "forward", written: "Portuguese (Encaminhada)" },
  { prefix: "Odp", kind: "reply", written: "Polish (Odpowiedź)" },
  { prefix: "PD", kind: "forward", written: "Polish (Przekaż dalej)" },
  { prefix: "YNT", kind: "reply", written: "Turkish (Yanıt)" },
  { prefix: "İLT", kind: "forward", written: "Turkish (İletildi)" },
  { prefix: "ΑΠ", kind: "reply", written: "Greek (Απάντηση)" },
  { prefix: "ΣΧΕΤ", kind: "reply", written: "Greek (Σχετικά)" },
  { prefix: "ΠΡΘ", kind: "forward", written: "Greek (Προώθηση)" },
  { prefix: "回复", kind: "reply", written: "Chinese, simplified (Foxmail, QQ Mail, NetEase)" },
  { prefix: "答复", kind: "reply", written: "Chinese, simplified (Outlook)" },
  { prefix: "回覆", kind: "reply", written: "Chinese, traditional" },
  { prefix: "转发", kind: "forward", written: "Chinese, simplified" },
  { prefix: "轉寄", kind: "forward", written: "Chinese, traditional" },
  { prefix: "返信", kind: "reply", written: "Japanese" },
  { prefix: "転送", kind: "forward", written: "Japanese" },
  { prefix: "회신", kind: "reply", written: "Korean (Outlook)" },
  { prefix: "답장", kind: "reply", written: "Korean" },
  { prefix: "전달", kind: "forward", written: "Korean" },
];

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Words as one regular-expression alternation, longest first (`RIF` tried before `R`, `Fwd` before `Fw`). */
export function alternation(words: readonly string[]): string {
  return [...words]
    .sort((a, b) => b.length - a.length)
    .map(escapeRe)
    .join("|");
}

const alternatives = alternation(SUBJECT_PREFIXES.map((entry) => entry.prefix));

/** One prefix with its optional counter and its colon, at the start of what is left of the subject. */
const ONE_PREFIX = new RegExp(`^\\s*(${alternatives})\\s*(?:\\[\\d+\\]|\\(\\d+\\))?\\s*[:：]`, "iu");

const KINDS = new Map(SUBJECT_PREFIXES.map((entry) => [entry.prefix.toLowerCase(), entry.kind]));

/** The kinds of the subject's leading prefixes, outermost first, and what follows them. */
function readPrefixes(subject: string): { kinds: SubjectPrefixKind[]; rest: string } {
  const kinds: SubjectPrefixKind[] = [];
  let rest = subject;
  for (let match = ONE_PREFIX.exec(rest); match; match = ONE_PREFIX.exec(rest)) {
    kinds.push(KINDS.get(match[1]!.toLowerCase()) ?? "reply");
    rest = rest.slice(match[0].length);
  }
  return { kinds, rest };
}

/**
 * The subject as the thread fallback compares it: every leading reply and forward prefix removed (`Re: AW: Fwd:`),
 * runs of whitespace collapsed to one space, lower-cased; null when nothing is left.
 * `RE[2]: Ausstellung  „Licht“` and `Fwd: ausstellung „licht“` have the same key.
 */
export function subjectKey(subject: string | null): string | null {
  if (subject === null) return null;
  const key = readPrefixes(subject).rest.replace(/\s+/g, " ").trim().toLowerCase();
  return key === "" ? null : key;
}

/** The kind of the subject's outermost prefix (`reply` for `Re: Fwd: …`), or null when it has none. */
export function outermostPrefix(subject: string | null): SubjectPrefixKind | null {
  return subject === null ? null : (readPrefixes(subject).kinds[0] ?? null);
}
