import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "../../db/client";
import { textArray } from "../../db/queries/rows";
import { isCalibrationMap } from "../../lib/engine/calibration";
import type { EngineMessage } from "../../lib/engine-queue";
import { newId } from "../../lib/ids";
import { Match, RECOMMENDATION_FLOOR } from "../../lib/schemas/matches";
import type { EngineBatchResult } from "../../services/engine/consume";
import { fitMatchModels } from "../../services/engine/fit-matches";
import { judgeContactMatches } from "../../services/engine/matches";
import { runEngineBatch, staleMessages } from "../helpers/engine-loop";
import { call, createGallery, db, type TestGallery } from "../helpers/gallery";

/**
 * The matcher in the engine loop, in workerd against PostgreSQL: histories written through the API (artworks,
 * sales, interactions, engagements, archive and restore), the engine's batch handler run over what is stale, and
 * the stored pairs read back from recommendation_matches and match_evidence. The assertions hold for any sane
 * matcher (a work bought by nobody, by the same artist as a contact's purchase, is a candidate; a sold work is
 * not): they are about the loop, not about probabilities.
 */

/** Runs the engine's batch handler over these messages, as the Queue would deliver them; none is retried. */
async function runBatch(messages: EngineMessage[]): Promise<EngineBatchResult> {
  const { result } = await runEngineBatch(messages);
  expect(result.retried).toBe(0);
  return result;
}

/** Judges everything stale (and what judging marks again) until nothing is. */
async function judgeAll(g: TestGallery): Promise<void> {
  let messages = await staleMessages(g);
  for (let round = 0; messages.length > 0 && round < 10; round++) {
    await runBatch(messages);
    messages = await staleMessages(g);
  }
  expect(await staleMessages(g)).toEqual([]);
}

async function post(g: TestGallery, path: string, body: unknown = {}): Promise<string> {
  const res = await call("POST", path, { key: g.key, body });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return ((await res.json()) as { id: string }).id;
}

async function artist(g: TestGallery, name: string): Promise<string> {
  return post(g, "/gallery/artists", { name });
}

/** A published work. */
async function work(
  g: TestGallery,
  artistId: string,
  title: string,
  medium: string,
  priceCents: number,
): Promise<string> {
  const id = await post(g, "/gallery/artworks", {
    title,
    medium,
    price_cents: priceCents,
    currency: "USD",
    artists: [{ artist_id: artistId }],
  });
  await post(g, `/gallery/artworks/${id}/publish`);
  return id;
}

async function contact(g: TestGallery, name: string): Promise<string> {
  return post(g, "/gallery/contacts", { name });
}

async function sale(
  g: TestGallery,
  contactId: string,
  artworkIds: string[],
  amount = 300_000,
): Promise<string> {
  return post(g, "/gallery/sales", { contact_id: contactId, artwork_ids: artworkIds, amount_cents: amount });
}

type PairRow = {
  id: string;
  contact_id: string;
  artwork_id: string;
  probability: number;
  status: string;
  hidden_until: string | null;
  judged_at: string;
  updated_at: string;
  evidence_count: number;
  reasons: { evidence_id: string | null }[];
  counterpart_name: string | null;
};

async function pairs(g: TestGallery, contactId: string): Promise<Map<string, PairRow>> {
  const rows = await db().execute<PairRow>(
    sql`select id, contact_id, artwork_id, probability, status, hidden_until::text, judged_at::text,
        updated_at::text, evidence_count, reasons, counterpart_name
      from recommendation_matches where gallery_id = ${g.id} and contact_id = ${contactId}`,
  );
  return new Map(rows.rows.map((r) => [r.artwork_id, r]));
}

async function matchEvents(g: TestGallery) {
  const rows = await db().execute<{ type: string; resource_id: string; data: Record<string, unknown> }>(
    sql`select type, resource_id, data from domain_events where gallery_id = ${g.id} and type like 'match.%'
      order by created_at, id`,
  );
  return rows.rows;
}

