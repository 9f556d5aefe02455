import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import cronWorker from "../../functions/cron";
import engineWorker from "../../functions/engine";
import type { EngineMessage } from "../../lib/engine-queue";
import { ADMIN_SCOPE } from "../../lib/scopes";
import { callSending, recordingQueue, runEngineBatch } from "../helpers/engine-loop";
import { call, createGallery, json, type TestGallery } from "../helpers/gallery";
import { walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";

/**
 * The operator's reads of the engine loop: GET /v1/gallery/engine/failures (subjects whose last attempt failed,
 * with error and attempts) and GET /v1/gallery/engine/dead-letters (what the dead-letter consumers recorded), both
 * under `admin:read`, both the caller's gallery only.
 */

type Failure = {
  object: string;
  id: string;
  kind: string;
  subject_id: string;
  attempts: number;
  last_error: string;
  failed_at: string;
  stale_since: string | null;
  given_up: boolean;
};

async function artworksFailing(g: TestGallery, titles: string[], failing: (title: string) => boolean) {
  const { queue, sent } = recordingQueue();
  const ids = new Map<string, string>();
  for (const title of titles) {
    const res = await callSending(queue, "POST", "/gallery/artworks", { key: g.key, body: { title } });
    expect(res.status).toBe(201);
    ids.set(((await res.json()) as { id: string }).id, title);
  }
  const judging = (s: { subjectId: string }) => {
    const title = ids.get(s.subjectId) as string;
    if (failing(title)) throw new Error(`cannot judge ${title}`);
  };
  await runEngineBatch(sent, { hooks: { judging } });
  return { ids: [...ids.keys()], sent, judging };
}

describe("GET /v1/gallery/engine/failures", () => {
  let g: TestGallery;
  let other: TestGallery;
  let failingIds: string[];
  beforeAll(async () => {
    [g, other] = await Promise.all([createGallery(), createGallery()]);
    const titles = ["Fine", "Broken one", "Broken two", "Broken three"];
    const made = await artworksFailing(g, titles, (t) => t.startsWith("Broken"));
    failingIds = made.ids.slice(1);
    // One of them failed ten times: the sweep has given up on it.
    const stubborn = failingIds[0] as string;
    for (let i = 1; i < 10; i++)
      await runEngineBatch([{ gallery_id: g.id, kind: "artwork", subject_id: stubborn }], {
        hooks: { judging: made.judging },
      });
    await artworksFailing(other, ["Elsewhere"], () => true);
  });

  it("lists the gallery's failed subjects, latest failure first, with error, attempts and whether given up", async () => {
    const key = await g.keyWith([ADMIN_SCOPE]);
    const pages = await walkPages<Failure>(key, "/gallery/engine/failures", { limit: "2" });
    expect(pages).toHaveLength(2);
    const items = pages.flatMap((p) => p.data);
    expect(items.map((f) => f.subject_id).sort()).toEqual([...failingIds].sort());
    for (const f of items) {
      expect(f).toMatchObject({ object: "engine_failure", kind: "artwork", id: `artwork:${f.subject_id}` });
      expect(f.last_error).toMatch(/^Error: cannot judge Broken/);
      expect(f.failed_at).toMatch(/Z$/);
    }
    const sorted = [...items].sort((a, b) => (a.failed_at < b.failed_at ? 1 : -1));
    expect(items.map((f) => f.failed_at)).toEqual(sorted.map((f) => f.failed_at));
    const stubborn = items.find((f) => f.subject_id === failingIds[0]);
    expect(stubborn).toMatchObject({ attempts: 10, given_up: true });
    expect(items.filter((f) => f.subject_id !== failingIds[0])).toEqual(
      expect.arrayContaining([expect.objectContaining({ attempts: 1, given_up: false })]),
    );
    // Latest first: the stubborn one failed last.
    expect(items[0]?.subject_id).toBe(failingIds[0]);
  });

  it("shows another gallery's failures to no one but that gallery", async () => {
    const mine = await walkPages<Failure>(await g.keyWith([ADMIN_SCOPE]), "/gallery/engine/failures", {});
    const theirs = await walkPages<Failure>(
      await other.keyWith([ADMIN_SCOPE]),
      "/gallery/engine/failures",
      {},
    );
    const theirIds = theirs.flatMap((p) => p.data).map((f) => f.subject_id);
    expect(theirIds).toHaveLength(1);
    expect(mine.flatMap((p) => p.data).map((f) => f.subject_id)).not.toContain(theirIds[0]);
  });

  it("a subject judged since leaves the list", async () => {
    const h = await createGallery();
    const made = await artworksFailing(h, ["Once"], () => true);
    const key = await h.keyWith([ADMIN_SCOPE]);
    expect((await walkPages(key, "/gallery/engine/failures", {}))[0]?.data).toHaveLength(1);
    await runEngineBatch(made.sent);
    expect((await walkPages(key, "/gallery/engine/failures", {}))[0]?.data).toEqual([]);
  });

  it("refuses a key without admin:read (403), even one holding every other scope", async () => {
    const key = await g.keyWith(["artworks:read", "events:read", "webhooks:read"]);
    await expectProblem(await call("GET", "/gallery/engine/failures", { key }), 403);
    await expectProblem(await call("GET", "/gallery/engine/dead-letters", { key }), 403);
  });

  it("refuses bad input: a limit out of range, an unknown parameter, a cursor of another list", async () => {
    const key = await g.keyWith([ADMIN_SCOPE]);
    await expectProblem(await call("GET", "/gallery/engine/failures?limit=0", { key }), 400, undefined, {
      field: "limit",
    });
    await expectProblem(await call("GET", "/gallery/engine/failures?kind=artwork", { key }), 400);
    await expectProblem(await call("GET", "/gallery/engine/failures?sort=created", { key }), 400);
    await expectProblem(await call("GET", "/gallery/engine/failures?cursor=nonsense", { key }), 400);
  });
});

describe("the dead-letter queues' consumers", () => {
  it("record each message that reached them once, shown to its gallery on GET /v1/gallery/engine/dead-letters", async () => {
    const g = await createGallery();
    const other = await createGallery();
    const engineBody: EngineMessage = { gallery_id: g.id, kind: "artwork", subject_id: "art_gone" };
    const ticket = { gallery_id: g.id, endpoint_id: "we_gone", token: "t" };
    const engineId = `dlq-${crypto.randomUUID()}`;
    const ticketId = `dlq-${crypto.randomUUID()}`;

    const engineBatch = createMessageBatch("gallery-engine-dlq", [
      { id: engineId, timestamp: new Date(), attempts: 6, body: engineBody },
    ]);
    const ctx = createExecutionContext();
    await engineWorker.queue(engineBatch as MessageBatch<EngineMessage>, env);
    expect((await getQueueResult(engineBatch, ctx)).ackAll).toBe(true);

    // The same message delivered to the consumer twice, and a webhook ticket: each recorded once.
    for (let i = 0; i < 2; i++) {
      const batch = createMessageBatch("gallery-webhooks-dlq", [
        { id: ticketId, timestamp: new Date(), attempts: 4, body: ticket },
      ]);
      const c = createExecutionContext();
      await cronWorker.queue(batch as MessageBatch<never>, env as never);
      expect((await getQueueResult(batch, c)).ackAll).toBe(true);
    }

    const res = await call("GET", "/gallery/engine/dead-letters", { key: await g.keyWith([ADMIN_SCOPE]) });
    expect(res.status).toBe(200);
    const page = await json<{ data: Record<string, unknown>[] }>(res);
    expect(page.data).toHaveLength(2);
    expect(page.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          object: "dead_letter",
          id: engineId,
          queue: "gallery-engine-dlq",
          body: engineBody,
          attempts: 6,
        }),
        expect.objectContaining({ id: ticketId, queue: "gallery-webhooks-dlq", body: ticket, attempts: 4 }),
      ]),
    );
    const theirs = await call("GET", "/gallery/engine/dead-letters", {
      key: await other.keyWith([ADMIN_SCOPE]),
    });
    expect((await json<{ data: unknown[] }>(theirs)).data).toEqual([]);
  });
});
