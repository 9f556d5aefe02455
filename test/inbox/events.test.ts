import { describe, expect, it } from "vitest";
import { eventDataSchema } from "../../lib/event-catalogue";
import type { EventType } from "../../lib/event-types";
import { call, createGallery } from "../helpers/gallery";
import { walkPages } from "../helpers/pages";
import { CONNECTIONS, deliver, emailConnection, markThread, member, patchThread } from "./helpers";

/**
 * The inbox's events in the gallery-wide feed: each type's `data` is exactly its catalogue schema, and none
 * carries the member-private content (subjects, text, names, addresses).
 */

const INBOX_TYPES: EventType[] = [
  "inbox_connection.created",
  "inbox_connection.deleted",
  "inbox_message.received",
  "inbox_message.sent",
  "inbox_thread.updated",
  "inbox_thread.marked_read",
  "inbox_thread.marked_unread",
];

interface FeedEvent {
  id: string;
  type: string;
  resource_type: string;
  data: { object: Record<string, unknown> } & Record<string, unknown>;
}

describe("inbox events", () => {
  it("every type is emitted with exactly its catalogue object, and no content", async () => {
    const g = await createGallery();
    const ada = await member(g);
    const conn = await emailConnection(ada.token);
    const secret = {
      subject: "Secret subject 7f3a",
      body: "Secret body 7f3a",
      name: "Secret Name 7f3a",
      address: "secret-7f3a@example.com",
    };
    const inbound = await deliver(g.key, conn.id, {
      provider_thread_id: "t",
      subject: secret.subject,
      body: secret.body,
      from: { address: secret.address, name: secret.name },
    });
    await deliver(ada.token, conn.id, {
      direction: "outbound",
      provider_thread_id: "t",
      from: { address: conn.address, name: secret.name },
      to: [secret.address],
      body: secret.body,
    });
    await patchThread(ada.token, inbound.thread_id, { state: "done", triage: { intent: "press" } });
    await markThread(ada.token, inbound.thread_id);
    await markThread(ada.token, inbound.thread_id, { read: false });
    expect((await call("DELETE", `${CONNECTIONS}/${conn.id}`, { key: ada.token })).status).toBe(200);

    const feed = (await walkPages<FeedEvent>(g.key, "/gallery/events", { limit: "100" })).flatMap(
      (p) => p.data,
    );
    const inboxEvents = feed.filter((e) => e.type.startsWith("inbox_"));
    expect(new Set(inboxEvents.map((e) => e.type))).toEqual(new Set(INBOX_TYPES));
    for (const event of inboxEvents) {
      const schema = eventDataSchema(event.type as EventType);
      expect(schema.safeParse(event.data).success, JSON.stringify(event)).toBe(true);
      expect(Object.keys(event.data).sort()).toEqual(Object.keys(schema.shape).sort());
      const objectSchema = schema.shape.object as unknown as { shape: Record<string, unknown> };
      expect(Object.keys(event.data.object).sort()).toEqual(Object.keys(objectSchema.shape).sort());
      expect(event.resource_type).toBe(event.type.split(".")[0]);
      const text = JSON.stringify(event);
      for (const value of Object.values(secret)) expect(text).not.toContain(value);
      expect(text).not.toContain(conn.address);
    }
  });
});
