import { z } from "@hono/zod-openapi";
import { e164 } from "../addresses";
import { fromBase64 } from "../crypto";
import { locationText } from "./location";
import type { ConnectorAttachment, ConnectorMessage } from "./message";

/**
 * The Twilio Programmable Messaging connector: the webhook Twilio calls when an SMS or MMS reaches one of the
 * gallery's numbers, read into the inbox's one message shape (lib/connectors/message.ts). Pure functions; the
 * route reads the request, the ingest service stores, and the route answers with EMPTY_TWIML (no automatic reply).
 *
 * - Twilio signs each request in `X-Twilio-Signature` (verifyTwilioSignature): the base64 HMAC-SHA1, keyed by the
 *   account's auth token, of the URL Twilio requested followed by every POST parameter's name and value.
 * - The request is form-encoded (TwilioInboundMessage). Twilio sends no time of sending: the route passes the time
 *   it received the request.
 * - A conversation is the counterpart's number in E.164 (`From`), as for WhatsApp. A WhatsApp message that came
 *   through Twilio's WhatsApp sender has `whatsapp:` before its numbers; the prefix is dropped, so a number reads
 *   the same whichever way it wrote, and the name is then the WhatsApp profile name Twilio passes on.
 * - MMS media become attachments holding Twilio's media URL (fetched later with the account's credentials); an
 *   MMS without text has an empty body, as a WhatsApp image without caption does.
 */

const encoder = new TextEncoder();

/** What the webhook answers: TwiML that sends no reply. */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

// ---------------------------------------------------------------------------------------------------------
// Signature

/** An HMAC-SHA1 is 20 bytes: 28 characters of base64. */
const SHA1_BYTES = 20;

/**
 * Whether `header` (`X-Twilio-Signature`) signs this request: the base64 HMAC-SHA1, keyed by the auth token, of
 * `url` followed by each POST parameter's name and value, sorted by name (a name sent several times: once per
 * distinct value, the values sorted). `url` is the URL as Twilio requested it, query string included; `params` are
 * the form body's pairs as sent (`new URLSearchParams(rawBody)`), so a repeated name keeps all its values.
 *
 * Twilio's back end is not consistent about the port and the query string's escapes in the URL it signs, so the
 * signature is checked against each form twilioSignatureUrls lists, as Twilio's own Node library does. Each check
 * is WebCrypto's verify, in constant time. A missing or malformed header is false, and so is every signature
 * under an empty token.
 */
export async function verifyTwilioSignature(
  url: string,
  params: ReadonlyArray<readonly [string, string]> | Readonly<Record<string, string>>,
  header: string | undefined,
  authToken: string,
): Promise<boolean> {
  const mac = header === undefined ? null : fromBase64(header);
  if (mac === null || mac.length !== SHA1_BYTES || authToken === "") return false;
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(authToken),
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["verify"],
  );
  const signed = signedParams(params);
  for (const candidate of twilioSignatureUrls(url)) {
    if (await crypto.subtle.verify("HMAC", key, mac, encoder.encode(candidate + signed))) return true;
  }
  return false;
}

/** The parameters as Twilio appends them to the URL: name then value, by name, repeated names' values sorted. */
export function signedParams(
  params: ReadonlyArray<readonly [string, string]> | Readonly<Record<string, string>>,
): string {
  const pairs = isPairList(params) ? params : Object.entries(params);
  const byName = new Map<string, Set<string>>();
  for (const [name, value] of pairs) {
    const values = byName.get(name) ?? new Set<string>();
    values.add(value);
    byName.set(name, values);
  }
  let out = "";
  for (const name of [...byName.keys()].sort()) {
    for (const value of [...byName.get(name)!].sort()) out += name + value;
  }
  return out;
}

function isPairList(
  params: ReadonlyArray<readonly [string, string]> | Readonly<Record<string, string>>,
): params is ReadonlyArray<readonly [string, string]> {
  return Array.isArray(params);
}

/**
 * The URLs a signature may have been computed over, first the URL as received (what Twilio's documentation
 * describes), then the forms twilio-node's `validateRequest` tries: the URL as the WHATWG parser writes it,
 * without its port and with the scheme's standard port (`:443`, `:80`) added when it named none, and each of those
 * with the query string re-escaped as Node's legacy `querystring` module writes it (`'` as is where the parser
 * writes `%27`, a space as `%20`). Duplicates are dropped; a URL the parser refuses is tried as received only.
 */
export function twilioSignatureUrls(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const withoutPort = new URL(parsed);
  withoutPort.port = "";
  const portForms = [withoutPort.toString(), parsed.port ? parsed.toString() : withStandardPort(parsed)];
  return [...new Set([url, ...portForms, ...portForms.map(withLegacyQuery)])];
}

/** The URL with `:443` (https) or `:80` after the host, which `URL` itself drops as the default. */
function withStandardPort(parsed: URL): string {
  const port = parsed.protocol === "https:" ? ":443" : ":80";
  const credentials = parsed.username || parsed.password;
  return (
    `${parsed.protocol}//${parsed.username}${parsed.password ? `:${parsed.password}` : ""}` +
    `${credentials ? "@" : ""}${parsed.host}${port}${parsed.pathname}${parsed.search}${parsed.hash}`
  );
}

