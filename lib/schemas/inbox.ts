import { z } from "@hono/zod-openapi";
import { addressProblem, type InboxChannel, inboxChannels, normaliseAddress } from "../addresses";
import { INTENTS, URGENCIES } from "../engine/types";
import { idString } from "../params";
import { TimestampOut, UtcTimestamp } from "../time";
import { described } from "./describe";

export { inboxChannels } from "../addresses";

/**
 * The member-private inbox: a member's connections (an email account, a WhatsApp or SMS number), the threads
 * they carry and the messages of each thread. Only the signed-in member reads and changes their own; connectors
 * deliver messages through the ingest operation (a secret key, or the owning member's session).
 */

export const threadStates = ["open", "snoozed", "done"] as const;
export const messageDirections = ["inbound", "outbound"] as const;
/** Provider secrets a connection can hold, and the ones each channel takes. */
export const connectionSecretNames = ["app_secret", "auth_token", "verify_token"] as const;
export const channelSecrets: Record<InboxChannel, readonly (typeof connectionSecretNames)[number][]> = {
  email: [],
  whatsapp: ["app_secret", "verify_token"],
  sms: ["auth_token"],
};

/** A connection's sync state, as its connector reports it; the API creates connections `active`. */
export const connectionStatuses = ["active", "error", "disconnected"] as const;

/** Design §3's complete sets of the triage engine, as its judges declare them. */
export const triageIntents = INTENTS;
export const triageUrgencies = URGENCIES;

/** A label, an id or an address: one line of text, without control characters. */
function line(max: number) {
  return (
    z
      .string()
      .max(max)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the range of control characters is what is refused.
      .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, { message: "must not contain control characters" })
  );
}

/** Message text: any characters but U+0000, which PostgreSQL text cannot hold. */
function prose(max: number) {
  return (
    z
      .string()
      .max(max)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what is refused.
      .regex(/^[^\u0000]*$/, { message: "must not contain U+0000 (NUL)" })
  );
}

const channel = z.enum(inboxChannels);

/** What each triage intent and urgency means (design §3), for every surface that shows them. */
export const intentMeanings: Record<(typeof INTENTS)[number], string> = {
  purchase_inquiry: 'moves towards buying a specific work: an offer, a hold, "let\'s do it"',
  price_request: "asks a price without committing",
  availability: "asks whether a work is available, not its price",
  logistics: "shipping, crating, couriers, customs, installation, storage",
  consignment: "wants the gallery to sell a work for them",
  press: "journalists, critics and publications: interviews, reviews, image requests",
  event_rsvp: "answers or asks about an invitation",
  invoice_payment: "invoices and payments on an agreed sale",
  spam: "bulk or fraudulent, whatever it imitates",
  other: "autoreplies, thank-yous, portfolio submissions, everything else",
};
export const urgencyMeanings: Record<(typeof URGENCIES)[number], string> = {
  now: "someone waits in real time",
  today: "the same working day; buyers' asks default here, and anything escalating is at least today",
  this_week: "within the week",
  later: "no time pressure",
};
const listed = (meanings: Record<string, string>) =>
  Object.entries(meanings)
    .map(([value, meaning]) => `\`${value}\` (${meaning})`)
    .join(", ");
export const intentText = `What the sender asks for: ${listed(intentMeanings)}.`;
export const urgencyText = `How soon the thread wants an answer: ${listed(urgencyMeanings)}.`;
const probability = z.number().min(0).max(1);
const UUID_EXAMPLE = "0b7e8f52-4c1d-4a8e-9f7d-2f1c3b5a6d90";

// ---------------------------------------------------------------------------------------------------------
// Connections

/**
 * What the fields of a connection, a message and a thread mean: one text per field, shared by the resource and
 * by its event object, so the two say the same.
 */
