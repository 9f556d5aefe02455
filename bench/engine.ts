/**
 * `npm run bench:engine`: the engine loop's figures, against the embedded PostgreSQL through the local Neon
 * endpoint (the production driver), with the engine's batch handler run in this process as the Queue would run
 * it (batches of 50, 10 at a time: wrangler.engine.toml).
 *
 * - judgments per second and CPU per judgment, per kind (artwork, show, contact_list page, contact, inbox_thread);
 *   CPU is this process's (the judges and the handler, as the engine Worker spends it), not PostgreSQL's;
 * - write-to-judgment lag under a burst of 10,000 ingested messages: each a thread's inbound message and its
 *   `inbox_message.received` event, committed 100 a transaction as fast as PostgreSQL takes them, each
 *   transaction's subjects handed to the consumers as the API Worker's send would; lag is judged_at − stale_since;
 * - the engine Worker's bundle (`wrangler deploy --dry-run --outdir`), beside the API Worker's.
 *
 * Results: bench/results/engine.md and engine.json. Data in .data/bench-engine-postgres (BENCH_ENGINE_DATA_DIR).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { EngineMessage } from "../lib/engine-queue";
import { migrateDatabase } from "../scripts/migrate";
import { startNeonLocal } from "../scripts/neon-local";
import { startDatabase } from "../scripts/postgres";
import { handleEngineBatch } from "../services/engine/consume";
import { dryRun } from "./bundle";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DATA_DIR = process.env.BENCH_ENGINE_DATA_DIR ?? ".data/bench-engine-postgres";
const BATCH_SIZE = 50;
const CONCURRENCY = 10;
const BURST = Number(process.env.BENCH_ENGINE_BURST ?? 10_000);
const say = (m: string) => console.log(`[bench:engine] ${m}`);

type Env = { DATABASE_URL: string; NEON_LOCAL_ENDPOINT: string };

/** A MessageBatch as the Queue delivers one; acks and retries are counted. */
function batchOf(
  messages: EngineMessage[],
  counts: { acked: number; retried: number },
): MessageBatch<unknown> {
  return {
    queue: "gallery-engine",
    messages: messages.map((body, i) => ({
      id: `m${i}`,
      timestamp: new Date(),
      attempts: 1,
      body,
      ack: () => {
        counts.acked += 1;
      },
      retry: () => {
        counts.retried += 1;
      },
    })),
    ackAll: () => {},
    retryAll: () => {},
  } as unknown as MessageBatch<unknown>;
}

/**
 * Consumers pulling batches from an in-memory queue, CONCURRENCY at a time, until `done()` and the queue is empty.
 * Continuations (a list's next page) go back on the queue, as the engine Worker's own producer would put them.
 */
