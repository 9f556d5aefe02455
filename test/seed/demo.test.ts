import {
  createExecutionContext,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { httpDb } from "../../db/client";
import worker from "../../functions/api";
import engineWorker from "../../functions/engine";
import type { EngineMessage } from "../../lib/engine-queue";
import { InboxThread } from "../../lib/schemas/inbox";
import { RubricJudgmentList } from "../../lib/schemas/judgments";
import { MatchList } from "../../lib/schemas/matches";
import { RecommendedRecipientList } from "../../lib/schemas/offers";
import { allScopes } from "../../lib/scopes";
import { handleEngineBatch } from "../../services/engine/consume";
import { sweepEngine } from "../../services/engine/sweep";
import { queueBatch } from "../helpers/engine-loop";
import { apiRequest, type CallOptions, mintKey } from "../helpers/gallery";
import { validateResponse } from "../helpers/openapi";

/**
 * The demo gallery as a new user meets it after `npm start`: seeded as `npm start` seeds it (test/seed/demo-setup.ts),
 * then the engine Worker's first scheduled run (which fits the gallery's match model), the cron's first sweep and
 * the engine's batches over every subject the sweep sends, as the Queue delivers them, until nothing is stale; then
 * read through the API. Nothing in the seed is a verdict: what these assert is what the engine reads into the
 * demo's histories.
 */

const demo = inject("demo");
const demoEnv = { ...env, DATABASE_URL: demo.url, ENGINE_QUEUE: undefined };
const demoDb = () => httpDb(demoEnv);

/** A call to the API Worker bound to the demo's database, checked against the OpenAPI document. */
async function demoCall(method: string, path: string, opts: CallOptions = {}): Promise<Response> {
  const response = await worker.fetch(apiRequest(method, path, opts), demoEnv, createExecutionContext());
  await validateResponse(method, path, response);
  return response;
}

async function demoJson<T>(path: string, key: string): Promise<T> {
  const response = await demoCall("GET", path, { key });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

/** Waits for the background seed: the demo gallery's row commits with everything else, or the seed's failure. */
async function seeded(): Promise<string> {
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    const failure = await demoDb()
      .execute<{ message: string }>(
        sql`select message from demo_seed_failure where to_regclass('demo_seed_failure') is not null`,
      )
      .catch(() => null);
    if (failure && failure.rows.length > 0)
      throw new Error(`the demo seed failed: ${failure.rows[0]!.message}`);
    const gallery = await demoDb().execute<{ id: string }>(sql`select id from galleries where slug = 'demo'`);
    if (gallery.rows[0]) return gallery.rows[0].id;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the demo gallery was not seeded within 150 s");
}

/**
 * The engine Worker's scheduled run, as its cron trigger fires it: the demo, the only gallery of its database and
 * one with sales, is due, and its match model is fitted.
 */
async function firstFit(): Promise<void> {
  const ctx = createExecutionContext();
  engineWorker.scheduled(createScheduledController({ cron: "* * * * *" }), demoEnv, ctx);
  await waitOnExecutionContext(ctx);
  const models = await demoDb().execute<{ positives: number }>(
    sql`select positives from match_models m join galleries g on g.id = m.gallery_id where g.slug = 'demo'`,
  );
  expect(models.rows[0]?.positives).toBeGreaterThan(0);
}

/** The first sweep as the cron runs it, then the engine over what it sent (50 a batch, as the Queue delivers). */
async function firstSweeps(): Promise<void> {
  for (let round = 0; round < 10; round++) {
    const sent: EngineMessage[] = [];
    await sweepEngine(demoEnv, {
      olderThanSeconds: 0,
      send: async (messages) => {
        sent.push(...messages);
      },
    });
    if (sent.length === 0) return;
    let pending = sent;
    while (pending.length > 0) {
      const next: EngineMessage[] = [];
      for (let i = 0; i < pending.length; i += 50) {
        const batch = queueBatch(pending.slice(i, i + 50));
        const result = await handleEngineBatch(batch as MessageBatch<unknown>, demoEnv);
        await getQueueResult(batch, createExecutionContext());
        expect(result.retried).toBe(0);
        next.push(...result.continuations);
      }
      pending = next;
    }
  }
  throw new Error("the demo was still stale after 10 sweeps");
}

/** Every page of a list's judgments read (`GET /gallery/contact-lists/{id}/judgments`), following next_cursor. */
async function judgmentPages(listId: string) {
  const pages = [];
  let cursor: string | null = null;
  do {
    const path = `/gallery/contact-lists/${listId}/judgments?limit=100${cursor ? `&cursor=${cursor}` : ""}`;
    const page = RubricJudgmentList.parse(await demoJson(path, key));
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor);
  return pages;
}

let galleryId: string;
let key: string;

beforeAll(async () => {
  galleryId = await seeded();
  key = await mintKey(galleryId, allScopes, "secret", demoDb());
  await firstFit();
  await firstSweeps();
}, 300_000);

describe("the demo gallery after the first fit and sweeps", () => {
  it("shows at least half of its buying collectors a match at the visible floor, each with reasons", async () => {
    const buyers = await demoDb().execute<{ id: string }>(
      sql`select distinct c.id from contacts c join sales s on s.contact_id = c.id
        where c.gallery_id = ${galleryId} and c.archived_at is null and s.status in ('completed', 'pending')
        order by c.id`,
    );
    expect(buyers.rows.length).toBeGreaterThanOrEqual(20);
    let withMatch = 0;
    for (const { id } of buyers.rows) {
      const page = MatchList.parse(await demoJson(`/gallery/contacts/${id}/matches`, key));
      if (page.data.length === 0) continue;
      withMatch++;
      for (const match of page.data) {
        expect(match.probability).toBeGreaterThanOrEqual(0.6);
        expect(match.reasons.length).toBeGreaterThan(0);
      }
    }
    expect(withMatch / buyers.rows.length).toBeGreaterThanOrEqual(0.5);
  });

  it("matches collectors who have bought nothing yet from what their profiles say, and says so", async () => {
    const newcomers = await demoDb().execute<{ id: string }>(
      sql`select c.id from contacts c join collector_profiles p on p.contact_id = c.id
        where c.gallery_id = ${galleryId} and c.archived_at is null and p.collecting_focus is not null
          and not exists (select 1 from sales s where s.contact_id = c.id)
        order by c.id`,
    );
    let fromFacts = 0;
    for (const { id } of newcomers.rows) {
      const page = MatchList.parse(await demoJson(`/gallery/contacts/${id}/matches`, key));
      if (page.data.some((m) => m.reasons.some((r) => r.kind === "memory_fact"))) fromFacts++;
    }
    expect(fromFacts).toBeGreaterThan(0);
  });

  it("recommends recipients for every demo offer", async () => {
    const offers = await demoDb().execute<{ id: string; title: string }>(
      sql`select id, title from offers where gallery_id = ${galleryId} order by id`,
    );
    expect(offers.rows.length).toBeGreaterThan(0);
    for (const offer of offers.rows) {
      const page = RecommendedRecipientList.parse(
        await demoJson(`/gallery/offers/${offer.id}/recommended-recipients`, key),
      );
      expect(page.data.length, offer.title).toBeGreaterThan(0);
      for (const r of page.data) expect(r.top_reason, offer.title).not.toBeNull();
    }
  });

  it("reads every described list and judges some contacts true and some false", async () => {
    const lists = await demoDb().execute<{ id: string; title: string }>(
      sql`select id, title from contact_lists where gallery_id = ${galleryId}
        and dynamic_query->>'described_as' is not null order by id`,
    );
    expect(lists.rows.length).toBeGreaterThanOrEqual(3);
    for (const list of lists.rows) {
      const pages = await judgmentPages(list.id);
      for (const page of pages) expect(page.rubric?.state, list.title).toBe("readable");
      const judged = pages.flatMap((page) => page.data);
      for (const j of judged) expect(j.reasons.length, list.title).toBeGreaterThan(0);
      const verdicts = judged.map((j) => j.verdict);
      expect(verdicts.filter((v) => v).length, list.title).toBeGreaterThan(0);
      expect(verdicts.filter((v) => !v).length, list.title).toBeGreaterThan(0);
    }
  });

  // "Two purchases" counts works bought (a sale of two works is two), as the rubric reader counts them.
  it("judges the lapsed buyers list as the sales records say", async () => {
    const list = await demoDb().execute<{ id: string }>(
      sql`select id from contact_lists where gallery_id = ${galleryId} and title = 'Lapsed buyers'`,
    );
    const truth = await demoDb().execute<{ id: string }>(
      sql`select contact_id as id from sales where gallery_id = ${galleryId} and status = 'completed'
        group by contact_id
        having sum(works_count) filter (where sold_at < '2024-01-01') >= 2
          and count(*) filter (where sold_at >= '2024-01-01') = 0`,
    );
    expect(truth.rows.length).toBeGreaterThan(0);
    const judgedTrue = new Set(
      (await judgmentPages(list.rows[0]!.id)).flatMap((page) =>
        page.data.filter((j) => j.verdict).map((j) => j.contact_id),
      ),
    );
    const archived = await demoDb().execute<{ id: string }>(
      sql`select id from contacts where gallery_id = ${galleryId} and archived_at is not null`,
    );
    const skip = new Set(archived.rows.map((r) => r.id));
    expect([...judgedTrue].sort()).toEqual(
      truth.rows
        .map((r) => r.id)
        .filter((id) => !skip.has(id))
        .sort(),
    );
  });

  it("puts the messages a gallery answers first at the top of the editor's priority inbox", async () => {
    const signIn = await demoCall("POST", "/auth/sessions", { body: demo.editor });
    expect(signIn.status).toBe(201);
    const { token } = (await signIn.json()) as { token: string };
    const page = z
      .object({ data: z.array(InboxThread) })
      .parse(await demoJson("/gallery/inbox/threads?priority=true&limit=10", token));
    const top = page.data.slice(0, 5);
    expect(top.length).toBe(5);
    for (const thread of top) {
      expect(thread.triage, thread.subject ?? thread.last_snippet ?? "").not.toBeNull();
      expect(thread.triage!.expects_reply).toBeGreaterThanOrEqual(0.5);
      expect(["now", "today"]).toContain(thread.triage!.urgency);
      expect(["spam", "other"]).not.toContain(thread.triage!.intent);
    }
  });
});
