import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { eventDataSchema } from "../../lib/event-catalogue";
import type { EventType } from "../../lib/event-types";
import { newId } from "../../lib/ids";
import { DEFAULT_HIDE_DAYS, MAX_HIDE_DAYS } from "../../lib/schemas/matches";
import { call, createGallery, db, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import {
  artwork,
  contact,
  daysFromNow,
  feedback,
  feedbackOk,
  getMatch,
  listMatches,
  storedMatch,
  storedMatchRow,
} from "./helpers";

/** POST /gallery/contacts/{id}/matches/{matchId}/feedback: what each action changes, records and emits. */

let g: TestGallery;
let other: TestGallery;

beforeAll(async () => {
  [g, other] = await Promise.all([createGallery(), createGallery()]);
});

const DAY = 86_400_000;

interface FeedbackEventData {
  object: { status: string; hidden_until: string | null };
  previous_attributes: Record<string, unknown>;
  feedback: { id: string; action: string; hidden_until: string | null; member_id: string | null };
}

/** A contact with one active match on a new work; returns both ids. */
async function pair(row: Parameters<typeof storedMatch>[3] = { probability: 0.8 }) {
  const contactId = await contact(g);
  const matchId = await storedMatch(g, await artwork(g), contactId, row);
  return { contactId, matchId };
}

/** The gallery's match events, oldest first, as the events API serves them. */
async function matchEvents(gallery: TestGallery, matchId: string) {
  const res = await call("GET", "/gallery/events?limit=100", { key: gallery.key });
  const page = (await res.json()) as {
    data: { type: string; resource_type: string; resource_id: string; data: Record<string, unknown> }[];
  };
  return page.data.filter((e) => e.resource_id === matchId).reverse();
}

async function feedbackRows(matchId: string) {
  const result = await db().execute<{ action: string; member_id: string | null; artwork_id: string }>(
    sql`select action, member_id, artwork_id from match_feedback where match_id = ${matchId} order by created_at, id`,
  );
  return result.rows;
}

describe("hide", () => {
  it("hides the pair for DEFAULT_HIDE_DAYS by default: omitted from the list, back with include_hidden", async () => {
    const { contactId, matchId } = await pair();
    const before = Date.now();
    const after = await feedbackOk(g.key, contactId, matchId, { action: "hide" });
    const until = Date.parse(after.hidden_until!);
    expect(until).toBeGreaterThanOrEqual(before + DEFAULT_HIDE_DAYS * DAY - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + DEFAULT_HIDE_DAYS * DAY + 1000);
    expect(after.status).toBe("active");
    expect((await listMatches(g.key, contactId)).data).toEqual([]);
    expect((await listMatches(g.key, contactId, "include_hidden=true")).data.map((m) => m.id)).toEqual([
      matchId,
    ]);
  });

  it("takes a hidden_until ahead, up to MAX_HIDE_DAYS; the pair returns once it passes", async () => {
    const { contactId, matchId } = await pair();
    const until = new Date(Date.now() + 2 * DAY).toISOString();
    const after = await feedbackOk(g.key, contactId, matchId, { action: "hide", hidden_until: until });
    expect(after.hidden_until).toBe(until);
    expect((await listMatches(g.key, contactId)).data).toEqual([]);
    // Time passes: the stored hide lies behind now.
    await db().execute(
      sql`update recommendation_matches set hidden_until = now() - interval '1 second' where id = ${matchId}`,
    );
    expect((await listMatches(g.key, contactId)).data.map((m) => m.id)).toEqual([matchId]);
    const furthest = new Date(Date.now() + MAX_HIDE_DAYS * DAY - 60_000).toISOString();
    expect(
      (await feedbackOk(g.key, contactId, matchId, { action: "hide", hidden_until: furthest })).hidden_until,
    ).toBe(furthest);
  });

  it("400 naming hidden_until when it is past, too far ahead, or sent with another action", async () => {
    const { contactId, matchId } = await pair();
    const cases: Record<string, unknown>[] = [
      { action: "hide", hidden_until: daysFromNow(-1) },
      { action: "hide", hidden_until: new Date(Date.now() + MAX_HIDE_DAYS * DAY + 60_000).toISOString() },
      { action: "good_match", hidden_until: daysFromNow(3) },
      { action: "unhide", hidden_until: daysFromNow(3) },
      { action: "hide", hidden_until: "next week" },
    ];
    for (const body of cases) {
      await expectProblem(await feedback(g.key, contactId, matchId, body), 400, "invalid_request", {
        field: "hidden_until",
        location: "body",
      });
    }
    await expectProblem(
      await feedback(g.key, contactId, matchId, { action: "ignore" }),
      400,
      "invalid_request",
      {
        field: "action",
        location: "body",
      },
    );
    expect(await feedbackRows(matchId)).toEqual([]);
    expect((await storedMatchRow(matchId)).hidden_until).toBeNull();
  });
});

describe("not_interested, unhide and good_match", () => {
  it("not_interested dismisses the pair; unhide brings it back to active and clears a hide", async () => {
    const { contactId, matchId } = await pair();
    expect((await feedbackOk(g.key, contactId, matchId, { action: "not_interested" })).status).toBe(
      "dismissed",
    );
    expect((await listMatches(g.key, contactId)).data).toEqual([]);
    expect((await listMatches(g.key, contactId, "include_hidden=true")).data.map((m) => m.status)).toEqual([
      "dismissed",
    ]);
    await feedbackOk(g.key, contactId, matchId, { action: "hide" });
    const back = await feedbackOk(g.key, contactId, matchId, { action: "unhide" });
    expect(back.status).toBe("active");
    expect(back.hidden_until).toBeNull();
    expect((await listMatches(g.key, contactId)).data.map((m) => m.id)).toEqual([matchId]);
    expect((await feedbackRows(matchId)).map((f) => f.action)).toEqual(["not_interested", "hide", "unhide"]);
  });

  it("good_match is a label: the feedback is kept, the match unchanged", async () => {
    const { contactId, matchId } = await pair();
    const before = await getMatch(g.key, contactId, matchId);
    const after = await feedbackOk(g.key, contactId, matchId, { action: "good_match" });
    expect(after).toEqual(before.match);
    const detail = await getMatch(g.key, contactId, matchId);
    expect(detail.feedback.map((f) => [f.action, f.member_id, f.hidden_until])).toEqual([
      ["good_match", null, null],
    ]);
  });

  it("an inactive match takes feedback as a label and a hide, and stays inactive", async () => {
    const { contactId, matchId } = await pair({ probability: 0.8, status: "inactive" });
    expect((await feedbackOk(g.key, contactId, matchId, { action: "not_interested" })).status).toBe(
      "inactive",
    );
    const hidden = await feedbackOk(g.key, contactId, matchId, { action: "hide" });
    expect(hidden.status).toBe("inactive");
    expect(hidden.hidden_until).not.toBeNull();
    const shown = await feedbackOk(g.key, contactId, matchId, { action: "unhide" });
    expect([shown.status, shown.hidden_until]).toEqual(["inactive", null]);
    expect((await feedbackRows(matchId)).map((f) => f.action)).toEqual(["not_interested", "hide", "unhide"]);
  });

  it("lists the pair's feedback newest first, with the member who gave it from a session", async () => {
    const { contactId, matchId } = await pair();
    const editor = await g.editor();
    await feedbackOk(g.key, contactId, matchId, { action: "good_match" });
    const until = daysFromNow(5);
    await feedbackOk(editor.token, contactId, matchId, { action: "hide", hidden_until: until });
    expect((await storedMatchRow(matchId)).hidden_by).toBe(editor.id);
    const detail = await getMatch(g.key, contactId, matchId);
    expect(detail.feedback.map((f) => [f.action, f.member_id, f.hidden_until])).toEqual([
      ["hide", editor.id, until],
      ["good_match", null, null],
    ]);
  });
});

describe("the write", () => {
  it("replays a retry with the same Idempotency-Key, records once; another body with that key is 400", async () => {
    const { contactId, matchId } = await pair();
    const headers = { "idempotency-key": `fb-${crypto.randomUUID()}` };
    const first = await feedback(g.key, contactId, matchId, { action: "not_interested" }, headers);
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    // Something else changes the pair in between: the replay still answers the first response.
    await feedbackOk(g.key, contactId, matchId, { action: "unhide" });
    const again = await feedback(g.key, contactId, matchId, { action: "not_interested" }, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(firstBody);
    expect((await feedbackRows(matchId)).map((f) => f.action)).toEqual(["not_interested", "unhide"]);
    await expectProblem(
      await feedback(g.key, contactId, matchId, { action: "good_match" }, headers),
      400,
      "idempotency_key_reused",
    );
  });

  it("replays a retried hide whose hidden_until has passed since, instead of refusing it", async () => {
    const { contactId, matchId } = await pair();
    const headers = { "idempotency-key": `fb-${crypto.randomUUID()}` };
    const body = { action: "hide", hidden_until: new Date(Date.now() + 1500).toISOString() };
    const first = await feedback(g.key, contactId, matchId, body, headers);
    expect(first.status, await first.clone().text()).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const again = await feedback(g.key, contactId, matchId, body, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
    // Without the key, the same body is now refused.
    await expectProblem(await feedback(g.key, contactId, matchId, body), 400, "invalid_request", {
      field: "hidden_until",
      location: "body",
    });
    expect((await feedbackRows(matchId)).map((f) => f.action)).toEqual(["hide"]);
  });

  it("404 for another contact's match, another gallery's, or an unknown one; nothing recorded", async () => {
    const { contactId, matchId } = await pair();
    const stranger = await contact(g);
    await expectProblem(await feedback(g.key, stranger, matchId, { action: "hide" }), 404, "not_found");
    await expectProblem(
      await feedback(g.key, contactId, newId("match"), { action: "hide" }),
      404,
      "not_found",
    );
    await expectProblem(await feedback(other.key, contactId, matchId, { action: "hide" }), 404, "not_found");
    expect(await feedbackRows(matchId)).toEqual([]);
  });

  it("needs contacts:update; a viewer's session and a read-only key are refused", async () => {
    const { contactId, matchId } = await pair();
    const reader = await g.keyWith(["contacts:read", "artworks:read"]);
    const body = await expectProblem(
      await feedback(reader, contactId, matchId, { action: "hide" }),
      403,
      "forbidden",
    );
    expect(body.details).toHaveProperty("missing_scopes", ["contacts:update"]);
    const updater = await g.keyWith(["contacts:update"]);
    expect((await feedback(updater, contactId, matchId, { action: "good_match" })).status).toBe(200);
  });

  it("emits match.feedback_recorded (and match.updated when the status moved), valid against the catalogue", async () => {
    const { contactId, matchId } = await pair();
    const editor = await g.editor();
    await feedbackOk(editor.token, contactId, matchId, { action: "hide" });
    await feedbackOk(g.key, contactId, matchId, { action: "not_interested" });
    await feedbackOk(g.key, contactId, matchId, { action: "good_match" });
    const events = await matchEvents(g, matchId);
    expect(events.map((e) => e.type)).toEqual([
      "match.feedback_recorded",
      "match.feedback_recorded",
      "match.updated",
      "match.feedback_recorded",
    ]);
    for (const event of events) {
      const schema = eventDataSchema(event.type as EventType);
      expect(schema.safeParse(event.data).success, JSON.stringify(event)).toBe(true);
      expect(Object.keys(event.data).sort()).toEqual(Object.keys(schema.shape).sort());
      expect(event.resource_type).toBe("match");
    }
    const [hide, dismiss, updated, label] = events.map((e) => e.data) as unknown as FeedbackEventData[];
    expect(hide!.previous_attributes).toEqual({ hidden_until: null });
    expect(hide!.object.hidden_until).not.toBeNull();
    expect(hide!.feedback).toMatchObject({ action: "hide", member_id: editor.id });
    expect(hide!.feedback.hidden_until).toBe(hide!.object.hidden_until);
    expect(dismiss!.previous_attributes).toEqual({ status: "active" });
    expect(dismiss!.object.status).toBe("dismissed");
    expect(dismiss!.feedback).toMatchObject({
      action: "not_interested",
      member_id: null,
      hidden_until: null,
    });
    expect(updated!.previous_attributes).toEqual({ status: "active" });
    expect(label!.previous_attributes).toEqual({});
    const detail = await getMatch(g.key, contactId, matchId);
    expect(detail.feedback.map((f) => f.id)).toEqual(
      [label, dismiss, hide].map((d) => (d!.feedback as { id: string }).id),
    );
  });
});
