import type { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import type { ArtworkActivityEvent } from "../../lib/schemas/artwork-timeline";
import { Interaction } from "../../lib/schemas/interactions";
import { forgetCachedResponse, keyId, UUID } from "../artworks/helpers";
import { call, createGallery, readJson, type TestGallery } from "../helpers/gallery";
import { getPage, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { outboxEvents } from "../helpers/seed";
import { getContact, ISO_MS, memberSession, minutesFromNow, newArtwork, newContact } from "./helpers";

/** A contact's interactions: POST and GET /gallery/contacts/{id}/interactions. */

type InteractionBody = z.infer<typeof Interaction>;

const path = (contactId: string) => `/gallery/contacts/${contactId}/interactions`;

async function record(
  g: TestGallery,
  contactId: string,
  body: Record<string, unknown>,
  opts: { key?: string; headers?: Record<string, string> } = {},
): Promise<InteractionBody> {
  const res = await call("POST", path(contactId), { key: opts.key ?? g.key, body, headers: opts.headers });
  expect(res.status, await res.clone().text()).toBe(201);
  return readJson(Interaction, res);
}

async function timeline(g: TestGallery, artworkId: string) {
  const page = await getPage<z.infer<typeof ArtworkActivityEvent>>(
    g.key,
    `/gallery/artworks/${artworkId}/events`,
    "limit=100",
  );
  return page.data;
}

describe("POST /gallery/contacts/{id}/interactions", () => {
  it("records every field, moves the contact's last interaction, emits interaction.created and appends to the work's timeline", async () => {
    const g = await createGallery();
    const contactId = await newContact(g, "Ada Lovelace");
    const artworkId = await newArtwork(g);
    const before = await getContact(g, contactId);
    expect([before.last_interaction_at, before.last_interaction_type]).toEqual([null, null]);

    const interaction = await record(g, contactId, {
      type: "call",
      direction: "outbound",
      summary: "  Asked for the price of the study  ",
      occurred_at: "2024-02-29T10:15Z",
      artwork_id: artworkId,
      metadata: { duration_minutes: 12, topics: ["price"] },
    });
    expect(interaction).toEqual({
      id: expect.stringMatching(/^int_[0-9a-z]{26}$/),
      contact_id: contactId,
      type: "call",
      direction: "outbound",
      summary: "Asked for the price of the study",
      occurred_at: "2024-02-29T10:15:00.000Z",
      artwork_id: artworkId,
      member_id: null,
      metadata: { duration_minutes: 12, topics: ["price"] },
      created_at: expect.stringMatching(ISO_MS),
    });
    expect(Object.keys(interaction)).toEqual(Object.keys(Interaction.shape));

    const after = await getContact(g, contactId);
    expect([after.last_interaction_at, after.last_interaction_type]).toEqual([
      "2024-02-29T10:15:00.000Z",
      "call",
    ]);

    const events = (await outboxEvents(g.id)).filter((e) => e.type === "interaction.created");
    expect(events).toEqual([
      {
        id: expect.any(String),
        type: "interaction.created",
        resource_id: interaction.id,
        data: { object: interaction },
      },
    ]);

    // The timeline runs by occurred_at: the work was added today, the call happened in 2024.
    const [created, entry] = await timeline(g, artworkId);
    expect(created?.event_type).toBe("created");
    expect(entry).toEqual({
      id: expect.stringMatching(UUID),
      artwork_id: artworkId,
      actor_id: await keyId(g.key),
      contact_id: contactId,
      ref_id: interaction.id,
      event_type: "interaction",
      ref_table: "interactions",
      summary: "Call with Ada Lovelace (outbound): Asked for the price of the study",
      metadata: { interaction: { id: interaction.id, type: "call", direction: "outbound" } },
      occurred_at: "2024-02-29T10:15:00.000Z",
      created_at: interaction.created_at,
    });
  });

  it("takes a summary alone: a note, no direction, now, and no timeline entry anywhere", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const artworkId = await newArtwork(g);
    const interaction = await record(g, contactId, { summary: "Met at the opening" });
    expect(interaction).toMatchObject({
      type: "note",
      direction: null,
      artwork_id: null,
      metadata: {},
      occurred_at: interaction.created_at,
    });
    expect(Date.now() - Date.parse(interaction.occurred_at)).toBeLessThan(60_000);
    expect((await timeline(g, artworkId)).map((e) => e.event_type)).toEqual(["created"]);
    const contact = await getContact(g, contactId);
    expect([contact.last_interaction_at, contact.last_interaction_type]).toEqual([
      interaction.occurred_at,
      "note",
    ]);
  });

  it("keeps the newest interaction on the contact: an older one recorded later does not move it back", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    await record(g, contactId, { type: "meeting", summary: "Lunch", occurred_at: "2024-05-01T12:00:00Z" });
    await record(g, contactId, { type: "email", summary: "Old thread", occurred_at: "2023-01-01T00:00:00Z" });
    let contact = await getContact(g, contactId);
    expect([contact.last_interaction_at, contact.last_interaction_type]).toEqual([
      "2024-05-01T12:00:00.000Z",
      "meeting",
    ]);
    await record(g, contactId, { type: "visit", summary: "Came by", occurred_at: "2024-05-02T09:30:00.5Z" });
    contact = await getContact(g, contactId);
    expect([contact.last_interaction_at, contact.last_interaction_type]).toEqual([
      "2024-05-02T09:30:00.500Z",
      "visit",
    ]);
  });

  it("accepts every type and direction, and an occurred_at up to 5 minutes ahead of the clock", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    for (const type of [
      "note",
      "call",
      "email",
      "meeting",
      "visit",
      "message",
      "viewing",
      "event",
      "other",
    ]) {
      for (const direction of ["inbound", "outbound", null]) {
        const made = await record(g, contactId, { type, direction, summary: `${type} ${direction}` });
        expect([made.type, made.direction]).toEqual([type, direction]);
      }
    }
    const soon = await record(g, contactId, { summary: "Clock skew", occurred_at: minutesFromNow(4) });
    expect(Date.parse(soon.occurred_at)).toBeGreaterThan(Date.now());
  });

  it("records the signed-in member as member_id", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const { memberId, token } = await memberSession(g);
    const made = await record(g, contactId, { summary: "Phoned" }, { key: token });
    expect(made.member_id).toBe(memberId);
  });

  it("takes interactions on an archived contact", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const archived = await call("POST", `/gallery/contacts/${contactId}/archive`, { key: g.key });
    expect(archived.status, await archived.clone().text()).toBe(200);
    const made = await record(g, contactId, { summary: "Still in touch" });
    expect(made.contact_id).toBe(contactId);
    expect((await getContact(g, contactId)).last_interaction_at).toBe(made.occurred_at);
  });

  it.each([
    ["type", { type: "fax" }],
    ["type", { type: null }],
    ["direction", { direction: "sideways" }],
    ["summary", { summary: undefined }],
    ["summary", { summary: "" }],
    ["summary", { summary: "   " }],
    ["summary", { summary: "x".repeat(5001) }],
    ["summary", { summary: 42 }],
    ["occurred_at", { occurred_at: "2023-02-29T00:00Z" }],
    ["occurred_at", { occurred_at: "2024-01-01T00:00:00+01:00" }],
    ["occurred_at", { occurred_at: "2024-01-01" }],
    ["occurred_at", { occurred_at: "2024-01-01T00:00:00z" }],
    ["occurred_at", { occurred_at: minutesFromNow(60) }],
    ["occurred_at", { occurred_at: null }],
    ["artwork_id", { artwork_id: "not-an-id" }],
    ["artwork_id", { artwork_id: newId("con") }],
    ["metadata", { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }],
    ["metadata", { metadata: { big: "x".repeat(9000) } }],
    ["metadata", { metadata: ["a"] }],
    ["no_such_field", { no_such_field: 1 }],
  ])("400 naming %s (case %#); nothing is stored", async (field, change) => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const res = await call("POST", path(contactId), {
      key: g.key,
      body: { type: "call", summary: "Valid", ...change },
    });
    await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    expect((await getPage(g.key, path(contactId))).data).toEqual([]);
    expect((await outboxEvents(g.id)).map((e) => e.type)).toEqual(["contact.created"]);
  });

  it("400 naming artwork_id for another gallery's artwork or an unknown one, inside the write: nothing stored", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const contactId = await newContact(g);
    const theirs = await newArtwork(other);
    for (const artworkId of [theirs, newId("art")]) {
      const res = await call("POST", path(contactId), {
        key: g.key,
        body: { summary: "About their work", artwork_id: artworkId },
      });
      await expectProblem(res, 400, "invalid_request", { field: "artwork_id", location: "body" });
    }
    expect((await getPage(g.key, path(contactId))).data).toEqual([]);
    expect((await getContact(g, contactId)).last_interaction_at).toBeNull();
    expect((await timeline(other, theirs)).map((e) => e.event_type)).toEqual(["created"]);
  });

  it("answers 404 for another gallery's contact and an unknown one; 401 without a key; 403 without contacts:create", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const theirs = await newContact(other);
    for (const id of [theirs, newId("con")]) {
      await expectProblem(
        await call("POST", path(id), { key: g.key, body: { summary: "x" } }),
        404,
        "not_found",
      );
    }
    expect((await getPage(other.key, path(theirs))).data).toEqual([]);
    const mine = await newContact(g);
    await expectProblem(await call("POST", path(mine), { body: { summary: "x" } }), 401, "unauthenticated");
    const readOnly = await g.keyWith(["contacts:read"]);
    const forbidden = await expectProblem(
      await call("POST", path(mine), { key: readOnly, body: { summary: "x" } }),
      403,
      "forbidden",
    );
    expect(forbidden.details).toHaveProperty("missing_scopes", ["contacts:create"]);
    const viewer = await memberSession(g, "viewer");
    await expectProblem(
      await call("POST", path(mine), { key: viewer.token, body: { summary: "x" } }),
      403,
      "forbidden",
    );
  });

  it("replays a retry with the same Idempotency-Key: one interaction, one event, one timeline entry", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const artworkId = await newArtwork(g);
    const headers = { "Idempotency-Key": "interaction-once" };
    const body = { type: "email", direction: "inbound", summary: "Sent the PDF", artwork_id: artworkId };
    const first = await record(g, contactId, body, { headers });
    const again = await call("POST", path(contactId), { key: g.key, body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(first);
    await forgetCachedResponse(g.id, headers["Idempotency-Key"]);
    const fromDb = await call("POST", path(contactId), { key: g.key, body, headers });
    expect(fromDb.headers.get("idempotent-replayed")).toBe("true");
    expect(await fromDb.json()).toEqual(first);
    expect((await getPage(g.key, path(contactId))).data).toEqual([first]);
    expect((await outboxEvents(g.id)).filter((e) => e.type === "interaction.created")).toHaveLength(1);
    expect((await timeline(g, artworkId)).map((e) => e.event_type)).toEqual(["interaction", "created"]);
    const changed = await call("POST", path(contactId), {
      key: g.key,
      body: { ...body, summary: "Other" },
      headers,
    });
    await expectProblem(changed, 400, "idempotency_key_reused");
  });
});

