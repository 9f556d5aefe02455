import { z } from "@hono/zod-openapi";
import { e164 } from "../addresses";
import { fromHex, timingSafeEqual } from "../crypto";
import { locationText } from "./location";
import type { ConnectorAttachment, ConnectorMessage } from "./message";

/**
 * The WhatsApp Business Cloud API connector: Meta's webhook deliveries for a business number, read into the
 * inbox's one message shape (lib/connectors/message.ts). Pure functions; the route reads the request, the ingest
 * service stores.
 *
 * - Meta signs each delivery: `X-Hub-Signature-256: sha256=<hex>`, the HMAC-SHA256 of the body's raw bytes keyed
 *   by the app secret (verifyWhatsAppSignature). Meta writes non-ASCII characters as `\uXXXX` escapes, so only
 *   the bytes as received verify; JSON parsed and written again does not.
 * - Subscribing the webhook, Meta sends a GET with `hub.mode=subscribe`, the verify token the app was given, and a
 *   challenge to echo (verifyWhatsAppHandshake).
 * - A delivery holds entries, an entry changes, a change of the `messages` field the messages of one business
 *   number (several at once when Meta batches) and the statuses of messages the business sent. Changes of other
 *   fields the app may be subscribed to (account, template or call updates) are valid and skipped.
 *
 * How messages read (parseWhatsAppDelivery):
 * - A conversation is the counterpart's number: `from` and `providerThreadId` are `+` and the sender's WhatsApp
 *   id (its number in E.164), `to` the business number (`metadata.display_phone_number`, which the connection
 *   stores as its address); the sender's name is the profile name of the matching entry of `contacts`.
 * - The body is the text the sender wrote. Media (image, video, audio and voice notes, documents, stickers) becomes
 *   an attachment holding Meta's media id, fetched later through the Graph API with the connection's token; its
 *   body is the caption, and an empty string when there is none: the attachment says what came, and the engine
 *   reads no invented words. A location reads as `📍 <name>, <address> (<lat>, <long>)` (lib/connectors/location.ts),
 *   shared contacts as one `👤 <name>: <phones and emails>` line each, a button or list choice as the title of
 *   what was chosen, a reaction as its emoji (replying to the message it reacts to). A type the Cloud API does not
 *   deliver (`unsupported`, the older `unknown`) or that this module does not read yet reads as
 *   `[unsupported message: <type>]`, so the member still sees that the contact wrote.
 * - A reply names the message it answers (`context.id`) in `replyTo`.
 * - Not messages, returned in `ignored` with the reason: a removed reaction, WhatsApp's own notices (`system`: the
 *   user changed number; `request_welcome`), group messages, and messages whose sender's number is withheld (a
 *   user with a WhatsApp username is known by a business-scoped id only, which is no address the inbox can hold).
 *
 * Statuses (`sent`, `delivered`, `read`, `played`, `failed`) report on messages the business sent. They are
 * returned parsed, apart from the messages, and the route does not store them as messages: they are not
 * something a contact wrote, and a thread's history would fill with receipts. A failed one carries Meta's errors.
 */

const encoder = new TextEncoder();

// ---------------------------------------------------------------------------------------------------------
// Signature and subscription handshake

const SIGNATURE_HEADER = /^sha256=([0-9a-fA-F]{64})$/;

/**
 * Whether `header` (`X-Hub-Signature-256`) is the HMAC-SHA256 of `rawBody` keyed by the app secret. The MAC is
 * checked by WebCrypto's verify, in constant time. A missing or malformed header is false, and so is every
 * signature under an empty secret.
 */
export async function verifyWhatsAppSignature(
  rawBody: Uint8Array,
  header: string | undefined,
  appSecret: string,
): Promise<boolean> {
  const match = header === undefined ? null : SIGNATURE_HEADER.exec(header);
  if (!match || appSecret === "") return false;
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(appSecret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  return crypto.subtle.verify("HMAC", key, fromHex(match[1]!)!, rawBody);
}

/** Meta's challenge is an integer; it is echoed only when it looks like one, so the echo never carries markup. */
const CHALLENGE = /^[0-9A-Za-z._-]{1,128}$/;

/**
 * The subscription handshake: the challenge to answer (200, as plain text) when `hub.mode` is `subscribe` and
 * `hub.verify_token` is the token the connection was given; null otherwise (answer 403). The tokens are compared
 * as SHA-256 digests in constant time, so neither their contents nor their lengths show in the timing.
 */
export async function verifyWhatsAppHandshake(
  query: { mode?: string | null; verifyToken?: string | null; challenge?: string | null },
  expectedVerifyToken: string,
): Promise<string | null> {
  const { mode, verifyToken, challenge } = query;
  if (mode !== "subscribe" || !verifyToken || !challenge || !CHALLENGE.test(challenge)) return null;
  if (expectedVerifyToken === "") return null;
  const [given, expected] = await Promise.all(
    [verifyToken, expectedVerifyToken].map(
      async (token) => new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(token))),
    ),
  );
  return timingSafeEqual(given!, expected!) ? challenge : null;
}

