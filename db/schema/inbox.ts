import { sql } from "drizzle-orm";
import {
  bigint,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, galleryId, ts, updatedAt } from "./columns";
import { contacts } from "./contacts";
import { galleries, members } from "./galleries";

/**
 * Triage urgency levels, most urgent first. The position is the rank stored in
 * `inbox_threads.triage_urgency_rank`; a value outside this list ranks with untriaged threads (last).
 */
export const INBOX_URGENCY_LEVELS = ["now", "today", "this_week", "later", "none"] as const;

const urgencyRankSql = sql.raw(
  `case triage_urgency ${INBOX_URGENCY_LEVELS.map((level, rank) => `when '${level}' then ${rank}`).join(" ")} end`,
);

/** A member's connected mailbox or messaging number; the inbox is member-private. */
export const inboxConnections = pgTable(
  "inbox_connections",
  {
    id: uuid("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    channel: text("channel").notNull(),
    provider: text("provider").notNull(),
    address: text("address").notNull(),
    status: text("status").notNull().default("active"),
    lastSyncedAt: ts("last_synced_at"),
    lastError: text("last_error"),
    /**
     * An email connection's inbound token: mail to `in+<token>@<INBOUND_EMAIL_DOMAIN>` is delivered through it
     * (functions/email.ts). Null on the other channels.
     */
    inboundToken: text("inbound_token"),
    /**
     * The provider secrets (a WhatsApp app secret and verify token, a Twilio auth token) as one JSON object sealed
     * with the platform's secret key, bound to the connection's id (lib/secret-box.ts); never shown again.
     */
    sealedSecrets: text("sealed_secrets"),
    /** The names of the secrets set, sorted: what the connection shows of them. */
    secretNames: text("secret_names").array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("inbox_connections_inbound_token_key")
      .on(t.inboundToken)
      .where(sql`${t.inboundToken} is not null`),
    index("inbox_connections_member_idx").on(t.galleryId, t.memberId, t.createdAt, t.id),
    uniqueIndex("inbox_connections_member_address_key").on(
      t.galleryId,
      t.memberId,
      t.channel,
      sql`lower(${t.address})`,
    ),
  ],
);

/**
 * One conversation in a member's inbox (`member_id` is the owner; `assigned_to` is who should answer).
 * The `last_*` and `unread_count` columns are kept by the writes that add or mark messages.
 *
 * Triage is flattened into `triage_*` columns rather than a jsonb object so that priority ordering is a plain
 * index scan: ORDER BY triage_expects_reply DESC NULLS LAST, triage_urgency_rank ASC NULLS LAST,
 * triage_intent_probability DESC NULLS LAST, last_message_at DESC, id DESC within (gallery, member, state).
 */
export const inboxThreads = pgTable(
  "inbox_threads",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId().references(() => galleries.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    connectionId: uuid("connection_id").references(() => inboxConnections.id, { onDelete: "set null" }),
    channel: text("channel").notNull(),
    providerThreadId: text("provider_thread_id"),
    /**
     * The other party's address, normalised (an email lower-cased, a phone in E.164): what the thread's contact is
     * matched by.
     */
    counterpartAddress: text("counterpart_address"),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    /** Denormalised from the contact (or the correspondent's display name when no contact is linked). */
    contactName: text("contact_name"),
    subject: text("subject"),
    /**
     * The subject without its reply and forward prefixes, lower-cased (lib/connectors/subject.ts): mail that names
     * no known message joins its counterpart's recent thread of the same subject.
     */
    subjectKey: text("subject_key"),
    lastFrom: text("last_from"),
    lastSnippet: text("last_snippet"),
    lastMessageAt: ts("last_message_at").notNull().default(sql`now()`),
    assignedTo: text("assigned_to").references(() => members.id, { onDelete: "set null" }),
    state: text("state").notNull().default("open"),
    snoozeUntil: ts("snooze_until"),
    unreadCount: integer("unread_count").notNull().default(0),
    triageIntent: text("triage_intent"),
    triageIntentProbability: doublePrecision("triage_intent_probability"),
    triageUrgency: text("triage_urgency"),
    triageUrgencyProbability: doublePrecision("triage_urgency_probability"),
    triageExpectsReply: doublePrecision("triage_expects_reply"),
    triageEscalating: doublePrecision("triage_escalating"),
    triageCorrectedIntent: text("triage_corrected_intent"),
    triagedAt: ts("triaged_at"),
    /** INBOX_URGENCY_LEVELS index of triage_urgency; null when untriaged or unknown. */
    triageUrgencyRank: integer("triage_urgency_rank").generatedAlwaysAs(urgencyRankSql),
    /** Lower-cased text for `q`, maintained by Postgres. */
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(
        sql`lower(coalesce(subject, '') || ' ' || coalesce(contact_name, '') || ' ' || coalesce(last_from, '') || ' ' || coalesce(last_snippet, ''))`,
      ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("inbox_threads_member_last_message_idx").on(t.galleryId, t.memberId, t.lastMessageAt, t.id),
    index("inbox_threads_member_created_idx").on(t.galleryId, t.memberId, t.createdAt, t.id),
    index("inbox_threads_member_state_idx").on(t.galleryId, t.memberId, t.state, t.lastMessageAt, t.id),
    index("inbox_threads_member_channel_idx").on(t.galleryId, t.memberId, t.channel, t.lastMessageAt, t.id),
    index("inbox_threads_member_contact_idx").on(t.galleryId, t.memberId, t.contactId, t.lastMessageAt, t.id),
    index("inbox_threads_member_unread_idx")
      .on(t.galleryId, t.memberId, t.lastMessageAt, t.id)
      .where(sql`${t.unreadCount} > 0`),
    // Not led by state: `state=open` also takes expired snoozes, and priority is most often asked of every state.
    index("inbox_threads_priority_idx").on(
      t.galleryId,
      t.memberId,
      t.triageExpectsReply.desc().nullsLast(),
      t.triageUrgencyRank.asc().nullsLast(),
      t.triageIntentProbability.desc().nullsLast(),
      t.lastMessageAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("inbox_threads_contact_idx").on(t.galleryId, t.contactId),
    index("inbox_threads_search_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
    index("inbox_threads_subject_key_idx")
      .on(t.connectionId, t.counterpartAddress, t.subjectKey, t.lastMessageAt)
      .where(sql`${t.subjectKey} is not null`),
    uniqueIndex("inbox_threads_provider_thread_key")
      .on(t.connectionId, t.providerThreadId)
      .where(sql`${t.providerThreadId} is not null`),
  ],
);

export const inboxMessages = pgTable(
  "inbox_messages",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    threadId: text("thread_id")
      .notNull()
      .references(() => inboxThreads.id, { onDelete: "cascade" }),
    /** inbound | outbound */
    direction: text("direction").notNull(),
    fromAddress: text("from_address"),
    fromName: text("from_name"),
    toAddresses: text("to_addresses").array().notNull().default(sql`'{}'::text[]`),
    body: text("body"),
    snippet: text("snippet"),
    sentAt: ts("sent_at").notNull(),
    /** Inbound only; null while unread. */
    readAt: ts("read_at"),
    providerMessageId: text("provider_message_id"),
    /** The provider ids of the messages it answers, nearest first (email In-Reply-To and References). */
    replyTo: text("reply_to").array().notNull().default(sql`'{}'::text[]`),
    /**
     * Email: the receiving server's verdicts (`{ spf, dkim, dmarc, failed }`), from Authentication-Results; null
     * when the mail carried none, and on the other channels.
     */
    authentication: jsonb("authentication"),
    /** When a member forwarded a client's mail into the inbox: the member's address (the sender is the client). */
    forwardedBy: text("forwarded_by"),
    createdAt: createdAt(),
  },
  (t) => [
    index("inbox_messages_thread_idx").on(t.threadId, t.sentAt, t.id),
    // Recomputing unread_count touches only the unread inbound messages.
    index("inbox_messages_unread_idx")
      .on(t.threadId)
      .where(sql`${t.direction} = 'inbound' and ${t.readAt} is null`),
    uniqueIndex("inbox_messages_provider_key")
      .on(t.threadId, t.providerMessageId)
      .where(sql`${t.providerMessageId} is not null`),
    // Ingest finds a delivered message by its provider id across a connection's threads.
    index("inbox_messages_provider_message_idx")
      .on(t.galleryId, t.providerMessageId)
      .where(sql`${t.providerMessageId} is not null`),
  ],
);

/**
 * A file that came with a message: an email attachment stored in R2 (`storage_key`), a WhatsApp media id, or a
 * Twilio MMS media URL. Listed on its message; never inlined in its body.
 */
export const inboxAttachments = pgTable(
  "inbox_attachments",
  {
    id: text("id").primaryKey(),
    galleryId: galleryId(),
    messageId: text("message_id")
      .notNull()
      .references(() => inboxMessages.id, { onDelete: "cascade" }),
    /** Its place among the message's attachments, from 0. */
    position: integer("position").notNull(),
    filename: text("filename"),
    contentType: text("content_type").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }),
    /** `attachment`, or `inline` for a part shown inside an HTML body. */
    disposition: text("disposition").notNull().default("attachment"),
    /** The R2 key of the stored bytes (email). */
    storageKey: text("storage_key"),
    /** WhatsApp's media id. */
    providerMediaId: text("provider_media_id"),
    /** Twilio's media URL. */
    url: text("url"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("inbox_attachments_message_position_key").on(t.messageId, t.position)],
);