describe("GET /gallery/contacts/{id}/interactions", () => {
  it("lists newest first by occurred_at, pages with the cursor, reverses with dir=asc and filters by type", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    const other = await newContact(g, "Someone else");
    const times = [
      "2024-03-01T00:00Z",
      "2024-01-01T00:00Z",
      "2024-05-01T00:00Z",
      "2024-02-01T00:00Z",
      "2024-04-01T00:00Z",
    ];
    const made: InteractionBody[] = [];
    for (const [i, occurred_at] of times.entries()) {
      made.push(
        await record(g, contactId, { type: i % 2 ? "call" : "email", summary: `#${i}`, occurred_at }),
      );
    }
    await record(g, other, { summary: "Not theirs" });
    const newestFirst = [...made].sort((a, b) => (a.occurred_at < b.occurred_at ? 1 : -1)).map((i) => i.id);

    const pages = await walkPages<InteractionBody>(g.key, path(contactId), { limit: "2" });
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((p) => p.data.map((i) => i.id))).toEqual(newestFirst);
    expect(pages[0]!.data[0]).toEqual(made[2]);

    const asc = await getPage<InteractionBody>(g.key, path(contactId), "dir=asc");
    expect(asc.data.map((i) => i.id)).toEqual([...newestFirst].reverse());

    const calls = await getPage<InteractionBody>(g.key, path(contactId), "type=call");
    expect(calls.data.map((i) => i.id)).toEqual([made[3]!.id, made[1]!.id]);
  });

  it("answers an empty page for a contact without interactions, 404 for another gallery's contact, 400 for a bad type", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const contactId = await newContact(g);
    expect(await getPage(g.key, path(contactId))).toEqual({ data: [], next_cursor: null });
    await expectProblem(await call("GET", path(contactId), { key: other.key }), 404, "not_found");
    await expectProblem(await call("GET", path(newId("con")), { key: g.key }), 404, "not_found");
    await expectProblem(
      await call("GET", `${path(contactId)}?type=fax`, { key: g.key }),
      400,
      "invalid_request",
      {
        field: "type",
      },
    );
    await expectProblem(
      await call("GET", `${path(contactId)}?sort=created`, { key: g.key }),
      400,
      "invalid_request",
      {
        field: "sort",
      },
    );
  });

  it("needs contacts:read: 401 without a key, 403 without the scope; viewers read", async () => {
    const g = await createGallery();
    const contactId = await newContact(g);
    await record(g, contactId, { summary: "Seen" });
    await expectProblem(await call("GET", path(contactId)), 401, "unauthenticated");
    const noRead = await g.keyWith(["contacts:create"]);
    await expectProblem(await call("GET", path(contactId), { key: noRead }), 403, "forbidden");
    const readOnly = await g.keyWith(["contacts:read"]);
    expect((await getPage(readOnly, path(contactId))).data).toHaveLength(1);
    const viewer = await memberSession(g, "viewer");
    expect((await getPage(viewer.token, path(contactId))).data).toHaveLength(1);
  });
});