/** The handshake's query parameters, for the route's OpenAPI document. */
export const WhatsAppHandshakeQuery = z.object({
  "hub.mode": z.string().optional().openapi({ description: "Always `subscribe`.", example: "subscribe" }),
  "hub.verify_token": z.string().optional().openapi({
    description: "The verify token given to Meta when the webhook was set up.",
  }),
  "hub.challenge": z.string().optional().openapi({
    description: "An integer to answer with, as the plain-text body, when the token matches.",
    example: "1158201444",
  }),
});

// ---------------------------------------------------------------------------------------------------------
// The webhook payload

/** A Unix timestamp in seconds, written as a string. */
const UnixSeconds = z
  .string()
  .regex(/^[0-9]{1,10}$/, { message: "must be Unix seconds, as a string of digits" })
  .openapi({ description: "Unix seconds, as a string.", example: "1749416383" });

/** A WhatsApp id: the user's phone number, digits only, country code first. */
const WaId = z
  .string()
  .regex(/^[0-9]{1,20}$/, { message: "must be a WhatsApp id (digits)" })
  .openapi({ example: "16505551234" });

export const WhatsAppError = z
  .looseObject({
    code: z.number().int().openapi({ description: "Meta's error code.", example: 131051 }),
    title: z
      .string()
      .optional()
      .openapi({ description: "The error code's title.", example: "Message type unknown" }),
    message: z
      .string()
      .optional()
      .openapi({ description: "The error code's message; often the same as `title`." }),
    error_data: z
      .looseObject({
        details: z.string().optional().openapi({ description: "What went wrong, in words." }),
      })
      .optional()
      .openapi({ description: "More about the error." }),
    href: z.string().optional().openapi({ description: "A link to Meta's documentation of the error code." }),
  })
  .openapi("WhatsAppError", {
    description: "An error Meta reports (on a failed status, an unsupported message).",
  });

const Media = (description: string) =>
  z
    .looseObject({
      id: z.string().min(1).openapi({ description: "The media id, to fetch through the Graph API." }),
      mime_type: z
        .string()
        .min(1)
        .openapi({ description: "The MIME type, perhaps with parameters.", example: "image/jpeg" }),
      sha256: z.string().optional().openapi({ description: "The SHA-256 hash of the media file." }),
      caption: z
        .string()
        .optional()
        .openapi({ description: "The text the sender wrote with it, when they wrote one." }),
    })
    .openapi({ description });

const Document = Media("A document: a file with its name.").extend({
  filename: z
    .string()
    .optional()
    .openapi({ description: "The document's file name, as sent.", example: "Condition report.pdf" }),
});

const Audio = Media("Audio; `voice` for a voice note recorded in WhatsApp.").extend({
  voice: z.boolean().optional().openapi({ description: "`true` for a voice note recorded in WhatsApp." }),
});

const Coordinate = z.union([z.number(), z.string().regex(/^-?[0-9]+(?:\.[0-9]+)?$/)]);

const SharedContact = z.looseObject({
  name: z
    .looseObject({
      formatted_name: z.string().optional().openapi({ description: "The full name, as shown." }),
      first_name: z.string().optional().openapi({ description: "The first name." }),
      last_name: z.string().optional().openapi({ description: "The last name." }),
    })
    .optional()
    .openapi({ description: "The contact's name." }),
  phones: z
    .array(
      z.looseObject({
        phone: z.string().optional().openapi({ description: "The number, as written on the card." }),
        wa_id: z
          .string()
          .optional()
          .openapi({ description: "The number's WhatsApp id, when the number is on WhatsApp." }),
      }),
    )
    .optional()
    .openapi({ description: "The contact's phone numbers." }),
  emails: z
    .array(z.looseObject({ email: z.string().optional().openapi({ description: "The email address." }) }))
    .optional()
    .openapi({ description: "The contact's email addresses." }),
});

