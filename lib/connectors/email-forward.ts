import { addressParser } from "postal-mime";
import { alternation, outermostPrefix } from "./email-subject";

/**
 * A gallery member who forwards a client's mail into the inbox sends it from their own address; the client is
 * named inside, in the header block the member's client wrote above the forwarded text:
 *
 *   Gmail        ---------- Forwarded message ---------       Apple Mail   > Begin forwarded message:
 *                From: Jane Client <jane@client.example>                    >
 *                Date: …  Subject: …  To: …                                 > From: Jane Client <jane@client.example>
 *                                                                           > Subject: …  Date: …  To: …
 *   Outlook      From: Jane Client <jane@client.example>      (no marker line; `Von:`/`Gesendet:`/`An:`/`Betreff:` in
 *                Sent: …  To: …  Subject: …                   German, `差出人:`/`送信日時:`/`宛先:`/`件名:` in Japanese…)
 *
 * Outlook writes the same block above the history of a reply, so a block without a marker line is a forward only
 * when the subject opens with a forward prefix (`FW:`, `WG:`, `TR:`, `转发:`); and a subject that opens with a reply
 * prefix (`Re: Fwd: …`) is a reply, whatever history it quotes. Quote marks (`> `) are read past: Apple Mail quotes
 * the whole forwarded message.
 */

export interface ForwardedOrigin {
  /** The original sender, address lower-cased. */
  from: { address: string; name: string | null };
  /** The original subject, when the block gave one. */
  subject: string | null;
}

/**
 * The words clients write, by language; one table for every client. `markers` are the lines that open a forwarded
 * message (read without their dashes and trailing colon); the fields are the labels of the header block, each
 * followed by `:` or `：` (French puts a space before it).
 */
export const FORWARD_VOCABULARY = {
  markers: [
    // Gmail and Thunderbird ("-------- Forwarded Message --------"), Yahoo ("----- Forwarded Message -----")
    "Forwarded message",
    "Weitergeleitete Nachricht",
    "Message transféré",
    "Mensaje reenviado",
    "Messaggio inoltrato",
    "Doorgestuurd bericht",
    "Mensagem encaminhada",
    "Mensaje original reenviado",
    "転送メッセージ",
    "已转发邮件",
    "转发的邮件",
    "전달된 메시지",
    // Apple Mail
    "Begin forwarded message",
    "Anfang der weitergeleiteten Nachricht",
    "Anfang der weitergeleiteten E-Mail",
    "Début du message réexpédié",
    "Début du message transféré",
    "Inicio del mensaje reenviado",
    "Inizio messaggio inoltrato",
    "Begin doorgestuurd bericht",
    "Início da mensagem reencaminhada",
    "Início da mensagem encaminhada",
    "転送されたメッセージ",
    "以下是转发的邮件",
    "전달된 메일 시작",
  ],
  from: [
    "From",
    "Von",
    "De",
    "Da",
    "Van",
    "Från",
    "Fra",
    "Od",
    "Lähettäjä",
    "Kimden",
    "От",
    "差出人",
    "送信者",
    "发件人",
    "寄件者",
    "寄件人",
    "보낸 사람",
  ],
  sent: [
    "Date",
    "Sent",
    "Datum",
    "Gesendet",
    "Envoyé",
    "Date d'envoi",
    "Fecha",
    "Enviado",
    "Enviado el",
    "Enviada em",
    "Enviado em",
    "Data",
    "Inviato",
    "Verzonden",
    "Skickat",
    "Sendt",
    "Wysłano",
    "Lähetetty",
    "Tarih",
    "Отправлено",
    "日付",
    "日時",
    "送信日時",
    "发送时间",
    "日期",
    "寄件日期",
    "날짜",
    "보낸 날짜",
  ],
  to: [
    "To",
    "An",
    "À",
    "A",
    "Para",
    "Aan",
    "Till",
    "Til",
    "Do",
    "Vastaanottaja",
    "Kime",
    "Кому",
    "宛先",
    "收件人",
    "받는 사람",
  ],
  cc: ["Cc", "Kopie", "Copie à", "Kopia", "Kopio", "Bilgi", "Копия", "抄送", "副本", "참조"],
  subject: [
    "Subject",
    "Betreff",
    "Objet",
    "Asunto",
    "Oggetto",
    "Onderwerp",
    "Assunto",
    "Ämne",
    "Emne",
    "Temat",
    "Aihe",
    "Konu",
    "Тема",
    "件名",
    "主题",
    "主旨",
    "제목",
  ],
} as const satisfies Record<string, readonly string[]>;

