import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { engagementKinds } from "../../lib/schemas/contacts";
import { EngagementEvent } from "../../lib/schemas/engagements";
import { forgetCachedResponse } from "../artworks/helpers";
import {
  ISO_MS,
  memberSession,
  minutesFromNow,
  newArtwork,
  newContact,
} from "../contact-interactions/helpers";
import { fetchedSegmentation } from "../contacts/helpers";
import { call, createGallery, db, readJson, type TestGallery } from "../helpers/gallery";
import { getPage, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { outboxEvents } from "../helpers/seed";

/** A contact's engagement events: POST and GET /gallery/contacts/{id}/engagements. */

type EngagementBody = z.infer<typeof EngagementEvent>;

const path = (contactId: string) => `/gallery/contacts/${contactId}/engagements`;

async function record(
  g: TestGallery,
  contactId: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<EngagementBody> {
  const res = await call("POST", path(contactId), { key: g.key, body, headers });
  expect(res.status, await res.clone().text()).toBe(201);
  return readJson(EngagementEvent, res);
}

async function newRoom(g: TestGallery): Promise<string> {
  const res = await call("POST", "/gallery/viewing-rooms", { key: g.key, body: { title: "Spring" } });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** The kept newest engagement per kind of a contact, as the contact filters read it. */
async function standing(contactId: string): Promise<Record<string, string>> {
  const result = await db().execute<{ kind: string; last_at: string }>(
    sql`select kind, to_char(last_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_at
      from contact_engagement where contact_id = ${contactId} order by kind`,
  );
  return Object.fromEntries(result.rows.map((r) => [r.kind, r.last_at]));
}

/** Ids of the roster's contacts matching a contacts-list query. */
async function rosterIds(g: TestGallery, query: string): Promise<string[]> {
  return (await getPage<{ id: string }>(g.key, "/gallery/contacts", `${query}&limit=100`)).data.map(
    (c) => c.id,
  );
}

describe("POST /gallery/contacts/{id}/engagements", () => {
  it("records every field, emits engagement_event.recorded and moves the contact's engagement standing", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const [artworkId, roomId] = [await newArtwork(g), await newRoom(g)];
    const event = await record(g, contactId, {
      kind: "artwork_viewed",
      occurred_at: "2025-11-02T08:00:00.123456Z",
      artwork_id: artworkId,
      viewing_room_id: roomId,
      metadata: { seconds: 41, source: "newsletter" },
    });
    expect(event).toEqual({
      id: expect.stringMatching(/^eng_[0-9a-z]{26}$/),
      contact_id: contactId,
      kind: "artwork_viewed",
      occurred_at: "2025-11-02T08:00:00.123Z",
      artwork_id: artworkId,
      viewing_room_id: roomId,
      metadata: { seconds: 41, source: "newsletter" },
      created_at: expect.stringMatching(ISO_MS),
    });
    expect(Object.keys(event)).toEqual(Object.keys(EngagementEvent.shape));
    const events = (await outboxEvents(g.id)).filter((e) => e.type === "engagement_event.recorded");
    expect(events).toEqual([
      {
        id: expect.any(String),
        type: "engagement_event.recorded",
        resource_id: event.id,
        data: { object: event },
      },
    ]);
    expect((await fetchedSegmentation(g, contactId)).last_engaged_at).toBe("2025-11-02T08:00:00.123Z");
    expect(await standing(contactId)).toEqual({ artwork_viewed: "2025-11-02T08:00:00.123Z" });
  });

  it("drives engaged_event and engaged_since on the roster; an older event moves nothing back", async () => {
    const g = await createGallery();
    const [opened, viewed, quiet] = [
      await newContact(g, "A"),
      await newContact(g, "B"),
      await newContact(g, "C"),
    ];
    await record(g, opened, { kind: "room_opened", occurred_at: "2025-11-05T00:00:00Z" });
    await record(g, opened, { kind: "room_opened", occurred_at: "2025-10-01T00:00:00Z" });
    await record(g, viewed, { kind: "artwork_viewed", occurred_at: "2025-10-15T00:00:00Z" });
    expect(await standing(opened)).toEqual({ room_opened: "2025-11-05T00:00:00.000Z" });
    expect((await fetchedSegmentation(g, opened)).last_engaged_at).toBe("2025-11-05T00:00:00.000Z");
    expect((await fetchedSegmentation(g, quiet)).last_engaged_at).toBeNull();

    expect(await rosterIds(g, "engaged_event=room_opened")).toEqual([opened]);
    expect(await rosterIds(g, "engaged_event=room_opened&engaged_since=2025-11-01T00:00Z")).toEqual([opened]);
    expect(await rosterIds(g, "engaged_event=room_opened&engaged_since=2025-11-06T00:00Z")).toEqual([]);
    expect((await rosterIds(g, "engaged_since=2025-10-10T00:00Z")).sort()).toEqual([opened, viewed].sort());
    expect(await rosterIds(g, "engaged_event=artwork_viewed&engaged_since=2025-10-16T00:00Z")).toEqual([]);
  });

  it("accepts each of the seventeen kinds, without artwork or room", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    expect(engagementKinds).toHaveLength(17);
    for (const kind of engagementKinds) {
      const made = await record(g, contactId, { kind });
      expect(made).toMatchObject({ kind, artwork_id: null, viewing_room_id: null, metadata: {} });
      expect(made.occurred_at).toBe(made.created_at);
    }
    expect(Object.keys(await standing(contactId)).sort()).toEqual([...engagementKinds].sort());
  });

  it.each([
    ["kind", { kind: "page_viewed" }],
    ["kind", { kind: undefined }],
    ["kind", { kind: "ROOM_OPENED" }],
    ["occurred_at", { occurred_at: "2023-02-29T00:00Z" }],
    ["occurred_at", { occurred_at: "2024-01-01T00:00:00+01:00" }],
    ["occurred_at", { occurred_at: minutesFromNow(30) }],
    ["artwork_id", { artwork_id: "art_" }],
    ["viewing_room_id", { viewing_room_id: newId("art") }],
    ["metadata", { metadata: "x" }],
    ["no_such_field", { no_such_field: true }],
  ])("400 naming %s (case %#); nothing is stored", async (field, change) => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const res = await call("POST", path(contactId), { key: g.key, body: { kind: "room_opened", ...change } });
    await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    expect((await getPage(g.key, path(contactId))).data).toEqual([]);
    expect(await standing(contactId)).toEqual({});
  });

  it("400 naming artwork_id / viewing_room_id for another gallery's, inside the write: nothing stored", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const contactId = await newContact(g);
    const [theirWork, theirRoom] = [await newArtwork(other), await newRoom(other)];
    const cases = [
      ["artwork_id", { artwork_id: theirWork }],
      ["viewing_room_id", { viewing_room_id: theirRoom }],
      ["viewing_room_id", { artwork_id: await newArtwork(g), viewing_room_id: newId("room") }],
    ] as const;
    for (const [field, change] of cases) {
      const res = await call("POST", path(contactId), {
        key: g.key,
        body: { kind: "room_opened", ...change },
      });
      await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    }
    expect((await getPage(g.key, path(contactId))).data).toEqual([]);
    expect((await fetchedSegmentation(g, contactId)).last_engaged_at).toBeNull();
    expect((await outboxEvents(g.id)).filter((e) => e.type === "engagement_event.recorded")).toEqual([]);
  });

  it("answers 404 for another gallery's contact; 401 without a key; 403 without contacts:create", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const theirs = await newContact(other);
    for (const id of [theirs, newId("con")]) {
      const res = await call("POST", path(id), { key: g.key, body: { kind: "room_opened" } });
      await expectProblem(res, 404, "not_found");
    }
    expect(await standing(theirs)).toEqual({});
    const mine = await newContact(g);
    await expectProblem(
      await call("POST", path(mine), { body: { kind: "room_opened" } }),
      401,
      "unauthenticated",
    );
    const readOnly = await g.keyWith(["contacts:read"]);
    const res = await call("POST", path(mine), { key: readOnly, body: { kind: "room_opened" } });
    expect((await expectProblem(res, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
      "contacts:create",
    ]);
  });

  it("replays a retry with the same Idempotency-Key: one event row, one domain event", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const headers = { "Idempotency-Key": "engagement-once" };
    const body = { kind: "email_opened", occurred_at: "2025-01-01T00:00Z" };
    const first = await record(g, contactId, body, headers);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const again = await call("POST", path(contactId), { key: g.key, body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(first);
    expect((await getPage(g.key, path(contactId))).data).toEqual([first]);
    expect((await outboxEvents(g.id)).filter((e) => e.type === "engagement_event.recorded")).toHaveLength(1);
    const other = await call("POST", path(contactId), {
      key: g.key,
      body: { kind: "link_clicked" },
      headers,
    });
    await expectProblem(other, 400, "idempotency_key_reused");
  });
});