const Interactive = z
  .looseObject({
    type: z
      .string()
      .min(1)
      .openapi({ description: "`button_reply`, `list_reply`, `nfm_reply` (a flow's answer), …" }),
    button_reply: z
      .looseObject({
        id: z
          .string()
          .openapi({ description: "The button's id, as the business set it when it sent the buttons." }),
        title: z.string().openapi({ description: "The button's title, as the user saw it." }),
      })
      .optional()
      .openapi({ description: "For `button_reply`: the reply button the user pressed." }),
    list_reply: z
      .looseObject({
        id: z
          .string()
          .openapi({ description: "The row's id, as the business set it when it sent the list." }),
        title: z.string().openapi({ description: "The row's title, as the user saw it." }),
        description: z
          .string()
          .optional()
          .openapi({ description: "The row's description, when it has one." }),
      })
      .optional()
      .openapi({ description: "For `list_reply`: the list row the user chose." }),
    nfm_reply: z
      .looseObject({
        name: z.string().optional().openapi({ description: "`flow` for a flow's answer." }),
        body: z
          .string()
          .optional()
          .openapi({ description: "The text the user saw for the answer (`Sent`)." }),
        response_json: z
          .string()
          .optional()
          .openapi({ description: "The answer's fields, as a JSON string." }),
      })
      .optional()
      .openapi({ description: "For `nfm_reply`: the answer of a WhatsApp Flow the user completed." }),
  })
  .superRefine((interactive, ctx) => {
    const key = interactive.type;
    if ((key === "button_reply" || key === "list_reply") && interactive[key] === undefined) {
      ctx.addIssue({ code: "custom", path: [key], message: `is required for an interactive ${key}` });
    }
  });

/** The message types whose content object this module reads, each under the key of its type. */
const READ_TYPES = [
  "text",
  "image",
  "video",
  "audio",
  "document",
  "sticker",
  "location",
  "contacts",
  "interactive",
  "button",
  "reaction",
] as const;
type ReadType = (typeof READ_TYPES)[number];
const isReadType = (type: string): type is ReadType => (READ_TYPES as readonly string[]).includes(type);

export const WhatsAppMessage = z
  .looseObject({
    from: WaId.optional().openapi({
      description:
        "The sender's WhatsApp id (their number, digits only); omitted when the user hides their number behind a username.",
    }),
    from_user_id: z.string().optional().openapi({ description: "The sender's business-scoped user id." }),
    id: z.string().min(1).openapi({
      description: "The message id.",
      example: "wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=",
    }),
    timestamp: UnixSeconds,
    type: z.string().min(1).openapi({
      description:
        "`text`, `image`, `video`, `audio`, `document`, `sticker`, `location`, `contacts`, `interactive`, `button`, `reaction`, `unsupported`, … The content is under the key of the type.",
      example: "text",
    }),
    context: z
      .looseObject({
        from: z
          .string()
          .optional()
          .openapi({ description: "The WhatsApp id of the answered message's sender (digits only)." }),
        id: z.string().optional().openapi({ description: "The id (`wamid.…`) of the message answered." }),
        forwarded: z.boolean().optional().openapi({ description: "`true` when the message was forwarded." }),
        frequently_forwarded: z
          .boolean()
          .optional()
          .openapi({ description: "`true` when the message was forwarded more than 5 times." }),
      })
      .optional()
      .openapi({
        description:
          "For a reply: the message it answers (`id`) and its sender (`from`); for a forwarded message, that it was forwarded.",
      }),
    group_id: z
      .string()
      .optional()
      .openapi({ description: "The group's id, for a message sent in a WhatsApp group." }),
    text: z
      .looseObject({ body: z.string().openapi({ description: "The text the sender wrote." }) })
      .optional()
      .openapi({ description: "A text message." }),
    image: Media("An image.").optional(),
    video: Media("A video.").optional(),
    sticker: Media("A sticker (`image/webp`).").optional(),
    audio: Audio.optional(),
    document: Document.optional(),
    location: z
      .looseObject({
        latitude: Coordinate.openapi({ description: "The latitude, in decimal degrees." }),
        longitude: Coordinate.openapi({ description: "The longitude, in decimal degrees." }),
        name: z
          .string()
          .optional()
          .openapi({ description: "The place's name, when the sender chose a place." }),
        address: z.string().optional().openapi({ description: "The place's address, when known." }),
        url: z.string().optional().openapi({ description: "A web page about the place, when there is one." }),
      })
      .optional()
      .openapi({ description: "A location the sender shared." }),
    contacts: z.array(SharedContact).min(1).optional().openapi({ description: "Shared contact cards." }),
    interactive: Interactive.optional().openapi({
      description:
        "The user's answer to an interactive message the business sent: a reply button pressed, a list row chosen, a flow completed.",
    }),
    button: z
      .looseObject({
        text: z.string().openapi({ description: "The button's text." }),
        payload: z
          .string()
          .optional()
          .openapi({ description: "The payload the business gave the button in the template." }),
      })
      .optional()
      .openapi({ description: "A quick-reply button of a template message, pressed." }),
    reaction: z
      .looseObject({
        message_id: z
          .string()
          .min(1)
          .openapi({ description: "The id (`wamid.…`) of the message reacted to." }),
        emoji: z
          .string()
          .optional()
          .openapi({ description: "The emoji; omitted when the reaction is removed." }),
      })
      .optional()
      .openapi({ description: "A reaction to `message_id`; no `emoji` when a reaction is removed." }),
    unsupported: z
      .looseObject({
        type: z
          .string()
          .optional()
          .openapi({ description: "The type of the message Meta does not deliver." }),
      })
      .optional()
      .openapi({ description: "For `unsupported`: what kind of message it was, when Meta says." }),
    errors: z
      .array(WhatsAppError)
      .optional()
      .openapi({ description: "For `unsupported`: why Meta did not deliver the message's content." }),
  })
  .superRefine((message, ctx) => {
    if (isReadType(message.type) && message[message.type] === undefined) {
      ctx.addIssue({
        code: "custom",
        path: [message.type],
        message: `is required for a message of type ${message.type}`,
      });
    }
  })
  .openapi("WhatsAppMessage", { description: "A message a WhatsApp user sent to the business number." });

