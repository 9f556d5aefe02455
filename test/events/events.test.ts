import type { z } from "@hono/zod-openapi";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { Artwork } from "../../lib/schemas/artworks";
import type { DomainEvent } from "../../lib/schemas/events";
import { call, createGallery, readJson, type TestGallery } from "../helpers/gallery";
import { compareKeys, getPage, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { minutesAfterEpoch, seedEvent } from "../helpers/seed";

/** An event as the API shows it. */
type DomainEventBody = z.infer<typeof DomainEvent>;

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function createArtwork(g: TestGallery, body: Record<string, unknown>) {
  const res = await call("POST", "/gallery/artworks", { key: g.key, body });
  expect(res.status).toBe(201);
  return readJson(Artwork, res);
}

/** The expected keyset order of events: (created_at, id), newest first unless asc. */
function ordered(events: { id: string; created_at: string }[], dir: "asc" | "desc"): string[] {
  const asc = [...events]
    .sort((a, b) => compareKeys([a.created_at, a.id], [b.created_at, b.id]))
    .map((e) => e.id);
  return dir === "asc" ? asc : asc.reverse();
}

describe("GET /gallery/events: events written by the API", () => {
  let g: TestGallery;
  let first: Record<string, unknown> & { id: string };
  let second: Record<string, unknown> & { id: string };
  let events: DomainEventBody[];

  beforeAll(async () => {
    g = await createGallery();
    first = await createArtwork(g, { title: "First", price_cents: 100, currency: "USD" });
    second = await createArtwork(g, { title: "Second" });
    const patched = await call("PATCH", `/gallery/artworks/${first.id}`, {
      key: g.key,
      body: { price_cents: 200 },
    });
    expect(patched.status).toBe(200);
    const deleted = await call("DELETE", `/gallery/artworks/${second.id}`, { key: g.key });
    expect(deleted.status).toBe(200);
    events = (await getPage<DomainEventBody>(g.key, "/gallery/events")).data;
  });

  it("lists every event, newest first", async () => {
    expect(events).toHaveLength(5);
    expect(events.map((e) => e.id)).toEqual(ordered(events, "desc"));
    // Writes that happened one after another appear in reverse order of writing.
    expect(events[0]!.type).toBe("artwork.deleted");
    expect(new Set(events.slice(1, 3).map((e) => e.type))).toEqual(
      new Set(["artwork.updated", "artwork.price_changed"]),
    );
    expect(events.slice(3).map((e) => [e.type, e.resource_id])).toEqual([
      ["artwork.created", second.id],
      ["artwork.created", first.id],
    ]);
    // The update and its price change are one write: one timestamp.
    expect(events[1]!.created_at).toBe(events[2]!.created_at);
  });

  it("each event has an evt_ id, resource, data and a UTC millisecond timestamp", async () => {
    for (const e of events) {
      expect(Object.keys(e).sort()).toEqual(
        ["created_at", "data", "id", "livemode", "resource_id", "resource_type", "type"].sort(),
      );
      expect(e.id).toMatch(/^evt_[0-9a-z]{26}$/);
      expect(e.resource_type).toBe("artwork");
      expect(e.created_at).toMatch(ISO_MS);
      expect(e.livemode).toBe(false);
      expect(typeof e.data).toBe("object");
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(5);
    const created = events.find((e) => e.type === "artwork.created" && e.resource_id === first.id)!;
    expect(created.data).toEqual({ object: first });
    const deleted = events.find((e) => e.type === "artwork.deleted")!;
    expect(deleted).toMatchObject({ resource_id: second.id, data: { object: second } });
    const priceChanged = events.find((e) => e.type === "artwork.price_changed")!;
    expect(priceChanged.resource_id).toBe(first.id);
    expect(priceChanged.data).toMatchObject({
      object: { id: first.id, price_cents: 200 },
      previous_attributes: { price_cents: 100, currency: "USD" },
    });
  });

  it("type filters by exact type", async () => {
    const created = await getPage<DomainEventBody>(g.key, "/gallery/events", "type=artwork.created");
    expect(created.data.map((e) => e.resource_id)).toEqual([second.id, first.id]);
    expect(created.data.every((e) => e.type === "artwork.created")).toBe(true);
    const updated = await getPage<DomainEventBody>(g.key, "/gallery/events", "type=artwork.updated");
    expect(updated.data.map((e) => [e.type, e.resource_id])).toEqual([["artwork.updated", first.id]]);
    for (const notExact of ["artwork", "artwork.", "artwork.create", "Artwork.created", "artwork.*", "%"]) {
      const page = await getPage(g.key, "/gallery/events", `type=${encodeURIComponent(notExact)}`);
      expect(page.data, notExact).toEqual([]);
    }
    expect((await getPage(g.key, "/gallery/events", `type=${"a".repeat(100)}`)).data).toEqual([]);
  });

  it("dir=asc lists oldest first", async () => {
    const asc = await getPage<DomainEventBody>(g.key, "/gallery/events", "dir=asc");
    expect(asc.data.map((e) => e.id)).toEqual([...events].reverse().map((e) => e.id));
    const explicit = await getPage<DomainEventBody>(g.key, "/gallery/events", "sort=created&dir=desc");
    expect(explicit.data).toEqual(events);
  });

  it("needs events:read, and shows the events whose objects the key may read", async () => {
    const withoutEvents = await g.keyWith(["artworks:read", "artists:read"]);
    const res = await call("GET", "/gallery/events", { key: withoutEvents });
    const problem = await expectProblem(res, 403, "forbidden");
    expect(problem.details).toMatchObject({ missing_scopes: ["events:read"] });
    const onlyEvents = await g.keyWith(["events:read"]);
    expect((await getPage(onlyEvents, "/gallery/events")).data).toEqual([]);
    const eventsAndArtworks = await g.keyWith(["events:read", "artworks:read"]);
    expect((await getPage(eventsAndArtworks, "/gallery/events")).data).toHaveLength(5);
    await expectProblem(await call("GET", "/gallery/events"), 401, "unauthenticated");
  });
});

describe("GET /gallery/events: tenancy and livemode", () => {
  it("never shows another gallery's events", async () => {
    const mine = await createGallery();
    const theirs = await createGallery();
    const a = await createArtwork(mine, { title: "Mine" });
    const b = await createArtwork(theirs, { title: "Theirs" });
    const myEvents = (await getPage<DomainEventBody>(mine.key, "/gallery/events")).data;
    const theirEvents = (await getPage<DomainEventBody>(theirs.key, "/gallery/events")).data;
    expect(myEvents.map((e) => e.resource_id)).toEqual([a.id]);
    expect(theirEvents.map((e) => e.resource_id)).toEqual([b.id]);
    expect(
      (await getPage<DomainEventBody>(mine.key, "/gallery/events", "type=artwork.created")).data.map(
        (e) => e.id,
      ),
    ).toEqual(myEvents.map((e) => e.id));
  });

  it("livemode is the gallery's", async () => {
    const live = await createGallery({ livemode: true });
    const sandbox = await createGallery({ livemode: false });
    await createArtwork(live, { title: "Live" });
    await createArtwork(sandbox, { title: "Sandbox" });
    const liveEvents = (await getPage<DomainEventBody>(live.key, "/gallery/events")).data;
    const sandboxEvents = (await getPage<DomainEventBody>(sandbox.key, "/gallery/events")).data;
    expect(liveEvents.map((e) => e.livemode)).toEqual([true]);
    expect(sandboxEvents.map((e) => e.livemode)).toEqual([false]);
  });
});

describe("GET /gallery/events: pagination", () => {
  let g: TestGallery;
  let seeded: { id: string; created_at: string; type: string }[];

  beforeAll(async () => {
    g = await createGallery();
    seeded = [];
    for (let i = 0; i < 25; i++) {
      // Groups of three share a timestamp, so the id breaks ties.
      const created_at = minutesAfterEpoch(Math.floor(i / 3));
      const type = i % 4 === 0 ? "artwork.deleted" : "artwork.created";
      seeded.push({ id: await seedEvent(g.id, { created_at, type }), created_at, type });
    }
  });

  for (const dir of ["desc", "asc"] as const) {
    it(`walks every event exactly once with limit 7, dir=${dir}`, async () => {
      const pages = await walkPages<DomainEventBody>(g.key, "/gallery/events", { limit: "7", dir });
      expect(pages.map((p) => p.data.length)).toEqual([7, 7, 7, 4]);
      expect(pages.at(-1)!.next_cursor).toBeNull();
      expect(pages.flatMap((p) => p.data.map((e) => e.id))).toEqual(ordered(seeded, dir));
    });
  }

  it("the type filter holds across pages", async () => {
    const deletedOnly = seeded.filter((e) => e.type === "artwork.deleted");
    expect(deletedOnly).toHaveLength(7);
    const pages = await walkPages<DomainEventBody>(g.key, "/gallery/events", {
      limit: "2",
      type: "artwork.deleted",
    });
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 2, 1]);
    expect(pages.flatMap((p) => p.data.map((e) => e.id))).toEqual(ordered(deletedOnly, "desc"));
  });

  it("events written during the walk: a descending walk never returns them, an ascending one at its end", async () => {
    const fresh = await createGallery();
    const before = [];
    for (let i = 0; i < 6; i++) {
      const created_at = minutesAfterEpoch(i);
      before.push({ id: await seedEvent(fresh.id, { created_at }), created_at });
    }
    const desc = await walkPages<DomainEventBody>(
      fresh.key,
      "/gallery/events",
      { limit: "2" },
      async (page) => {
        if (page.next_cursor) await createArtwork(fresh, { title: "During desc" });
      },
    );
    expect(desc.flatMap((p) => p.data.map((e) => e.id))).toEqual(ordered(before, "desc"));

    const written: string[] = [];
    const asc = await walkPages<DomainEventBody>(
      fresh.key,
      "/gallery/events",
      { limit: "2", dir: "asc" },
      async (page, i) => {
        if (page.next_cursor && i < 3)
          written.push((await createArtwork(fresh, { title: `During asc ${i}` })).id);
      },
    );
    const seen = asc.flatMap((p) => p.data);
    expect(seen.slice(0, 6).map((e) => e.id)).toEqual(ordered(before, "asc"));
    // Then the 2 created during the descending walk and the 3 during this one, oldest first.
    const later = seen.slice(6);
    expect(later.map((e) => e.type)).toEqual(Array(5).fill("artwork.created"));
    expect(later.slice(2).map((e) => e.resource_id)).toEqual(written);
    expect(later.map((e) => e.id)).toEqual(ordered(later, "asc"));
  });

  it("a cursor keeps to its dir and list", async () => {
    const page = await getPage(g.key, "/gallery/events", "limit=5");
    const cursor = page.next_cursor!;
    await expectProblem(
      await call("GET", `/gallery/events?dir=asc&cursor=${cursor}`, { key: g.key }),
      400,
      "invalid_request",
      {
        field: "cursor",
      },
    );
    await expectProblem(
      await call("GET", `/gallery/artworks?cursor=${cursor}`, { key: g.key }),
      400,
      "invalid_request",
      {
        field: "cursor",
      },
    );
    const next = await getPage<DomainEventBody>(g.key, "/gallery/events", `limit=5&cursor=${cursor}`);
    expect(next.data.map((e) => e.id)).toEqual(ordered(seeded, "desc").slice(5, 10));
    // A cursor may be combined with a type filter it was not minted with: it is only a position.
    const filtered = await getPage<DomainEventBody>(
      g.key,
      "/gallery/events",
      `type=artwork.deleted&cursor=${cursor}`,
    );
    expect(filtered.data.map((e) => e.id)).toEqual(
      ordered(
        seeded.filter((e) => e.type === "artwork.deleted"),
        "desc",
      ).filter((id) => ordered(seeded, "desc").indexOf(id) >= 5),
    );
  });
});