const connectionTexts = {
  id: "The connection's id, a UUID: the connection_id of its threads and messages.",
  member_id: "The member whose inbox it feeds.",
  channel: "The kind of account: `email`, `whatsapp` or `sms`.",
  provider: "Who carries the account (`google`, `microsoft`, `twilio`, …), as given when it was connected.",
  status: "`active` when created; its connector reports `error` (see last_error) or `disconnected`.",
  secrets: "The names of the provider secrets set (never their values).",
};
const messageTexts = {
  id: "The message's id (`msg_…`): prefixed and time-ordered; unique, never reused.",
  connection_id: "The connection of its thread; null once that connection was deleted.",
  direction: "`inbound` (the counterpart wrote to the member) or `outbound` (the member wrote).",
  sent_at: "When it was sent (UTC), as its connector delivered it.",
};
const threadTexts = {
  id: "The thread's id (`thr_…`): prefixed and time-ordered; unique, never reused.",
  contact_id: "The contact whose email or phone number is the counterpart's address, when one matched.",
  assigned_to: "The member who should answer, if any.",
  channel: "The channel of its connection: `email`, `whatsapp` or `sms`.",
  connection_id: "The connection it came through; null once that connection was deleted.",
  last_message_at: "When its newest message was sent (UTC).",
  snooze_until: "While snoozed: when the thread wakes. Null otherwise, and once that time has passed.",
  unread_count: "Inbound messages not yet read.",
  state: "`open`, `snoozed` or `done`; a snoozed thread reads `open` once its snooze_until has passed.",
};