type Field = Exclude<keyof typeof FORWARD_VOCABULARY, "markers">;

const FIELDS = (Object.keys(FORWARD_VOCABULARY) as (keyof typeof FORWARD_VOCABULARY)[]).filter(
  (key): key is Field => key !== "markers",
);

const LABEL_FIELD = new Map<string, Field>();
for (const field of FIELDS) {
  for (const label of FORWARD_VOCABULARY[field]) LABEL_FIELD.set(label.toLowerCase(), field);
}

/** `Label: value`, the label possibly bold (`*From:*` in a plain-text part written from HTML). */
const HEADER_LINE = new RegExp(
  `^\\*?(${alternation(FIELDS.flatMap((field) => FORWARD_VOCABULARY[field]))})\\*?\\s*[:：]\\*?\\s*(.*)$`,
  "iu",
);

/** A marker line: dashes or underscores around the words, or the words and a colon. */
const MARKER_LINE = new RegExp(
  `^[-_\\s]*(?:${alternation(FORWARD_VOCABULARY.markers)})[-_\\s]*[:：]?\\s*$`,
  "iu",
);

/** The quote marks opening a line of quoted text, any depth (`> > `). */
const QUOTE_MARKS = /^(?:\s*>)+ ?/;

function headerField(line: string): { field: Field; value: string } | null {
  const match = HEADER_LINE.exec(line);
  if (!match) return null;
  const field = LABEL_FIELD.get(match[1]!.toLowerCase());
  return field ? { field, value: match[2]!.trim() } : null;
}

/**
 * The sender named by a block's From value. Outlook writes `Name [mailto:a@b]` in plain text, and an HTML part
 * turned into text carries the link as `<(mailto:a@b) a@b>`; Gmail's plain text wraps the name in `*`.
 */
function sender(value: string): ForwardedOrigin["from"] | null {
  const cleaned = value
    .replace(/\[mailto:([^\]\s]+)\]/gi, "<$1>")
    .replace(/\(mailto:[^)\s]*\)/gi, "")
    .replace(/\*([^*]+)\*/g, "$1");
  for (const mailbox of addressParser(cleaned, { flatten: true })) {
    const address = (mailbox.address ?? "").trim().toLowerCase();
    if (!address.includes("@")) continue;
    const name = mailbox.name.trim();
    return { address, name: name === "" || name.toLowerCase() === address ? null : name };
  }
  return null;
}

/**
 * The original sender (and subject) of a forwarded message in `body`, from the first header block (the first From
 * line naming an address): after a marker line (Gmail, Apple Mail, Thunderbird), or without one when `subject`
 * opens with a forward prefix (Outlook). Null for a reply's subject, and when the body holds no such block.
 */
export function recoverForward(body: string, subject: string | null): ForwardedOrigin | null {
  const prefix = outermostPrefix(subject);
  if (prefix === "reply") return null;
  const lines = body.split(/\r?\n/).map((line) => line.replace(QUOTE_MARKS, "").trim());
  let marked = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (MARKER_LINE.test(line)) {
      marked = true;
      continue;
    }
    const header = headerField(line);
    if (header?.field !== "from" || !sender(header.value)) continue;
    return marked || prefix === "forward" ? readBlock(lines, i) : null;
  }
  return null;
}

/**
 * The fields of the block around the From line at `at`: the header lines next to it, either side (Thunderbird puts
 * Subject and Date above From), blank lines between them allowed (Apple Mail's HTML part has them); the first of
 * each field counts.
 */
function readBlock(lines: string[], at: number): ForwardedOrigin | null {
  const inBlock = (line: string) => line === "" || headerField(line) !== null;
  let start = at;
  while (start > 0 && inBlock(lines[start - 1]!)) start--;
  const fields = new Map<Field, string>();
  for (let i = start; i < lines.length && inBlock(lines[i]!); i++) {
    const header = headerField(lines[i]!);
    if (header && !fields.has(header.field)) fields.set(header.field, header.value);
  }
  const from = sender(fields.get("from") ?? "");
  if (!from) return null;
  const subject = fields.get("subject")?.replace(/\s+/g, " ").trim();
  return { from, subject: subject ? subject : null };
}
