import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { EngineMessage } from "../../lib/engine-queue";
import { sweepEngine } from "../../services/engine/sweep";
import { callSending, recordingQueue } from "../helpers/engine-loop";
import { db, type TestGallery } from "../helpers/gallery";
import { emailConnection, member } from "../inbox/helpers";

/** What the engine suites share: an inbound message to start a thread, and the engine's state as they read it. */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type SubjectState = {
  version: string;
  judged_version: string;
  attempts: number;
  last_error: string | null;
  failed_at: string | null;
  lease_until: string | null;
};

export async function subjectState(
  g: TestGallery,
  kind: string,
  id: string,
): Promise<SubjectState | undefined> {
  const rows = await db().execute<SubjectState>(
    sql`select version::text, judged_version::text, attempts, last_error, failed_at::text, lease_until::text
      from judgment_subjects where gallery_id = ${g.id} and kind = ${kind} and subject_id = ${id}`,
  );
  return rows.rows[0];
}

export async function aspects(g: TestGallery, kind: string, id: string): Promise<string[]> {
  const rows = await db().execute<{ aspect: string }>(
    sql`select aspect from judgments where gallery_id = ${g.id} and subject_kind = ${kind} and subject_id = ${id}
      order by aspect`,
  );
  return rows.rows.map((r) => r.aspect);
}

/** The triage events the engine recorded for a thread. */
export async function triageEvents(g: TestGallery, threadId: string): Promise<number> {
  const rows = await db().execute<{ n: number }>(
    sql`select count(*)::int as n from domain_events where gallery_id = ${g.id} and resource_id = ${threadId}
      and type = 'inbox_thread.updated'`,
  );
  return rows.rows[0]?.n ?? 0;
}

/** What the sweep would send of this gallery now (its bound set to zero). */
export async function sweepNow(g: TestGallery): Promise<EngineMessage[]> {
  const swept: EngineMessage[] = [];
  await sweepEngine(env, {
    olderThanSeconds: 0,
    galleryId: g.id,
    send: async (messages) => {
      swept.push(...messages);
    },
  });
  return swept;
}

export async function artworks(g: TestGallery, titles: string[]) {
  const { queue, sent } = recordingQueue();
  const ids: string[] = [];
  for (const title of titles) {
    const res = await callSending(queue, "POST", "/gallery/artworks", {
      key: g.key,
      body: { title, condition_notes: "Small tear along the lower edge." },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    ids.push(((await res.json()) as { id: string }).id);
  }
  return { ids, sent, queue };
}

/**
 * An inbound mail in a new member's inbox, sent through the API with the engine's Queue recorded: its thread, and
 * the messages the write sent. `providerThreadId` names the provider's thread, for a later message to join it.
 */
export async function inboundThread(g: TestGallery, opts: { body?: string; providerThreadId?: string } = {}) {
  const m = await member(g);
  const connection = await emailConnection(m.token);
  const { queue, sent } = recordingQueue();
  const res = await callSending(queue, "POST", `/gallery/inbox/connections/${connection.id}/messages`, {
    key: m.token,
    body: {
      direction: "inbound",
      from: { address: "collector@example.com", name: "A. Collector" },
      to: ["desk@gallery.example"],
      subject: "The blue painting",
      provider_thread_id: opts.providerThreadId ?? `blue-${crypto.randomUUID()}`,
      body: opts.body ?? "Is the blue painting still available? What is the price?",
      sent_at: new Date().toISOString(),
    },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const threadId = ((await res.json()) as { thread_id: string }).thread_id;
  return { m, connection, queue, sent, threadId };
}
