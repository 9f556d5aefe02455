import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import worker from "../../functions/api";
import type { EngineMessage } from "../../lib/engine-queue";
import {
  type EngineBatchOptions,
  type EngineBatchResult,
  handleEngineBatch,
} from "../../services/engine/consume";
import { apiRequest, type CallOptions, db, type TestGallery } from "./gallery";
import { validateResponse } from "./openapi";

/**
 * The engine loop driven in workerd, for the suites that write through the API and judge what it marked stale:
 * a Queue producer that records what is sent, a call with it bound, the engine's batch handler run as the Queue
 * would deliver a batch, and the gallery's stale subjects as the sweep would send them.
 */

/** A Queue producer that keeps what is sent. */
export function recordingQueue() {
  const sent: EngineMessage[] = [];
  const queue = {
    send: async (body: EngineMessage) => {
      sent.push(body);
    },
    sendBatch: async (messages: Iterable<MessageSendRequest<EngineMessage>>) => {
      for (const m of messages) sent.push(m.body);
    },
  } as unknown as Queue<EngineMessage>;
  return { queue, sent };
}

/** `call()` with the test's Queue bound as ENGINE_QUEUE; waits for what the write left to waitUntil (its send). */
export async function callSending(
  queue: Queue<EngineMessage>,
  method: string,
  path: string,
  opts: CallOptions = {},
) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(apiRequest(method, path, opts), { ...env, ENGINE_QUEUE: queue }, ctx);
  await waitOnExecutionContext(ctx);
  await validateResponse(method, path, response);
  return response;
}

let batchCounter = 0;

/** A batch of these messages as the Queue would deliver it, each with an id of its own. */
export function queueBatch(messages: EngineMessage[]) {
  return createMessageBatch<EngineMessage>(
    "gallery-engine",
    messages.map((body) => ({ id: `msg-${++batchCounter}`, timestamp: new Date(), attempts: 1, body })),
  );
}

/**
 * Runs the engine's batch handler over these messages, as the Queue would deliver them; with its acks and retries.
 * `settings` replaces the Worker's (a database of its own address, test/helpers/outage.ts).
 */
export async function runEngineBatch(
  messages: EngineMessage[],
  options: EngineBatchOptions = {},
  settings: Pick<typeof env, "DATABASE_URL"> = env,
): Promise<{ result: EngineBatchResult; acked: number; retried: number }> {
  const batch = queueBatch(messages);
  const ctx = createExecutionContext();
  const result = await handleEngineBatch(
    batch as MessageBatch<unknown>,
    { ...env, ...settings, ENGINE_QUEUE: undefined },
    options,
  );
  const queued = await getQueueResult(batch, ctx);
  const retried = queued.retryMessages.length + (queued.retryBatch.retry ? messages.length : 0);
  return { result, acked: queued.explicitAcks.length, retried };
}

/** Every stale subject of the gallery, as messages (what the sweep would send), in a stable order. */
export async function staleMessages(g: TestGallery): Promise<EngineMessage[]> {
  const rows = await db().execute<{ kind: EngineMessage["kind"]; subject_id: string }>(
    sql`select kind, subject_id from judgment_subjects where gallery_id = ${g.id} and judged_version < version
      order by kind, subject_id`,
  );
  return rows.rows.map((r) => ({ gallery_id: g.id, kind: r.kind, subject_id: r.subject_id }));
}

/** The engine run over the gallery's stale subjects, as the sweep and the Queue would, until nothing is stale. */
export async function judgeUntilSettled(g: TestGallery): Promise<void> {
  for (let round = 0; round < 10; round++) {
    const messages = await staleMessages(g);
    if (messages.length === 0) return;
    const { result } = await runEngineBatch(messages);
    if (result.retried > 0)
      throw new Error(`the engine retried ${result.retried} of ${messages.length} subjects`);
  }
  throw new Error("still stale after 10 rounds");
}
