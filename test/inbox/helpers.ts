import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { InboxConnection, InboxMessage, InboxThread } from "../../lib/schemas/inbox";
import { MEMBER_PRIVATE } from "../../services/inbox/member";
import {
  call,
  db,
  readJson,
  type SignedInMember,
  signedInMember,
  type TestGallery,
} from "../helpers/gallery";
import { getPage, type Page, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { outboxEvents } from "../helpers/seed";

/** The member-private inbox through the API: members' connections, deliveries, threads and messages. */

export type ConnectionBody = z.infer<typeof InboxConnection>;
export type MessageBody = z.infer<typeof InboxMessage>;
export type ThreadBody = z.infer<typeof InboxThread>;

export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const CONNECTIONS = "/gallery/inbox/connections";
export const THREADS = "/gallery/inbox/threads";

export { MEMBER_PRIVATE };

/** A new member of `g` with this role, signed in. */
export function member(g: TestGallery, role: "editor" | "viewer" = "editor"): Promise<SignedInMember> {
  return signedInMember(g.id, role);
}

/** Connects an account to the member's inbox, failing unless 201. */
export async function connect(
  token: string,
  body: { channel: string; address: string; provider?: string; secrets?: Record<string, string> },
): Promise<ConnectionBody> {
  const response = await call("POST", CONNECTIONS, { key: token, body: { provider: "google", ...body } });
  expect(response.status, await response.clone().text()).toBe(201);
  return readJson(InboxConnection, response);
}

/** A fresh email connection of the member, with an address of its own. */
export function emailConnection(token: string): Promise<ConnectionBody> {
  return connect(token, { channel: "email", address: `desk-${crypto.randomUUID()}@gallery.example` });
}

export interface Delivery {
  direction?: "inbound" | "outbound";
  provider_thread_id?: string | null;
  provider_message_id?: string | null;
  subject?: string | null;
  from?: { address: string; name?: string | null };
  to?: string[];
  body?: string;
  sent_at?: string;
}

/** The request body of a delivery: an inbound email from a collector unless said. */
export function deliveryBody(d: Delivery = {}): Record<string, unknown> {
  return {
    direction: "inbound",
    from: { address: "collector@example.com" },
    to: ["desk@gallery.example"],
    body: "Is it still available?",
    sent_at: "2025-03-04T09:30:00Z",
    ...d,
  };
}

/** Delivers a message to a connection (with `credential`: a secret key or the owner's session). */
export function deliverRaw(credential: string, connectionId: string, d: Delivery = {}, headers = {}) {
  return call("POST", `${CONNECTIONS}/${connectionId}/messages`, {
    key: credential,
    body: deliveryBody(d),
    headers,
  });
}

/** Delivers a message, failing unless it is stored (201); returns the message. */
export async function deliver(
  credential: string,
  connectionId: string,
  d: Delivery = {},
): Promise<MessageBody> {
  const response = await deliverRaw(credential, connectionId, d);
  expect(response.status, await response.clone().text()).toBe(201);
  return readJson(InboxMessage, response);
}

/** One thread as its owner reads it. */
export async function getThread(token: string, id: string): Promise<ThreadBody> {
  const response = await call("GET", `${THREADS}/${id}`, { key: token });
  expect(response.status, await response.clone().text()).toBe(200);
  return readJson(InboxThread, response);
}

/** PATCHes a thread, failing unless 200. */
export async function patchThread(
  token: string,
  id: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<ThreadBody> {
  const response = await call("PATCH", `${THREADS}/${id}`, { key: token, body, headers });
  expect(response.status, await response.clone().text()).toBe(200);
  return readJson(InboxThread, response);
}

/** Marks a thread read (`read` true or no body) or unread, failing unless 200. */
export async function markThread(
  token: string,
  id: string,
  body?: { read?: boolean },
  headers: Record<string, string> = {},
): Promise<{ response: Response; thread: ThreadBody }> {
  const response = await call("POST", `${THREADS}/${id}/read`, { key: token, body, headers });
  expect(response.status, await response.clone().text()).toBe(200);
  return { response, thread: await readJson(InboxThread, response) };
}

/** Every thread the member's list returns for `query`, following cursors. */
export async function listedThreads(
  token: string,
  query: Record<string, string> = {},
): Promise<ThreadBody[]> {
  const pages = await walkPages<ThreadBody>(token, THREADS, { limit: "3", ...query });
  return pages.flatMap((p) => p.data);
}

/** One page of the member's threads. */
export function threadPage(token: string, query: string): Promise<Page<ThreadBody>> {
  return getPage<ThreadBody>(token, THREADS, query);
}

/** Events of the gallery of one type. */
export async function eventsOf(galleryId: string, type: string) {
  return (await outboxEvents(galleryId)).filter((e) => e.type === type);
}

/** The 403 a secret key gets from a session-only inbox operation: it says the inbox is member-private. */
export async function expectMemberPrivate(response: Response): Promise<void> {
  const problem = await expectProblem(response, 403, "forbidden");
  expect(problem.detail).toContain(MEMBER_PRIVATE);
  expect(problem.details).toEqual({ credential: "secret", accepted: ["session"] });
}

/** Sets a column of a thread directly (what the API does not let a caller set). */
export async function setThreadColumns(id: string, columns: Record<string, unknown>): Promise<void> {
  const set = Object.entries(columns).map(([column, value]) => sql`${sql.identifier(column)} = ${value}`);
  await db().execute(sql`update inbox_threads set ${sql.join(set, sql`, `)} where id = ${id}`);
}

/** A connection written directly for a member (a viewer cannot create one: inbox:create is a write scope). */
export async function insertConnection(
  galleryId: string,
  memberId: string,
  address: string,
): Promise<string> {
  const id = crypto.randomUUID();
  await db().execute(sql`insert into inbox_connections (id, gallery_id, member_id, channel, provider, address)
    values (${id}, ${galleryId}, ${memberId}, 'email', 'google', ${address})`);
  return id;
}