export const WhatsAppStatusUpdate = z
  .looseObject({
    id: z.string().min(1).openapi({ description: "The id of the message the business sent." }),
    status: z.string().min(1).openapi({
      description: "`sent`, `delivered`, `read`, `played` (a voice message) or `failed`.",
      example: "delivered",
    }),
    timestamp: UnixSeconds,
    recipient_id: z.string().optional().openapi({
      description:
        "The recipient's WhatsApp id (or a group's id); omitted when sent to a business-scoped id.",
    }),
    errors: z
      .array(WhatsAppError)
      .optional()
      .openapi({ description: "For `failed`: why the message was not delivered." }),
  })
  .openapi("WhatsAppStatusUpdate", { description: "What became of a message the business sent." });

export const WhatsAppContact = z
  .looseObject({
    profile: z
      .looseObject({
        name: z.string().optional().openapi({ description: "The name the sender set in WhatsApp." }),
      })
      .optional()
      .openapi({ description: "The sender's WhatsApp profile." }),
    wa_id: WaId.optional().openapi({
      description:
        "The sender's WhatsApp id (their number, digits only); omitted when the user hides their number behind a username.",
    }),
    user_id: z.string().optional().openapi({ description: "The sender's business-scoped user id." }),
  })
  .openapi("WhatsAppContact", { description: "A sender of the change's messages: their profile name." });

export const WhatsAppMessagesValue = z
  .looseObject({
    messaging_product: z.literal("whatsapp").openapi({ description: "Always `whatsapp`." }),
    metadata: z
      .looseObject({
        display_phone_number: z
          .string()
          .min(1)
          .openapi({ description: "The business number, as displayed.", example: "15550783881" }),
        phone_number_id: z.string().min(1).openapi({
          description: "The business number's id, under which the Graph API sends from it.",
          example: "106540352242922",
        }),
      })
      .openapi({ description: "The business number the change is about." }),
    contacts: z
      .array(WhatsAppContact)
      .optional()
      .openapi({ description: "The senders of `messages`, with their profile names." }),
    messages: z
      .array(WhatsAppMessage)
      .optional()
      .openapi({ description: "The messages the business number received; several when Meta batches them." }),
    statuses: z
      .array(WhatsAppStatusUpdate)
      .optional()
      .openapi({ description: "Statuses of messages the business number sent." }),
    errors: z
      .array(WhatsAppError)
      .optional()
      .openapi({ description: "Errors Meta reports for the change as a whole, not for one message." }),
  })
  .openapi("WhatsAppMessagesValue", {
    description: "The messages a business number received, or statuses of those it sent.",
  });