/** Records a domain event as a write would (the trigger marks its subjects). */
async function recordEvent(g: TestGallery, type: string, resourceId: string, data: unknown): Promise<void> {
  await db().execute(sql`insert into domain_events (id, gallery_id, type, livemode, resource_type, resource_id, data)
    values (${newId("evt")}, ${g.id}, ${type}, false, 'match', ${resourceId}, ${JSON.stringify(data)}::jsonb)`);
}

/** A member's feedback on a pair, as the feedback route stores it, with the event that marks the contact. */
async function feedback(
  g: TestGallery,
  contactId: string,
  artworkId: string,
  action: string,
  hiddenUntil: string | null = null,
): Promise<string> {
  const id = newId("mfb");
  await db().execute(sql`insert into match_feedback (id, gallery_id, contact_id, artwork_id, action, hidden_until)
    values (${id}, ${g.id}, ${contactId}, ${artworkId}, ${action}, ${hiddenUntil})`);
  await recordEvent(g, "match.feedback_recorded", id, { object: { contact_id: contactId } });
  return id;
}

/** A gallery with two artists: a buyer of one painting by the first, and works by both. */
async function history() {
  const g = await createGallery();
  const painter = await artist(g, "Ines Marchetti");
  const photographer = await artist(g, "Tomas Berg");
  const bought = await work(g, painter, "Harbour I", "Oil on canvas", 300_000);
  const second = await work(g, painter, "Harbour II", "Oil on canvas", 320_000);
  const third = await work(g, painter, "Harbour III", "Oil on linen", 280_000);
  const photo = await work(g, photographer, "Pier at dawn", "Archival pigment print", 150_000);
  const buyer = await contact(g, "Ada Collector");
  const saleId = await sale(g, buyer, [bought]);
  await judgeAll(g);
  return { g, painter, photographer, bought, second, third, photo, buyer, saleId };
}

