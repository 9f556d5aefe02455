import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { InboxChannel } from "../../lib/addresses";
import { byCreated, listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import {
  InboxConnection,
  InboxConnectionEventObject,
  InboxMessage,
  InboxMessageEventObject,
  InboxThread,
  InboxThreadEventObject,
} from "../../lib/schemas/inbox";
import type { Db } from "../client";
import { isoMs, resource } from "../resource";
import { inboxConnections, inboxMessages, inboxThreads } from "../schema";
import { type KeysetQuery, keysetChildPage, keysetPage } from "./keyset";
import { textArray } from "./rows";

/**
 * The member-private inbox: every read is scoped to the gallery and to the signed-in member who owns the
 * connection or thread (another member's is as missing as one that does not exist).
 */

// ---------------------------------------------------------------------------------------------------------
// Representations

/** A snooze whose time has passed reads as open: no job wakes threads, the read does. */
const visibleState = sql`(case when t.state = 'snoozed' and t.snooze_until <= now() then 'open' else t.state end)`;
const visibleSnooze = sql`(case when t.state = 'snoozed' and t.snooze_until > now() then ${isoMs(sql`t.snooze_until`)} end)`;
const triageJson = sql`json_build_object('intent', t.triage_intent,
  'intent_probability', t.triage_intent_probability, 'urgency', t.triage_urgency,
  'urgency_probability', t.triage_urgency_probability, 'expects_reply', t.triage_expects_reply,
  'escalating', t.triage_escalating, 'corrected_intent', t.triage_corrected_intent,
  'triaged_at', ${isoMs(sql`t.triaged_at`)})`;

/**
 * What the inbox's representations are built with beyond their rows: where the API is reached (`PUBLIC_BASE_URL`,
 * without /v1) and the inbound mail domain, for a connection's addresses and an attachment's download URL.
 */
export interface InboxView {
  origin: string;
  inboundDomain: string;
}

/** The API representation of a connection (alias `ic`). */
export const connectionResource = resource({
  schema: InboxConnection,
  table: inboxConnections,
  alias: "ic",
  viewKey: (view: InboxView) => `${view.origin} ${view.inboundDomain}`,
  computed: {
    inbound_address: (view) =>
      sql`(case when ic.inbound_token is not null then 'in+' || ic.inbound_token || '@' || ${view.inboundDomain}::text end)`,
    webhook_url: (view) =>
      sql`(case ic.channel when 'whatsapp' then ${`${view.origin}/v1/connectors/whatsapp/`}::text || ic.id
        when 'sms' then ${`${view.origin}/v1/connectors/sms/`}::text || ic.id end)`,
    secrets: () => sql`ic.secret_names`,
  },
});

/** A connection in events: without its address (alias `ic`). */
export const connectionEventResource = resource({
  schema: InboxConnectionEventObject,
  table: inboxConnections,
  alias: "ic",
  computed: { secrets: () => sql`ic.secret_names` },
});

/** What a thread shows but does not store as such: the state and snooze as of now, triage as one object. */
const threadComputed = {
  state: () => visibleState,
  snooze_until: () => visibleSnooze,
  triage: () => triageJson,
};

/** The API representation of a thread (alias `t`). */
export const threadResource = resource({
  schema: InboxThread,
  table: inboxThreads,
  alias: "t",
  computed: threadComputed,
});

/** A thread in events: states, counts, times and triage, no content (alias `t`). */
export const threadEventResource = resource({
  schema: InboxThreadEventObject,
  table: inboxThreads,
  alias: "t",
  computed: threadComputed,
});

/** The API representation of a message (alias `m`); its connection is its thread's. */
export const messageResource = resource({
  schema: InboxMessage,
  table: inboxMessages,
  alias: "m",
  viewKey: (view: Pick<InboxView, "origin">) => view.origin,
  computed: {
    connection_id: () => sql`(select mt.connection_id from inbox_threads mt where mt.id = m.thread_id)`,
    attachments: (view) => sql`coalesce((select json_agg(json_build_object('id', a.id, 'filename', a.filename,
        'content_type', a.content_type, 'size', a.size_bytes, 'disposition', a.disposition,
        'download_url', case when a.storage_key is not null
          then ${`${view.origin}/v1/gallery/inbox/messages/`}::text || m.id || '/attachments/' || a.id end,
        'provider_media_id', a.provider_media_id, 'provider_url', a.url) order by a.position)
      from inbox_attachments a where a.message_id = m.id), '[]'::json)`,
  },
});

/** A message in events: ids, direction and times, with its thread's member, channel and contact (alias `m`). */
export const messageEventResource = resource({
  schema: InboxMessageEventObject,
  table: inboxMessages,
  alias: "m",
  from: () => sql`inbox_messages m join inbox_threads mt on mt.id = m.thread_id`,
  computed: {
    connection_id: () => sql`mt.connection_id`,
    member_id: () => sql`mt.member_id`,
    channel: () => sql`mt.channel`,
    contact_id: () => sql`mt.contact_id`,
  },
});

// ---------------------------------------------------------------------------------------------------------
// Connections

/** The member's connections, newest first by default. */
export const connectionList = byCreated;

/** One page (limit + 1 rows) of the member's connections. One round trip. */
export function listConnections(
  db: Db,
  view: InboxView,
  galleryId: string,
  memberId: string,
  page: PageRequest,
): Promise<PageRow[]> {
  return keysetPage(
    db,
    {
      body: connectionResource.json(view),
      from: sql`inbox_connections ic`,
      where: [sql`ic.gallery_id = ${galleryId}`, sql`ic.member_id = ${memberId}`],
      sortKey: sql`ic.created_at`,
      cast: "timestamptz",
      // As text: a cursor's id is compared as the text it travels as.
      id: sql`ic.id::text`,
    },
    page,
  );
}

export interface ConnectionState {
  body: z.infer<typeof InboxConnectionEventObject>;
  updatedAt: string;
  sealedSecrets: string | null;
}

/**
 * One connection of the gallery, or null. With `memberId`, only that member's (a session acts for its member);
 * without, any of the gallery's (a secret key delivering a connector's messages). One round trip.
 */
export async function findConnection(
  db: Db,
  galleryId: string,
  id: string,
  memberId: string | null,
): Promise<ConnectionState | null> {
  const result = await db.execute<{
    body: ConnectionState["body"];
    updated_at: string;
    sealed_secrets: string | null;
  }>(
    sql`select ${connectionEventResource.json({})} as body, ${isoMs(sql`ic.updated_at`)} as updated_at,
        ic.sealed_secrets
      from inbox_connections ic
      where ic.gallery_id = ${galleryId} and ic.id = ${id} ${memberId === null ? sql`` : sql`and ic.member_id = ${memberId}`}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at, sealedSecrets: row.sealed_secrets } : null;
}

// ---------------------------------------------------------------------------------------------------------
// Messages

/**
 * The message already stored under `providerMessageId` on a connection: on the thread of `providerThreadId`,
 * or, without one, on any thread of the connection. Yields its id.
 */
export function storedMessage(
  galleryId: string,
  connectionId: string,
  providerThreadId: string | null,
  providerMessageId: string,
): SQL {
  return sql`select dm.id from inbox_messages dm join inbox_threads dt on dt.id = dm.thread_id
    where dm.gallery_id = ${galleryId} and dm.provider_message_id = ${providerMessageId}
      and dt.connection_id = ${connectionId}
      ${providerThreadId === null ? sql`` : sql`and dt.provider_thread_id = ${providerThreadId}`}
    limit 1`;
}

export interface IngestTarget {
  connection: ConnectionState["body"];
  /** The id of the message already stored under the request's provider_message_id, if any. */
  storedMessageId: string | null;
  /** The thread the message joins by its references or subject (`ThreadHints`), if one was found. */
  threadId: string | null;
}

/**
 * How a message without a conversation id finds its thread (email): the provider ids it answers (a thread
 * holding one of those messages, or started by one of them), else a thread of the same counterpart and subject
 * key whose last message is within `SUBJECT_WINDOW_DAYS` of it.
 */
export interface ThreadHints {
  replyTo: readonly string[];
  subjectKey: string | null;
  counterpart: string;
  sentAt: string;
}

/** How far apart a message and a thread's last message may be for the subject alone to join them. */
export const SUBJECT_WINDOW_DAYS = 30;

function threadByHints(galleryId: string, connectionId: string, hints: ThreadHints): SQL {
  const replyTo = textArray(hints.replyTo);
  const byReference =
    hints.replyTo.length === 0
      ? sql`null::text`
      : sql`coalesce(
          (select rt.id from inbox_messages rm join inbox_threads rt on rt.id = rm.thread_id
            where rm.gallery_id = ${galleryId} and rm.provider_message_id = any(${replyTo})
              and rt.connection_id = ${connectionId}
            order by array_position(${replyTo}, rm.provider_message_id) limit 1),
          (select rt.id from inbox_threads rt
            where rt.connection_id = ${connectionId} and rt.provider_thread_id = any(${replyTo})
            order by array_position(${replyTo}, rt.provider_thread_id) limit 1))`;
  const bySubject =
    hints.subjectKey === null
      ? sql`null::text`
      : sql`(select st.id from inbox_threads st
          where st.connection_id = ${connectionId} and st.counterpart_address = ${hints.counterpart}
            and st.subject_key = ${hints.subjectKey}
            and st.last_message_at between ${hints.sentAt}::timestamptz - ${`${SUBJECT_WINDOW_DAYS} days`}::interval
              and ${hints.sentAt}::timestamptz + ${`${SUBJECT_WINDOW_DAYS} days`}::interval
          order by st.last_message_at desc, st.id desc limit 1)`;
  return sql`coalesce(${byReference}, ${bySubject})`;
}

/**
 * What an ingest needs before its write, in one round trip: the connection (the member's own, when a session
 * delivers), the message already stored under the provider's message id, if any (on the provider thread when
 * `providerThreadId` scopes it, else on any thread of the connection), and with `hints` the thread its
 * references or subject name.
 */
export async function findIngestTarget(
  db: Db,
  galleryId: string,
  connectionId: string,
  memberId: string | null,
  providerThreadId: string | null,
  providerMessageId: string | null,
  hints: ThreadHints | null = null,
): Promise<IngestTarget | null> {
  const stored =
    providerMessageId === null
      ? sql`null::text`
      : sql`(${storedMessage(galleryId, connectionId, providerThreadId, providerMessageId)})`;
  const thread = hints === null ? sql`null::text` : threadByHints(galleryId, connectionId, hints);
  const result = await db.execute<{
    body: ConnectionState["body"];
    stored: string | null;
    thread: string | null;
  }>(
    sql`select ${connectionEventResource.json({})} as body, ${stored} as stored, ${thread} as thread
      from inbox_connections ic
      where ic.gallery_id = ${galleryId} and ic.id = ${connectionId} ${memberId === null ? sql`` : sql`and ic.member_id = ${memberId}`}`,
  );
  const row = result.rows[0];
  return row ? { connection: row.body, storedMessageId: row.stored, threadId: row.thread } : null;
}

/** A connection as its connector authenticates a delivery: the owner, the channel and the sealed secrets. */
export interface ConnectorConnection {
  id: string;
  galleryId: string;
  livemode: boolean;
  memberId: string;
  channel: InboxChannel;
  address: string;
  status: string;
  sealedSecrets: string | null;
  /** The member's sign-in email: mail from it (or from the connection's address) is the member's own. */
  memberEmail: string | null;
}

/**
 * The connection a provider's delivery names, by its id (the connector URL's) or an email connection's inbound
 * token, in any gallery: the provider knows no gallery, and the connection's signature or address is what
 * proves the delivery. Null when there is none. One round trip.
 */
export async function findConnectorConnection(
  db: Db,
  by: { id: string } | { inboundToken: string },
): Promise<ConnectorConnection | null> {
  const where = "id" in by ? sql`ic.id = ${by.id}::uuid` : sql`ic.inbound_token = ${by.inboundToken}`;
  const result = await db.execute<{
    id: string;
    gallery_id: string;
    livemode: boolean;
    member_id: string;
    channel: InboxChannel;
    address: string;
    status: string;
    sealed_secrets: string | null;
    member_email: string | null;
  }>(
    sql`select ic.id::text as id, ic.gallery_id, g.livemode, ic.member_id, ic.channel, ic.address, ic.status,
        ic.sealed_secrets, mb.email as member_email
      from inbox_connections ic join galleries g on g.id = ic.gallery_id
        left join members mb on mb.id = ic.member_id
      where ${where}`,
  );
  const row = result.rows[0];
  return row
    ? {
        id: row.id,
        galleryId: row.gallery_id,
        livemode: row.livemode,
        memberId: row.member_id,
        channel: row.channel,
        address: row.address,
        status: row.status,
        sealedSecrets: row.sealed_secrets,
        memberEmail: row.member_email,
      }
    : null;
}

/** An email attachment's stored object, when the member owns its message. One round trip. */
export async function findAttachment(
  db: Db,
  galleryId: string,
  memberId: string,
  messageId: string,
  attachmentId: string,
): Promise<{ storageKey: string | null; filename: string | null; contentType: string } | null> {
  const result = await db.execute<{
    storage_key: string | null;
    filename: string | null;
    content_type: string;
  }>(
    sql`select a.storage_key, a.filename, a.content_type from inbox_attachments a
      join inbox_messages m on m.id = a.message_id join inbox_threads t on t.id = m.thread_id
      where a.gallery_id = ${galleryId} and a.id = ${attachmentId} and a.message_id = ${messageId}
        and t.member_id = ${memberId}`,
  );
  const row = result.rows[0];
  return row ? { storageKey: row.storage_key, filename: row.filename, contentType: row.content_type } : null;
}

/** A thread's messages, newest sent first by default. */
export const messageList = listSpec({ sorts: ["sent"], defaultSort: "sent" });

/** One page (limit + 1 rows) of a thread's messages; null when the thread is not the member's. One round trip. */
export function listThreadMessages(
  db: Db,
  view: Pick<InboxView, "origin">,
  galleryId: string,
  memberId: string,
  threadId: string,
  page: PageRequest,
): Promise<PageRow[] | null> {
  return keysetChildPage(
    db,
    sql`select 1 from inbox_threads t
      where t.gallery_id = ${galleryId} and t.id = ${threadId} and t.member_id = ${memberId}`,
    {
      body: messageResource.json(view),
      from: sql`inbox_messages m`,
      where: [sql`m.thread_id = ${threadId}`],
      sortKey: sql`m.sent_at`,
      cast: "timestamptz",
      id: sql`m.id`,
    },
    page,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Threads

/** Most recent activity first by default; `created` orders by when the thread started. */
export const threadList = listSpec({ sorts: ["last_message", "created"], defaultSort: "last_message" });
type ThreadSort = (typeof threadList.sorts)[number];

const threadSortKeys: Record<ThreadSort, Pick<KeysetQuery, "sortKey" | "cast">> = {
  last_message: { sortKey: sql`t.last_message_at`, cast: "timestamptz" },
  created: { sortKey: sql`t.created_at`, cast: "timestamptz" },
};

export interface ThreadFilters {
  state?: "open" | "snoozed" | "done";
  channel?: string;
  assigned_to?: string;
  contact_id?: string;
  unread?: boolean;
  q?: string;
}

/** `%term%` for LIKE, lower-cased as search_text is and with LIKE's own characters escaped, in SQL. */
function containsPattern(term: string): SQL {
  return sql`'%' || replace(replace(replace(lower(${term}), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;
}

/** The WHERE conditions of the member's threads under the filters (alias `t`). */
function threadConditions(galleryId: string, memberId: string, f: ThreadFilters): SQL[] {
  const where = [sql`t.gallery_id = ${galleryId}`, sql`t.member_id = ${memberId}`];
  if (f.state === "open") {
    where.push(sql`(t.state = 'open' or (t.state = 'snoozed' and t.snooze_until <= now()))`);
  } else if (f.state === "snoozed") {
    where.push(sql`t.state = 'snoozed' and t.snooze_until > now()`);
  } else if (f.state === "done") {
    where.push(sql`t.state = 'done'`);
  }
  if (f.channel !== undefined) where.push(sql`t.channel = ${f.channel}`);
  if (f.assigned_to !== undefined) where.push(sql`t.assigned_to = ${f.assigned_to}`);
  if (f.contact_id !== undefined) where.push(sql`t.contact_id = ${f.contact_id}`);
  if (f.unread !== undefined) where.push(f.unread ? sql`t.unread_count > 0` : sql`t.unread_count = 0`);
  if (f.q !== undefined) {
    // search_text (trigram-indexed) narrows the rows; the fields decide, so a term that would only match across
    // two of them matches nothing.
    const pattern = containsPattern(f.q);
    where.push(sql`(t.search_text like ${pattern} and (lower(t.subject) like ${pattern}
      or lower(t.contact_name) like ${pattern} or lower(t.last_from) like ${pattern}
      or lower(t.last_snippet) like ${pattern}))`);
  }
  return where;
}

/** One page (limit + 1 rows) of the member's threads under the filters. One round trip. */
export function listThreads(
  db: Db,
  galleryId: string,
  memberId: string,
  filters: ThreadFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  return keysetPage(
    db,
    {
      body: threadResource.json({}),
      from: sql`inbox_threads t`,
      where: threadConditions(galleryId, memberId, filters),
      ...threadSortKeys[page.sort as ThreadSort],
      id: sql`t.id`,
    },
    page,
  );
}

/**
 * The first `limit` of the member's threads under the filters in triage priority: expects a reply (most
 * likely first), urgency (`now` first), intent belief, then recency; untriaged values last. One round trip.
 */
export async function listPriorityThreads(
  db: Db,
  galleryId: string,
  memberId: string,
  filters: ThreadFilters,
  limit: number,
): Promise<string[]> {
  const result = await db.execute<{ body: string }>(
    sql`select (${threadResource.json({})})::text as body from inbox_threads t
      where ${sql.join(threadConditions(galleryId, memberId, filters), sql` and `)}
      order by t.triage_expects_reply desc nulls last, t.triage_urgency_rank asc nulls last,
        t.triage_intent_probability desc nulls last, t.last_message_at desc, t.id desc
      limit ${limit}`,
  );
  return result.rows.map((row) => row.body);
}

/** One of the member's threads as JSON text, or null. One round trip. */
export async function threadText(
  db: Db,
  galleryId: string,
  memberId: string,
  id: string,
): Promise<string | null> {
  const result = await db.execute<{ body: string }>(
    sql`select (${threadResource.json({})})::text as body from inbox_threads t
      where t.gallery_id = ${galleryId} and t.id = ${id} and t.member_id = ${memberId}`,
  );
  return result.rows[0]?.body ?? null;
}

export interface ThreadState {
  body: z.infer<typeof InboxThread>;
  updatedAt: string;
  /** Inbound messages, and those of them unread, counted from the messages themselves. */
  inbound: number;
  unread: number;
}

/** One of the member's threads with what a guarded write needs, or null. One round trip. */
export async function findThread(
  db: Db,
  galleryId: string,
  memberId: string,
  id: string,
): Promise<ThreadState | null> {
  const result = await db.execute<{
    body: ThreadState["body"];
    updated_at: string;
    inbound: number;
    unread: number;
  }>(
    sql`select ${threadResource.json({})} as body, ${isoMs(sql`t.updated_at`)} as updated_at,
        (select count(*)::int from inbox_messages im
          where im.thread_id = t.id and im.direction = 'inbound') as inbound,
        (select count(*)::int from inbox_messages im
          where im.thread_id = t.id and im.direction = 'inbound' and im.read_at is null) as unread
      from inbox_threads t
      where t.gallery_id = ${galleryId} and t.id = ${id} and t.member_id = ${memberId}`,
  );
  const row = result.rows[0];
  return row
    ? { body: row.body, updatedAt: row.updated_at, inbound: Number(row.inbound), unread: Number(row.unread) }
    : null;
}
