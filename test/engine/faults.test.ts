import { describe, expect, it } from "vitest";
import type { EngineMessage } from "../../lib/engine-queue";
import { callSending, runEngineBatch } from "../helpers/engine-loop";
import { createGallery } from "../helpers/gallery";
import { artworks, aspects, inboundThread, sleep, subjectState, sweepNow, triageEvents } from "./helpers";

/**
 * The engine loop under its own failures, in workerd against PostgreSQL through the real driver: a subject whose
 * judge throws, a consumer killed before it writes, a lease that lapses under a slow write-back, a message
 * delivered again after success (PostgreSQL going away before a write-back is write-back-restart.outage.test.ts).
 * Nothing is lost (the sweep finds every stale subject), nothing is judged twice into two events, and the failing
 * subject is visible with its error and attempts until a change to its input has it judged again.
 */

describe("a subject whose judge throws", () => {
  it("is recorded failed with its error and attempts; the others of the batch are judged and finished", async () => {
    const g = await createGallery();
    const { ids, sent } = await artworks(g, ["First", "Breaks", "Third"]);
    const [first, breaks, third] = ids as [string, string, string];
    const judging = (s: { subjectId: string }) => {
      if (s.subjectId === breaks) throw new RangeError("the judge met an input it cannot read");
    };

    const run = await runEngineBatch(sent, { hooks: { judging } });
    expect(run.result).toMatchObject({ judged: 2, failed: 1, retried: 1 });
    expect(run.acked).toBe(2);
    expect(run.retried).toBe(1);
    for (const id of [first, third]) {
      expect(await aspects(g, "artwork", id)).toEqual(["disclosure", "readiness"]);
      const state = await subjectState(g, "artwork", id);
      expect(state).toMatchObject({ attempts: 0, last_error: null, lease_until: null });
      expect(state?.judged_version).toBe(state?.version);
    }
    // Nothing half-done of the failing one; its failure recorded in the same write-back, its lease released.
    expect(await aspects(g, "artwork", breaks)).toEqual([]);
    const failed = await subjectState(g, "artwork", breaks);
    expect(failed).toMatchObject({
      judged_version: "0",
      attempts: 1,
      last_error: "RangeError: the judge met an input it cannot read",
      lease_until: null,
    });
    expect(failed?.failed_at).not.toBeNull();

    // Its retry fails again: one more attempt counted.
    const again = await runEngineBatch([{ gallery_id: g.id, kind: "artwork", subject_id: breaks }], {
      hooks: { judging },
    });
    expect(again.result).toMatchObject({ judged: 0, failed: 1 });
    expect((await subjectState(g, "artwork", breaks))?.attempts).toBe(2);
  });

  it("leaves the sweep after MAX_ATTEMPTS, and a change to its input has it judged again", async () => {
    const g = await createGallery();
    const { ids, queue } = await artworks(g, ["Stubborn"]);
    const id = ids[0] as string;
    const message: EngineMessage = { gallery_id: g.id, kind: "artwork", subject_id: id };
    const judging = () => {
      throw new Error("still unreadable");
    };
    for (let i = 0; i < 10; i++) await runEngineBatch([message], { hooks: { judging } });
    expect(await subjectState(g, "artwork", id)).toMatchObject({
      attempts: 10,
      last_error: "Error: still unreadable",
    });
    // Given up: the sweep no longer sends it.
    expect(await sweepNow(g)).toEqual([]);

    // A write that changes its input marks it stale again with its attempts started over: the sweep sends it.
    const res = await callSending(queue, "PATCH", `/gallery/artworks/${id}`, {
      key: g.key,
      body: { condition_notes: "Excellent condition." },
    });
    expect(res.status).toBe(200);
    expect(await subjectState(g, "artwork", id)).toMatchObject({
      attempts: 0,
      last_error: "Error: still unreadable",
    });
    const swept = await sweepNow(g);
    expect(swept).toEqual([message]);
    expect((await runEngineBatch(swept)).result).toMatchObject({ judged: 1, failed: 0 });
    const state = await subjectState(g, "artwork", id);
    expect(state).toMatchObject({ attempts: 0, last_error: null, failed_at: null });
    expect(state?.judged_version).toBe(state?.version);
  });
});

describe("a consumer that dies or stalls holding a lease", () => {
  it("killed before its write-back: nothing lost, the sweep sends it after the lease, judged once", async () => {
    const g = await createGallery();
    const { threadId, sent } = await inboundThread(g);
    // The invocation stops where the write-back would start: it never acks, retries or writes.
    let reached = false;
    void runEngineBatch(sent, {
      leaseSeconds: 1,
      hooks: {
        beforeWriteBack: () => {
          reached = true;
          return new Promise<void>(() => undefined);
        },
      },
    });
    await expect.poll(() => reached).toBe(true);

    // The Queue delivers the message again while the lease runs: left alone.
    expect((await runEngineBatch(sent)).result).toMatchObject({ judged: 0, skipped: 1 });
    await sleep(1_100);
    const swept = await sweepNow(g);
    expect(swept).toHaveLength(1);
    expect((await runEngineBatch(swept)).result).toMatchObject({ judged: 1 });
    expect(await triageEvents(g, threadId)).toBe(1);
  });

  it("a write-back whose lease lapsed and was claimed again writes nothing: one judgment, one event", async () => {
    const g = await createGallery();
    const { threadId, sent } = await inboundThread(g);
    // The slow consumer's lease lapses; another claims the subject, judges it and records its event.
    const slow = await runEngineBatch(sent, {
      leaseSeconds: 1,
      hooks: {
        beforeWriteBack: async () => {
          await sleep(1_100);
          const other = await runEngineBatch(sent);
          expect(other.result).toMatchObject({ judged: 1 });
        },
      },
    });
    // Then the slow one's write-back: refused as a whole, its messages retried.
    expect(slow.result).toMatchObject({ judged: 0, retried: 1 });
    expect(await triageEvents(g, threadId)).toBe(1);
    const state = await subjectState(g, "inbox_thread", threadId);
    expect(state).toMatchObject({ attempts: 0, last_error: null, lease_until: null });
    expect(state?.judged_version).toBe(state?.version);
    // Its retry finds the subject judged.
    expect((await runEngineBatch(sent)).result).toMatchObject({ judged: 0, skipped: 1 });
    expect(await triageEvents(g, threadId)).toBe(1);
  });
});