describe("GET /gallery/contacts/{id}/engagements", () => {
  it("lists newest first by occurred_at with cursor pages; kind keeps one kind; dir=asc reverses", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const made: EngagementBody[] = [];
    for (const [i, day] of [3, 1, 4, 2, 5].entries()) {
      made.push(
        await record(g, contactId, {
          kind: i % 2 ? "link_clicked" : "email_opened",
          occurred_at: `2025-06-0${day}T00:00:00Z`,
        }),
      );
    }
    const newest = [...made].sort((a, b) => (a.occurred_at < b.occurred_at ? 1 : -1)).map((e) => e.id);
    const pages = await walkPages<EngagementBody>(g.key, path(contactId), { limit: "2" });
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((p) => p.data.map((e) => e.id))).toEqual(newest);
    expect((await getPage<EngagementBody>(g.key, path(contactId), "dir=asc")).data.map((e) => e.id)).toEqual(
      [...newest].reverse(),
    );
    const clicks = await getPage<EngagementBody>(g.key, path(contactId), "kind=link_clicked");
    expect(clicks.data.map((e) => e.id)).toEqual([made[3]!.id, made[1]!.id]);
    await expectProblem(
      await call("GET", `${path(contactId)}?kind=clicked`, { key: g.key }),
      400,
      "invalid_request",
      {
        field: "kind",
      },
    );
  });

  it("404 for another gallery's contact; 401 without a key; 403 without contacts:read; a viewer reads", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const contactId = await newContact(g);
    await record(g, contactId, { kind: "room_opened" });
    await expectProblem(await call("GET", path(contactId), { key: other.key }), 404, "not_found");
    await expectProblem(await call("GET", path(contactId)), 401, "unauthenticated");
    await expectProblem(
      await call("GET", path(contactId), { key: await g.keyWith(["sales:read"]) }),
      403,
      "forbidden",
    );
    const viewer = await memberSession(g, "viewer");
    expect((await getPage(viewer.token, path(contactId))).data).toHaveLength(1);
  });
});