const MessagesChange = z
  .looseObject({
    field: z
      .literal("messages")
      .openapi({ description: "`messages`: messages received and statuses of those sent." }),
    value: WhatsAppMessagesValue,
  })
  .openapi({ description: "A change of the `messages` field." });
const OtherChange = z
  .looseObject({
    field: z
      .string()
      .refine((field) => field !== "messages", { message: "a messages change must hold a messages value" })
      .openapi({
        description:
          "The field that changed: `account_update`, `message_template_status_update`, … (not `messages`).",
      }),
    value: z.unknown().optional().openapi({ description: "The change, in that field's shape; not read." }),
  })
  .openapi({ description: "A change of another field the app subscribes to; accepted and skipped." });

export const WhatsAppWebhook = z
  .looseObject({
    object: z
      .literal("whatsapp_business_account")
      .openapi({ description: "Always `whatsapp_business_account`." }),
    entry: z
      .array(
        z.looseObject({
          id: z.string().openapi({ description: "The WhatsApp Business Account id." }),
          changes: z
            .array(z.union([MessagesChange, OtherChange]))
            .openapi({ description: "What changed, one item per field of the account that changed." }),
        }),
      )
      .openapi({ description: "One entry per WhatsApp Business Account, with its changes." }),
  })
  .openapi("WhatsAppWebhook", {
    description:
      "A delivery of the WhatsApp Business Cloud API webhook, signed by Meta in `X-Hub-Signature-256`. Unknown fields are allowed: Meta adds fields over time.",
  });

export type WhatsAppWebhookPayload = z.infer<typeof WhatsAppWebhook>;
type WhatsAppMessageData = z.infer<typeof WhatsAppMessage>;
type WhatsAppContactData = z.infer<typeof WhatsAppContact>;
type WhatsAppErrorData = z.infer<typeof WhatsAppError>;
type MessagesChangeData = z.infer<typeof MessagesChange>;

// ---------------------------------------------------------------------------------------------------------
// Reading a delivery

/** What became of a message the business sent. */
export interface WhatsAppStatus {
  /** The `wamid.…` of the message the business sent. */
  providerMessageId: string;
  /** `sent`, `delivered`, `read`, `played` or `failed`, as Meta wrote it. */
  status: string;
  /** When, an ISO 8601 timestamp in UTC. */
  timestamp: string;
  /** The recipient's number in E.164; null when Meta named none that is one (a group, a business-scoped id). */
  recipient: string | null;
  /** Meta's errors, for a failed message; empty otherwise. */
  errors: { code: number; title: string | null; details: string | null }[];
}

/** A message of the delivery that is not one for the inbox, and why. */
export interface WhatsAppIgnored {
  providerMessageId: string;
  type: string;
  reason: string;
}

export interface WhatsAppDelivery {
  messages: ConnectorMessage[];
  statuses: WhatsAppStatus[];
  ignored: WhatsAppIgnored[];
}

/** Every message and status of a delivery, in the order Meta listed them. */
export function parseWhatsAppDelivery(payload: WhatsAppWebhookPayload): WhatsAppDelivery {
  const delivery: WhatsAppDelivery = { messages: [], statuses: [], ignored: [] };
  for (const entry of payload.entry) {
    for (const change of entry.changes) {
      if (!isMessagesChange(change)) continue;
      const { metadata, contacts = [], messages = [], statuses = [] } = change.value;
      const business = e164(`+${metadata.display_phone_number.replace(/[^0-9]/g, "")}`);
      for (const message of messages) {
        const read = readMessage(message, contacts, business);
        if ("reason" in read) delivery.ignored.push(read);
        else delivery.messages.push(read);
      }
      for (const status of statuses) {
        delivery.statuses.push({
          providerMessageId: status.id,
          status: status.status,
          timestamp: isoFromUnixSeconds(status.timestamp),
          recipient: status.recipient_id ? e164(`+${status.recipient_id}`) : null,
          errors: (status.errors ?? []).map(readError),
        });
      }
    }
  }
  return delivery;
}

function isMessagesChange(change: { field: string }): change is MessagesChangeData {
  return change.field === "messages";
}

