import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
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

/** The API representation of a connection (alias `ic`). */
export const connectionResource = resource({
  schema: InboxConnection,
  table: inboxConnections,
  alias: "ic",
});

/** A connection in events: without its address (alias `ic`). */
export const connectionEventResource = resource({
  schema: InboxConnectionEventObject,
  table: inboxConnections,
  alias: "ic",
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
  computed: {
    connection_id: () => sql`(select mt.connection_id from inbox_threads mt where mt.id = m.thread_id)`,
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
  galleryId: string,
  memberId: string,
  page: PageRequest,
): Promise<PageRow[]> {
  return keysetPage(
    db,
    {
      body: connectionResource.json({}),
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
  const result = await db.execute<{ body: ConnectionState["body"]; updated_at: string }>(
    sql`select ${connectionEventResource.json({})} as body, ${isoMs(sql`ic.updated_at`)} as updated_at
      from inbox_connections ic
      where ic.gallery_id = ${galleryId} and ic.id = ${id} ${memberId === null ? sql`` : sql`and ic.member_id = ${memberId}`}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at } : null;
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
}

/**
 * What an ingest needs before its write, in one round trip: the connection (the member's own, when a session
 * delivers) and the message already stored under the provider's message id, if any.
 */
export async function findIngestTarget(
  db: Db,
  galleryId: string,
  connectionId: string,
  memberId: string | null,
  providerThreadId: string | null,
  providerMessageId: string | null,
): Promise<IngestTarget | null> {
  const stored =
    providerMessageId === null
      ? sql`null::text`
      : sql`(${storedMessage(galleryId, connectionId, providerThreadId, providerMessageId)})`;
  const result = await db.execute<{ body: ConnectionState["body"]; stored: string | null }>(
    sql`select ${connectionEventResource.json({})} as body, ${stored} as stored
      from inbox_connections ic
      where ic.gallery_id = ${galleryId} and ic.id = ${connectionId} ${memberId === null ? sql`` : sql`and ic.member_id = ${memberId}`}`,
  );
  const row = result.rows[0];
  return row ? { connection: row.body, storedMessageId: row.stored } : null;
}

/** A thread's messages, newest sent first by default. */
export const messageList = listSpec({ sorts: ["sent"], defaultSort: "sent" });

/** One page (limit + 1 rows) of a thread's messages; null when the thread is not the member's. One round trip. */
export function listThreadMessages(
  db: Db,
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
      body: messageResource.json({}),
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
