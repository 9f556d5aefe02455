import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { InboxChannel } from "../../lib/addresses";
import { storedMessage } from "./inbox";
import { textArray } from "./rows";

/**
 * Statements that write the inbox. They are composed into one transaction by services/write.ts; none of them
 * runs on its own.
 */

// ---------------------------------------------------------------------------------------------------------
// Connections

export interface NewConnection {
  id: string;
  memberId: string;
  channel: InboxChannel;
  provider: string;
  /** Normalised (lib/addresses.ts). */
  address: string;
  /** An email connection's inbound token; null on the other channels. */
  inboundToken: string | null;
  /** The provider secrets, sealed (lib/connectors/secrets.ts), and their names. */
  sealedSecrets: string | null;
  secretNames: readonly string[];
}

/** 409 naming the member's connection that already has this channel and address. */
export function refuseDuplicateConnection(galleryId: string, c: NewConnection): SQL {
  return sql`select raise_conflict(
      format('You already connected %s on %s (connection %s)', ic.address, ic.channel, ic.id),
      jsonb_build_object('connection_id', ic.id, 'channel', ic.channel))
    from inbox_connections ic
    where ic.gallery_id = ${galleryId} and ic.member_id = ${c.memberId} and ic.channel = ${c.channel}
      and lower(ic.address) = lower(${c.address})`;
}

export function insertConnection(galleryId: string, c: NewConnection, at: string): SQL {
  return sql`insert into inbox_connections (id, gallery_id, member_id, channel, provider, address, status,
      inbound_token, sealed_secrets, secret_names, created_at, updated_at)
    values (${c.id}, ${galleryId}, ${c.memberId}, ${c.channel}, ${c.provider}, ${c.address}, 'active',
      ${c.inboundToken}::text, ${c.sealedSecrets}::text, ${textArray(c.secretNames)}, ${at}::timestamptz,
      ${at}::timestamptz)`;
}

/** A connection's provider and secrets, for `guarded()`: matches only the row as it was read. */
export function updateConnectionStatement(
  galleryId: string,
  id: string,
  change: { provider: string; sealedSecrets: string | null; secretNames: readonly string[] },
  readUpdatedAt: string,
  at: string,
): SQL {
  return sql`update inbox_connections ic set provider = ${change.provider}, sealed_secrets = ${change.sealedSecrets}::text,
      secret_names = ${textArray(change.secretNames)}, updated_at = ${at}::timestamptz
    where ic.gallery_id = ${galleryId} and ic.id = ${id} and ic.updated_at = ${readUpdatedAt}::timestamptz`;
}

// ---------------------------------------------------------------------------------------------------------
// Ingest

/** A message to store, its addresses normalised for the connection's channel. */
export interface IngestedMessage {
  id: string;
  /** The id a new thread takes. */
  threadId: string;
  connectionId: string;
  memberId: string;
  channel: InboxChannel;
  direction: "inbound" | "outbound";
  providerThreadId: string | null;
  providerMessageId: string | null;
  subject: string | null;
  fromAddress: string;
  fromName: string | null;
  toAddresses: string[];
  /** The other party: the sender of an inbound message, the first recipient of an outbound one. */
  counterpart: string;
  body: string;
  snippet: string;
  /** As stored (milliseconds). */
  sentAt: string;
  /** A thread found by the message's references or subject (email), which it joins. */
  joinThreadId: string | null;
  /** Where a provider message id is unique: on its provider thread (`thread`), or on the whole connection. */
  dedupe: "thread" | "connection";
  replyTo: readonly string[];
  /** The subject without reply and forward prefixes, lower-cased; a new thread keeps it. */
  subjectKey: string | null;
  authentication: Record<string, unknown> | null;
  forwardedBy: string | null;
  attachments: readonly StoredAttachment[];
}

/** An attachment row of an ingested message. */
export interface StoredAttachment {
  id: string;
  filename: string | null;
  contentType: string;
  size: number | null;
  disposition: "attachment" | "inline";
  storageKey: string | null;
  providerMediaId: string | null;
  url: string | null;
}

