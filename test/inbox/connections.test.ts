import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { InboxConnection } from "../../lib/schemas/inbox";
import { call, createGallery, db, type SignedInMember, type TestGallery } from "../helpers/gallery";
import { getPage } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import {
  CONNECTIONS,
  type ConnectionBody,
  connect,
  deliver,
  emailConnection,
  eventsOf,
  expectMemberPrivate,
  getThread,
  ISO_MS,
  member,
  UUID,
} from "./helpers";

/** GET/POST /gallery/inbox/connections and DELETE /gallery/inbox/connections/{id}: a member's own accounts. */

describe("inbox connections", () => {
  let g: TestGallery;
  let ada: SignedInMember;
  let bea: SignedInMember;
  beforeAll(async () => {
    g = await createGallery();
    [ada, bea] = [await member(g), await member(g)];
  });

  it("connects an email account: the address trimmed and lower-cased, active, emits a content-free event", async () => {
    const connection = await connect(ada.token, {
      provider: "google",
      channel: "email",
      address: "  Ada.Desk@Gallery.Example ",
    });
    expect(connection).toEqual({
      id: expect.stringMatching(UUID),
      member_id: ada.id,
      channel: "email",
      provider: "google",
      address: "ada.desk@gallery.example",
      status: "active",
      last_synced_at: null,
      last_error: null,
      inbound_address: expect.stringMatching(/^in\+[0-9a-f]{32}@inbox\.gallery\.example$/),
      webhook_url: null,
      secrets: [],
      created_at: expect.stringMatching(ISO_MS),
      updated_at: connection.created_at,
    });
    expect(Object.keys(connection)).toEqual(Object.keys(InboxConnection.shape));
    const events = (await eventsOf(g.id, "inbox_connection.created")).filter(
      (e) => e.resource_id === connection.id,
    );
    expect(events).toEqual([
      {
        id: expect.any(String),
        type: "inbox_connection.created",
        resource_id: connection.id,
        data: {
          object: {
            id: connection.id,
            member_id: ada.id,
            channel: "email",
            provider: "google",
            status: "active",
            secrets: [],
            created_at: connection.created_at,
            updated_at: connection.updated_at,
          },
        },
      },
    ]);
    expect(JSON.stringify(events)).not.toContain("ada.desk");
  });

  it("stores WhatsApp and SMS numbers in E.164, whatever their spelling", async () => {
    const whatsapp = await connect(ada.token, { channel: "whatsapp", address: "+44 (0)20 7946 0958" });
    expect(whatsapp.address).toBe("+442079460958");
    const sms = await connect(ada.token, {
      channel: "sms",
      address: "0044 20-7946-0958",
      provider: "twilio",
    });
    expect([sms.address, sms.provider]).toEqual(["+442079460958", "twilio"]);
  });

  it("409 when the member already connected that address on that channel; another member or channel may", async () => {
    const first = await connect(ada.token, { channel: "sms", address: "+1 415 555 0100" });
    const again = await call("POST", CONNECTIONS, {
      key: ada.token,
      body: { provider: "other", channel: "sms", address: "+1 (415) 555-0100" },
    });
    const problem = await expectProblem(again, 409, "conflict");
    expect(problem.details).toEqual({ connection_id: first.id, channel: "sms" });
    await connect(ada.token, { channel: "whatsapp", address: "+1 415 555 0100" });
    await connect(bea.token, { channel: "sms", address: "+14155550100" });
  });

  it.each([
    ["address", { channel: "email", address: "not-an-email" }],
    ["address", { channel: "email", address: "+1 415 555 0100" }],
    ["address", { channel: "sms", address: "415-555-0100" }],
    ["address", { channel: "whatsapp", address: "desk@gallery.example" }],
    ["address", { channel: "email", address: undefined }],
    ["address", { channel: "email", address: "a\u0000b@example.com" }],
    ["channel", { channel: "fax", address: "desk@gallery.example" }],
    ["channel", { channel: undefined, address: "desk@gallery.example" }],
    ["provider", { provider: "", channel: "email", address: "desk@gallery.example" }],
    ["provider", { provider: "   ", channel: "email", address: "desk@gallery.example" }],
    ["provider", { provider: "x".repeat(51), channel: "email", address: "desk@gallery.example" }],
    ["status", { channel: "email", address: "desk@gallery.example", status: "active" }],
  ])("400 naming %s (case %#); nothing is stored", async (field, change) => {
    const h = await createGallery();
    const someone = await member(h);
    const response = await call("POST", CONNECTIONS, {
      key: someone.token,
      body: { provider: "google", ...change },
    });
    await expectProblem(response, 400, "invalid_request", { field, location: "body" });
    expect((await getPage(someone.token, CONNECTIONS)).data).toEqual([]);
  });

  it("lists only the signed-in member's own connections, newest first, with cursors", async () => {
    const h = await createGallery();
    const [cyd, dee] = [await member(h), await member(h)];
    const mine: ConnectionBody[] = [];
    for (let i = 0; i < 5; i++) mine.push(await emailConnection(cyd.token));
    await emailConnection(dee.token);
    const first = await getPage<ConnectionBody>(cyd.token, CONNECTIONS, "limit=3");
    expect(first.data.map((c) => c.id)).toEqual(
      mine
        .slice(2)
        .reverse()
        .map((c) => c.id),
    );
    expect(first.next_cursor).not.toBeNull();
    const second = await getPage<ConnectionBody>(
      cyd.token,
      CONNECTIONS,
      `limit=3&cursor=${first.next_cursor}`,
    );
    expect(second.data.map((c) => c.id)).toEqual([mine[1]!.id, mine[0]!.id]);
    expect(second.next_cursor).toBeNull();
    const ascending = await getPage<ConnectionBody>(cyd.token, CONNECTIONS, "dir=asc");
    expect(ascending.data.map((c) => c.id)).toEqual(mine.map((c) => c.id));
    expect((await getPage<ConnectionBody>(dee.token, CONNECTIONS)).data).toHaveLength(1);
  });

  it("deletes a connection: its threads stay, without a connection; a retry replays; an event without the address", async () => {
    const connection = await emailConnection(ada.token);
    const message = await deliver(g.key, connection.id);
    const key = `delete-${crypto.randomUUID()}`;
    const response = await call("DELETE", `${CONNECTIONS}/${connection.id}`, {
      key: ada.token,
      headers: { "Idempotency-Key": key },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: connection.id, deleted: true });
    const thread = await getThread(ada.token, message.thread_id);
    expect(thread.connection_id).toBeNull();
    const replay = await call("DELETE", `${CONNECTIONS}/${connection.id}`, {
      key: ada.token,
      headers: { "Idempotency-Key": key },
    });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    await expectProblem(await call("DELETE", `${CONNECTIONS}/${connection.id}`, { key: ada.token }), 404);
    const events = (await eventsOf(g.id, "inbox_connection.deleted")).filter(
      (e) => e.resource_id === connection.id,
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toEqual({
      object: {
        id: connection.id,
        member_id: ada.id,
        channel: "email",
        provider: "google",
        status: "active",
        secrets: [],
        created_at: connection.created_at,
        updated_at: connection.updated_at,
      },
    });
  });
});

describe("inbox connections: who may", () => {
  let g: TestGallery;
  let ada: SignedInMember;
  let bea: SignedInMember;
  let adas: ConnectionBody;
  beforeAll(async () => {
    g = await createGallery();
    [ada, bea] = [await member(g), await member(g)];
    adas = await emailConnection(ada.token);
  });

  it("a secret key is refused on every connection operation: the inbox is member-private", async () => {
    await expectMemberPrivate(await call("GET", CONNECTIONS, { key: g.key }));
    await expectMemberPrivate(
      await call("POST", CONNECTIONS, {
        key: g.key,
        body: { provider: "google", channel: "email", address: "desk@gallery.example" },
      }),
    );
    await expectMemberPrivate(await call("DELETE", `${CONNECTIONS}/${adas.id}`, { key: g.key }));
  });

  it("another member's connection is 404 to delete, as an unknown one, and is not listed", async () => {
    await expectProblem(
      await call("DELETE", `${CONNECTIONS}/${adas.id}`, { key: bea.token }),
      404,
      "not_found",
    );
    await expectProblem(
      await call("DELETE", `${CONNECTIONS}/${crypto.randomUUID()}`, { key: bea.token }),
      404,
      "not_found",
    );
    expect((await getPage<ConnectionBody>(bea.token, CONNECTIONS)).data.map((c) => c.id)).not.toContain(
      adas.id,
    );
    const { rows } = await db().execute(sql`select 1 from inbox_connections where id = ${adas.id}`);
    expect(rows).toHaveLength(1);
  });

  it("takes a connection id in upper case as the same id", async () => {
    const connection = await emailConnection(ada.token);
    const response = await call("DELETE", `${CONNECTIONS}/${connection.id.toUpperCase()}`, {
      key: ada.token,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: connection.id, deleted: true });
  });

  it("a malformed connection id is a 400 naming the path parameter", async () => {
    await expectProblem(
      await call("DELETE", `${CONNECTIONS}/not-a-uuid`, { key: ada.token }),
      400,
      "invalid_request",
      {
        field: "id",
        location: "path",
      },
    );
  });

  it("a viewer lists its connections but cannot connect or disconnect (write scopes)", async () => {
    const viewer = await member(g, "viewer");
    expect((await getPage(viewer.token, CONNECTIONS)).data).toEqual([]);
    const create = await call("POST", CONNECTIONS, {
      key: viewer.token,
      body: { provider: "google", channel: "email", address: "viewer@gallery.example" },
    });
    expect((await expectProblem(create, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
      "inbox:create",
    ]);
    const remove = await call("DELETE", `${CONNECTIONS}/${adas.id}`, { key: viewer.token });
    expect((await expectProblem(remove, 403, "forbidden")).details).toHaveProperty("missing_scopes", [
      "inbox:delete",
    ]);
  });

  it("another gallery's member never sees or reaches them", async () => {
    const other = await createGallery();
    const stranger = await member(other);
    expect((await getPage(stranger.token, CONNECTIONS)).data).toEqual([]);
    await expectProblem(await call("DELETE", `${CONNECTIONS}/${adas.id}`, { key: stranger.token }), 404);
    expect((await getPage<ConnectionBody>(ada.token, CONNECTIONS)).data.map((c) => c.id)).toContain(adas.id);
  });
});
