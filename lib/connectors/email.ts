import PostalMime, { type Address, type Attachment, type Email, type Mailbox } from "postal-mime";
import { hex } from "../crypto";
import { parseAuthenticationResults } from "./email-auth";
import { type ForwardedOrigin, recoverForward } from "./email-forward";
import type { ConnectorAttachment, ConnectorMessage } from "./message";

export { subjectKey } from "./email-subject";

/**
 * The Email Worker's connector: a raw RFC 5322 message, as Email Routing hands it over, turned into the inbox's
 * one message shape. postal-mime reads the MIME tree (multipart/alternative by its text part, transfer encodings,
 * RFC 2047 headers, every charset of the WHATWG Encoding Standard through the runtime's TextDecoder: ISO-2022-JP,
 * Shift_JIS, GBK, Big5, EUC-KR, ISO-8859-x, windows-125x); what it does not do is written here and beside it:
 * the original sender of a mail the gallery forwarded (email-forward.ts), the receiving server's verdicts
 * (email-auth.ts), the subject as the thread fallback reads it (email-subject.ts).
 */

/** The largest message Email Routing accepts, 25 MiB; a larger raw message is refused before it is parsed. */
export const EMAIL_MAX_BYTES = 25 * 1024 * 1024;

/** The SMTP envelope: who the message came from and which inbox address it was delivered to. */
export interface EmailEnvelope {
  from: string;
  to: string;
}

export interface ParseEmailOptions {
  /** The member's and the connection's own addresses: mail from one of them is outbound, or a forward. */
  ownAddresses: readonly string[];
  /** When the message arrived (ISO 8601): its `sentAt` when the Date header is missing or does not parse. */
  receivedAt?: string;
}

export type RawEmailInput = ArrayBuffer | Uint8Array | ReadableStream<Uint8Array> | string;

const encoder = new TextEncoder();

/** How postal-mime reads a message: every attached message/rfc822 stays an attachment (its bytes kept), never inlined. */
const PARSE_OPTIONS = { forceRfc822Attachments: true, attachmentEncoding: "arraybuffer" } as const;

/** The marker written above a message that was forwarded as an attachment, when its text joins the body. */
const FORWARD_MARKER = "---------- Forwarded message ---------";

function tooLarge(size: number): RangeError {
  return new RangeError(`the message is ${size} bytes, more than EMAIL_MAX_BYTES (${EMAIL_MAX_BYTES})`);
}

/** The raw message's bytes (a string as UTF-8), read to the end; a RangeError past EMAIL_MAX_BYTES. */
async function rawBytes(raw: RawEmailInput): Promise<Uint8Array> {
  let bytes: Uint8Array;
  if (typeof raw === "string") bytes = encoder.encode(raw);
  else if (raw instanceof Uint8Array) bytes = raw;
  else if (raw instanceof ArrayBuffer) bytes = new Uint8Array(raw);
  else {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = raw.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > EMAIL_MAX_BYTES) {
        await reader.cancel();
        throw tooLarge(size);
      }
      chunks.push(read.value);
    }
    bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
  }
  if (bytes.byteLength > EMAIL_MAX_BYTES) throw tooLarge(bytes.byteLength);
  return bytes;
}

function mailboxes(addresses: readonly Address[] | undefined): Mailbox[] {
  return (addresses ?? []).flatMap((address) => (address.group ? address.group : [address]));
}

function emailAddress(value: string | undefined): string | null {
  const address = (value ?? "").trim().toLowerCase();
  return address.includes("@") ? address : null;
}

/** The From header's first mailbox that has an address; the name null when it gave none. */
function fromHeader(email: Email): ConnectorMessage["from"] | null {
  for (const mailbox of mailboxes(email.from ? [email.from] : [])) {
    const address = emailAddress(mailbox.address);
    if (address) return { address, name: mailbox.name.trim() === "" ? null : mailbox.name.trim() };
  }
  return null;
}

/** The ids in a Message-ID list header (In-Reply-To, References), without angle brackets, in order. */
function messageIds(value: string | undefined): string[] {
  if (!value) return [];
  const bracketed = [...value.matchAll(/<([^<>\s]+)>/g)].map((match) => match[1]!);
  return bracketed.length > 0 ? bracketed : value.split(/\s+/).filter((token) => token.includes("@"));
}