describe("GET /gallery/events: invalid parameters", () => {
  let g: TestGallery;
  beforeAll(async () => {
    g = await createGallery();
  });

  const cases: [string, string][] = [
    [`type=${"a".repeat(101)}`, "type"],
    ["type=", "type"],
    ["type=a&type=b", "type"],
    ["sort=updated", "sort"],
    ["sort=price", "sort"],
    ["dir=newest", "dir"],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=1e1", "limit"],
    ["limit=abc", "limit"],
    ["resource_id=x", "resource_id"],
    ["order=asc", "order"],
    ["cursor=abc", "cursor"],
  ];

  it.each(cases)("%s → 400 invalid_request naming %s", async (query, field) => {
    const res = await call("GET", `/gallery/events?${query}`, { key: g.key });
    const problem = await expectProblem(res, 400, "invalid_request", { field });
    expect(problem.instance).toBe("/v1/gallery/events");
  });

  it("an event id of another gallery is nowhere to be found", async () => {
    const other = await createGallery();
    const foreign = await seedEvent(other.id, { created_at: minutesAfterEpoch(0), id: newId("evt") });
    const mine = await getPage<DomainEventBody>(g.key, "/gallery/events", "limit=100");
    expect(mine.data.map((e) => e.id)).not.toContain(foreign);
    expect(mine.data).toEqual([]);
  });
});
