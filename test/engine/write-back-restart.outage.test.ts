import { describe, expect, it } from "vitest";
import { runEngineBatch } from "../helpers/engine-loop";
import { createGallery } from "../helpers/gallery";
import { postgres, useOutageDatabase } from "../helpers/outage";
import { aspects, inboundThread, sleep, subjectState, sweepNow, triageEvents } from "./helpers";

/**
 * The engine loop when PostgreSQL goes away for real between a batch's claim and its write-back (the `outage`
 * project's server, shut down immediately and started again): the write-back fails as a whole, the message is
 * retried, and once the lease lapses the sweep has the subject judged once, into one event.
 */

useOutageDatabase();

describe("PostgreSQL shut down during the write-back", () => {
  it("finishes nothing, retries, and judges the subject once after recovery: one event", async () => {
    const g = await createGallery();
    const { threadId, sent } = await inboundThread(g);

    // PostgreSQL shut down once the consumer's claim and loads are done, before its write-back is sent.
    let run: Awaited<ReturnType<typeof runEngineBatch>>;
    try {
      run = await runEngineBatch(sent, {
        leaseSeconds: 1,
        hooks: { beforeWriteBack: async () => void (await postgres.shutdown("immediate")) },
      });
    } finally {
      await postgres.restart();
    }
    expect(run.result).toMatchObject({ judged: 0, retried: 1 });
    expect(run.retried).toBe(1);
    expect(await triageEvents(g, threadId)).toBe(0);
    expect(await aspects(g, "inbox_thread", threadId)).toEqual([]);
    const state = await subjectState(g, "inbox_thread", threadId);
    expect(state).toMatchObject({ judged_version: "0", attempts: 1 });

    // The retried message may arrive while the claim's lease still runs: it is left alone, not judged twice.
    // Once the lease lapses the sweep sends the subject and it is judged once.
    await sleep(1_100);
    const swept = await sweepNow(g);
    expect(swept).toEqual([{ gallery_id: g.id, kind: "inbox_thread", subject_id: threadId }]);
    expect((await runEngineBatch(swept)).result).toMatchObject({ judged: 1 });
    expect(await aspects(g, "inbox_thread", threadId)).toEqual(["triage"]);
    expect(await triageEvents(g, threadId)).toBe(1);

    // The first message delivered once more after success: judged already, acked, no second event.
    const redelivered = await runEngineBatch(sent);
    expect(redelivered.result).toMatchObject({ judged: 0, skipped: 1 });
    expect(redelivered.acked).toBe(1);
    expect(await triageEvents(g, threadId)).toBe(1);
  });
});
