import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import type { EngagementEvent } from "../../lib/schemas/engagements";
import { PUBLISHABLE_SCOPES } from "../../lib/scopes";
import { memberSession, minutesFromNow, newArtwork } from "../contact-interactions/helpers";
import { call, createGallery, db, mintKey, type TestGallery } from "../helpers/gallery";
import { getPage } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { outboxEvents } from "../helpers/seed";

/**
 * A visitor's engagement, posted from the browser with the publishable token: POST
 * /public/viewing-rooms/{slug}/engagements. Recorded on the contact when the email is one of the gallery's
 * contacts; answered the same way either way.
 */

const ORIGIN = "https://collector-site.example";

function engagementsPath(slug: string): string {
  return `/public/viewing-rooms/${slug}/engagements`;
}

async function contact(g: TestGallery, body: Record<string, unknown>): Promise<string> {
  const res = await call("POST", "/gallery/contacts", { key: g.key, body });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A gallery with its token, an open public room of two works and a third work outside it, and a contact. */
async function setting() {
  const g = await createGallery();
  const token = await mintKey(g.id, PUBLISHABLE_SCOPES, "publishable");
  const [inRoom, alsoInRoom, outside] = [
    await newArtwork(g, "In"),
    await newArtwork(g, "Also in"),
    await newArtwork(g, "Outside"),
  ];
  const res = await call("POST", "/gallery/viewing-rooms", {
    key: g.key,
    body: {
      title: "Open room",
      visibility: "public",
      artworks: [{ artwork_id: inRoom }, { artwork_id: alsoInRoom }],
    },
  });
  const room = (await res.json()) as { id: string; slug: string };
  const contactId = await contact(g, { name: "Ada Collector", email: "ada@collector.example" });
  return { g, token, room, inRoom, outside, contactId };
}

async function post(token: string, slug: string, body: unknown, headers: Record<string, string> = {}) {
  return call("POST", engagementsPath(slug), { key: token, body, headers: { origin: ORIGIN, ...headers } });
}

async function engagementsOf(g: TestGallery, contactId: string) {
  return (await getPage<typeof EngagementEvent._output>(g.key, `/gallery/contacts/${contactId}/engagements`))
    .data;
}

async function storedEngagements(galleryId: string): Promise<number> {
  const r = await db().execute<{ n: number }>(
    sql`select count(*)::int as n from engagement_events where gallery_id = ${galleryId}`,
  );
  return r.rows[0]!.n;
}

describe("POST /public/viewing-rooms/{slug}/engagements", () => {
  it("a known email (trimmed, any case) lands on the contact as an engagement event, with the room", async () => {
    const { g, token, room, inRoom, contactId } = await setting();
    const res = await post(token, room.slug, {
      kind: "artwork_viewed",
      artwork_id: inRoom,
      email: "  Ada@Collector.EXAMPLE ",
      occurred_at: "2025-03-04T09:30Z",
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: true });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const events = await engagementsOf(g, contactId);
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^eng_/),
        contact_id: contactId,
        kind: "artwork_viewed",
        occurred_at: "2025-03-04T09:30:00.000Z",
        artwork_id: inRoom,
        viewing_room_id: room.id,
        metadata: { source: "public_viewing_room" },
        created_at: expect.any(String),
      },
    ]);
    const recorded = (await outboxEvents(g.id)).filter((e) => e.type === "engagement_event.recorded");
    expect(recorded).toEqual([
      {
        id: expect.any(String),
        type: "engagement_event.recorded",
        resource_id: events[0]!.id,
        data: { object: events[0] },
      },
    ]);
    // The contact's engagement standing follows.
    const filtered = await getPage<{ id: string }>(
      g.key,
      "/gallery/contacts",
      "engaged_event=artwork_viewed&engaged_since=2025-01-01T00:00Z",
    );
    expect(filtered.data.map((c) => c.id)).toEqual([contactId]);
    // occurred_at defaults to now.
    expect(
      (await post(token, room.slug, { kind: "room_opened", email: "ada@collector.example" })).status,
    ).toBe(202);
    const latest = (await engagementsOf(g, contactId))[0]!;
    expect(latest).toMatchObject({ kind: "room_opened", artwork_id: null, viewing_room_id: room.id });
    expect(Math.abs(Date.parse(latest.occurred_at) - Date.now())).toBeLessThan(60_000);
  });

  it("an unknown, archived or absent email stores nothing, and gets the very same answer", async () => {
    const { g, token, room, contactId } = await setting();
    const archived = await contact(g, { name: "Gone", email: "gone@collector.example" });
    expect((await call("POST", `/gallery/contacts/${archived}/archive`, { key: g.key })).status).toBe(200);
    const known = await post(token, room.slug, { kind: "room_opened", email: "ada@collector.example" });
    const knownText = await known.text();
    const eventsBefore = (await outboxEvents(g.id)).length;
    const storedBefore = await storedEngagements(g.id);
    for (const body of [
      { kind: "room_opened", email: "stranger@example.com" },
      { kind: "room_opened", email: "gone@collector.example" },
      { kind: "room_opened" },
    ]) {
      const res = await post(token, room.slug, body);
      expect(res.status).toBe(known.status);
      expect(await res.text()).toBe(knownText);
      expect([...res.headers.keys()].sort()).toEqual([...known.headers.keys()].sort());
    }
    expect(await storedEngagements(g.id)).toBe(storedBefore);
    expect((await outboxEvents(g.id)).length).toBe(eventsBefore);
    expect(await engagementsOf(g, archived)).toEqual([]);
    expect(await engagementsOf(g, contactId)).toHaveLength(1);
  });

  it("another gallery's contact is not this gallery's visitor", async () => {
    const { g, token, room } = await setting();
    const other = await createGallery();
    const theirs = await contact(other, { name: "Theirs", email: "theirs@collector.example" });
    expect(
      (await post(token, room.slug, { kind: "room_opened", email: "theirs@collector.example" })).status,
    ).toBe(202);
    expect(await engagementsOf(other, theirs)).toEqual([]);
    expect(await storedEngagements(g.id)).toBe(0);
  });

  it("a work outside the room, a missing work for an artwork kind and bad fields are 400 naming the field", async () => {
    const { token, room, outside, inRoom } = await setting();
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: "artwork_viewed", artwork_id: outside, email: "ada@collector.example" }, "artwork_id"],
      [{ kind: "inquiry_submitted", artwork_id: outside }, "artwork_id"],
      [{ kind: "artwork_viewed", artwork_id: newId("art") }, "artwork_id"],
      [{ kind: "artwork_viewed" }, "artwork_id"],
      [{ kind: "favorite_added" }, "artwork_id"],
      [{ kind: "artwork_viewed", artwork_id: "room_01jd4xk9v2c7h8m3n5p6q7r8s9" }, "artwork_id"],
      [{ kind: "purchase_completed", email: "ada@collector.example" }, "kind"],
      [{ kind: "email_opened" }, "kind"],
      [{}, "kind"],
      [{ kind: "room_opened", email: "not-an-email" }, "email"],
      [{ kind: "room_opened", occurred_at: minutesFromNow(60) }, "occurred_at"],
      [{ kind: "room_opened", occurred_at: "2025-03-04 09:30" }, "occurred_at"],
      [{ kind: "room_opened", viewing_room_id: room.id }, "viewing_room_id"],
      [{ kind: "room_opened", metadata: {} }, "metadata"],
    ];
    for (const [body, field] of cases) {
      const res = await post(token, room.slug, body);
      await expectProblem(res, 400, "invalid_request", { field, location: "body" });
    }
    // A work of the room is fine for every kind that names one.
    for (const kind of [
      "artwork_viewed",
      "favorite_added",
      "favorite_removed",
      "waitlist_joined",
      "inquiry_submitted",
      "link_clicked",
    ]) {
      expect((await post(token, room.slug, { kind, artwork_id: inRoom })).status).toBe(202);
    }
  });

  it("follows the read's rules: a private, closed, not yet open or unknown room is 404, stored nothing", async () => {
    const { g, token, contactId } = await setting();
    const make = async (body: Record<string, unknown>) =>
      (
        (await (await call("POST", "/gallery/viewing-rooms", { key: g.key, body })).json()) as {
          slug: string;
        }
      ).slug;
    const slugs = [
      await make({ title: "Private room" }),
      await make({ title: "Closed room", visibility: "public", closes_at: minutesFromNow(-1) }),
      await make({ title: "Later room", visibility: "unlisted", opens_at: minutesFromNow(60) }),
      "no-such-room",
    ];
    for (const slug of slugs) {
      await expectProblem(
        await post(token, slug, { kind: "room_opened", email: "ada@collector.example" }),
        404,
        "not_found",
      );
    }
    expect(await engagementsOf(g, contactId)).toEqual([]);
    // An unlisted open room takes engagements.
    const unlisted = await make({ title: "Unlisted room", visibility: "unlisted" });
    expect(
      (await post(token, unlisted, { kind: "room_opened", email: "ada@collector.example" })).status,
    ).toBe(202);
    expect(await engagementsOf(g, contactId)).toHaveLength(1);
  });

  it("takes publishable tokens only: a secret key or a session is 403, none is 401", async () => {
    const { g, room } = await setting();
    const body = { kind: "room_opened", email: "ada@collector.example" };
    await expectProblem(await post(g.key, room.slug, body), 403, "forbidden");
    await expectProblem(
      await post((await memberSession(g, "editor")).token, room.slug, body),
      403,
      "forbidden",
    );
    await expectProblem(await call("POST", engagementsPath(room.slug), { body }), 401, "unauthenticated");
    expect(await storedEngagements(g.id)).toBe(0);
  });

  it("is idempotent with a publishable token: a retry replays and records once; another body is 400", async () => {
    const { g, token, room, contactId } = await setting();
    const key = `visit-${crypto.randomUUID()}`;
    const body = { kind: "room_opened", email: "ada@collector.example" };
    const first = await post(token, room.slug, body, { "Idempotency-Key": key });
    expect(first.status).toBe(202);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await post(token, room.slug, body, { "Idempotency-Key": key });
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("access-control-allow-origin")).toBe("*");
    expect(await again.json()).toEqual({ accepted: true });
    expect(await engagementsOf(g, contactId)).toHaveLength(1);
    await expectProblem(
      await post(token, room.slug, { ...body, kind: "artwork_viewed" }, { "Idempotency-Key": key }),
      400,
      "idempotency_key_reused",
    );
    // An unknown visitor's request is idempotent too (its claim is stored; nothing else is).
    const unknownKey = `visit-${crypto.randomUUID()}`;
    const stranger = { kind: "room_opened", email: "stranger@example.com" };
    expect((await post(token, room.slug, stranger, { "Idempotency-Key": unknownKey })).status).toBe(202);
    const replay = await post(token, room.slug, stranger, { "Idempotency-Key": unknownKey });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
  });
});