function isoTime(value: string | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/**
 * An HTML body as text, by postal-mime's own converter. postal-mime renders HTML as text only for a message that
 * also has a plain-text part, and does not export the converter, so the HTML is handed to it once more beside an
 * empty plain-text part. What the conversion leaves of the markup's layout is tidied: each line trimmed (HTML
 * indents nothing by spaces; Word's empty paragraphs are a `&nbsp;` each), blank lines run together into one.
 */
async function htmlToText(html: string): Promise<string> {
  const boundary = `=_html_${crypto.randomUUID()}`;
  const message = [
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/html; charset=utf-8",
    "",
    html,
    `--${boundary}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    "",
    `--${boundary}--`,
    "",
  ].join("\r\n");
  const parsed = await PostalMime.parse(message);
  return (parsed.text ?? "")
    .split("\n")
    .map((line) => line.trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/^\n+/, "");
}

/** The body as text: the plain-text part, else the HTML turned into text; `\n` line ends, trailing whitespace cut. */
async function bodyText(email: Email): Promise<string> {
  const text = email.text || (email.html ? await htmlToText(email.html) : "");
  return text.replace(/\r\n?/g, "\n").trimEnd();
}

function contentBytes(content: Attachment["content"]): Uint8Array {
  if (typeof content === "string") return encoder.encode(content);
  return content instanceof Uint8Array ? content : new Uint8Array(content);
}

function attachment(part: Attachment): ConnectorAttachment {
  const content = contentBytes(part.content);
  const inline = part.disposition === "inline" || (part.disposition === null && part.related === true);
  return {
    filename: part.filename,
    contentType: part.mimeType.split(";")[0]!.trim().toLowerCase(),
    size: content.byteLength,
    content,
    disposition: inline ? "inline" : "attachment",
  };
}

/** A message the gallery forwarded as an attachment: its sender and subject, and its text under a header block. */
interface AttachedForward extends ForwardedOrigin {
  text: string;
}

async function attachedForward(attachments: readonly Attachment[]): Promise<AttachedForward | null> {
  const part = attachments.find((candidate) => candidate.mimeType === "message/rfc822");
  if (!part) return null;
  const inner = await PostalMime.parse(contentBytes(part.content), PARSE_OPTIONS);
  const from = fromHeader(inner);
  if (!from) return null;
  const subject = inner.subject?.trim() || null;
  const header = (key: string) => inner.headers.find((entry) => entry.key === key)?.value.trim();
  const rows = [
    FORWARD_MARKER,
    `From: ${from.name ? `${from.name} <${from.address}>` : from.address}`,
    ...[
      ["Date", header("date")],
      ["Subject", subject],
      [
        "To",
        mailboxes(inner.to)
          .map((mailbox) => mailbox.address)
          .join(", "),
      ],
    ]
      .filter(([, value]) => value)
      .map(([label, value]) => `${label}: ${value}`),
  ];
  return { from, subject, text: `${rows.join("\n")}\n\n${await bodyText(inner)}` };
}

/**
 * The message as the inbox stores it. `envelope` stands in for a missing From header (its `from`) and for missing
 * To and Cc headers (its `to`); `options.ownAddresses` tells the gallery's own mail from a client's.
 *
 * Mail from one of the own addresses is outbound (its counterpart is `to[0]`), unless it forwards a client's mail
 * into the inbox: a forwarded block in the body (email-forward.ts), or a message/rfc822 attachment. Then it is the
 * client's message, inbound: `from` is the original sender, `subject` the original subject when given,
 * `forwardedBy` the member's address. The body keeps the whole text; a message forwarded as an attachment stays
 * an attachment, and its text joins the body below the member's, under a Gmail-style header block.
 *
 * A message without a Message-ID is known by the SHA-256 of its bytes (`sha256:<hex>`), so the same delivery
 * replayed is the same message.
 */
export async function parseEmail(
  raw: RawEmailInput,
  envelope: EmailEnvelope,
  options: ParseEmailOptions,
): Promise<ConnectorMessage> {
  const bytes = await rawBytes(raw);
  const email = await PostalMime.parse(bytes, PARSE_OPTIONS);

  const messageId = messageIds(email.messageId)[0] ?? email.messageId?.trim().replace(/^<|>$/g, "");
  const providerMessageId = messageId || `sha256:${hex(await crypto.subtle.digest("SHA-256", bytes))}`;
  const replyTo = [...new Set([...messageIds(email.inReplyTo), ...messageIds(email.references).reverse()])];

  const sender = fromHeader(email) ?? { address: envelope.from.trim().toLowerCase(), name: null };
  let from = sender;
  let subject = email.subject?.trim() || null;
  let body = await bodyText(email);
  let direction: ConnectorMessage["direction"] = "inbound";
  let forwardedBy: string | null = null;

  const own = new Set(options.ownAddresses.map((address) => address.trim().toLowerCase()));
  if (own.has(sender.address)) {
    const inBody = recoverForward(body, subject);
    const attached = inBody ? null : await attachedForward(email.attachments);
    const origin = inBody ?? attached;
    if (origin) {
      from = origin.from;
      subject = origin.subject ?? subject;
      forwardedBy = sender.address;
      if (attached) body = body === "" ? attached.text : `${body}\n\n${attached.text}`;
    } else {
      direction = "outbound";
    }
  }

  const to = [
    ...new Set(
      mailboxes([...(email.to ?? []), ...(email.cc ?? [])]).flatMap((mailbox) => {
        const address = emailAddress(mailbox.address);
        return address ? [address] : [];
      }),
    ),
  ];
  if (to.length === 0) {
    const delivered = emailAddress(envelope.to);
    if (delivered) to.push(delivered);
  }

  const authentication = parseAuthenticationResults(
    email.headers.filter((header) => header.key === "authentication-results").map((header) => header.value),
  );

  return {
    providerMessageId,
    providerThreadId: null,
    replyTo,
    direction,
    from,
    to,
    subject,
    body,
    sentAt: isoTime(email.date) ?? isoTime(options.receivedAt) ?? new Date().toISOString(),
    attachments: email.attachments.map(attachment),
    authentication,
    forwardedBy,
  };
}