async function consume(env: Env, queue: EngineMessage[], done: () => boolean) {
  const counts = { acked: 0, retried: 0, judged: 0 };
  const worker = async () => {
    while (!(done() && queue.length === 0)) {
      const take = queue.splice(0, BATCH_SIZE);
      if (take.length === 0) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      const result = await handleEngineBatch(batchOf(take, counts), { ...env, ENGINE_QUEUE: undefined });
      counts.judged += result.judged;
      queue.push(...result.continuations);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return counts;
}

interface KindFigure {
  kind: string;
  subjects: number;
  seconds: number;
  perSecond: number;
  cpuMsPerJudgment: number;
}

/** Judges every stale subject of `kind` in the gallery and reports throughput and CPU. */
async function judgeKind(env: Env, client: pg.Client, galleryId: string, kind: string): Promise<KindFigure> {
  const rows = await client.query<{ subject_id: string }>(
    "select subject_id from judgment_subjects where gallery_id = $1 and kind = $2 and judged_version < version",
    [galleryId, kind],
  );
  const queue: EngineMessage[] = rows.rows.map((r) => ({
    gallery_id: galleryId,
    kind: kind as EngineMessage["kind"],
    subject_id: r.subject_id,
  }));
  const cpu = process.cpuUsage();
  const started = performance.now();
  const counts = await consume(env, queue, () => true);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  if (counts.retried > 0) throw new Error(`${kind}: ${counts.retried} messages retried`);
  return {
    kind,
    subjects: counts.judged,
    seconds,
    perSecond: counts.judged / seconds,
    cpuMsPerJudgment: (used.user + used.system) / 1000 / Math.max(counts.judged, 1),
  };
}

const NOTES = [
  "Excellent condition.",
  "Minor foxing to the margins, not affecting the image.",
  "Craquelure consistent with age; small retouching lower left visible under UV.",
  "Frame chipped at the corner; the work itself is fine.",
  "Tear 3 cm along the lower edge, professionally repaired.",
  "Slight toning overall. Hinged with archival tape.",
  "Good condition. Some light surface dirt.",
  null,
];

const MESSAGES = [
  "Is this still available? What's the price?",
  "Hi, could you send shipping options to Rotterdam for the two prints?",
  "We'd like to reserve the large canvas until Friday, please confirm.",
  "Thanks so much for the evening yesterday!",
  "Out of office until 3 January.",
  "Following up on my email last week — still no answer about the invoice.",
  "Would the gallery consider taking my Kline on consignment?",
  "Bonjour, est-ce que l'œuvre est toujours disponible ?",
];

/** The gallery's data, each subject marked stale by its own event (the trigger), as the API's writes do. */
async function seed(client: pg.Client, galleryId: string): Promise<void> {
  await client.query("insert into galleries (id, name, slug) values ($1, 'Engine bench', $1)", [galleryId]);
  await client.query(
    `insert into artworks (id, gallery_id, title, artist_name, medium, year, height_cm, width_cm, price_cents,
        condition_notes, image_count)
      select new_id('art'), $1, 'Work ' || i, 'Artist ' || (i % 40), (array['Oil on canvas', 'Ink on paper',
        'Bronze', 'Gelatin silver print'])[1 + i % 4], 1950 + i % 70, 40 + i % 90, 30 + i % 70,
        case when i % 5 = 0 then null else 100000 * (1 + i % 50) end, ($2::text[])[1 + i % $3], i % 3
      from generate_series(1, 2000) i`,
    [galleryId, NOTES, NOTES.length],
  );
  await client.query(
    `insert into shows (id, gallery_id, title) select new_id('show'), $1, 'Show ' || i from generate_series(1, 200) i`,
    [galleryId],
  );
  await client.query(
    `insert into show_artworks (gallery_id, show_id, artwork_id, position)
      select $1, s.id, a.id, a.n from (select id, row_number() over (order by id) as r from shows where gallery_id = $1) s
      join lateral (select id, row_number() over (order by id) as n from artworks where gallery_id = $1
        order by id offset (s.r - 1) * 10 limit 10) a on true`,
    [galleryId],
  );
  await client.query(
    `insert into contacts (id, gallery_id, name, contact_type, notes)
      select new_id('con'), $1, 'Contact ' || i, 'collector',
        (array['Collects ink drawings and works on paper.', 'Large abstract canvases, oils.',
          'Photography, mostly gelatin silver prints.', null])[1 + i % 4]
      from generate_series(1, 1000) i`,
    [galleryId],
  );
  await client.query(
    `insert into contact_lists (id, gallery_id, title, kind, is_dynamic, dynamic_query)
      values (new_id('list'), $1, 'Works on paper', 'segment', true,
        '{"described_as": "collectors interested in drawings or works on paper"}'::jsonb)`,
    [galleryId],
  );
  // One event per subject marks it, exactly as a write's outbox row does.
  await client.query(
    `insert into domain_events (id, gallery_id, type, livemode, resource_type, resource_id, data)
      select new_id('evt'), $1, 'artwork.created', false, 'artwork', id, '{"object":{}}'::jsonb from artworks where gallery_id = $1
      union all
      select new_id('evt'), $1, 'show.created', false, 'show', id, '{"object":{}}'::jsonb from shows where gallery_id = $1
      union all
      select new_id('evt'), $1, 'contact.created', false, 'contact', id, '{"object":{}}'::jsonb from contacts where gallery_id = $1
      union all
      select new_id('evt'), $1, 'contact_list.created', false, 'contact_list', id,
        jsonb_build_object('object', jsonb_build_object('dynamic_query', dynamic_query))
        from contact_lists where gallery_id = $1`,
    [galleryId],
  );
}

/** The burst: BURST inbound messages on as many threads, 100 a transaction, handed to the consumers as sent. */
async function burst(env: Env, client: pg.Client, galleryId: string) {
  const member = await client.query<{ id: string }>(
    `insert into members (id, gallery_id, email, name, role, password_hash)
      values (new_id('mem'), $1, $1 || '@bench.example', 'Bench', 'editor', 'x') returning id`,
    [galleryId],
  );
  const memberId = member.rows[0]?.id as string;
  const queue: EngineMessage[] = [];
  let producing = true;
  const consumers = consume(env, queue, () => !producing);
  const started = performance.now();
  for (let sent = 0; sent < BURST; sent += 100) {
    const rows = await client.query<{ thread_id: string }>(
      `with t as (
          insert into inbox_threads (id, gallery_id, member_id, channel, subject, last_message_at)
          select new_id('thr'), $1, $2, 'email', 'Enquiry ' || ($3 + i), now() from generate_series(1, 100) i
          returning id
        ), m as (
          insert into inbox_messages (id, gallery_id, thread_id, direction, from_address, body, sent_at)
          select new_id('msg'), $1, t.id, 'inbound', 'c' || row_number() over () || '@example.com',
            ($4::text[])[1 + (row_number() over ())::int % $5], now()
          from t returning id, thread_id
        ), e as (
          insert into domain_events (id, gallery_id, type, livemode, resource_type, resource_id, data)
          select new_id('evt'), $1, 'inbox_message.received', false, 'inbox_message', m.id,
            jsonb_build_object('object', jsonb_build_object('id', m.id, 'thread_id', m.thread_id))
          from m returning 1
        )
        select m.thread_id from m, (select count(*) from e) c`,
      [galleryId, memberId, sent, MESSAGES, MESSAGES.length],
    );
    queue.push(
      ...rows.rows.map((r) => ({
        gallery_id: galleryId,
        kind: "inbox_thread" as const,
        subject_id: r.thread_id,
      })),
    );
  }
  const ingestSeconds = (performance.now() - started) / 1000;
  producing = false;
  const counts = await consumers;
  const seconds = (performance.now() - started) / 1000;
  const lag = await client.query<{ p50: number; p99: number; max: number }>(
    `select percentile_cont(0.5) within group (order by ms) as p50, percentile_cont(0.99) within group (order by ms) as p99,
        max(ms) as max
      from (select extract(epoch from (judged_at - stale_since)) * 1000 as ms from judgment_subjects
        where gallery_id = $1 and kind = 'inbox_thread') l`,
    [galleryId],
  );
  return { messages: BURST, judged: counts.judged, ingestSeconds, seconds, lag: lag.rows[0] };
}

async function main(): Promise<void> {
  process.chdir(ROOT);
  const db = await startDatabase({ dataDir: DATA_DIR, database: "bench_engine" });
  const neon = await startNeonLocal({ port: 0, log: (m) => console.error(`[neon-local] ${m}`) });
  const client = new pg.Client({ connectionString: db.url });
  try {
    await migrateDatabase(db.url);
    await client.connect();
    const env: Env = { DATABASE_URL: db.url, NEON_LOCAL_ENDPOINT: neon.url };
    const galleryId = `gal_bench_engine_${Date.now()}`;
    say(`seeding ${galleryId}: 2,000 artworks, 200 shows of 10 works, 1,000 contacts, one described_as list`);
    await seed(client, galleryId);
    const kinds: KindFigure[] = [];
    for (const kind of ["artwork", "show", "contact_list", "contact"]) {
      const figure = await judgeKind(env, client, galleryId, kind);
      if (kind === "contact_list") {
        // One list judgment is a verdict for every contact of the gallery, a page of 500 a message.
        const verdicts = await client.query<{ n: string }>(
          "select count(*) as n from rubric_judgments where gallery_id = $1",
          [galleryId],
        );
        figure.kind = `contact_list (${verdicts.rows[0]?.n} contact verdicts)`;
      }
      say(
        `${kind}: ${figure.subjects} in ${figure.seconds.toFixed(2)} s, ${figure.perSecond.toFixed(0)}/s, CPU ${figure.cpuMsPerJudgment.toFixed(2)} ms each`,
      );
      kinds.push(figure);
    }
    say(
      `burst: ${BURST} inbound messages, 100 a transaction, consumed ${BATCH_SIZE} a batch × ${CONCURRENCY}`,
    );
    const cpu = process.cpuUsage();
    const b = await burst(env, client, galleryId);
    const used = process.cpuUsage(cpu);
    say(
      `burst: ingested in ${b.ingestSeconds.toFixed(1)} s, all ${b.judged} judged in ${b.seconds.toFixed(1)} s; lag p50 ${Math.round(b.lag?.p50 ?? 0)} ms, p99 ${Math.round(b.lag?.p99 ?? 0)} ms`,
    );
    kinds.push({
      kind: "inbox_thread (burst)",
      subjects: b.judged,
      seconds: b.seconds,
      perSecond: b.judged / b.seconds,
      cpuMsPerJudgment: (used.user + used.system) / 1000 / Math.max(b.judged, 1),
    });
    const engineBundle = await dryRun("wrangler.engine.toml");
    const apiBundle = await dryRun("wrangler.toml");
    say(`bundles: engine ${engineBundle.gzipKiB} KiB gzip, API ${apiBundle.gzipKiB} KiB gzip`);

    const models = (
      await client.query<{ model: string }>(
        "select distinct model from judgments where gallery_id = $1 order by model",
        [galleryId],
      )
    ).rows.map((r) => r.model);
    const report = {
      at: new Date().toISOString(),
      models,
      kinds,
      burst: b,
      bundles: {
        engine: { totalKiB: engineBundle.totalKiB, gzipKiB: engineBundle.gzipKiB },
        api: { totalKiB: apiBundle.totalKiB, gzipKiB: apiBundle.gzipKiB },
      },
    };
    mkdirSync("bench/results", { recursive: true });
    writeFileSync("bench/results/engine.json", `${JSON.stringify(report, null, 2)}\n`);
    const lines = [
      "# Engine loop",
      "",
      `Run ${report.at} (\`npm run bench:engine\`): the engine's batch handler in Node against embedded PostgreSQL through the local Neon endpoint, batches of ${BATCH_SIZE}, ${CONCURRENCY} at a time. CPU is the handler's and the judges' (this process), not PostgreSQL's.`,
      "",
      `Judges: ${models.map((m) => `\`${m}\``).join(", ")}.`,
      "",
      "| kind | judged | seconds | judgments/s | CPU ms / judgment |",
      "| --- | ---: | ---: | ---: | ---: |",
      ...kinds.map(
        (k) =>
          `| ${k.kind} | ${k.subjects} | ${k.seconds.toFixed(2)} | ${k.perSecond.toFixed(0)} | ${k.cpuMsPerJudgment.toFixed(2)} |`,
      ),
      "",
      `Burst of ${b.messages} ingested messages (100 a transaction): ingested in ${b.ingestSeconds.toFixed(1)} s, all judged ${b.seconds.toFixed(1)} s after the first; write-to-judgment lag p50 ${Math.round(b.lag?.p50 ?? 0)} ms, p99 ${Math.round(b.lag?.p99 ?? 0)} ms, max ${Math.round(b.lag?.max ?? 0)} ms.`,
      "",
      `Bundles (\`wrangler deploy --dry-run\`): engine Worker ${engineBundle.totalKiB} KiB / gzip ${engineBundle.gzipKiB} KiB; API Worker ${apiBundle.totalKiB} KiB / gzip ${apiBundle.gzipKiB} KiB.`,
      "",
    ];
    writeFileSync("bench/results/engine.md", lines.join("\n"));
    // The loop's tables hold no foreign key to the gallery: removed beside it.
    await client.query("delete from galleries where id = $1", [galleryId]);
    await client.query("delete from judgment_subjects where gallery_id = $1", [galleryId]);
    await client.query("delete from judgments where gallery_id = $1", [galleryId]);
  } finally {
    await client.end().catch(() => {});
    await neon.close();
    await db.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