export const InboxConnection = z
  .object(
    described(
      {
        id: z.string().openapi({ format: "uuid", example: UUID_EXAMPLE }),
        member_id: z.string(),
        channel,
        provider: z.string().openapi({ example: "google" }),
        address: z.string().openapi({
          description: "The account's own address: an email lower-cased, a phone number in E.164.",
          example: "desk@gallery.example",
        }),
        status: z.enum(connectionStatuses),
        last_synced_at: TimestampOut.nullable().openapi({
          description: "When a message was last delivered through this connection; null before the first.",
        }),
        last_error: z.string().nullable().openapi({
          description:
            "What went wrong, as its connector reported it with status `error`; null when nothing did.",
        }),
        inbound_address: z.string().nullable().openapi({
          description:
            "An email connection's own address at the platform's inbound domain: mail routed or forwarded to it is delivered into this inbox (Cloudflare Email Routing to the Email Worker). Null on the other channels.",
          example: "in+4f1c2b7a9e3d48c0a6b5e2d1f0c9b8a7@inbox.gallery.example",
        }),
        webhook_url: z.string().nullable().openapi({
          description:
            "The URL to give the provider: for `whatsapp` the callback URL of the WhatsApp Business Cloud API webhook, for `sms` the Twilio number's incoming-message webhook (HTTP POST). Null for `email`.",
          example: "https://api.gallery.example/v1/connectors/whatsapp/0b7e8f52-4c1d-4a8e-9f7d-2f1c3b5a6d90",
        }),
        secrets: z.array(z.enum(connectionSecretNames)).openapi({
          description:
            "The names of the provider secrets set on the connection (never their values): `app_secret` and `verify_token` for WhatsApp, `auth_token` for Twilio. The connector refuses every delivery until its secrets are set.",
        }),
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      connectionTexts,
    ),
  )
  .openapi("InboxConnection");

/** Each channel's provider secrets, by name, with what each one is. */
const secretTexts: Record<(typeof connectionSecretNames)[number], string> = {
  app_secret:
    "WhatsApp: the Meta app's App Secret (App settings → Basic), with which Meta signs each delivery (`X-Hub-Signature-256`).",
  verify_token:
    "WhatsApp: the verify token you type into the webhook's configuration; Meta sends it back once to verify the callback URL.",
  auth_token:
    "SMS: the Twilio account's Auth Token, with which Twilio signs each request (`X-Twilio-Signature`).",
};

export const InboxConnectionSecrets = z
  .strictObject(
    Object.fromEntries(
      connectionSecretNames.map((name) => [
        name,
        z
          .string()
          .min(8)
          .max(512)
          .regex(/^[\x21-\x7e]+$/, { message: "must be visible ASCII characters, without spaces" })
          .optional()
          .openapi({ description: secretTexts[name] }),
      ]),
    ) as Record<(typeof connectionSecretNames)[number], z.ZodOptional<z.ZodString>>,
  )
  .openapi("InboxConnectionSecrets", {
    description:
      "The provider secrets of a WhatsApp (`app_secret`, `verify_token`) or SMS (`auth_token`) connection, 8 to 512 visible ASCII characters each; an email connection has none. Stored sealed and never shown again: the connection lists their names in `secrets`.",
  });

/** Each secret sent that the channel does not take: its field and what is wrong, for a 400. */
export function foreignSecrets(
  channelOf: InboxChannel,
  secrets: Partial<Record<string, string>> | undefined,
): { field: string; message: string }[] {
  const allowed: readonly string[] = channelSecrets[channelOf];
  return Object.keys(secrets ?? {})
    .filter((name) => !allowed.includes(name))
    .map((name) => ({
      field: `secrets.${name}`,
      message: allowed.length
        ? `is not a secret of a ${channelOf} connection (it takes ${allowed.map((n) => `\`${n}\``).join(", ")})`
        : "is not a secret of an email connection (it takes none)",
    }));
}

export const InboxConnectionCreate = z
  .strictObject({
    provider: line(50).trim().min(1).openapi({
      description: "Who carries the account (`google`, `microsoft`, `twilio`, …), 1 to 50 characters.",
      example: "google",
    }),
    channel: channel.openapi({
      description: "The kind of account: `email`, `whatsapp` or `sms`; it decides how `address` is read.",
    }),
    address: line(320).openapi({
      description:
        "The account's address: for `email` an email address (trimmed and lower-cased), for `whatsapp` and `sms` an international phone number, stored in E.164 (`+44 (0)20 7946 0958` → `+442079460958`).",
      example: "desk@gallery.example",
    }),
    secrets: InboxConnectionSecrets.optional(),
  })
  .superRefine((value, ctx) => {
    if (normaliseAddress(value.channel, value.address) === null) {
      ctx.addIssue({ code: "custom", path: ["address"], message: addressProblem(value.channel) });
    }
    for (const { field, message } of foreignSecrets(value.channel, value.secrets)) {
      ctx.addIssue({ code: "custom", path: field.split("."), message });
    }
  })
  .openapi("InboxConnectionCreate");
export type InboxConnectionCreateInput = z.infer<typeof InboxConnectionCreate>;

export const InboxConnectionUpdate = z
  .strictObject({
    provider: line(50).trim().min(1).optional().openapi({
      description: "Who carries the account, 1 to 50 characters.",
    }),
    secrets: InboxConnectionSecrets.optional().openapi({
      description:
        "Secrets to set or replace (those not sent stay as they are). The channel decides which it takes: a secret of another channel is a 400.",
    }),
  })
  .openapi("InboxConnectionUpdate");
export type InboxConnectionUpdateInput = z.infer<typeof InboxConnectionUpdate>;

/** A UUID in its hyphenated hex form, any version (what Postgres stores and prints). */
const UUID_SHAPE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A connection's id is a UUID (the spec's connection_id). */
export const InboxConnectionIdParams = z.strictObject({
  id: z
    .string()
    .regex(UUID_SHAPE, { message: "must be a connection id (a UUID)" })
    .toLowerCase()
    .openapi({ param: { name: "id", in: "path" }, format: "uuid", example: UUID_EXAMPLE }),
});

// ---------------------------------------------------------------------------------------------------------
// Messages

const verdict = z.string().nullable();

export const InboxMessageAuthentication = z
  .object({
    spf: verdict.openapi({ description: "SPF verdict (`pass`, `fail`, `softfail`, `neutral`, `none`, …)." }),
    dkim: verdict.openapi({ description: "DKIM verdict." }),
    dmarc: verdict.openapi({ description: "DMARC verdict." }),
    failed: z.boolean().openapi({
      description:
        "The mail is not from who its From header claims: DMARC failed, or neither SPF nor DKIM passed. The mail is kept; the triage engine reads it as likely spam.",
    }),
  })
  .openapi("InboxMessageAuthentication", {
    description:
      "Email: what the receiving mail server found of the sender's authentication (its Authentication-Results header). Null when it reported none, and on the other channels.",
  });

export const InboxAttachment = z
  .object({
    id: z.string().openapi({
      description: "The attachment's id (`att_…`): prefixed and time-ordered; unique, never reused.",
      example: "att_01jd4xk9v2c7h8m3n5p6q7r8s9",
    }),
    filename: z
      .string()
      .nullable()
      .openapi({ description: "The file name its sender gave; null when none." }),
    content_type: z.string().openapi({
      description: "The MIME type its sender declared, lowercase and without parameters (`; charset=…`).",
      example: "application/pdf",
    }),
    size: z.number().int().nullable().openapi({ description: "Bytes; null when the provider does not say." }),
    disposition: z.enum(["attachment", "inline"]).openapi({
      description: "`inline` for an image shown inside an HTML mail, `attachment` otherwise.",
    }),
    download_url: z.string().nullable().openapi({
      description:
        "Where the member downloads an email attachment stored by the platform: `GET /v1/gallery/inbox/messages/{id}/attachments/{attachment_id}` with the member's session. Null for WhatsApp and SMS media, which stay with the provider.",
    }),
    provider_media_id: z.string().nullable().openapi({
      description: "WhatsApp: the media id to fetch it with from the WhatsApp Cloud API; null otherwise.",
    }),
    provider_url: z.string().nullable().openapi({
      description:
        "SMS: the MMS media URL at Twilio (fetched with the account's credentials); null otherwise.",
    }),
  })
  .openapi("InboxAttachment");

export const InboxMessage = z
  .object(
    described(
      {
        id: z.string().openapi({ example: "msg_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
        thread_id: z.string(),
        connection_id: z.string().nullable().openapi({ format: "uuid" }),
        direction: z.enum(messageDirections),
        from_address: z
          .string()
          .nullable()
          .openapi({ description: "Normalised as its channel stores addresses." }),
        from_name: z.string().nullable().openapi({
          description: "The sender's display name, when the channel carried one; null otherwise.",
        }),
        to_addresses: z.array(z.string()).openapi({
          description:
            "The recipients' addresses, normalised as its channel stores addresses; for an outbound message, the first is the counterpart.",
        }),
        body: z.string().nullable().openapi({ description: "The text of the message, as delivered." }),
        snippet: z.string().nullable().openapi({
          description: "The body's first 200 characters, runs of whitespace collapsed to one space.",
        }),
        sent_at: TimestampOut,
        read_at: TimestampOut.nullable().openapi({
          description:
            "When the member read an inbound message; null while unread, and always for outbound ones.",
        }),
        provider_message_id: z.string().nullable().openapi({
          description:
            "The provider's message id, as delivered; a later delivery under the same id is not stored again. Null when none was given.",
        }),
        reply_to: z.array(z.string()).openapi({
          description:
            "The provider ids of the messages it answers, nearest first: an email's In-Reply-To and References, a WhatsApp reply's quoted message. Empty when it answers none.",
        }),
        authentication: InboxMessageAuthentication.nullable(),
        forwarded_by: z.string().nullable().openapi({
          description:
            "When a member forwarded a client's mail into the inbox: the member's address. `from_address` is then the client's, recovered from the forwarded message.",
        }),
        attachments: z.array(InboxAttachment).openapi({
          description: "The files that came with it, in order; never inlined in `body`.",
        }),
        created_at: TimestampOut,
      },
      messageTexts,
    ),
  )
  .openapi("InboxMessage");

export const InboxMessageIngest = z
  .strictObject({
    direction: z.enum(messageDirections).openapi({
      description: "`inbound`: the counterpart wrote to the member; `outbound`: the member wrote.",
    }),
    provider_thread_id: line(500).min(1).nullish().openapi({
      description:
        "The provider's conversation id. The first message with an id not yet seen on this connection starts a thread; later ones join it. Without one, the message starts a thread of its own.",
    }),
    provider_message_id: line(500).min(1).nullish().openapi({
      description:
        "The provider's message id: a message already stored under it (on that thread, or without provider_thread_id on any thread of the connection) is not stored again.",
    }),
    subject: line(1000).nullish().openapi({ description: "Email subject; the thread keeps its first one." }),
    from: z
      .strictObject({
        address: line(320).min(1).openapi({
          example: "collector@example.com",
          description:
            "The sender's address: for `email` an email address (stored lower-cased), for `whatsapp` and `sms` an international phone number (stored in E.164).",
        }),
        name: line(200)
          .nullish()
          .openapi({ description: "The sender's display name, if the channel carries one." }),
      })
      .openapi({ description: "The sender; for an inbound message, the counterpart." }),
    to: z
      .array(line(320).min(1))
      .min(1)
      .max(50)
      .openapi({
        description: "1 to 50 recipients' addresses; for an outbound message, the first is the counterpart.",
        example: ["desk@gallery.example"],
      }),
    body: prose(100_000).openapi({ description: "The text, at most 100,000 characters." }),
    sent_at: UtcTimestamp.openapi({ description: "When it was sent (UTC, ends in Z)." }),
  })
  .openapi("InboxMessageIngest");
export type InboxMessageIngestInput = z.infer<typeof InboxMessageIngest>;

// ---------------------------------------------------------------------------------------------------------
// Threads

export const Triage = z
  .object({
    intent: z
      .enum(triageIntents)
      .nullable()
      .openapi({ description: `The engine's reading of the ask. ${intentText}` }),
    intent_probability: probability.nullable().openapi({ description: "Belief (0 to 1) in `intent`." }),
    urgency: z.enum(triageUrgencies).nullable().openapi({ description: urgencyText }),
    urgency_probability: probability.nullable().openapi({ description: "Belief (0 to 1) in `urgency`." }),
    expects_reply: probability.nullable().openapi({
      description: "Belief (0 to 1) that the sender asks for an answer or a decision.",
    }),
    escalating: probability.nullable().openapi({
      description: "Belief (0 to 1) that the sender is chasing, frustrated or about to walk away.",
    }),
    corrected_intent: z.enum(triageIntents).nullable().openapi({
      description: "A member's correction of `intent`; kept when the engine reads the thread again.",
    }),
    triaged_at: TimestampOut.nullable().openapi({ description: "When an engine field last changed." }),
  })
  .openapi("InboxTriage", { description: "The triage engine's reading; every member is null until set." });

