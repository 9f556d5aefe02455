import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "../../db/client";
import { triageGalleriesDue } from "../../db/queries/engine-triage";
import type { IntentAdjustment } from "../../lib/engine/adjustment";
import intentData from "../../lib/engine/models/triage-intent.json";
import { judgeTriage, SHARED_INTENT_MODEL, TRIAGE_MODEL } from "../../lib/engine/triage-judge";
import type { EngineMessage } from "../../lib/engine-queue";
import { type EngineBatchResult, judgeGroup } from "../../services/engine/consume";
import { fitTriageAdjustments } from "../../services/engine/fit-triage";
import { callSending, recordingQueue, runEngineBatch, staleMessages } from "../helpers/engine-loop";
import { SAME_AS_LAST_TIME } from "../helpers/fixtures";
import { call, createGallery, db, type TestGallery } from "../helpers/gallery";
import { emailConnection, getThread, member, THREADS } from "../inbox/helpers";

/**
 * Each gallery teaches its own triage judge, in the engine loop in workerd against PostgreSQL: a member's corrected
 * intents are labelled examples (judgment_corrections); the engine Worker's scheduled fit
 * (services/engine/fit-triage.ts) turns a gallery's into an adjustment of the shared intent model
 * (triage_adjustments), which the engine loads beside the gallery's threads. Gallery A's corrections change how A's threads are judged, never B's, nor the shared model.
 */

/** Runs the engine's batch handler over these messages, as the Queue would deliver them; none is retried. */
async function runBatch(messages: EngineMessage[]): Promise<EngineBatchResult> {
  const { result } = await runEngineBatch(messages);
  expect(result.retried).toBe(0);
  return result;
}

async function triageJudgment(g: TestGallery, threadId: string) {
  const rows = await db().execute<{
    value: unknown;
    model: string;
    evidence: { signals: string[] };
    input_hash: string;
    judged_at: string;
  }>(
    sql`select value, model, evidence, input_hash, judged_at::text from judgments
      where gallery_id = ${g.id} and subject_kind = 'inbox_thread' and subject_id = ${threadId} and aspect = 'triage'`,
  );
  return rows.rows[0];
}

async function isDue(g: TestGallery): Promise<boolean> {
  const rows = await db().execute<{ id: string }>(triageGalleriesDue(TRIAGE_MODEL, 10, g.id));
  return rows.rows.some((r) => r.id === g.id);
}

/** A regular client of the gallery. */
const CLIENT = { address: "marta.lindqvist@example.com", name: "Marta Lindqvist" };

/** One more of the kind, never corrected. */
const PROBE = "Same as last time for the new one?";