/** The thread a message joins: the one found for it, the connection's thread of its provider thread id, or the new one. */
function threadOf(m: IngestedMessage): SQL {
  if (m.joinThreadId !== null) return sql`${m.joinThreadId}::text`;
  return m.providerThreadId === null
    ? sql`${m.threadId}::text`
    : sql`(select it.id from inbox_threads it
        where it.connection_id = ${m.connectionId} and it.provider_thread_id = ${m.providerThreadId})`;
}

/**
 * The contact of an address: an email compares with contacts' stored (lower-cased) email, a phone with the
 * E.164 form of their phone (the `e164` function and its index); unarchived contacts first, then the newest.
 */
function contactMatch(galleryId: string, channel: InboxChannel, address: SQL): SQL {
  const same =
    channel === "email" ? sql`c.email = ${address}` : sql`c.phone is not null and e164(c.phone) = ${address}`;
  return sql`select c.id, c.name from contacts c where c.gallery_id = ${galleryId} and ${same}
    order by (c.archived_at is null) desc, c.created_at desc, c.id desc limit 1`;
}

/**
 * The statements of an ingest, in order:
 * 1. the connection's row, touched (last_synced_at) as read: deliveries through one connection take turns, and
 *    one deleted meanwhile aborts the write (for `guarded()`);
 * 2. a provider message id stored meanwhile by another delivery is a 409 (the retry gets it as stored);
 * 3. a new thread, unless the provider thread id already has one on the connection;
 * 4. the message;
 * 5. the thread follows: the newest message sets last_from, last_snippet and last_message_at, an inbound one
 *    adds to unread_count, the first subject stays, and a thread without a contact gets the one its
 *    counterpart's address matches now.
 */
export function ingestStatements(
  galleryId: string,
  m: IngestedMessage,
  at: string,
): { touch: SQLWrapper; rest: SQL[] } {
  const touch = sql`update inbox_connections ic set last_synced_at = ${at}::timestamptz
    where ic.gallery_id = ${galleryId} and ic.id = ${m.connectionId}`;
  const rest: SQL[] = [];
  if (m.providerMessageId !== null) {
    rest.push(sql`select raise_conflict(
        'Another delivery of this provider_message_id was stored while this one ran; retry to get the stored message',
        jsonb_build_object('provider_message_id', ${m.providerMessageId}::text))
      where exists (${storedMessage(galleryId, m.connectionId, m.dedupe === "thread" ? m.providerThreadId : null, m.providerMessageId)})`);
  }
  if (m.joinThreadId === null) {
    const newThread = sql`select ${m.threadId}, ${galleryId}, ${m.memberId}, ${m.connectionId}::uuid, ${m.channel},
        ${m.providerThreadId}::text, ${m.counterpart}, ${m.subject}::text, ${m.subjectKey}::text,
        ${m.sentAt}::timestamptz, ${at}::timestamptz, ${at}::timestamptz`;
    rest.push(sql`insert into inbox_threads (id, gallery_id, member_id, connection_id, channel, provider_thread_id,
        counterpart_address, subject, subject_key, last_message_at, created_at, updated_at)
      ${newThread}
      ${m.providerThreadId === null ? sql`` : sql`where not exists (${threadOf(m)})`}`);
  }
  const thread = threadOf(m);
  rest.push(sql`insert into inbox_messages (id, gallery_id, thread_id, direction, from_address, from_name,
      to_addresses, body, snippet, sent_at, provider_message_id, reply_to, authentication, forwarded_by, created_at)
    values (${m.id}, ${galleryId}, ${thread}, ${m.direction}, ${m.fromAddress}, ${m.fromName},
      ${textArray(m.toAddresses)}, ${m.body}, ${m.snippet}, ${m.sentAt}::timestamptz, ${m.providerMessageId},
      ${textArray(m.replyTo)}, ${m.authentication === null ? null : JSON.stringify(m.authentication)}::jsonb,
      ${m.forwardedBy}::text, ${at}::timestamptz)`);
  if (m.attachments.length > 0) {
    const rows = m.attachments.map(
      (a, position) => sql`(${a.id}, ${galleryId}, ${m.id}, ${position}::int, ${a.filename}::text,
        ${a.contentType}, ${a.size}::bigint, ${a.disposition}, ${a.storageKey}::text, ${a.providerMediaId}::text,
        ${a.url}::text, ${at}::timestamptz)`,
    );
    rest.push(sql`insert into inbox_attachments (id, gallery_id, message_id, position, filename, content_type,
        size_bytes, disposition, storage_key, provider_media_id, url, created_at)
      values ${sql.join(rows, sql`, `)}`);
  }
  const inbound = m.direction === "inbound";
  const newest = sql`${m.sentAt}::timestamptz >= t.last_message_at`;
  const counterpart = sql`(select coalesce(ct.counterpart_address, ${m.counterpart}) from inbox_threads ct
    where ct.id = ${thread})`;
  rest.push(sql`with matched as (${contactMatch(galleryId, m.channel, counterpart)})
    update inbox_threads t set
      contact_id = coalesce(t.contact_id, (select id from matched)),
      contact_name = case when t.contact_id is not null then t.contact_name
        else coalesce((select name from matched), ${inbound ? m.fromName : null}::text, t.contact_name) end,
      counterpart_address = coalesce(t.counterpart_address, ${m.counterpart}),
      subject = coalesce(t.subject, ${m.subject}::text),
      last_from = case when ${newest} then ${m.fromName ?? m.fromAddress}::text else t.last_from end,
      last_snippet = case when ${newest} then ${m.snippet}::text else t.last_snippet end,
      last_message_at = greatest(t.last_message_at, ${m.sentAt}::timestamptz),
      unread_count = t.unread_count + ${inbound ? 1 : 0},
      updated_at = greatest(t.updated_at, ${at}::timestamptz)
    where t.id = ${thread}`);
  return { touch, rest };
}