describe("a contact's matches in the loop", () => {
  it("judges a buyer's candidates: works by the artist it bought, never the work it bought", async () => {
    const { g, bought, second, third, buyer } = await history();
    const stored = await pairs(g, buyer);
    expect(stored.has(bought)).toBe(false);
    expect(stored.get(second)?.status).toBe("active");
    expect(stored.get(third)?.status).toBe("active");
    expect(stored.get(second)?.counterpart_name).toBe("Harbour II — Ines Marchetti");

    // Every stored pair at or above the visible floor was announced once, with a Match as its object.
    const events = await matchEvents(g);
    const visible = [...stored.values()].filter((p) => p.probability >= RECOMMENDATION_FLOOR);
    expect(visible.length).toBeGreaterThan(0);
    expect(
      events
        .filter((e) => e.type === "match.created")
        .map((e) => e.resource_id)
        .sort(),
    ).toEqual(visible.map((p) => p.id).sort());
    for (const e of events) expect(Match.safeParse(e.data.object).success, JSON.stringify(e.data)).toBe(true);
  });

  it("evidence ids resolve to real rows, and reasons are the head of the evidence", async () => {
    const { g, buyer, second, saleId } = await history();
    const interaction = await post(g, `/gallery/contacts/${buyer}/interactions`, {
      type: "email",
      direction: "inbound",
      summary: "Asked whether Harbour II is still available",
      artwork_id: second,
    });
    await post(g, `/gallery/contacts/${buyer}/engagements`, { kind: "artwork_viewed", artwork_id: second });
    await judgeAll(g);
    const rows = await db().execute<{ match_id: string; evidence_ref: string | null; kind: string }>(
      sql`select e.match_id, e.evidence_ref, e.kind from match_evidence e
        join recommendation_matches m on m.id = e.match_id
        where m.gallery_id = ${g.id} and m.contact_id = ${buyer}`,
    );
    expect(rows.rows.length).toBeGreaterThan(0);
    const refs = rows.rows.map((r) => r.evidence_ref).filter((r): r is string => r !== null);
    expect(refs).toContain(saleId);
    expect(refs).toContain(interaction);
    const resolved = await db().execute<{ id: string }>(
      sql`with r as (select unnest(${textArray(refs)}) as id)
        select id from sales where id in (select id from r) union select id from interactions where id in (select id from r)
        union select id from engagement_events where id in (select id from r)
        union select id from contacts where id in (select id from r)
        union select id from private_notes where id in (select id from r)
        union select id from match_feedback where id in (select id from r)`,
    );
    expect(new Set(resolved.rows.map((r) => r.id))).toEqual(new Set(refs));
    for (const pair of (await pairs(g, buyer)).values()) {
      const count = rows.rows.filter((r) => r.match_id === pair.id).length;
      expect(pair.evidence_count).toBe(count);
      expect(pair.reasons.length).toBe(Math.min(count, 3));
    }
  });

  it("a sale makes the sold work's pairs inactive at once, and a cancelled sale brings them back", async () => {
    const { g, buyer, second } = await history();
    const before = (await pairs(g, buyer)).get(second)!;
    expect(before.status).toBe("active");
    const other = await contact(g, "Ben Buyer");
    const saleId = await sale(g, other, [second]);
    // The sale marked the work itself: one batch over the stale subjects makes the pair inactive.
    const stale = await staleMessages(g);
    expect(stale).toContainEqual({ gallery_id: g.id, kind: "artwork", subject_id: second });
    await runBatch(stale.filter((m) => m.kind === "artwork"));
    const after = (await pairs(g, buyer)).get(second)!;
    expect(after).toMatchObject({ id: before.id, status: "inactive" });
    if (before.probability >= RECOMMENDATION_FLOOR) {
      const updated = (await matchEvents(g)).filter(
        (e) => e.type === "match.updated" && e.resource_id === before.id,
      );
      expect(updated).toHaveLength(1);
      expect(updated[0]?.data.previous_attributes).toEqual({ status: "active" });
      expect(Match.parse(updated[0]?.data.object).status).toBe("inactive");
    }
    await judgeAll(g);
    expect((await pairs(g, buyer)).get(second)?.status).toBe("inactive");
    // Never a candidate for the new buyer either.
    expect((await pairs(g, other)).has(second)).toBe(false);

    const res = await call("PATCH", `/gallery/sales/${saleId}`, {
      key: g.key,
      body: { status: "cancelled" },
    });
    expect(res.status).toBe(200);
    await judgeAll(g);
    expect((await pairs(g, buyer)).get(second)).toMatchObject({ id: before.id, status: "active" });
  });

  it("a purchase or an inquiry changes the contact's candidates", async () => {
    const { g, photo, photographer } = await history();
    const newcomer = await contact(g, "Cleo New");
    await judgeAll(g);
    expect((await pairs(g, newcomer)).size).toBe(0);

    await post(g, `/gallery/contacts/${newcomer}/interactions`, {
      type: "email",
      direction: "inbound",
      summary: "Is the pier photograph still available?",
      artwork_id: photo,
    });
    await judgeAll(g);
    expect((await pairs(g, newcomer)).get(photo)?.status).toBe("active");

    // Buying it: the work is theirs, no longer a candidate; another work by the photographer becomes one.
    const next = await work(g, photographer, "Pier at dusk", "Archival pigment print", 160_000);
    await sale(g, newcomer, [photo], 150_000);
    await judgeAll(g);
    const stored = await pairs(g, newcomer);
    expect(stored.get(photo)?.status).toBe("inactive");
    expect(stored.get(next)?.status).toBe("active");
  });

  it("a new work is judged for the contacts it may suit, in reverse", async () => {
    const { g, painter, buyer } = await history();
    const fresh = await work(g, painter, "Harbour IV", "Oil on canvas", 310_000);
    // Publishing marked the work; judging it marks its artist's buyer, judged in the next batch.
    await runBatch(await staleMessages(g));
    expect(await staleMessages(g)).toContainEqual({ gallery_id: g.id, kind: "contact", subject_id: buyer });
    await judgeAll(g);
    expect((await pairs(g, buyer)).get(fresh)?.status).toBe("active");
  });

  it("a changed price re-judges the work's stored pairs", async () => {
    const { g, buyer, second } = await history();
    const before = (await pairs(g, buyer)).get(second)!;
    // A published work's edit goes to its draft; publishing it is the change the loop sees.
    const res = await call("PATCH", `/gallery/artworks/${second}`, {
      key: g.key,
      body: { price_cents: 90_000_000, currency: "USD" },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await post(g, `/gallery/artworks/${second}/publish`);
    await judgeAll(g);
    const after = (await pairs(g, buyer)).get(second);
    // Judged again from the new price: stored anew (same id) or dropped, never left as it was.
    if (after) {
      expect(after.id).toBe(before.id);
      expect(after.judged_at).not.toBe(before.judged_at);
    }
  });

  it("honours feedback: not interested dismisses the pair, a hide sets hidden_until until an unhide", async () => {
    const { g, buyer, second, third } = await history();
    const ids = await pairs(g, buyer);
    await feedback(g, buyer, second, "not_interested");
    await feedback(g, buyer, third, "hide", "2030-06-01T00:00:00.000Z");
    await judgeAll(g);
    let stored = await pairs(g, buyer);
    expect(stored.get(second)).toMatchObject({ id: ids.get(second)?.id, status: "dismissed" });
    expect(stored.get(third)).toMatchObject({ status: "active" });
    expect(Date.parse(stored.get(third)!.hidden_until!)).toBe(Date.parse("2030-06-01T00:00:00Z"));

    await feedback(g, buyer, third, "unhide");
    await feedback(g, buyer, second, "unhide");
    await judgeAll(g);
    stored = await pairs(g, buyer);
    expect(stored.get(third)?.hidden_until).toBeNull();
    expect(stored.get(second)?.status).toBe("active");
  });

  it("an archived contact's pairs go inactive; restored, it is judged again", async () => {
    const { g, buyer, second } = await history();
    expect(await call("POST", `/gallery/contacts/${buyer}/archive`, { key: g.key })).toHaveProperty(
      "status",
      200,
    );
    await judgeAll(g);
    expect([...(await pairs(g, buyer)).values()].every((p) => p.status === "inactive")).toBe(true);
    expect(await call("POST", `/gallery/contacts/${buyer}/restore`, { key: g.key })).toHaveProperty(
      "status",
      200,
    );
    await judgeAll(g);
    expect((await pairs(g, buyer)).get(second)?.status).toBe("active");
  });

  it("the same input twice writes nothing: no row, judged_at or event moves", async () => {
    const { g, buyer } = await history();
    const before = await pairs(g, buyer);
    const events = (await matchEvents(g)).length;
    const evidence = await db().execute<{ id: string }>(
      sql`select id from match_evidence where gallery_id = ${g.id} order by id`,
    );
    await recordEvent(g, "contact.updated", buyer, { object: {} });
    expect(await staleMessages(g)).toEqual([{ gallery_id: g.id, kind: "contact", subject_id: buyer }]);
    await judgeAll(g);
    expect(await pairs(g, buyer)).toEqual(before);
    expect((await matchEvents(g)).length).toBe(events);
    const again = await db().execute<{ id: string }>(
      sql`select id from match_evidence where gallery_id = ${g.id} order by id`,
    );
    expect(again.rows).toEqual(evidence.rows);
  });

  it("fits the gallery's model on its outcomes; contacts judged after it use it, pair ids stay", async () => {
    const { g, buyer } = await history();
    const before = await pairs(g, buyer);
    const [fit] = await fitMatchModels(env, { galleryId: g.id });
    expect(fit).toMatchObject({ gallery_id: g.id });
    const rows = await db().execute<{
      examples: number;
      positives: number;
      calibration: { reliability?: unknown[]; outcomes?: number };
      affinity: { neighbours: Record<string, unknown>; contacts: number } | null;
    }>(sql`select examples, positives, calibration, affinity from match_models where gallery_id = ${g.id}`);
    expect(rows.rows[0]?.positives).toBeGreaterThan(0);
    // The artists the gallery's collectors buy together are learned in the same step and stored with the model.
    expect(rows.rows[0]?.affinity).toMatchObject({ neighbours: expect.any(Object) });
    expect(rows.rows[0]?.affinity?.contacts).toBeGreaterThan(0);
    expect(rows.rows[0]?.examples).toBeGreaterThan(rows.rows[0]?.positives ?? 0);
    // Its calibration map (cross-fitted on its outcomes, shrunk toward the global one), the reliability beside it.
    expect(isCalibrationMap(rows.rows[0]?.calibration)).toBe(true);
    expect(rows.rows[0]?.calibration.outcomes).toBe(rows.rows[0]?.examples);
    expect(Array.isArray(rows.rows[0]?.calibration.reliability)).toBe(true);

    await recordEvent(g, "contact.updated", buyer, { object: {} });
    await judgeAll(g);
    const after = await pairs(g, buyer);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [artworkId, pair] of after) {
      expect(pair.id).toBe(before.get(artworkId)?.id);
      // A new model is a new input: judged again.
      expect(pair.judged_at).not.toBe(before.get(artworkId)?.judged_at);
    }
  });

  it("judges a batch of contacts in the same number of round trips as one", async () => {
    const { g, painter } = await history();
    const buyers: string[] = [];
    for (let i = 0; i < 12; i++) {
      const c = await contact(g, `Buyer ${i}`);
      const w = await work(g, painter, `Study ${i}`, "Oil on board", 200_000 + i);
      await sale(g, c, [w]);
      buyers.push(c);
    }
    await judgeAll(g);
    const counting = () => {
      let trips = 0;
      const real = db();
      const proxy = new Proxy(real, {
        get(target, prop, receiver) {
          if (prop === "execute" || prop === "batch") {
            return (...args: unknown[]) => {
              // A batch is one round trip; the statements built for it are not sent on their own.
              trips += prop === "batch" ? 1 - (args[0] as unknown[]).length : 1;
              return (Reflect.get(target, prop, receiver) as (...a: unknown[]) => unknown).apply(
                target,
                args,
              );
            };
          }
          return Reflect.get(target, prop, receiver);
        },
      }) as Db;
      return { proxy, trips: () => trips };
    };
    const one = counting();
    await judgeContactMatches(one.proxy, g.id, buyers.slice(0, 1), new Date());
    const many = counting();
    const out = await judgeContactMatches(many.proxy, g.id, buyers, new Date());
    expect(one.trips()).toBe(2);
    expect(many.trips()).toBe(2);
    expect(out.pairs).toBeGreaterThan(buyers.length);
  });
});

describe("what marks a match input (engine_subjects_of)", () => {
  async function subjectsOf(galleryId: string, type: string, resourceId: string, data: unknown) {
    const rows = await db().execute<{ kind: string; subject_id: string }>(
      sql`select kind, subject_id from engine_subjects_of(${galleryId}, ${type}, ${resourceId}, ${JSON.stringify(data)}::jsonb)
        order by kind, subject_id`,
    );
    return rows.rows.map((r) => `${r.kind}:${r.subject_id}`);
  }

  it("a sale marks its works and its buyer; feedback and archiving mark the contact; the engine's events nothing", async () => {
    const g = await createGallery();
    const cases: [string, string, unknown, string[]][] = [
      [
        "sale.created",
        "sale_1",
        { object: { contact_id: "con_1", artwork_ids: ["art_1", "art_2"] } },
        ["artwork:art_1", "artwork:art_2", "contact:con_1"],
      ],
      [
        "sale.updated",
        "sale_1",
        {
          object: { contact_id: "con_1", artwork_ids: ["art_2"] },
          previous_attributes: { artwork_ids: ["art_1", "art_2"] },
        },
        ["artwork:art_1", "artwork:art_2", "contact:con_1"],
      ],
      ["sale.deleted", "sale_1", { object: { contact_id: null, artwork_ids: ["art_3"] } }, ["artwork:art_3"]],
      ["match.feedback_recorded", "mfb_1", { object: { contact_id: "con_1" } }, ["contact:con_1"]],
      ["contact.archived", "con_4", { object: {} }, ["contact:con_4"]],
      ["match.created", "match_1", { object: { contact_id: "con_1", artwork_id: "art_1" } }, []],
      ["match.updated", "match_1", { object: { contact_id: "con_1", artwork_id: "art_1" } }, []],
      ["match.deleted", "match_1", { object: { contact_id: "con_1", artwork_id: "art_1" } }, []],
    ];
    for (const [type, resourceId, data, expected] of cases) {
      expect(await subjectsOf(g.id, type, resourceId, data), type).toEqual(expected);
    }
  });
});