function readMessage(
  message: WhatsAppMessageData,
  contacts: WhatsAppContactData[],
  business: string | null,
): ConnectorMessage | WhatsAppIgnored {
  const ignore = (reason: string): WhatsAppIgnored => ({
    providerMessageId: message.id,
    type: message.type,
    reason,
  });
  if (message.type === "system")
    return ignore("a notice from WhatsApp (the user changed number), not a message");
  if (message.type === "request_welcome") return ignore("the user opened the chat; nothing was written yet");
  if (message.group_id !== undefined)
    return ignore("a group message; the inbox holds one-to-one conversations");
  const sender = message.from === undefined ? null : e164(`+${message.from}`);
  if (sender === null) return ignore("the sender's number is withheld (a WhatsApp username)");
  const content = readContent(message);
  if (content === null) return ignore("a reaction removed");

  const replyTo = [message.context?.id, message.reaction?.message_id].filter(
    (id, i, ids): id is string => !!id && ids.indexOf(id) === i,
  );
  return {
    providerMessageId: message.id,
    providerThreadId: sender,
    replyTo,
    direction: "inbound",
    from: { address: sender, name: senderName(message, contacts) },
    to: business === null ? [] : [business],
    subject: null,
    body: content.body,
    sentAt: isoFromUnixSeconds(message.timestamp),
    attachments: content.attachments,
    authentication: null,
    forwardedBy: null,
  };
}

/** The body and attachments of a message; null for a removed reaction. */
function readContent(
  message: WhatsAppMessageData,
): { body: string; attachments: ConnectorAttachment[] } | null {
  const text = (body: string) => ({ body, attachments: [] });
  switch (message.type) {
    case "text":
      return text(message.text!.body);
    case "image":
    case "video":
    case "audio":
    case "sticker":
    case "document": {
      const media = message[message.type]!;
      const filename = message.type === "document" ? message.document!.filename?.trim() || null : null;
      return {
        body: media.caption ?? "",
        attachments: [
          { filename, contentType: mimeType(media.mime_type), size: null, providerMediaId: media.id },
        ],
      };
    }
    case "location":
      return text(locationText(message.location!));
    case "contacts":
      return text(message.contacts!.map(contactLine).join("\n"));
    case "interactive":
      return text(interactiveText(message.interactive!));
    case "button":
      return text(message.button!.text);
    case "reaction": {
      const emoji = message.reaction!.emoji;
      return emoji ? text(emoji) : null;
    }
    default:
      return text(unsupportedText(message));
  }
}

/** What a user chose in an interactive message: the title of the button or list row, or a flow's reply. */
function interactiveText(interactive: z.infer<typeof Interactive>): string {
  switch (interactive.type) {
    case "button_reply":
      return interactive.button_reply!.title;
    case "list_reply":
      return interactive.list_reply!.title;
    case "nfm_reply":
      return interactive.nfm_reply?.body?.trim() || `[unsupported message: interactive ${interactive.type}]`;
    default:
      return `[unsupported message: interactive ${interactive.type}]`;
  }
}

/** `👤 <name>: <phones>, <emails>` for one shared contact card. */
function contactLine(card: z.infer<typeof SharedContact>): string {
  const name =
    card.name?.formatted_name?.trim() ||
    [card.name?.first_name, card.name?.last_name]
      .map((part) => part?.trim())
      .filter(Boolean)
      .join(" ");
  const reach = [
    ...(card.phones ?? []).map((phone) => phone.phone?.trim()),
    ...(card.emails ?? []).map((email) => email.email?.trim()),
  ].filter(Boolean);
  const label = name ? `👤 ${name}` : "👤";
  return reach.length > 0 ? `${label}: ${reach.join(", ")}` : label;
}

/** `[unsupported message: <type>]`, naming the type Meta reported (`unsupported.type` when it gave one). */
function unsupportedText(message: WhatsAppMessageData): string {
  const kind = message.type === "unsupported" ? message.unsupported?.type?.trim() || "unknown" : message.type;
  return `[unsupported message: ${kind}]`;
}

function senderName(message: WhatsAppMessageData, contacts: WhatsAppContactData[]): string | null {
  const contact =
    contacts.find((c) => c.wa_id !== undefined && c.wa_id === message.from) ??
    contacts.find((c) => c.user_id !== undefined && c.user_id === message.from_user_id);
  return contact?.profile?.name?.trim() || null;
}

/** `audio/ogg; codecs=opus` → `audio/ogg`. */
function mimeType(value: string): string {
  return value.split(";")[0]!.trim().toLowerCase();
}

function readError(error: WhatsAppErrorData): WhatsAppStatus["errors"][number] {
  return { code: error.code, title: error.title ?? null, details: error.error_data?.details ?? null };
}

function isoFromUnixSeconds(seconds: string): string {
  return new Date(Number(seconds) * 1000).toISOString();
}
