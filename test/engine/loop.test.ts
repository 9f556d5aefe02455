import { createExecutionContext, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { claimSubjects } from "../../db/queries/engine";
import type { EngineMessage } from "../../lib/engine-queue";
import { newId } from "../../lib/ids";
import { handleEngineBatch, LIST_PAGE_SIZE } from "../../services/engine/consume";
import { sweepEngine } from "../../services/engine/sweep";
import {
  callSending,
  queueBatch,
  recordingQueue,
  runEngineBatch,
  staleMessages,
} from "../helpers/engine-loop";
import { call, createGallery, db, type TestGallery } from "../helpers/gallery";
import { emailConnection, getThread, member, THREADS } from "../inbox/helpers";
import { inboundThread } from "./helpers";

/**
 * The engine loop end to end, in workerd against PostgreSQL: a write marks its subject stale in its own
 * transaction and sends it to the engine Queue (recorded here by a Queue of the test's own); the engine's batch
 * handler, called with a MessageBatch built from exactly those messages, judges and clears; the sweep sends
 * again what a dead consumer left. The judges' own quality is scored elsewhere: these assertions hold for any
 * sane judge.
 */

/** Runs the engine's batch handler over these messages, as the Queue would deliver them; returns acks too. */
const runBatch = runEngineBatch;

/** Judges everything stale in the gallery, following list pages, until nothing is. */
async function judgeAll(g: TestGallery): Promise<void> {
  let messages = await staleMessages(g);
  for (let round = 0; messages.length > 0 && round < 10; round++) {
    const { result } = await runBatch(messages);
    messages = result.continuations.length > 0 ? result.continuations : await staleMessages(g);
  }
  expect(await staleMessages(g)).toEqual([]);
}

type SubjectRow = {
  version: string;
  judged_version: string;
  lease_until: string | null;
  stale_since: string | null;
};

async function subject(g: TestGallery, kind: string, id: string): Promise<SubjectRow | undefined> {
  const rows = await db().execute<SubjectRow>(
    sql`select version::text, judged_version::text, lease_until::text, stale_since::text from judgment_subjects
      where gallery_id = ${g.id} and kind = ${kind} and subject_id = ${id}`,
  );
  return rows.rows[0];
}

async function judgmentRows(g: TestGallery, kind: string, id: string) {
  const rows = await db().execute<{
    aspect: string;
    value: unknown;
    probability: number | null;
    model: string;
    evidence: Record<string, unknown>;
    input_hash: string;
    judged_at: string;
  }>(
    sql`select aspect, value, probability, model, evidence, input_hash, judged_at::text from judgments
      where gallery_id = ${g.id} and subject_kind = ${kind} and subject_id = ${id} order by aspect`,
  );
  return rows.rows;
}

async function createArtwork(
  g: TestGallery,
  queue: Queue<EngineMessage>,
  body: Record<string, unknown>,
): Promise<string> {
  const res = await callSending(queue, "POST", "/gallery/artworks", { key: g.key, body });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function artworkIds(g: TestGallery, query: string): Promise<string[]> {
  const res = await call("GET", `/gallery/artworks?limit=100&${query}`, { key: g.key });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { data: { id: string }[] }).data.map((a) => a.id);
}

const DAMAGED = "Large tear and several losses along the lower edge; relined in 1980.";
const SOUND = "Excellent condition.";

describe("stale marking", () => {
  it("marks exactly the written subject stale in the write's transaction and sends it to the engine", async () => {
    const g = await createGallery();
    const { queue, sent } = recordingQueue();
    const id = await createArtwork(g, queue, { title: "Harbour at dusk", condition_notes: DAMAGED });
    expect(sent).toEqual([{ gallery_id: g.id, kind: "artwork", subject_id: id }]);
    expect(await subject(g, "artwork", id)).toMatchObject({
      version: "1",
      judged_version: "0",
      lease_until: null,
    });
    const all = await db().execute(
      sql`select kind, subject_id from judgment_subjects where gallery_id = ${g.id}`,
    );
    expect(all.rows).toEqual([{ kind: "artwork", subject_id: id }]);
  });

  it("a failed write marks nothing: the marks roll back with it", async () => {
    const g = await createGallery();
    const id = newId("art");
    await expect(
      db().batch([
        db().execute(sql`insert into domain_events (id, gallery_id, type, livemode, resource_type, resource_id, data)
          values (${newId("evt")}, ${g.id}, 'artwork.updated', false, 'artwork', ${id}, '{"object":{}}'::jsonb)`),
        db().execute(sql`select 1 / 0`),
      ]),
    ).rejects.toThrow();
    expect(await subject(g, "artwork", id)).toBeUndefined();
  });

  it("a write that records no event (nothing changed) marks and sends nothing", async () => {
    const g = await createGallery();
    const { queue, sent } = recordingQueue();
    const id = await createArtwork(g, queue, { title: "Quiet", condition_notes: SOUND });
    sent.length = 0;
    const res = await callSending(queue, "PATCH", `/gallery/artworks/${id}`, {
      key: g.key,
      body: { title: "Quiet" },
    });
    expect(res.status).toBe(200);
    expect(sent).toEqual([]);
    expect(await subject(g, "artwork", id)).toMatchObject({ version: "1" });
  });
});

describe("which subjects an event marks (engine_subjects_of)", () => {
  async function subjectsOf(galleryId: string, type: string, resourceId: string, data: unknown) {
    const rows = await db().execute<{ kind: string; subject_id: string }>(
      sql`select kind, subject_id from engine_subjects_of(${galleryId}, ${type}, ${resourceId}, ${JSON.stringify(data)}::jsonb)
        order by kind, subject_id`,
    );
    return rows.rows.map((r) => `${r.kind}:${r.subject_id}`);
  }

  it("maps each judged input to its subject, and the engine's own events to nothing", async () => {
    const g = await createGallery();
    const { queue } = recordingQueue();
    const work = await createArtwork(g, queue, { title: "In a show" });
    const show = await callSending(queue, "POST", "/gallery/shows", {
      key: g.key,
      body: { title: "Hang", artwork_ids: [work] },
    });
    const showId = ((await show.json()) as { id: string }).id;
    const cases: [string, string, unknown, string[]][] = [
      ["artwork.updated", work, { object: {} }, [`artwork:${work}`, `show:${showId}`]],
      ["artwork.draft_updated", work, { object: {} }, []],
      ["artwork_image.created", "img_1", { object: { artwork_id: work } }, [`artwork:${work}`]],
      [
        "artwork_format.updated",
        "fmt_1",
        { object: { artwork_id: work } },
        [`artwork:${work}`, `show:${showId}`],
      ],
      ["auction_record.created", "ar_1", { object: { artwork_id: work } }, []],
      ["inbox_message.received", "msg_1", { object: { thread_id: "thr_1" } }, ["inbox_thread:thr_1"]],
      ["inbox_message.sent", "msg_2", { object: { thread_id: "thr_1" } }, ["inbox_thread:thr_1"]],
      ["inbox_thread.updated", "thr_1", { object: {}, previous_attributes: { triage: {} } }, []],
      ["interaction.created", "int_1", { object: { contact_id: "con_1" } }, ["contact:con_1"]],
      ["engagement_event.recorded", "eng_1", { object: { contact_id: "con_1" } }, ["contact:con_1"]],
      ["private_note.created", "pn_1", { object: { contact_id: "con_1" } }, ["contact:con_1"]],
      [
        "sale.updated",
        "sale_1",
        { object: { contact_id: "con_2" }, previous_attributes: { contact_id: "con_1" } },
        ["contact:con_1", "contact:con_2"],
      ],
      ["contact.updated", "con_3", { object: {} }, ["contact:con_3"]],
      ["task.created", "task_1", { object: { contact_id: "con_1" } }, []],
      [
        "contact_list.created",
        "list_1",
        { object: { dynamic_query: { described_as: "Print collectors" } } },
        ["contact_list:list_1"],
      ],
      ["contact_list.created", "list_2", { object: { dynamic_query: { type: "collector" } } }, []],
      [
        "contact_list.updated",
        "list_1",
        {
          object: { title: "Renamed", dynamic_query: { described_as: "Print collectors" } },
          previous_attributes: { title: "Old" },
        },
        [],
      ],
      [
        "contact_list.updated",
        "list_1",
        {
          object: { dynamic_query: { described_as: "Photography collectors" } },
          previous_attributes: { dynamic_query: { described_as: "Print collectors" } },
        },
        ["contact_list:list_1"],
      ],
      ["show.updated", showId, { object: {} }, [`show:${showId}`]],
      ["show_tag.created", "stag_1", { object: {}, show_id: showId }, []],
      ["show_tag.deleted", "stag_1", { object: {}, show_id: showId }, []],
    ];
    for (const [type, resourceId, data, expected] of cases) {
      expect(await subjectsOf(g.id, type, resourceId, data), type).toEqual(expected);
    }
  });

  it("a deleted subject is forgotten: its judgments go with it", async () => {
    const g = await createGallery();
    const { queue, sent } = recordingQueue();
    const id = await createArtwork(g, queue, { title: "Short-lived", condition_notes: DAMAGED });
    await runBatch(sent);
    expect(await judgmentRows(g, "artwork", id)).toHaveLength(2);
    sent.length = 0;
    const res = await callSending(queue, "DELETE", `/gallery/artworks/${id}`, { key: g.key });
    expect(res.status).toBe(200);
    expect(sent).toEqual([{ gallery_id: g.id, kind: "artwork", subject_id: id }]);
    await runBatch(sent);
    expect(await judgmentRows(g, "artwork", id)).toEqual([]);
    expect(await subject(g, "artwork", id)).toBeUndefined();
  });
});

describe("the engine's batch handler", () => {
  it("judges what the write sent, stores model, probability and evidence, and clears the subject", async () => {
    const g = await createGallery();
    const { queue, sent } = recordingQueue();
    const damaged = await createArtwork(g, queue, { title: "Torn", condition_notes: DAMAGED });
    const sound = await createArtwork(g, queue, { title: "Sound", condition_notes: SOUND });

    // Unjudged: neither value of a filter matches.
    for (const query of ["disclosure=true", "disclosure=false", "readiness=ready,thin,empty"]) {
      expect(await artworkIds(g, query)).toEqual([]);
    }

    const { result, acked, retried } = await runBatch(sent);
    expect(result).toMatchObject({ judged: 2, skipped: 0, retried: 0 });
    expect(acked).toBe(2);
    expect(retried).toBe(0);

    expect(await artworkIds(g, "disclosure=true")).toEqual([damaged]);
    expect(await artworkIds(g, "disclosure=false")).toEqual([sound]);
    expect((await artworkIds(g, "readiness=ready,thin,empty")).sort()).toEqual([damaged, sound].sort());

    const rows = await judgmentRows(g, "artwork", damaged);
    expect(rows.map((r) => r.aspect)).toEqual(["disclosure", "readiness"]);
    const disclosure = rows[0];
    expect(disclosure?.value).toBe(true);
    expect(disclosure?.model).toMatch(/^.+@.+$/);
    expect(disclosure?.probability).toBeGreaterThan(0.5);
    expect(disclosure?.evidence).toMatchObject({ disclosure: true, model: disclosure?.model });
    expect(disclosure?.input_hash).toMatch(/^[0-9a-f]{64}$/);
    const s = await subject(g, "artwork", damaged);
    expect(s).toMatchObject({ judged_version: s?.version, lease_until: null });
  });

  it("judging the same input twice writes once: judged_at and the judgment stay, the duplicate is acked", async () => {
    const g = await createGallery();
    const { queue, sent } = recordingQueue();
    const id = await createArtwork(g, queue, { title: "Twice", condition_notes: DAMAGED });
    await runBatch(sent);
    const first = await judgmentRows(g, "artwork", id);
    const judgedAt = await db().execute<{ judged_at: string }>(
      sql`select judged_at::text from artworks where id = ${id}`,
    );

    // A duplicate delivery of the same message: the subject is judged already, nothing is claimed.
    const duplicate = await runBatch(sent);
    expect(duplicate.result).toMatchObject({ judged: 0, skipped: 1 });
    expect(duplicate.acked).toBe(1);

    // A write that changes nothing the judges read marks the work stale again; judging it writes nothing.
    sent.length = 0;
    const res = await callSending(queue, "PATCH", `/gallery/artworks/${id}`, {
      key: g.key,
      body: { exhibition_history: "Northlight Gallery, Spring Hang, 2024" },
    });
    expect(res.status).toBe(200);
    expect(sent).toEqual([{ gallery_id: g.id, kind: "artwork", subject_id: id }]);
    expect((await runBatch(sent)).result).toMatchObject({ judged: 1 });
    expect(await judgmentRows(g, "artwork", id)).toEqual(first);
    const after = await db().execute<{ judged_at: string }>(
      sql`select judged_at::text from artworks where id = ${id}`,
    );
    expect(after.rows).toEqual(judgedAt.rows);
  });

  it("a changed condition re-judges that work alone", async () => {
    const g = await createGallery();
    const { queue, sent } = recordingQueue();
    const a = await createArtwork(g, queue, { title: "A", condition_notes: SOUND });
    const b = await createArtwork(g, queue, { title: "B", condition_notes: SOUND });
    await runBatch(sent);
    sent.length = 0;
    const res = await callSending(queue, "PATCH", `/gallery/artworks/${a}`, {
      key: g.key,
      body: { condition_notes: DAMAGED },
    });
    expect(res.status).toBe(200);
    expect(sent).toEqual([{ gallery_id: g.id, kind: "artwork", subject_id: a }]);
    await runBatch(sent);
    expect(await artworkIds(g, "disclosure=true")).toEqual([a]);
    expect(await artworkIds(g, "disclosure=false")).toEqual([b]);
  });

  it("loses nothing when a consumer dies after claiming: the lease lapses and the sweep sends it again", async () => {
    const g = await createGallery();
    const { queue, sent } = recordingQueue();
    const id = await createArtwork(g, queue, { title: "Orphan", condition_notes: DAMAGED });
    // A consumer claims with a one-second lease, then dies before writing anything.
    const { claimed } = await claimSubjects(db(), g.id, [{ kind: "artwork", subjectId: id }], 1);
    expect(claimed).toHaveLength(1);

    // Another delivery meanwhile finds it leased and leaves it; the sweep leaves it too while the lease runs.
    expect((await runBatch(sent)).result).toMatchObject({ judged: 0, skipped: 1 });
    const swept: EngineMessage[] = [];
    const send = async (messages: EngineMessage[]) => {
      swept.push(...messages);
    };
    expect(await sweepEngine(env, { olderThanSeconds: 0, galleryId: g.id, send })).toEqual({ swept: 0 });

    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(await sweepEngine(env, { olderThanSeconds: 0, galleryId: g.id, send })).toEqual({ swept: 1 });
    expect(swept).toEqual([{ gallery_id: g.id, kind: "artwork", subject_id: id }]);
    expect((await runBatch(swept)).result).toMatchObject({ judged: 1 });
    expect(await artworkIds(g, "disclosure=true")).toEqual([id]);
    // Judged: the next sweep has nothing of this gallery to send.
    expect(await sweepEngine(env, { olderThanSeconds: 0, galleryId: g.id, send })).toEqual({ swept: 0 });
  });

  it("the sweep waits its bound: a subject stale for less is left to the message its write sent", async () => {
    const g = await createGallery();
    const { queue } = recordingQueue();
    await createArtwork(g, queue, { title: "Fresh", condition_notes: SOUND });
    const send = async () => {
      throw new Error("nothing is due");
    };
    expect(await sweepEngine(env, { olderThanSeconds: 30, galleryId: g.id, send })).toEqual({ swept: 0 });
  });

  it("retries a gallery's messages when its work fails, and releases the claim", async () => {
    const g = await createGallery();
    const { queue, sent } = recordingQueue();
    const id = await createArtwork(g, queue, { title: "Fails", condition_notes: DAMAGED });
    // The database unreachable: the claim itself fails, every message of the gallery is retried.
    const broken = {
      ...env,
      DATABASE_URL: env.DATABASE_URL.replace(/\/([^/?]+)(\?|$)/, "/no_such_database$2"),
    };
    const batch = queueBatch(sent);
    const result = await handleEngineBatch(batch as MessageBatch<unknown>, {
      ...broken,
      ENGINE_QUEUE: undefined,
    });
    expect(result).toMatchObject({ judged: 0, retried: 1 });
    const queued = await getQueueResult(batch, createExecutionContext());
    expect(queued.retryMessages).toHaveLength(1);
    // Still stale and free to claim: the retry (or the sweep) judges it.
    expect(await subject(g, "artwork", id)).toMatchObject({ judged_version: "0", lease_until: null });
    expect((await runBatch(sent)).result).toMatchObject({ judged: 1 });
  });
});

describe("inbox triage", () => {
  async function threadEvents(g: TestGallery, threadId: string) {
    const rows = await db().execute<{
      type: string;
      data: { previous_attributes?: Record<string, unknown> };
    }>(
      sql`select type, data from domain_events where gallery_id = ${g.id} and resource_id = ${threadId}
        and type = 'inbox_thread.updated' order by created_at, id`,
    );
    return rows.rows;
  }

  it("triages the thread, records inbox_thread.updated once, and the same input again changes nothing", async () => {
    const g = await createGallery();
    const { m, sent, threadId } = await inboundThread(g, {
      body: "Is this still available? What's the price?",
      providerThreadId: "blue-painting",
    });
    expect(sent).toEqual([{ gallery_id: g.id, kind: "inbox_thread", subject_id: threadId }]);
    expect((await getThread(m.token, threadId)).triage.intent).toBeNull();

    await runBatch(sent);
    const thread = await getThread(m.token, threadId);
    expect(["purchase_inquiry", "price_request", "availability"]).toContain(thread.triage.intent);
    expect(thread.triage.triaged_at).not.toBeNull();
    const events = await threadEvents(g, threadId);
    expect(events).toHaveLength(1);
    expect(events[0]?.data.previous_attributes).toMatchObject({ triage: { intent: null, triaged_at: null } });
    const [judgment] = await judgmentRows(g, "inbox_thread", threadId);
    expect(judgment).toMatchObject({ aspect: "triage", value: thread.triage.intent });
    expect(judgment?.evidence.message_id).toMatch(/^msg_/);

    // The same input judged again (a duplicate mark): no write, no second event, triaged_at unchanged.
    await db().execute(sql`update judgment_subjects set version = version + 1
      where gallery_id = ${g.id} and kind = 'inbox_thread' and subject_id = ${threadId}`);
    expect((await runBatch(sent)).result).toMatchObject({ judged: 1 });
    expect((await getThread(m.token, threadId)).triage.triaged_at).toBe(thread.triage.triaged_at);
    expect(await threadEvents(g, threadId)).toHaveLength(1);
  });

  it("keeps a member's corrected_intent as a labelled example, never overwritten by re-judging", async () => {
    const g = await createGallery();
    const { m, connection, queue, sent, threadId } = await inboundThread(g, {
      body: "Could you send the invoice for the two prints again? Our accounts team needs it.",
      providerThreadId: "blue-painting",
    });
    await runBatch(sent);
    const engineIntent = (await getThread(m.token, threadId)).triage.intent;
    const res = await call("PATCH", `${THREADS}/${threadId}`, {
      key: m.token,
      body: { triage: { corrected_intent: "invoice_payment" } },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const corrections = await db().execute<{
      engine_value: unknown;
      corrected_value: unknown;
      input: { text: string };
    }>(
      sql`select engine_value, corrected_value, input from judgment_corrections
        where gallery_id = ${g.id} and subject_kind = 'inbox_thread' and subject_id = ${threadId}`,
    );
    expect(corrections.rows).toHaveLength(1);
    expect(corrections.rows[0]).toMatchObject({
      engine_value: engineIntent,
      corrected_value: "invoice_payment",
    });
    expect(corrections.rows[0]?.input.text).toContain("invoice for the two prints");

    // A new message re-judges the thread; the member's correction stands.
    sent.length = 0;
    const next = await callSending(queue, "POST", `/gallery/inbox/connections/${connection.id}/messages`, {
      key: m.token,
      body: {
        direction: "inbound",
        from: { address: "collector@example.com" },
        to: ["desk@gallery.example"],
        subject: "Re: The blue painting",
        provider_thread_id: "blue-painting",
        body: "Still waiting on this, please send it today.",
        sent_at: new Date(Date.now() + 1000).toISOString(),
      },
    });
    expect(next.status).toBe(201);
    expect(sent).toEqual([{ gallery_id: g.id, kind: "inbox_thread", subject_id: threadId }]);
    await runBatch(sent);
    const after = await getThread(m.token, threadId);
    expect(after.triage.corrected_intent).toBe("invoice_payment");
    expect(after.triage.intent).not.toBeNull();
  });

  it("priority lists triaged threads before untriaged ones", async () => {
    const g = await createGallery();
    const m = await member(g);
    const connection = await emailConnection(m.token);
    const { queue, sent } = recordingQueue();
    const deliver = async (address: string, body: string) => {
      const res = await callSending(queue, "POST", `/gallery/inbox/connections/${connection.id}/messages`, {
        key: m.token,
        body: {
          direction: "inbound",
          from: { address },
          to: ["desk@gallery.example"],
          body,
          sent_at: new Date().toISOString(),
        },
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { thread_id: string }).thread_id;
    };
    const judged = await deliver("one@example.com", "Is the large canvas still available?");
    await runBatch([...sent]);
    const unjudged = await deliver("two@example.com", "Hello, a quick question about the catalogue.");
    const res = await call("GET", `${THREADS}?priority=true&limit=10`, { key: m.token });
    expect(res.status).toBe(200);
    const ids = ((await res.json()) as { data: { id: string }[] }).data.map((t) => t.id);
    expect(ids).toEqual([judged, unjudged]);
  });
});

describe("suggested show tags", () => {
  it("suggests tags from a show's works; a removed suggestion is kept as a correction and never suggested again", async () => {
    const g = await createGallery();
    const { queue } = recordingQueue();
    const works: string[] = [];
    for (const title of ["North", "South", "East"]) {
      works.push(await createArtwork(g, queue, { title, medium: "Oil on canvas", year: 1962 }));
    }
    const created = await callSending(queue, "POST", "/gallery/shows", {
      key: g.key,
      body: { title: "Sixties oils", artwork_ids: works },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const showId = ((await created.json()) as { id: string }).id;
    await judgeAll(g);

    const tags = async () => {
      const res = await call("GET", `/gallery/shows/${showId}/tags`, { key: g.key });
      return ((await res.json()) as { data: { id: string; name: string; origin: string }[] }).data;
    };
    const suggested = (await tags()).filter((t) => t.origin === "ai_suggested");
    expect(suggested.length).toBeGreaterThan(0);
    const [removed, edited] = suggested;
    if (!removed) throw new Error("no suggestion");

    const del = await call("DELETE", `/gallery/shows/${showId}/tags/${removed.id}`, { key: g.key });
    expect(del.status).toBe(200);
    const corrections = await db().execute<{ engine_value: unknown; corrected_value: unknown }>(
      sql`select engine_value, corrected_value from judgment_corrections
        where gallery_id = ${g.id} and subject_kind = 'show' and subject_id = ${showId}`,
    );
    expect(corrections.rows).toEqual([{ engine_value: removed.name, corrected_value: null }]);
    if (edited) {
      const patched = await call("PATCH", `/gallery/shows/${showId}/tags/${edited.id}`, {
        key: g.key,
        body: { color: "amber" },
      });
      expect(((await patched.json()) as { origin: string }).origin).toBe("manual");
    }

    // The show changes (a fourth work of the same kind): judged again, the removed name stays away.
    const fourth = await createArtwork(g, queue, { title: "West", medium: "Oil on canvas", year: 1964 });
    const patch = await callSending(queue, "PATCH", `/gallery/shows/${showId}`, {
      key: g.key,
      body: { artwork_ids: [...works, fourth] },
    });
    expect(patch.status, await patch.clone().text()).toBe(200);
    await judgeAll(g);
    const names = (await tags()).map((t) => t.name.toLowerCase());
    expect(names).not.toContain(removed.name.toLowerCase());
    if (edited) expect((await tags()).find((t) => t.id === edited.id)?.origin).toBe("manual");
  });
});

describe("segment rubrics", () => {
  it("judges a list's contacts a page at a time, each page a message of its own, then finishes the list", async () => {
    const g = await createGallery();
    const { queue, sent } = recordingQueue();
    await db().execute(sql`insert into contacts (id, gallery_id, name, contact_type, notes)
      select 'con_' || lpad(i::text, 26, '0'), ${g.id}, 'Contact ' || i, 'collector',
        case when i % 3 = 0 then 'Bought two works on paper in 2025, ink and watercolour.' end
      from generate_series(1, ${LIST_PAGE_SIZE + 1}) i`);
    const list = await callSending(queue, "POST", "/gallery/contact-lists", {
      key: g.key,
      body: {
        title: "Paper buyers",
        dynamic_query: { described_as: "Collectors who bought a work on paper in the last two years" },
      },
    });
    expect(list.status, await list.clone().text()).toBe(201);
    const listId = ((await list.json()) as { id: string }).id;
    expect(sent).toEqual([{ gallery_id: g.id, kind: "contact_list", subject_id: listId }]);

    const first = await runBatch(sent);
    const version = Number((await subject(g, "contact_list", listId))?.version);
    expect(first.result.continuations).toEqual([
      {
        gallery_id: g.id,
        kind: "contact_list",
        subject_id: listId,
        after: { contact_id: `con_${String(LIST_PAGE_SIZE).padStart(26, "0")}`, version },
      },
    ]);
    // Between pages the list stays stale and unleased: a lost continuation is the sweep's to resend.
    expect(await subject(g, "contact_list", listId)).toMatchObject({
      judged_version: "0",
      lease_until: null,
    });

    const second = await runBatch(first.result.continuations);
    expect(second.result).toMatchObject({ judged: 1, continuations: [] });
    expect(await subject(g, "contact_list", listId)).toMatchObject({ judged_version: String(version) });
  });

  it("judged_rubric returns the contacts judged true at 0.6 or above; an unjudged contact matches nothing", async () => {
    const g = await createGallery();
    const { queue } = recordingQueue();
    const contacts: string[] = [];
    for (const [name, notes] of [
      ["Ines Alvarez", "Collects works on paper, mostly ink drawings; bought two sumi-e studies in 2023."],
      ["Tom Becker", "Interested in large abstract canvases. Prefers oils."],
      ["Kai Oduya", "Ink and wash, Japanese prints; asks about paper conservation."],
    ]) {
      const res = await callSending(queue, "POST", "/gallery/contacts", {
        key: g.key,
        body: { name, contact_type: "collector", notes },
      });
      expect(res.status, await res.clone().text()).toBe(201);
      contacts.push(((await res.json()) as { id: string }).id);
    }
    const list = await callSending(queue, "POST", "/gallery/contact-lists", {
      key: g.key,
      body: {
        title: "Ink people",
        dynamic_query: { described_as: "Collectors of ink drawings and works on paper" },
      },
    });
    expect(list.status, await list.clone().text()).toBe(201);
    const listId = ((await list.json()) as { id: string }).id;
    await judgeAll(g);

    const [reading] = await judgmentRows(g, "contact_list", listId);
    expect(reading).toMatchObject({ aspect: "rubric", value: { readable: expect.any(Boolean) } });

    const trueRows = await db().execute<{ contact_id: string }>(
      sql`select contact_id from rubric_judgments where gallery_id = ${g.id} and rubric_key = ${`segment:${listId}`}
        and verdict and probability >= 0.6 order by contact_id`,
    );
    const listed = async () => {
      const res = await call("GET", `/gallery/contacts?judged_rubric=segment:${listId}&limit=100`, {
        key: g.key,
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return ((await res.json()) as { data: { id: string }[] }).data.map((c) => c.id).sort();
    };
    expect(await listed()).toEqual(trueRows.rows.map((r) => r.contact_id));

    // A contact added now is unjudged until the engine runs: in no judged_rubric answer.
    const late = await call("POST", "/gallery/contacts", {
      key: g.key,
      body: {
        name: "Late Arrival",
        contact_type: "collector",
        notes: "Ink drawings, works on paper, sumi-e.",
      },
    });
    const lateId = ((await late.json()) as { id: string }).id;
    expect(await listed()).not.toContain(lateId);
    const verdicts = await db().execute(
      sql`select 1 from rubric_judgments where gallery_id = ${g.id} and contact_id = ${lateId}`,
    );
    expect(verdicts.rows).toEqual([]);
  });
});