/**
 * The URL with its query string decoded and written again as Node's `querystring.stringify(querystring.parse(…))`
 * writes it: pairs grouped by name (in a plain object's key order), `+` read as a space, names and values escaped
 * as `encodeURIComponent` escapes. The rest of the URL is kept as it is (its port too).
 */
function withLegacyQuery(url: string): string {
  const queryStart = url.indexOf("?");
  if (queryStart === -1 || queryStart === url.length - 1) return url;
  const hashStart = url.indexOf("#", queryStart);
  const query = url.slice(queryStart + 1, hashStart === -1 ? undefined : hashStart);
  const rest = hashStart === -1 ? "" : url.slice(hashStart);
  const grouped: Record<string, string[]> = Object.create(null);
  for (const piece of query.split("&")) {
    if (piece === "") continue;
    const eq = piece.indexOf("=");
    const name = legacyUnescape(eq === -1 ? piece : piece.slice(0, eq));
    const value = eq === -1 ? "" : legacyUnescape(piece.slice(eq + 1));
    const values = grouped[name] ?? [];
    values.push(value);
    grouped[name] = values;
  }
  try {
    const written = Object.keys(grouped)
      .map((name) =>
        grouped[name]!.map((value) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join("&"),
      )
      .join("&");
    return `${url.slice(0, queryStart)}?${written}${rest}`;
  } catch {
    return url;
  }
}

/**
 * `querystring.unescape` after `+` is read as a space: percent-decoding as UTF-8; a string that does not decode
 * keeps each `%` not followed by two hex digits, and bytes that are not UTF-8 become U+FFFD.
 */
function legacyUnescape(value: string): string {
  const spaced = value.replaceAll("+", " ");
  try {
    return decodeURIComponent(spaced);
  } catch {
    const bytes: number[] = [];
    for (let i = 0; i < spaced.length; i++) {
      if (spaced[i] === "%" && /^[0-9a-fA-F]{2}$/.test(spaced.slice(i + 1, i + 3))) {
        bytes.push(Number.parseInt(spaced.slice(i + 1, i + 3), 16));
        i += 2;
      } else {
        const point = spaced.codePointAt(i)!;
        bytes.push(...encoder.encode(String.fromCodePoint(point)));
        if (point > 0xffff) i++;
      }
    }
    return new TextDecoder().decode(new Uint8Array(bytes));
  }
}

// ---------------------------------------------------------------------------------------------------------
// The inbound message

/** The most media one message carries (an MMS holds up to 10). */
export const TWILIO_MAX_MEDIA = 10;

const Sid = (prefix: string, description: string, example: string) =>
  z
    .string()
    .regex(new RegExp(`^${prefix}[0-9a-fA-F]{32}$`), { message: `must be a Twilio sid (${prefix}…)` })
    .openapi({ description, example });

const DigitCount = (description: string, example: string) =>
  z
    .string()
    .regex(/^[0-9]{1,3}$/, { message: "must be a count" })
    .optional()
    .openapi({ description, example });

const place = (who: "sender" | "recipient", what: string) =>
  z
    .string()
    .optional()
    .openapi({ description: `The ${who}'s ${what}, when Twilio knows it.` });

const mediaFields: Record<string, z.ZodOptional<z.ZodString>> = {};
for (let i = 0; i < TWILIO_MAX_MEDIA; i++) {
  mediaFields[`MediaUrl${i}`] = z
    .string()
    .optional()
    .openapi({
      description: `The URL of media ${i} (MMS), one for each of MediaUrl0 to MediaUrl{NumMedia-1}.`,
      example:
        "https://api.twilio.com/2010-04-01/Accounts/ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX/Messages/MMXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX/Media/MEXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    });
  mediaFields[`MediaContentType${i}`] = z
    .string()
    .optional()
    .openapi({
      description: `The MIME type of media ${i}.`,
      example: "image/jpeg",
    });
}

export const TwilioInboundMessage = z
  .looseObject({
    MessageSid: Sid(
      "(?:SM|MM)",
      "The message's id: `SM…` for an SMS, `MM…` for an MMS.",
      "SM1f0e8ae6ade43cb3c0ce4525424e404f",
    ),
    SmsSid: z
      .string()
      .optional()
      .openapi({ description: "The same as MessageSid (kept for older integrations)." }),
    SmsMessageSid: z.string().optional().openapi({ description: "The same as MessageSid (deprecated)." }),
    AccountSid: Sid("AC", "The Twilio account the number belongs to.", "AC7c3e5b2a9d0f4e6c8b1a2d3e4f5a6b7c"),
    MessagingServiceSid: z
      .string()
      .optional()
      .openapi({ description: "The Messaging Service of the number, when it belongs to one." }),
    From: z.string().min(1).openapi({
      description:
        "The sender's number in E.164; `whatsapp:+…` for a WhatsApp message through Twilio (the prefix is dropped).",
      example: "+14155552671",
    }),
    To: z
      .string()
      .min(1)
      .openapi({ description: "The gallery's number that received it.", example: "+442079460958" }),
    Body: z
      .string()
      .optional()
      .openapi({ description: "The text, up to 1,600 characters; empty for media alone." }),
    NumMedia: DigitCount("How many media (MMS) came with it.", "0"),
    NumSegments: DigitCount("How many SMS segments the text arrived in.", "1"),
    ...mediaFields,
    FromCity: place("sender", "city"),
    FromState: place("sender", "state or province"),
    FromZip: place("sender", "postal code"),
    FromCountry: place("sender", "country (ISO 3166-1 alpha-2)"),
    ToCity: place("recipient", "city"),
    ToState: place("recipient", "state or province"),
    ToZip: place("recipient", "postal code"),
    ToCountry: place("recipient", "country (ISO 3166-1 alpha-2)"),
    SmsStatus: z.string().optional().openapi({
      description: "The message's status: `received` for an incoming message.",
      example: "received",
    }),
    ApiVersion: z.string().optional().openapi({
      description: "The version of Twilio's API the request was made under.",
      example: "2010-04-01",
    }),
    ProfileName: z.string().optional().openapi({ description: "WhatsApp: the sender's profile name." }),
    WaId: z.string().optional().openapi({ description: "WhatsApp: the sender's WhatsApp id." }),
    OriginalRepliedMessageSid: z
      .string()
      .optional()
      .openapi({ description: "WhatsApp: the sid of the message this one replies to." }),
    Latitude: z.string().optional().openapi({ description: "WhatsApp: a shared location's latitude." }),
    Longitude: z.string().optional().openapi({ description: "WhatsApp: a shared location's longitude." }),
    Address: z.string().optional().openapi({ description: "WhatsApp: a shared location's address." }),
    Label: z.string().optional().openapi({ description: "WhatsApp: a shared location's name." }),
  })
  .superRefine((message, ctx) => {
    const count = Number(message.NumMedia ?? "0");
    if (count > TWILIO_MAX_MEDIA) {
      ctx.addIssue({ code: "custom", path: ["NumMedia"], message: `must be at most ${TWILIO_MAX_MEDIA}` });
      return;
    }
    for (let i = 0; i < count; i++) {
      for (const field of [`MediaUrl${i}`, `MediaContentType${i}`]) {
        if (typeof message[field] !== "string" || message[field] === "") {
          ctx.addIssue({ code: "custom", path: [field], message: `is required when NumMedia is ${count}` });
        }
      }
    }
  })
  .openapi("TwilioInboundMessage", {
    description:
      "The form-encoded parameters of Twilio's incoming-message webhook, signed in `X-Twilio-Signature`. Unknown parameters are allowed: Twilio adds parameters over time.",
  });

export type TwilioInboundMessageParams = z.infer<typeof TwilioInboundMessage>;

/** One inbound SMS, MMS or WhatsApp-through-Twilio message, received at `receivedAt`. */
export function parseTwilioMessage(params: TwilioInboundMessageParams, receivedAt: Date): ConnectorMessage {
  const from = phone(params.From);
  const count = Number(params.NumMedia ?? "0");
  const attachments: ConnectorAttachment[] = [];
  for (let i = 0; i < count; i++) {
    const url = params[`MediaUrl${i}`];
    const contentType = params[`MediaContentType${i}`];
    if (typeof url !== "string" || typeof contentType !== "string") continue;
    attachments.push({
      filename: null,
      contentType: contentType.split(";")[0]!.trim().toLowerCase(),
      size: null,
      url,
    });
  }
  const replied = params.OriginalRepliedMessageSid?.trim();
  return {
    providerMessageId: params.MessageSid,
    providerThreadId: from,
    replyTo: replied ? [replied] : [],
    direction: "inbound",
    from: { address: from, name: params.ProfileName?.trim() || null },
    to: [phone(params.To)],
    subject: null,
    body: body(params),
    sentAt: receivedAt.toISOString(),
    attachments,
    authentication: null,
    forwardedBy: null,
  };
}

/**
 * A number as Twilio wrote it, `whatsapp:` dropped, in E.164; as written (trimmed) when it is not an international
 * number, such as a short code or an alphanumeric sender, which the ingest then refuses as no address of its
 * channel.
 */
function phone(value: string): string {
  const written = value.trim().replace(/^whatsapp:/i, "");
  return e164(written) ?? written;
}

/** The text; for a WhatsApp location without text, the location written as lib/connectors/location.ts writes it. */
function body(params: TwilioInboundMessageParams): string {
  const text = params.Body ?? "";
  if (text.trim() === "" && params.Latitude && params.Longitude) {
    return locationText({
      latitude: params.Latitude,
      longitude: params.Longitude,
      name: params.Label,
      address: params.Address,
    });
  }
  return text;
}
