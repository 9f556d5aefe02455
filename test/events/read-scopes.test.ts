import { beforeAll, describe, expect, it } from "vitest";
import "../../functions/api";
import { domainEvents } from "../../db/schema";
import { eventReadScopes } from "../../functions/events/read-scopes";
import { operationRegistry } from "../../http/operation";
import { catalogueTypes, eventCatalogue, eventObjectReaders } from "../../lib/event-catalogue";
import type { EventType } from "../../lib/event-types";
import { newId } from "../../lib/ids";
import { readScopes } from "../../lib/scopes";
import { call, createGallery, db, type TestGallery } from "../helpers/gallery";
import { getPage, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { insertRow } from "../helpers/seed";

/**
 * Generated from the event catalogue: for every type, a key holding `events:read` and every other read scope
 * but the type's own read scopes never sees an event of that type, and a key holding `events:read` and the
 * type's read scopes does. One event of every type is recorded in one gallery, as the outbox stores them.
 */

interface EventBody {
  id: string;
  type: string;
}

let g: TestGallery;
const eventOf = new Map<EventType, string>();
const keyWith = (scopes: readonly string[]): Promise<string> => g.keyFor(scopes);

/** `events:read` and every other read scope, without the type's read scopes. */
function lacking(type: EventType): Promise<string> {
  const own = eventReadScopes()[type];
  return keyWith(readScopes.filter((s) => s === "events:read" || !own.includes(s)));
}

/** `events:read` and the type's read scopes, nothing else. */
function holding(type: EventType): Promise<string> {
  return keyWith(["events:read", ...eventReadScopes()[type]]);
}

const listed = new Map<string, Promise<EventBody[]>>();

/** The whole stream as a key reads it, walked once per key. */
function stream(key: string): Promise<EventBody[]> {
  if (!listed.has(key)) {
    listed.set(
      key,
      walkPages<EventBody>(key, "/gallery/events", { limit: "7" }).then((pages) =>
        pages.flatMap((p) => p.data),
      ),
    );
  }
  return listed.get(key)!;
}

beforeAll(async () => {
  g = await createGallery();
  const start = Date.parse("2026-01-01T00:00:00.000Z");
  for (const [i, type] of catalogueTypes.entries()) {
    const id = newId("evt");
    await db().execute(
      insertRow(domainEvents, {
        id,
        gallery_id: g.id,
        type,
        livemode: false,
        resource_type: eventCatalogue[type].resourceType,
        resource_id: newId("res"),
        data: { object: { id: newId("res") } },
        created_at: new Date(start + i * 1000).toISOString(),
      }),
    );
    eventOf.set(type, id);
  }
});

describe("the declaration", () => {
  it("names, for every resource events carry, a declared GET operation whose scopes are all :read", () => {
    for (const operationId of Object.values(eventObjectReaders)) {
      const op = operationRegistry.find((o) => o.operationId === operationId);
      expect(op, operationId).toBeDefined();
      expect(op!.method).toBe("GET");
      expect(op!.scopes.length).toBeGreaterThan(0);
      expect(op!.scopes.every((s) => s.endsWith(":read"))).toBe(true);
    }
  });

  it("is served in GET /v1/event-types, type by type", async () => {
    const response = await call("GET", "/event-types");
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { type: EventType; read_scopes: string[] }[] };
    expect(data.map((e) => e.type)).toEqual(catalogueTypes);
    for (const entry of data) expect(entry.read_scopes).toEqual(eventReadScopes()[entry.type]);
  });

  it("is in the OpenAPI description of every webhook", async () => {
    const doc = (await (await call("GET", "/openapi.json")).json()) as {
      webhooks: Record<string, { post: { description: string } }>;
    };
    for (const type of catalogueTypes) {
      const scopes = eventReadScopes()
        [type].map((s) => `\`${s}\``)
        .join(", ");
      expect(doc.webhooks[type]!.post.description).toContain(`Read scopes (all): ${scopes}.`);
    }
  });
});

describe.each(catalogueTypes.map((type) => [type] as const))("%s", (type) => {
  it("is never shown to a key without its read scopes: not listed, not under type=, 404 by id", async () => {
    const key = await lacking(type);
    expect((await stream(key)).filter((e) => e.type === type)).toEqual([]);
    expect((await getPage<EventBody>(key, "/gallery/events", `type=${type}`)).data).toEqual([]);
    await expectProblem(await call("GET", `/gallery/events/${eventOf.get(type)}`, { key }), 404, "not_found");
  });

  it("is shown to a key holding events:read and its read scopes: listed, under type=, by id", async () => {
    const key = await holding(type);
    expect((await stream(key)).filter((e) => e.type === type).map((e) => e.id)).toEqual([eventOf.get(type)]);
    const page = await getPage<EventBody>(key, "/gallery/events", `type=${type}`);
    expect(page.data.map((e) => e.id)).toEqual([eventOf.get(type)]);
    const response = await call("GET", `/gallery/events/${eventOf.get(type)}`, { key });
    expect(response.status).toBe(200);
    expect(((await response.json()) as EventBody).id).toBe(eventOf.get(type));
  });
});

describe("pages of a filtered stream", () => {
  it("are full pages of the readable events, in order, each event once", async () => {
    const key = await keyWith(["events:read", "artworks:read"]);
    const readable = catalogueTypes.filter((t) => eventReadScopes()[t].every((s) => s === "artworks:read"));
    const pages = await walkPages<EventBody>(key, "/gallery/events", { limit: "3" });
    expect(pages.slice(0, -1).every((p) => p.data.length === 3)).toBe(true);
    const ids = pages.flatMap((p) => p.data.map((e) => e.id));
    expect(ids).toEqual(readable.map((t) => eventOf.get(t)!).reverse());
  });
});