// ---------------------------------------------------------------------------------------------------------
// Threads

/** The columns a thread update sets (SQL values), by column name. */
export type ThreadColumns = Partial<
  Record<
    | "state"
    | "snooze_until"
    | "assigned_to"
    | "triage_intent"
    | "triage_intent_probability"
    | "triage_urgency"
    | "triage_urgency_probability"
    | "triage_expects_reply"
    | "triage_escalating"
    | "triage_corrected_intent"
    | "triaged_at",
    SQL
  >
>;

/** The UPDATE for `guarded()`: matches only the row as it was read. */
export function updateThreadStatement(
  galleryId: string,
  id: string,
  columns: ThreadColumns,
  readUpdatedAt: string,
  at: string,
): SQLWrapper {
  const set = [
    ...Object.entries(columns).map(([column, value]) => sql`${sql.identifier(column)} = ${value}`),
    sql`updated_at = ${at}::timestamptz`,
  ];
  return sql`update inbox_threads t set ${sql.join(set, sql`, `)}
    where t.gallery_id = ${galleryId} and t.id = ${id} and t.updated_at = ${readUpdatedAt}::timestamptz`;
}

/**
 * Marking a thread read or unread, after the thread's row is taken as read (`guarded(updateThreadStatement)`,
 * which moves updated_at): its inbound messages change, then unread_count is counted again from them. A
 * delivery into the thread meanwhile waits for the row, and adds its message to the count after.
 */
export function markThreadStatements(threadId: string, read: boolean, at: string): SQL[] {
  return [
    read
      ? sql`update inbox_messages m set read_at = ${at}::timestamptz
          where m.thread_id = ${threadId} and m.direction = 'inbound' and m.read_at is null`
      : sql`update inbox_messages m set read_at = null
          where m.thread_id = ${threadId} and m.direction = 'inbound' and m.read_at is not null`,
    sql`update inbox_threads t set unread_count = (select count(*) from inbox_messages m
        where m.thread_id = t.id and m.direction = 'inbound' and m.read_at is null)
      where t.id = ${threadId}`,
  ];
}
