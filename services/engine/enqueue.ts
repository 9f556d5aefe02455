import { errorSummary } from "../../lib/dependency-failure";
import type { EngineMessage, SubjectKind } from "../../lib/engine-queue";

/** A subject a write marked stale, as the write's batch reads it back. */
export interface MarkedSubject {
  kind: string;
  subject_id: string;
}

/** Messages per sendBatch call: the Queues limit is 100 (and 256 KB; these are a few dozen bytes each). */
export const SEND_BATCH_LIMIT = 100;

/** Sends messages in batches the Queue accepts. Throws on the first refused batch. */
export async function sendMessages(queue: Queue<EngineMessage>, messages: EngineMessage[]): Promise<void> {
  for (let i = 0; i < messages.length; i += SEND_BATCH_LIMIT) {
    await queue.sendBatch(messages.slice(i, i + SEND_BATCH_LIMIT).map((body) => ({ body })));
  }
}

/**
 * After a write committed: tells the engine what it marked. Never fails the request: without a Queue binding, or
 * when the send fails, it logs and leaves the subjects to the sweep (they are stale in the database either way).
 */
export async function sendToEngine(
  queue: Queue<EngineMessage> | undefined,
  galleryId: string,
  marked: MarkedSubject[],
): Promise<void> {
  const messages = marked.map((m) => ({
    gallery_id: galleryId,
    kind: m.kind as SubjectKind,
    subject_id: m.subject_id,
  }));
  if (!queue) {
    console.log(
      JSON.stringify({
        engine_enqueue: "no ENGINE_QUEUE binding; left to the sweep",
        count: messages.length,
      }),
    );
    return;
  }
  try {
    await sendMessages(queue, messages);
  } catch (error) {
    console.error(
      JSON.stringify({
        engine_enqueue: "send failed; left to the sweep",
        count: messages.length,
        error: errorSummary(error),
      }),
    );
  }
}
