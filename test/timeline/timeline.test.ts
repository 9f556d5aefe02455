import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { artworkActivityEvents, contacts } from "../../db/schema";
import { newId } from "../../lib/ids";
import { ArtworkActivityEvent } from "../../lib/schemas/artwork-timeline";
import { create, forgetCachedResponse, ISO_MS, keyId, seedArtwork, UUID } from "../artworks/helpers";
import { call, createGallery, db, readJson, type TestGallery } from "../helpers/gallery";
import { getPage, pageOf, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { insertRow, minutesAfterEpoch, outboxEvents } from "../helpers/seed";

/** The artwork activity timeline: GET and POST /gallery/artworks/{id}/events. */

type Entry = z.infer<typeof ArtworkActivityEvent>;

const events = (artworkId: string) => `/gallery/artworks/${artworkId}/events`;

async function seedEntry(galleryId: string, artworkId: string, occurredAt: string, summary = "Seeded") {
  const id = crypto.randomUUID();
  await db().execute(
    insertRow(artworkActivityEvents, {
      id,
      gallery_id: galleryId,
      artwork_id: artworkId,
      event_type: "interaction",
      summary,
      metadata: { seeded: true },
      occurred_at: occurredAt,
      created_at: occurredAt,
    }),
  );
  return id;
}

async function seedContact(galleryId: string, name: string): Promise<string> {
  const id = newId("con");
  await db().execute(insertRow(contacts, { id, gallery_id: galleryId, name }));
  return id;
}

async function timeline(g: TestGallery, artworkId: string): Promise<Entry[]> {
  return (await getPage<Entry>(g.key, events(artworkId), "limit=100")).data;
}

describe("GET /gallery/artworks/{id}/events", () => {
  it("shows the entry of a newly created artwork with exactly the spec's fields", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Fresh" });
    const page = await readJson(
      pageOf(ArtworkActivityEvent),
      await call("GET", events(work.id), { key: g.key }),
    );
    expect(page).toEqual({
      data: [
        {
          id: expect.stringMatching(UUID),
          artwork_id: work.id,
          actor_id: await keyId(g.key),
          contact_id: null,
          ref_id: null,
          event_type: "created",
          ref_table: null,
          summary: expect.stringContaining("Fresh"),
          metadata: {},
          occurred_at: work.created_at,
          created_at: work.created_at,
        },
      ],
      next_cursor: null,
    });
    expect(Object.keys(page.data[0]!)).toEqual(Object.keys(ArtworkActivityEvent.shape));
  });

  it("walks 45 entries newest first in pages, without duplicates or skips, ties broken by id", async () => {
    const g = await createGallery();
    const work = await seedArtwork(g.id);
    // Three entries share each minute, so the id decides between them.
    for (let i = 0; i < 45; i++) await seedEntry(g.id, work, minutesAfterEpoch(100 + Math.floor(i / 3)));
    const expected = (
      await db().execute<{ id: string }>(
        sql`select id::text as id from artwork_activity_events where artwork_id = ${work}
          order by occurred_at desc, id::text desc`,
      )
    ).rows.map((r) => r.id);
    expect(expected).toHaveLength(45);

    let olderDuringWalk: string | null = null;
    const pages = await walkPages<Entry>(g.key, events(work), { limit: "10" }, async (_, index) => {
      // An entry inserted behind the cursor during the walk is reached when the walk gets there.
      if (index === 0) olderDuringWalk = await seedEntry(g.id, work, minutesAfterEpoch(1));
    });
    expect(pages.map((p) => p.data.length)).toEqual([10, 10, 10, 10, 6]);
    const walked = pages.flatMap((p) => p.data.map((e) => e.id));
    expect(walked).toEqual([...expected, olderDuringWalk]);
    expect(new Set(walked).size).toBe(46);
    const times = pages.flatMap((p) => p.data.map((e) => Date.parse(e.occurred_at)));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const ascending = await walkPages<Entry>(g.key, events(work), { limit: "7", dir: "asc" });
    expect(ascending.flatMap((p) => p.data.map((e) => e.id))).toEqual([
      olderDuringWalk,
      ...expected.reverse(),
    ]);
  });

  it("answers an empty page for a work with no entries, and 404 for another gallery's work or an unknown one", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const quiet = await seedArtwork(g.id);
    expect(await getPage(g.key, events(quiet))).toEqual({ data: [], next_cursor: null });
    const theirs = await seedArtwork(other.id);
    await seedEntry(other.id, theirs, minutesAfterEpoch(5));
    await expectProblem(await call("GET", events(theirs), { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", events(newId("art")), { key: g.key }), 404, "not_found");
    expect((await getPage(other.key, events(theirs))).data).toHaveLength(1);
  });
});

describe("POST /gallery/artworks/{id}/events", () => {
  it("records interest from a contact, with a default summary, and emits artwork.interest_recorded", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Coveted" });
    const contact = await seedContact(g.id, "Ada Lovelace");
    const res = await call("POST", events(work.id), {
      key: g.key,
      body: { contact_id: contact, metadata: { source: "fair", estimate: { low: 1, high: 2 } } },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const entry = await readJson(ArtworkActivityEvent, res);
    expect(entry).toEqual({
      id: expect.stringMatching(UUID),
      artwork_id: work.id,
      actor_id: await keyId(g.key),
      contact_id: contact,
      ref_id: null,
      event_type: "interest",
      ref_table: null,
      summary: "Interest from Ada Lovelace",
      metadata: { source: "fair", estimate: { low: 1, high: 2 } },
      occurred_at: expect.stringMatching(ISO_MS),
      created_at: expect.stringMatching(ISO_MS),
    });
    expect((await timeline(g, work.id))[0]).toEqual(entry);
    const recorded = (await outboxEvents(g.id)).filter((e) => e.type === "artwork.interest_recorded");
    expect(recorded).toEqual([
      {
        id: expect.any(String),
        type: "artwork.interest_recorded",
        resource_id: entry.id,
        data: { object: entry },
      },
    ]);
  });

  it("takes a summary of its own and a past occurred_at, placed in the timeline by when it happened", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Seen at the fair" });
    const res = await call("POST", events(work.id), {
      key: g.key,
      body: { summary: "Asked for first refusal", occurred_at: "2024-02-29T10:30Z" },
    });
    const entry = await readJson(ArtworkActivityEvent, res);
    expect(res.status).toBe(201);
    expect(entry).toMatchObject({
      summary: "Asked for first refusal",
      contact_id: null,
      metadata: {},
      occurred_at: "2024-02-29T10:30:00.000Z",
    });
    expect(Date.parse(entry.created_at)).toBeGreaterThan(Date.parse(entry.occurred_at));
    expect((await timeline(g, work.id)).map((e) => e.event_type)).toEqual(["created", "interest"]);
    const bare = await readJson(
      ArtworkActivityEvent,
      await call("POST", events(work.id), { key: g.key, body: {} }),
    );
    expect(bare.summary).toBe("Interest recorded");
  });

  it.each([
    ["contact_id", { contact_id: "art_01jd4xk9v2c7h8m3n5p6q7r8s9" }],
    ["contact_id", { contact_id: 7 }],
    ["summary", { summary: "x".repeat(501) }],
    ["summary", { summary: "  " }],
    ["metadata", { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }],
    ["metadata", { metadata: { big: "x".repeat(9000) } }],
    ["metadata", { metadata: ["not", "a", "map"] }],
    ["occurred_at", { occurred_at: "2024-02-30T00:00Z" }],
    ["occurred_at", { occurred_at: "2024-02-29T10:30:00+01:00" }],
    ["occurred_at", { occurred_at: "2999-01-01T00:00:00Z" }],
    ["event_type", { event_type: "created" }],
  ])("400 naming %s (case %#); nothing is recorded", async (field, body) => {
    const g = await createGallery();
    const work = await create(g, { title: "Strict" });
    const res = await call("POST", events(work.id), { key: g.key, body });
    await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    expect((await timeline(g, work.id)).map((e) => e.event_type)).toEqual(["created"]);
  });

  it("refuses a contact of another gallery or an unknown one (400 contact_id); 404 for another gallery's work", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const work = await create(g, { title: "Mine" });
    for (const contact of [await seedContact(other.id, "Elsewhere"), newId("con")]) {
      const res = await call("POST", events(work.id), { key: g.key, body: { contact_id: contact } });
      await expectProblem(res, 400, "invalid_request", { field: "contact_id", location: "body" });
    }
    const theirs = await create(other, { title: "Theirs" });
    await expectProblem(await call("POST", events(theirs.id), { key: g.key, body: {} }), 404, "not_found");
    expect((await timeline(other, theirs.id)).map((e) => e.event_type)).toEqual(["created"]);
  });

  it("replays a retry with the same Idempotency-Key: one entry, one event", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Once" });
    const headers = { "Idempotency-Key": "interest-once" };
    const body = { summary: "Phoned about it" };
    const first = await call("POST", events(work.id), { key: g.key, body, headers });
    expect(first.status).toBe(201);
    const firstText = await first.text();
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const again = await call("POST", events(work.id), { key: g.key, body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(firstText);
    expect((await timeline(g, work.id)).map((e) => e.event_type)).toEqual(["interest", "created"]);
    expect((await outboxEvents(g.id)).filter((e) => e.type === "artwork.interest_recorded")).toHaveLength(1);
  });
});
