import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { InboxConnection } from "../../lib/schemas/inbox";
import { call, createGallery, db, readJson, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { CONNECTIONS, connect, emailConnection, eventsOf, member } from "./helpers";

/** A connection's provider secrets and inbound address: set on create or PATCH, sealed, never shown again. */

describe("connection secrets and addresses", () => {
  let g: TestGallery;
  let token: string;

  beforeAll(async () => {
    g = await createGallery();
    token = (await member(g)).token;
  });

  it("gives an email connection its own inbound address at the inbound domain", async () => {
    const connection = await emailConnection(token);
    expect(connection.inbound_address).toMatch(/^in\+[0-9a-f]{32}@inbox\.gallery\.example$/);
    expect(connection.webhook_url).toBeNull();
    expect(connection.secrets).toEqual([]);
    const another = await emailConnection(token);
    expect(another.inbound_address).not.toBe(connection.inbound_address);
  });

  it("stores the secrets sealed: neither the row, the response nor the event holds a value", async () => {
    const secret = "a-very-secret-app-secret-value";
    const connection = await connect(token, {
      channel: "whatsapp",
      provider: "meta",
      address: "+442079460100",
      secrets: { app_secret: secret, verify_token: "verify-me-please" },
    });
    expect(connection.secrets).toEqual(["app_secret", "verify_token"]);
    const row = await db().execute<{ sealed_secrets: string }>(
      sql`select sealed_secrets from inbox_connections where id = ${connection.id}`,
    );
    expect(row.rows[0]!.sealed_secrets).toMatch(/^v1:/);
    expect(row.rows[0]!.sealed_secrets).not.toContain(secret);
    const events = await db().execute<{ data: unknown }>(
      sql`select data from domain_events where gallery_id = ${g.id} and data::text like ${`%${connection.id}%`}`,
    );
    expect(JSON.stringify(events.rows)).not.toContain(secret);
    expect(JSON.stringify(events.rows)).not.toContain("verify-me-please");
  });

  it("sets, replaces and keeps secrets with PATCH, recording only their names", async () => {
    const connection = await connect(token, { channel: "sms", provider: "twilio", address: "+442079460101" });
    expect(connection.secrets).toEqual([]);
    const patched = await call("PATCH", `${CONNECTIONS}/${connection.id}`, {
      key: token,
      body: { secrets: { auth_token: "first-twilio-token" } },
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    expect((await readJson(InboxConnection, patched)).secrets).toEqual(["auth_token"]);
    const events = (await eventsOf(g.id, "inbox_connection.updated")).filter(
      (e) => (e.data as { object: { id: string } }).object.id === connection.id,
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ previous_attributes: { secrets: [] } });
    expect(JSON.stringify(events)).not.toContain("first-twilio-token");

    // The provider alone: the secret stays.
    const renamed = await call("PATCH", `${CONNECTIONS}/${connection.id}`, {
      key: token,
      body: { provider: "twilio-eu" },
    });
    expect(await readJson(InboxConnection, renamed)).toMatchObject({
      provider: "twilio-eu",
      secrets: ["auth_token"],
    });
    // The same values again change nothing and record nothing.
    const same = await call("PATCH", `${CONNECTIONS}/${connection.id}`, {
      key: token,
      body: { provider: "twilio-eu", secrets: { auth_token: "first-twilio-token" } },
    });
    expect(same.status).toBe(200);
    const after = (await eventsOf(g.id, "inbox_connection.updated")).filter(
      (e) => (e.data as { object: { id: string } }).object.id === connection.id,
    );
    expect(after).toHaveLength(2);
  });

  it("refuses a secret the channel does not take, naming it", async () => {
    const create = await call("POST", CONNECTIONS, {
      key: token,
      body: {
        channel: "sms",
        provider: "twilio",
        address: "+442079460102",
        secrets: { app_secret: "whatever-1" },
      },
    });
    const body = await expectProblem(create, 400, "invalid_request");
    expect(body.details).toContainEqual(expect.objectContaining({ field: "secrets.app_secret" }));
    const email = await emailConnection(token);
    const patch = await call("PATCH", `${CONNECTIONS}/${email.id}`, {
      key: token,
      body: { secrets: { auth_token: "whatever-2" } },
    });
    const patchBody = await expectProblem(patch, 400, "invalid_request");
    expect(patchBody.details).toContainEqual(expect.objectContaining({ field: "secrets.auth_token" }));
    const short = await call("POST", CONNECTIONS, {
      key: token,
      body: {
        channel: "sms",
        provider: "twilio",
        address: "+442079460103",
        secrets: { auth_token: "short" },
      },
    });
    expect((await expectProblem(short, 400, "invalid_request")).details).toContainEqual(
      expect.objectContaining({ field: "secrets.auth_token" }),
    );
  });

  it("is 404 for another member's connection, which keeps its secrets", async () => {
    const mine = await connect(token, {
      channel: "sms",
      provider: "twilio",
      address: "+442079460104",
      secrets: { auth_token: "kept-token-1234" },
    });
    const other = (await member(g)).token;
    await expectProblem(
      await call("PATCH", `${CONNECTIONS}/${mine.id}`, {
        key: other,
        body: { secrets: { auth_token: "stolen-token-1234" } },
      }),
      404,
      "not_found",
    );
    const row = await db().execute<{ secret_names: string[] }>(
      sql`select secret_names from inbox_connections where id = ${mine.id}`,
    );
    expect(row.rows[0]!.secret_names).toEqual(["auth_token"]);
  });
});