export const InboxThread = z
  .object(
    described(
      {
        id: z.string().openapi({ example: "thr_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
        contact_id: z.string().nullable(),
        contact_name: z.string().nullable().openapi({
          description: "The matched contact's name, else the counterpart's display name.",
        }),
        provider_thread_id: z.string().nullable().openapi({
          description:
            "The provider's conversation id the thread gathers the messages of; null for a thread started by a message without one.",
        }),
        subject: z
          .string()
          .nullable()
          .openapi({ description: "The first subject its messages carried (email); null while none did." }),
        last_from: z.string().nullable().openapi({
          description: "The sender of the newest message: their display name, else their address.",
        }),
        last_snippet: z.string().nullable().openapi({ description: "The newest message's snippet." }),
        assigned_to: z.string().nullable(),
        channel,
        connection_id: z.string().nullable().openapi({ format: "uuid" }),
        last_message_at: TimestampOut,
        snooze_until: TimestampOut.nullable(),
        unread_count: z.number().int(),
        state: z.enum(threadStates),
        triage: Triage,
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      threadTexts,
    ),
  )
  .openapi("InboxThread");

/** The engine's fields as a PATCH sets them: the engine may set them again when it next reads the thread. */
const engineTriageFields = {
  intent: z.enum(triageIntents).openapi({
    description:
      "Sets the engine's intent (a member's own reading belongs in corrected_intent, which the engine keeps).",
  }),
  intent_probability: probability.openapi({ description: "Sets the belief (0 to 1) in `intent`." }),
  urgency: z.enum(triageUrgencies).openapi({
    description: "Sets the urgency: `now`, `today`, `this_week` or `later`.",
  }),
  urgency_probability: probability.openapi({ description: "Sets the belief (0 to 1) in `urgency`." }),
  expects_reply: probability.openapi({
    description: "Sets the belief (0 to 1) that the sender asks for an answer or a decision.",
  }),
  escalating: probability.openapi({
    description: "Sets the belief (0 to 1) that the sender is chasing, frustrated or about to walk away.",
  }),
};
export const engineTriageKeys = Object.keys(engineTriageFields) as (keyof typeof engineTriageFields)[];

export const InboxTriageUpdate = z
  .strictObject({
    ...engineTriageFields,
    corrected_intent: z.enum(triageIntents).nullable().openapi({
      description: "A member's correction of the intent; null clears it. Changes only when sent.",
    }),
  })
  .partial()
  .openapi("InboxTriageUpdate", {
    description:
      "Only the fields sent change. A change to an engine field (all but corrected_intent) sets triaged_at; corrected_intent stays as it is.",
  });

export const InboxThreadUpdate = z
  .strictObject({
    state: z.enum(threadStates).openapi({
      description: "`snoozed` needs `snooze_until`; `open` and `done` clear it.",
    }),
    snooze_until: UtcTimestamp.openapi({
      description:
        "When a snoozed thread wakes (UTC, ends in Z), in the future. Sent with `state: snoozed`, or alone to move the snooze of a snoozed thread.",
    }),
    assigned_to: idString("mem").nullable().openapi({
      description: "A member of this gallery who should answer; null unassigns.",
    }),
    triage: InboxTriageUpdate,
  })
  .partial()
  .openapi("InboxThreadUpdate");
export type InboxThreadUpdateInput = z.infer<typeof InboxThreadUpdate>;

export const InboxThreadRead = z
  .strictObject({
    read: z.boolean().optional().openapi({
      description: "true (the default) marks the inbound messages read; false marks them all unread.",
    }),
  })
  .openapi("InboxThreadRead");

export const InboxThreadIdParams = z.strictObject({
  id: idString("thr").openapi({ param: { name: "id", in: "path" } }),
});

// ---------------------------------------------------------------------------------------------------------
// Event objects: the events feed and webhooks are gallery-wide, the inbox is member-private, so an inbox event
// names what changed (ids, states, counts, times, triage) and never carries content (subjects, snippets,
// bodies, names or addresses).

export const InboxConnectionEventObject = z
  .object(
    described(
      {
        id: z.string().openapi({ format: "uuid" }),
        member_id: z.string(),
        channel,
        provider: z.string(),
        status: z.enum(connectionStatuses),
        secrets: z.array(z.enum(connectionSecretNames)),
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      connectionTexts,
    ),
  )
  .openapi("InboxConnectionEventObject", {
    description: "A connection as events show it: without its address.",
  });

export const InboxMessageEventObject = z
  .object(
    described(
      {
        id: z.string(),
        thread_id: z.string(),
        connection_id: z.string().nullable().openapi({ format: "uuid" }),
        member_id: z.string(),
        channel: channel.openapi({ description: threadTexts.channel }),
        direction: z.enum(messageDirections),
        contact_id: z.string().nullable().openapi({ description: "The thread's contact." }),
        sent_at: TimestampOut,
        created_at: TimestampOut,
      },
      messageTexts,
    ),
  )
  .openapi("InboxMessageEventObject", {
    description: "A message as events show it: no addresses, names, subject or text.",
  });

export const InboxThreadEventObject = z
  .object(
    described(
      {
        id: z.string(),
        member_id: z.string(),
        connection_id: z.string().nullable().openapi({ format: "uuid" }),
        channel,
        contact_id: z.string().nullable(),
        assigned_to: z.string().nullable(),
        state: z.enum(threadStates),
        snooze_until: TimestampOut.nullable(),
        unread_count: z.number().int(),
        last_message_at: TimestampOut,
        triage: Triage,
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      threadTexts,
    ),
  )
  .openapi("InboxThreadEventObject", {
    description: "A thread as events show it: no subject, snippet, names or addresses.",
  });