/** A gallery's member with an email inbox, and a way to receive the client's messages, each a thread of its own. */
async function inbox(g: TestGallery) {
  const m = await member(g);
  const connection = await emailConnection(m.token);
  const { queue, sent } = recordingQueue();
  let n = 0;
  const receive = async (body: string): Promise<string> => {
    const res = await callSending(queue, "POST", `/gallery/inbox/connections/${connection.id}/messages`, {
      key: m.token,
      body: {
        direction: "inbound",
        from: CLIENT,
        to: ["desk@gallery.example"],
        provider_thread_id: `usual-${++n}`,
        body,
        sent_at: new Date().toISOString(),
      },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { thread_id: string }).thread_id;
  };
  return { m, sent, receive };
}

/** What the shared model's data and weights are, to see them untouched. */
async function sharedModelDigest(): Promise<string> {
  const bytes = new TextEncoder().encode(
    JSON.stringify([intentData, SHARED_INTENT_MODEL.data, [...SHARED_INTENT_MODEL.weights]]),
  );
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("each gallery's triage adjustment", () => {
  it("a member's corrections teach their gallery's judge, and no other gallery's", async () => {
    const sharedBefore = await sharedModelDigest();
    const a = await createGallery();
    const b = await createGallery();
    const inboxA = await inbox(a);
    const inboxB = await inbox(b);

    // Ten threads of one kind in A, judged by the shared model, each corrected by the member to purchase_inquiry.
    const threads: string[] = [];
    for (const body of SAME_AS_LAST_TIME) threads.push(await inboxA.receive(body));
    await runBatch(inboxA.sent.splice(0));
    expect(await isDue(a)).toBe(false);
    for (const id of threads) {
      expect((await getThread(inboxA.m.token, id)).triage.intent).not.toBeNull();
      const res = await call("PATCH", `${THREADS}/${id}`, {
        key: inboxA.m.token,
        body: { triage: { corrected_intent: "purchase_inquiry" } },
      });
      expect(res.status, await res.clone().text()).toBe(200);
    }
    expect(await isDue(a)).toBe(true);
    expect(await isDue(b)).toBe(false);

    // The fit the engine Worker runs on its cron trigger: A's adjustment, on its ten examples, over the shared model.
    const [fit] = await fitTriageAdjustments(env, { galleryId: a.id });
    expect(fit).toMatchObject({ gallery_id: a.id, examples: 10 });
    const stored = await db().execute<{
      version: string;
      shared_model: string;
      examples: number;
      adjustment: IntentAdjustment;
    }>(
      sql`select version, shared_model, examples, adjustment from triage_adjustments where gallery_id = ${a.id}`,
    );
    expect(stored.rows).toHaveLength(1);
    const row = stored.rows[0]!;
    expect(row).toMatchObject({ version: fit?.version, shared_model: TRIAGE_MODEL, examples: 10 });
    expect(row.adjustment).toMatchObject({ version: row.version, shared: TRIAGE_MODEL, examples: 10 });
    expect(row.adjustment.bits).toBe(SHARED_INTENT_MODEL.data.bits);
    expect(await isDue(a)).toBe(false);
    // A fit marks nothing: threads are judged with it when a change makes them stale.
    expect(await staleMessages(a)).toEqual([]);

    // The same new message of the kind, from the same client, in A and in B.
    const shared = judgeTriage({
      channel: "email",
      messages: [
        {
          direction: "inbound",
          body: PROBE,
          subject: null,
          sentAt: new Date().toISOString(),
          fromName: CLIENT.name,
          fromAddress: CLIENT.address,
        },
      ],
      timeZone: null,
    });
    expect(shared.intent, "the shared model already says so: the test would show nothing").not.toBe(
      "purchase_inquiry",
    );
    const inA = await inboxA.receive(PROBE);
    const inB = await inboxB.receive(PROBE);
    await runBatch([...inboxA.sent.splice(0), ...inboxB.sent.splice(0)]);

    const threadA = await getThread(inboxA.m.token, inA);
    expect(threadA.triage.intent).toBe("purchase_inquiry");
    const judgedA = await triageJudgment(a, inA);
    expect(judgedA).toMatchObject({
      value: "purchase_inquiry",
      model: `${TRIAGE_MODEL}+gallery.${row.version}`,
    });
    expect(
      judgedA?.evidence.signals.some((s) => s.includes("the gallery's own corrections (10 examples)")),
    ).toBe(true);

    const threadB = await getThread(inboxB.m.token, inB);
    expect(threadB.triage.intent).toBe(shared.intent);
    const judgedB = await triageJudgment(b, inB);
    expect(judgedB).toMatchObject({ value: shared.intent, model: TRIAGE_MODEL });
    expect(judgedB?.evidence.signals.some((s) => s.includes("gallery's own corrections"))).toBe(false);

    // The shared model is what it was: A's corrections live in A's row only.
    expect(await sharedModelDigest()).toBe(sharedBefore);
    expect(TRIAGE_MODEL).toBe(`triage-linear@${intentData.version}`);

    // A new correction makes A due again; the refit is a new version, and a thread judged before is not judged
    // again only because the adjustment moved.
    const res = await call("PATCH", `${THREADS}/${inA}`, {
      key: inboxA.m.token,
      body: { triage: { corrected_intent: "price_request" } },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await isDue(a)).toBe(true);
    const [refit] = await fitTriageAdjustments(env, { galleryId: a.id });
    expect(refit).toMatchObject({ gallery_id: a.id, examples: 11 });
    expect(refit?.version).not.toBe(row.version);
    expect(await staleMessages(a)).toEqual([]);
    expect(await triageJudgment(a, threads[0]!)).toMatchObject({ model: TRIAGE_MODEL });
  });

  it("a member who changes their mind about a thread counts once, with the last word", async () => {
    const g = await createGallery();
    const box = await inbox(g);
    const id = await box.receive("Same as last time?");
    await runBatch(box.sent.splice(0));
    for (const intent of ["purchase_inquiry", "logistics", "purchase_inquiry", "availability"]) {
      const res = await call("PATCH", `${THREADS}/${id}`, {
        key: box.m.token,
        body: { triage: { corrected_intent: intent } },
      });
      expect(res.status, await res.clone().text()).toBe(200);
    }
    const [fit] = await fitTriageAdjustments(env, { galleryId: g.id });
    expect(fit).toMatchObject({ examples: 1 });
    const stored = await db().execute<{ adjustment: IntentAdjustment }>(
      sql`select adjustment from triage_adjustments where gallery_id = ${g.id}`,
    );
    const adjustment = stored.rows[0]!.adjustment;
    const classes = SHARED_INTENT_MODEL.data.classes;
    const bias = (intent: string) => adjustment.bias[classes.indexOf(intent)] ?? 0;
    expect(bias("availability")).toBeGreaterThan(0);
    expect(bias("purchase_inquiry")).toBeLessThanOrEqual(0);
  });

  it("judges a gallery's threads with its adjustment in the round trips it takes without one", async () => {
    const withOne = await createGallery();
    const without = await createGallery();
    const boxes = [await inbox(withOne), await inbox(without)];
    const ids: string[] = [];
    for (const box of boxes) ids.push(await box.receive(PROBE));
    await runBatch([...boxes[0]!.sent.splice(0), ...boxes[1]!.sent.splice(0)]);
    const res = await call("PATCH", `${THREADS}/${ids[0]}`, {
      key: boxes[0]!.m.token,
      body: { triage: { corrected_intent: "purchase_inquiry" } },
    });
    expect(res.status).toBe(200);
    await fitTriageAdjustments(env, { galleryId: withOne.id });

    const trips = async (g: TestGallery, threadId: string) => {
      await db().execute(sql`update judgment_subjects set version = version + 1
        where gallery_id = ${g.id} and kind = 'inbox_thread' and subject_id = ${threadId}`);
      let count = 0;
      const real = db();
      const proxy = new Proxy(real, {
        get(target, prop, receiver) {
          if (prop === "execute" || prop === "batch") {
            return (...args: unknown[]) => {
              // A batch is one round trip; the statements built for it are not sent on their own.
              count += prop === "batch" ? 1 - (args[0] as unknown[]).length : 1;
              return (Reflect.get(target, prop, receiver) as (...a: unknown[]) => unknown).apply(
                target,
                args,
              );
            };
          }
          return Reflect.get(target, prop, receiver);
        },
      }) as Db;
      const outcome = await judgeGroup(
        proxy,
        g.id,
        [{ gallery_id: g.id, kind: "inbox_thread", subject_id: threadId }],
        new Date(),
      );
      expect(outcome.judged).toBe(1);
      return count;
    };
    const withTrips = await trips(withOne, ids[0]!);
    expect(withTrips).toBe(await trips(without, ids[1]!));
    // Judged again with the adjustment: its model is named.
    expect((await triageJudgment(withOne, ids[0]!))?.model).toMatch(/\+gallery\.[0-9a-f]{8}$/);
  });
});
