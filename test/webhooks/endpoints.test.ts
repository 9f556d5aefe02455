import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../lib/ids";
import { checkWebhookUrl, dnsOverHttpsResolver, isPrivateAddress, type Resolver } from "../lib/webhook-url";
import { expectProblem, minutesAfterEpoch, type Page, seedEvent } from "./helpers/artworks";
import { call, createGallery, db, json, type TestGallery } from "./helpers/gallery";

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: string | null;
  previous_secret_expires_at: string | null;
  metadata: Record<string, string>;
  created_at: string;
  updated_at: string;
  secret?: string | null;
}

interface Delivery {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  attempts: {
    attempted_at: string;
    status_code: number | null;
    latency_ms: number | null;
    error: string | null;
    response_body: string | null;
  }[];
  created_at: string;
  updated_at: string;
}

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const BASE = "/gallery/webhook-endpoints";

async function create(key: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await call("POST", BASE, { key, body, headers });
  return { response, body: await json<Endpoint>(response.clone()) };
}

async function createdEndpoint(key: string, body: Record<string, unknown> = {}): Promise<Endpoint> {
  const result = await create(key, { url: "https://hooks.example.com/in", event_types: ["*"], ...body });
  expect(result.response.status, JSON.stringify(result.body)).toBe(201);
  return result.body;
}

async function storedSecrets(id: string) {
  const result = await db().execute<{
    secret: string;
    previous_secret: string | null;
    previous_secret_expires_at: string | null;
  }>(
    sql`select secret, previous_secret, iso_ms(previous_secret_expires_at) as previous_secret_expires_at
      from webhook_endpoints where id = ${id}`,
  );
  return result.rows[0]!;
}

/** Deliveries straight from the table, for one event (or every one of an endpoint). */
async function deliveryRows(where: { eventId?: string; endpointId?: string }) {
  const result = await db().execute<{
    id: string;
    endpoint_id: string;
    event_id: string;
    status: string;
    attempt_count: number;
    next_attempt_at: string | null;
  }>(
    sql`select id, endpoint_id, event_id, status, attempt_count, iso_ms(next_attempt_at) as next_attempt_at
      from webhook_deliveries
      where ${where.eventId ? sql`event_id = ${where.eventId}` : sql`endpoint_id = ${where.endpointId!}`}
      order by created_at, id`,
  );
  return result.rows;
}

/**
 * A delivery row in any state, as the cron Worker would have left it. Seeding the event already queued its
 * delivery to every subscribed endpoint (the fan-out trigger), so this sets that row's state (or inserts it,
 * for an endpoint not subscribed to the event's type).
 */
async function seedDelivery(
  galleryId: string,
  endpointId: string,
  eventId: string,
  columns: { status: string; created_at: string; attempt_count?: number; next_attempt_at?: string | null },
): Promise<string> {
  const result = await db().execute<{ id: string }>(sql`insert into webhook_deliveries
      (id, gallery_id, endpoint_id, event_id, status, attempt_count, next_attempt_at, last_status_code,
       last_error, created_at, updated_at)
    values (${newId("wd")}, ${galleryId}, ${endpointId}, ${eventId}, ${columns.status}, ${columns.attempt_count ?? 0},
      ${columns.next_attempt_at ?? null}, ${columns.status === "failed" ? 500 : null},
      ${columns.status === "failed" ? "HTTP 500" : null}, ${columns.created_at}, ${columns.created_at})
    on conflict (event_id, endpoint_id) do update set status = excluded.status,
      attempt_count = excluded.attempt_count, next_attempt_at = excluded.next_attempt_at,
      last_status_code = excluded.last_status_code, last_error = excluded.last_error,
      created_at = excluded.created_at, updated_at = excluded.updated_at
    returning id`);
  return result.rows[0]!.id;
}

async function eventsOfType(galleryId: string, type: string) {
  const result = await db().execute<{ id: string; resource_id: string; data: Record<string, unknown> }>(
    sql`select id, resource_id, data from domain_events where gallery_id = ${galleryId} and type = ${type}
      order by created_at, id`,
  );
  return result.rows;
}

describe("POST /gallery/webhook-endpoints", () => {
  it("creates an endpoint and shows its Standard Webhooks secret once", async () => {
    const g = await createGallery();
    const { response, body } = await create(g.key, {
      url: "https://hooks.example.com/gallery",
      description: "Order sync",
      event_types: ["artwork.*", "api_key.revoked"],
      metadata: { team: "ops" },
    });
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(body).toEqual({
      id: expect.stringMatching(/^we_[0-9a-z]{26}$/),
      url: "https://hooks.example.com/gallery",
      description: "Order sync",
      event_types: ["artwork.*", "api_key.revoked"],
      enabled: true,
      disabled_reason: null,
      failing_since: null,
      previous_secret_expires_at: null,
      metadata: { team: "ops" },
      created_at: expect.stringMatching(ISO_MS),
      updated_at: body.created_at,
      secret: expect.stringMatching(SECRET),
    });
    expect(atob(body.secret!.slice("whsec_".length))).toHaveLength(32);
    expect((await storedSecrets(body.id)).secret).toBe(body.secret);

    const { secret, ...withoutSecret } = body;
    const one = await call("GET", `${BASE}/${body.id}`, { key: g.key });
    expect(await json(one)).toEqual(withoutSecret);
    const list = await call("GET", BASE, { key: g.key });
    const listText = await list.text();
    expect(listText).not.toContain(secret!);
    expect((JSON.parse(listText) as Page<Endpoint>).data).toEqual([withoutSecret]);

    const [event] = await eventsOfType(g.id, "webhook_endpoint.created");
    expect(event?.resource_id).toBe(body.id);
    expect(event?.data).toEqual({ object: withoutSecret });
    expect(JSON.stringify(event)).not.toContain(secret!);
  });

  it("defaults enabled to true and description, metadata to empty; accepts enabled false", async () => {
    const g = await createGallery();
    const plain = await createdEndpoint(g.key, { url: "https://a.example.com/h" });
    expect(plain).toMatchObject({ description: null, metadata: {}, enabled: true, event_types: ["*"] });
    const off = await createdEndpoint(g.key, { enabled: false });
    expect(off.enabled).toBe(false);
  });

  it("replays a retried create with secret null, creating nothing more", async () => {
    const g = await createGallery();
    const headers = { "Idempotency-Key": `create-${crypto.randomUUID()}` };
    const request = { url: "https://hooks.example.com/in", event_types: ["artwork.created"] };
    const first = await create(g.key, request, headers);
    expect(first.response.status).toBe(201);
    expect(first.body.secret).toMatch(SECRET);
    const again = await create(g.key, request, headers);
    expect(again.response.status).toBe(201);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual({ ...first.body, secret: null });
    const page = await json<Page<Endpoint>>(await call("GET", BASE, { key: g.key }));
    expect(page.data.map((e) => e.id)).toEqual([first.body.id]);

    const other = await create(g.key, { ...request, event_types: ["*"] }, headers);
    await expectProblem(other.response, 400, "idempotency_key_reused");
  });

  it("accepts exact catalogue types, `*` and `<resource>.*` wildcards", async () => {
    const g = await createGallery();
    const body = await createdEndpoint(g.key, {
      event_types: ["*", "artwork.*", "api_key.*", "webhook_endpoint.*", "artwork.price_changed"],
    });
    expect(body.event_types).toHaveLength(5);
  });

  it.each([
    [["artwork.sold"], "event_types.0", "unknown event type `artwork.sold`"],
    [["artwork.created", "nope.*"], "event_types.1", "unknown event type `nope.*`"],
    [["artwork"], "event_types.0", "unknown event type `artwork`"],
    [["artwork.**"], "event_types.0", "unknown event type `artwork.**`"],
    [["*.created"], "event_types.0", "unknown event type `*.created`"],
    [["artwork.created", "artwork.created"], "event_types.1", "repeats `artwork.created`"],
    [[], "event_types", ""],
    [Array.from({ length: 51 }, () => "*"), "event_types", ""],
  ])("rejects event_types %j naming %s", async (eventTypes, field, message) => {
    const g = await createGallery();
    const { response } = await create(g.key, {
      url: "https://hooks.example.com/in",
      event_types: eventTypes,
    });
    const problem = await expectProblem(response, 400, "invalid_request", { field, location: "body" });
    const issue = problem.details?.find((d) => d.field === field);
    expect(issue?.message).toContain(message);
  });

  it.each([
    ["not a url"],
    ["/relative/path"],
    ["ftp://files.example.com/in"],
    ["javascript:alert(1)"],
    ["https://user:pass@hooks.example.com/in"],
    ["https://user@hooks.example.com/in"],
    [`https://hooks.example.com/${"a".repeat(2100)}`],
  ])("rejects the url %s even in local mode", async (url) => {
    const g = await createGallery();
    const { response } = await create(g.key, { url, event_types: ["*"] });
    await expectProblem(response, 400, "invalid_request", { field: "url", location: "body" });
  });

  it("allows http and private hosts in local mode (for local receivers)", async () => {
    const g = await createGallery();
    for (const url of ["http://localhost:8787/hook", "http://127.0.0.1:9000/", "http://10.1.2.3/in"]) {
      expect((await createdEndpoint(g.key, { url })).url).toBe(url);
    }
  });

  it("requires url and event_types and refuses unknown fields", async () => {
    const g = await createGallery();
    await expectProblem((await create(g.key, { event_types: ["*"] })).response, 400, "invalid_request", {
      field: "url",
      location: "body",
    });
    await expectProblem(
      (await create(g.key, { url: "https://hooks.example.com/in" })).response,
      400,
      "invalid_request",
      { field: "event_types", location: "body" },
    );
    await expectProblem(
      (await create(g.key, { url: "https://hooks.example.com/in", event_types: ["*"], secret: "whsec_x" }))
        .response,
      400,
      "invalid_request",
      { field: "secret", location: "body" },
    );
  });
});

describe("checkWebhookUrl", () => {
  const production = (resolve?: Resolver) => ({ environment: "production", resolve });
  const never: Resolver = () => {
    throw new Error("must not resolve");
  };

  it.each([
    ["http://hooks.example.com/in", "https"],
    ["https://10.0.0.8/in", "private"],
    ["https://172.16.5.4/in", "private"],
    ["https://172.31.255.255/in", "private"],
    ["https://192.168.1.1/in", "private"],
    ["https://127.0.0.1/in", "private"],
    ["https://127.8.9.10/in", "private"],
    ["https://169.254.169.254/latest/meta-data", "private"],
    ["https://100.64.0.1/in", "private"],
    ["https://100.127.255.254/in", "private"],
    ["https://0.0.0.0/in", "private"],
    ["https://2130706433/in", "private"],
    ["https://0x7f.0.0.1/in", "private"],
    ["https://[::1]/in", "private"],
    ["https://[::]/in", "private"],
    ["https://[fe80::1]/in", "private"],
    ["https://[febf:ffff::1]/in", "private"],
    ["https://[fc00::1]/in", "private"],
    ["https://[fd12:3456::1]/in", "private"],
    ["https://[::ffff:127.0.0.1]/in", "private"],
    ["https://[::ffff:10.0.0.1]/in", "private"],
    ["https://[64:ff9b::a9fe:a9fe]/in", "private"],
    ["https://localhost/in", "local or internal"],
    ["https://LOCALHOST./in", "local or internal"],
    ["https://api.localhost/in", "local or internal"],
    ["https://metadata.google.internal/computeMetadata/v1/", "local or internal"],
    ["https://db.internal/in", "local or internal"],
    ["https://printer.local/in", "local or internal"],
    ["https://intranet/in", "fully qualified"],
    ["https://user:pw@hooks.example.com/in", "user name"],
    ["gopher://hooks.example.com/in", "https"],
  ])("refuses %s in production (%s)", async (url, reason) => {
    const verdict = await checkWebhookUrl(url, production(never));
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? "" : verdict.reason).toContain(reason);
  });

  it("accepts public IP literals without resolving them", async () => {
    for (const url of [
      "https://93.184.216.34/in",
      "https://172.32.0.1/in",
      "https://100.128.0.1/in",
      "https://[2606:4700:4700::1111]/in",
    ]) {
      expect(await checkWebhookUrl(url, production(never)), url).toEqual({ ok: true });
    }
  });

  it("resolves host names and refuses any private answer", async () => {
    const answers: Record<string, string[]> = {
      "hooks.example.com": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
      "rebind.example.com": ["93.184.216.34", "10.0.0.1"],
      "v6.example.com": ["fd00::5"],
      "meta.example.com": ["169.254.169.254"],
      "empty.example.com": [],
    };
    const asked: string[] = [];
    const resolve: Resolver = async (name) => {
      asked.push(name);
      return answers[name] ?? [];
    };
    expect(await checkWebhookUrl("https://Hooks.Example.com:8443/in?x=1", production(resolve))).toEqual({
      ok: true,
    });
    expect(asked).toEqual(["hooks.example.com"]);
    for (const name of ["rebind", "v6", "meta"]) {
      const verdict = await checkWebhookUrl(`https://${name}.example.com/in`, production(resolve));
      expect(verdict, name).toEqual({ ok: false, reason: expect.stringContaining("resolves to a private") });
    }
    expect(await checkWebhookUrl("https://empty.example.com/in", production(resolve))).toEqual({
      ok: false,
      reason: expect.stringContaining("does not resolve"),
    });
    const failing: Resolver = () => Promise.reject(new Error("network down"));
    expect(await checkWebhookUrl("https://hooks.example.com/in", production(failing))).toEqual({
      ok: false,
      reason: expect.stringContaining("could not be resolved"),
    });
  });

  it("is strict when the environment is unset; relaxed only in local mode", async () => {
    expect((await checkWebhookUrl("http://hooks.example.com/in", { environment: undefined })).ok).toBe(false);
    expect(await checkWebhookUrl("http://127.0.0.1:9000/in", { environment: "local" })).toEqual({ ok: true });
    expect(await checkWebhookUrl("http://metadata.google.internal/", { environment: "local" })).toEqual({
      ok: true,
    });
    expect((await checkWebhookUrl("ftp://127.0.0.1/", { environment: "local" })).ok).toBe(false);
    expect((await checkWebhookUrl("http://u:p@127.0.0.1/", { environment: "local" })).ok).toBe(false);
  });

  it("queries DNS over HTTPS for A and AAAA and keeps only address answers", async () => {
    const requests: { url: string; accept: string | null }[] = [];
    const fakeFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      requests.push({ url, accept: new Headers(init?.headers).get("accept") });
      const aaaa = url.endsWith("type=AAAA");
      const answer = aaaa
        ? [{ name: "hooks.example.com", type: 28, data: "2606:2800:220:1::1" }]
        : [
            { name: "hooks.example.com", type: 5, data: "edge.example.net." },
            { name: "edge.example.net", type: 1, data: "93.184.216.34" },
          ];
      return Response.json({ Status: 0, Answer: answer });
    }) as typeof fetch;
    const resolve = dnsOverHttpsResolver(fakeFetch);
    expect(await resolve("hooks.example.com")).toEqual(["93.184.216.34", "2606:2800:220:1::1"]);
    expect(requests.map((r) => r.url).sort()).toEqual([
      "https://cloudflare-dns.com/dns-query?name=hooks.example.com&type=A",
      "https://cloudflare-dns.com/dns-query?name=hooks.example.com&type=AAAA",
    ]);
    expect(requests.every((r) => r.accept === "application/dns-json")).toBe(true);

    const nxdomain = dnsOverHttpsResolver((async () => Response.json({ Status: 3 })) as typeof fetch);
    expect(await nxdomain("gone.example.com")).toEqual([]);
    const servfail = dnsOverHttpsResolver((async () => Response.json({ Status: 2 })) as typeof fetch);
    await expect(servfail("broken.example.com")).rejects.toThrow();
    const down = dnsOverHttpsResolver((async () => new Response("", { status: 502 })) as typeof fetch);
    await expect(down("hooks.example.com")).rejects.toThrow();
  });

  it("classifies addresses", () => {
    expect(isPrivateAddress("8.8.8.8")).toBe(false);
    expect(isPrivateAddress("2001:4860:4860::8888")).toBe(false);
    expect(isPrivateAddress("192.168.0.1")).toBe(true);
    expect(isPrivateAddress("2002:c0a8:0101::1")).toBe(true);
    expect(isPrivateAddress("ff02::1")).toBe(true);
    expect(isPrivateAddress("224.0.0.1")).toBe(true);
    expect(isPrivateAddress("not-an-address")).toBe(true);
  });
});

describe("GET /gallery/webhook-endpoints", () => {
  it("lists newest first, pages with a cursor, and never shows another gallery's endpoints", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createdEndpoint(g.key, { description: `#${i}` })).id);
    await createdEndpoint(other.key);
    const first = await json<Page<Endpoint>>(await call("GET", `${BASE}?limit=2`, { key: g.key }));
    expect(first.data.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    const second = await json<Page<Endpoint>>(
      await call("GET", `${BASE}?limit=2&cursor=${first.next_cursor}`, { key: g.key }),
    );
    expect(second).toEqual({ data: [expect.objectContaining({ id: ids[0] })], next_cursor: null });
    const asc = await json<Page<Endpoint>>(await call("GET", `${BASE}?dir=asc`, { key: g.key }));
    expect(asc.data.map((e) => e.id)).toEqual(ids);
  });

  it("answers 404 for another gallery's endpoint and an unknown id; 400 for a malformed id", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const theirs = await createdEndpoint(other.key);
    await expectProblem(await call("GET", `${BASE}/${theirs.id}`, { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", `${BASE}/${newId("we")}`, { key: g.key }), 404, "not_found");
    await expectProblem(await call("GET", `${BASE}/art_123`, { key: g.key }), 400, "invalid_request", {
      field: "id",
      location: "path",
    });
  });
});

describe("PATCH /gallery/webhook-endpoints/{id}", () => {
  it("changes the fields sent and emits webhook_endpoint.updated with previous_attributes", async () => {
    const g = await createGallery();
    const before = await createdEndpoint(g.key, { description: "old", metadata: { a: "1" } });
    const response = await call("PATCH", `${BASE}/${before.id}`, {
      key: g.key,
      body: { url: "https://new.example.com/in", event_types: ["artwork.created"], description: null },
    });
    const after = await json<Endpoint>(response);
    expect(response.status, JSON.stringify(after)).toBe(200);
    expect(after).toEqual({
      ...before,
      secret: undefined,
      url: "https://new.example.com/in",
      event_types: ["artwork.created"],
      description: null,
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    const [event] = await eventsOfType(g.id, "webhook_endpoint.updated");
    expect(event?.data).toEqual({
      object: after,
      previous_attributes: { url: before.url, event_types: ["*"], description: "old" },
    });
  });

  it("emits nothing for a patch that changes nothing (metadata in another key order included)", async () => {
    const g = await createGallery();
    const before = await createdEndpoint(g.key, { metadata: { a: "1", bb: "2" } });
    const response = await call("PATCH", `${BASE}/${before.id}`, {
      key: g.key,
      body: { metadata: { bb: "2", a: "1" }, enabled: true, event_types: ["*"] },
    });
    expect(response.status).toBe(200);
    expect((await json<Endpoint>(response)).updated_at).toBe(before.updated_at);
    expect(await eventsOfType(g.id, "webhook_endpoint.updated")).toEqual([]);
  });

  it("re-enabling clears disabled_reason and failing_since", async () => {
    const g = await createGallery();
    const endpoint = await createdEndpoint(g.key);
    await db().execute(sql`update webhook_endpoints set enabled = false, disabled_reason = 'gone',
      failing_since = '2024-01-01T00:00:00Z' where id = ${endpoint.id}`);
    const disabled = await json<Endpoint>(await call("GET", `${BASE}/${endpoint.id}`, { key: g.key }));
    expect(disabled).toMatchObject({
      enabled: false,
      disabled_reason: "gone",
      failing_since: "2024-01-01T00:00:00.000Z",
    });
    const response = await call("PATCH", `${BASE}/${endpoint.id}`, { key: g.key, body: { enabled: true } });
    expect(await json(response)).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    const [event] = await eventsOfType(g.id, "webhook_endpoint.updated");
    expect(event?.data.previous_attributes).toEqual({
      enabled: false,
      disabled_reason: "gone",
      failing_since: "2024-01-01T00:00:00.000Z",
    });

    const off = await call("PATCH", `${BASE}/${endpoint.id}`, { key: g.key, body: { enabled: false } });
    expect(await json(off)).toMatchObject({ enabled: false, disabled_reason: null });
  });

  it("validates url and event_types like create; 404 for another gallery's endpoint", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const endpoint = await createdEndpoint(g.key);
    await expectProblem(
      await call("PATCH", `${BASE}/${endpoint.id}`, { key: g.key, body: { url: "ftp://x.example.com" } }),
      400,
      "invalid_request",
      { field: "url", location: "body" },
    );
    await expectProblem(
      await call("PATCH", `${BASE}/${endpoint.id}`, { key: g.key, body: { event_types: ["contact.*"] } }),
      400,
      "invalid_request",
      { field: "event_types.0", location: "body" },
    );
    await expectProblem(
      await call("PATCH", `${BASE}/${endpoint.id}`, { key: other.key, body: { description: "x" } }),
      404,
      "not_found",
    );
  });
});

describe("DELETE /gallery/webhook-endpoints/{id}", () => {
  it("deletes the endpoint with its deliveries, emits webhook_endpoint.deleted, and replays a retry", async () => {
    const g = await createGallery();
    const endpoint = await createdEndpoint(g.key, { event_types: ["artwork.*"] });
    const event = await seedEvent(g.id, { created_at: minutesAfterEpoch(1) });
    await seedDelivery(g.id, endpoint.id, event, { status: "failed", created_at: minutesAfterEpoch(2) });
    const headers = { "Idempotency-Key": `delete-${crypto.randomUUID()}` };
    const response = await call("DELETE", `${BASE}/${endpoint.id}`, { key: g.key, headers });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ id: endpoint.id, deleted: true });
    expect(await deliveryRows({ endpointId: endpoint.id })).toEqual([]);
    await expectProblem(await call("GET", `${BASE}/${endpoint.id}`, { key: g.key }), 404, "not_found");
    const [deleted] = await eventsOfType(g.id, "webhook_endpoint.deleted");
    const { secret: _secret, ...object } = endpoint;
    expect(deleted?.data).toEqual({ object });

    const retry = await call("DELETE", `${BASE}/${endpoint.id}`, { key: g.key, headers });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    await expectProblem(await call("DELETE", `${BASE}/${endpoint.id}`, { key: g.key }), 404, "not_found");
  });
});

describe("POST /gallery/webhook-endpoints/{id}/rotate-secret", () => {
  it("shows a new secret once and keeps the previous one signing for 24 hours", async () => {
    const g = await createGallery();
    const endpoint = await createdEndpoint(g.key);
    const headers = { "Idempotency-Key": `rotate-${crypto.randomUUID()}` };
    const response = await call("POST", `${BASE}/${endpoint.id}/rotate-secret`, { key: g.key, headers });
    const rotated = await json<Endpoint>(response);
    expect(response.status, JSON.stringify(rotated)).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(rotated.secret).toMatch(SECRET);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(Date.parse(rotated.previous_secret_expires_at!) - Date.parse(rotated.updated_at)).toBe(
      24 * 60 * 60 * 1000,
    );
    expect(await storedSecrets(endpoint.id)).toEqual({
      secret: rotated.secret,
      previous_secret: endpoint.secret,
      previous_secret_expires_at: rotated.previous_secret_expires_at,
    });
    const [event] = await eventsOfType(g.id, "webhook_endpoint.secret_rotated");
    const { secret: _secret, ...object } = rotated;
    expect(event?.data).toEqual({ object });
    expect(JSON.stringify(event)).not.toContain(rotated.secret!);

    const again = await call("POST", `${BASE}/${endpoint.id}/rotate-secret`, { key: g.key, headers });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(again)).toEqual({ ...rotated, secret: null });
    expect((await storedSecrets(endpoint.id)).secret).toBe(rotated.secret);
  });

  it("honours expire_previous_in_seconds, 0 dropping the previous secret at once", async () => {
    const g = await createGallery();
    const endpoint = await createdEndpoint(g.key);
    const hour = await json<Endpoint>(
      await call("POST", `${BASE}/${endpoint.id}/rotate-secret`, {
        key: g.key,
        body: { expire_previous_in_seconds: 3600 },
      }),
    );
    expect(Date.parse(hour.previous_secret_expires_at!) - Date.parse(hour.updated_at)).toBe(3_600_000);
    const now = await json<Endpoint>(
      await call("POST", `${BASE}/${endpoint.id}/rotate-secret`, {
        key: g.key,
        body: { expire_previous_in_seconds: 0 },
      }),
    );
    expect(now.previous_secret_expires_at).toBeNull();
    expect(await storedSecrets(endpoint.id)).toEqual({
      secret: now.secret,
      previous_secret: null,
      previous_secret_expires_at: null,
    });
    for (const value of [-1, 86401, 1.5, "60"]) {
      await expectProblem(
        await call("POST", `${BASE}/${endpoint.id}/rotate-secret`, {
          key: g.key,
          body: { expire_previous_in_seconds: value },
        }),
        400,
        "invalid_request",
        { field: "expire_previous_in_seconds", location: "body" },
      );
    }
  });
});

describe("POST /gallery/webhook-endpoints/{id}/test", () => {
  it("queues exactly one delivery of a webhook_endpoint.test event, to this endpoint only", async () => {
    const g = await createGallery();
    const target = await createdEndpoint(g.key, { event_types: ["artwork.created"] });
    const everything = await createdEndpoint(g.key, { event_types: ["*"] });
    await createdEndpoint(g.key, { event_types: ["webhook_endpoint.*"] });
    const response = await call("POST", `${BASE}/${target.id}/test`, { key: g.key });
    const result = await json<{ delivery_id: string; event_id: string }>(response);
    expect(response.status, JSON.stringify(result)).toBe(202);
    expect(result).toEqual({
      delivery_id: expect.stringMatching(/^wd_[0-9a-z]{26}$/),
      event_id: expect.stringMatching(/^evt_[0-9a-z]{26}$/),
    });
    const rows = await deliveryRows({ eventId: result.event_id });
    expect(rows).toEqual([
      {
        id: result.delivery_id,
        endpoint_id: target.id,
        event_id: result.event_id,
        status: "pending",
        attempt_count: 0,
        next_attempt_at: expect.stringMatching(ISO_MS),
      },
    ]);
    expect((await deliveryRows({ endpointId: everything.id })).map((d) => d.event_id)).not.toContain(
      result.event_id,
    );

    const event = await call("GET", `/gallery/events/${result.event_id}`, { key: g.key });
    const { secret: _secret, ...object } = target;
    expect(await json(event)).toMatchObject({
      id: result.event_id,
      type: "webhook_endpoint.test",
      resource_type: "webhook_endpoint",
      resource_id: target.id,
      livemode: false,
      data: { object },
    });

    const listed = await json<Page<Delivery>>(
      await call("GET", `${BASE}/${target.id}/deliveries`, { key: g.key }),
    );
    expect(listed.data[0]).toMatchObject({ id: result.delivery_id, event_type: "webhook_endpoint.test" });
  });

  it("replays a retried test without a second event; refuses a disabled endpoint", async () => {
    const g = await createGallery();
    const endpoint = await createdEndpoint(g.key);
    const headers = { "Idempotency-Key": `test-${crypto.randomUUID()}` };
    const first = await json(await call("POST", `${BASE}/${endpoint.id}/test`, { key: g.key, headers }));
    const again = await call("POST", `${BASE}/${endpoint.id}/test`, { key: g.key, headers });
    expect(again.status).toBe(202);
    expect(await json(again)).toEqual(first);
    expect(await eventsOfType(g.id, "webhook_endpoint.test")).toHaveLength(1);

    await call("PATCH", `${BASE}/${endpoint.id}`, { key: g.key, body: { enabled: false } });
    await expectProblem(await call("POST", `${BASE}/${endpoint.id}/test`, { key: g.key }), 409, "conflict");
    await expectProblem(
      await call("POST", `${BASE}/${endpoint.id}/test`, { key: g.key, body: { extra: 1 } }),
      400,
      "invalid_request",
      { field: "extra", location: "body" },
    );
  });
});

describe("GET /gallery/webhook-endpoints/{id}/deliveries", () => {
  let g: TestGallery;
  let endpoint: Endpoint;
  const ids: Record<string, string> = {};
  const events: Record<string, string> = {};

  beforeAll(async () => {
    g = await createGallery();
    endpoint = await createdEndpoint(g.key, { event_types: ["artwork.*"] });
    for (const [i, status] of ["succeeded", "failed", "pending"].entries()) {
      events[status] = await seedEvent(g.id, { created_at: minutesAfterEpoch(i), type: "artwork.updated" });
      ids[status] = await seedDelivery(g.id, endpoint.id, events[status]!, {
        status,
        created_at: minutesAfterEpoch(10 + i),
        attempt_count: status === "pending" ? 2 : 12,
        next_attempt_at: minutesAfterEpoch(100),
      });
    }
    // 12 attempts for the failed delivery: the listing shows the last 10, newest first.
    for (let i = 0; i < 12; i++) {
      await db().execute(sql`insert into webhook_delivery_attempts
          (id, gallery_id, delivery_id, status_code, latency_ms, error, response_body, attempted_at)
        values (${newId("wda")}, ${g.id}, ${ids.failed!}, ${i === 11 ? null : 500}, ${100 + i},
          ${i === 11 ? "timeout after 15000 ms" : null}, ${i === 11 ? null : `oops ${i}`}, ${minutesAfterEpoch(20 + i)})`);
    }
  });

  it("lists deliveries newest first with their last 10 attempts", async () => {
    const page = await json<Page<Delivery>>(
      await call("GET", `${BASE}/${endpoint.id}/deliveries`, { key: g.key }),
    );
    expect(page.next_cursor).toBeNull();
    expect(page.data.map((d) => d.id)).toEqual([ids.pending, ids.failed, ids.succeeded]);
    const failed = page.data[1]!;
    expect(failed).toEqual({
      id: ids.failed,
      endpoint_id: endpoint.id,
      event_id: events.failed,
      event_type: "artwork.updated",
      status: "failed",
      attempt_count: 12,
      next_attempt_at: null,
      last_status_code: 500,
      last_latency_ms: null,
      last_error: "HTTP 500",
      attempts: expect.any(Array),
      created_at: minutesAfterEpoch(11),
      updated_at: minutesAfterEpoch(11),
    });
    expect(failed.attempts).toHaveLength(10);
    expect(failed.attempts[0]).toEqual({
      attempted_at: minutesAfterEpoch(31),
      status_code: null,
      latency_ms: 111,
      error: "timeout after 15000 ms",
      response_body: null,
    });
    expect(failed.attempts.map((a) => a.attempted_at)).toEqual(
      Array.from({ length: 10 }, (_, i) => minutesAfterEpoch(31 - i)),
    );
    expect(page.data[0]).toMatchObject({ status: "pending", next_attempt_at: minutesAfterEpoch(100) });
    expect(page.data[2]!.attempts).toEqual([]);
  });

  it("filters by status and pages with a cursor", async () => {
    const failed = await json<Page<Delivery>>(
      await call("GET", `${BASE}/${endpoint.id}/deliveries?status=failed`, { key: g.key }),
    );
    expect(failed.data.map((d) => d.id)).toEqual([ids.failed]);
    const first = await json<Page<Delivery>>(
      await call("GET", `${BASE}/${endpoint.id}/deliveries?limit=2`, { key: g.key }),
    );
    expect(first.data.map((d) => d.id)).toEqual([ids.pending, ids.failed]);
    const second = await json<Page<Delivery>>(
      await call("GET", `${BASE}/${endpoint.id}/deliveries?limit=2&cursor=${first.next_cursor}`, {
        key: g.key,
      }),
    );
    expect(second).toEqual({ data: [expect.objectContaining({ id: ids.succeeded })], next_cursor: null });
    await expectProblem(
      await call("GET", `${BASE}/${endpoint.id}/deliveries?status=lost`, { key: g.key }),
      400,
      "invalid_request",
      { field: "status" },
    );
  });

  it("answers 404 for an unknown or foreign endpoint, even one with deliveries", async () => {
    const other = await createGallery();
    await expectProblem(
      await call("GET", `${BASE}/${endpoint.id}/deliveries`, { key: other.key }),
      404,
      "not_found",
    );
    await expectProblem(
      await call("GET", `${BASE}/${newId("we")}/deliveries`, { key: g.key }),
      404,
      "not_found",
    );
  });
});

describe("POST /gallery/webhook-endpoints/{id}/replay", () => {
  it.each([
    [{}, "event_id"],
    [{ event_id: "evt_01jd4xk9v2c7h8m3n5p6q7r8s9", failed_since: "2024-01-01T00:00:00Z" }, "failed_since"],
    [{ failed_since: "2024-01-01T00:00:00+02:00" }, "failed_since"],
    [{ failed_since: "2023-02-29T00:00:00Z" }, "failed_since"],
    [{ failed_since: "yesterday" }, "failed_since"],
    [{ event_id: "art_01jd4xk9v2c7h8m3n5p6q7r8s9" }, "event_id"],
  ])("rejects %j", async (body, field) => {
    const g = await createGallery();
    const endpoint = await createdEndpoint(g.key);
    await expectProblem(
      await call("POST", `${BASE}/${endpoint.id}/replay`, { key: g.key, body }),
      400,
      "invalid_request",
      { field, location: "body" },
    );
  });

  it("queues an event that was never delivered to the endpoint, and re-queues one that failed", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const endpoint = await createdEndpoint(g.key, { event_types: ["api_key.*"] });
    const fresh = await seedEvent(g.id, { created_at: minutesAfterEpoch(1) });
    const replay = (body: unknown, headers: Record<string, string> = {}) =>
      call("POST", `${BASE}/${endpoint.id}/replay`, { key: g.key, body, headers });

    const headers = { "Idempotency-Key": `replay-${crypto.randomUUID()}` };
    const created = await replay({ event_id: fresh }, headers);
    expect(created.status).toBe(202);
    expect(await json(created)).toEqual({ requeued: 1 });
    expect(await deliveryRows({ eventId: fresh })).toEqual([
      expect.objectContaining({ endpoint_id: endpoint.id, status: "pending", attempt_count: 0 }),
    ]);
    const retried = await replay({ event_id: fresh }, headers);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(await deliveryRows({ eventId: fresh })).toHaveLength(1);

    const failedEvent = await seedEvent(g.id, { created_at: minutesAfterEpoch(2) });
    const failed = await seedDelivery(g.id, endpoint.id, failedEvent, {
      status: "failed",
      created_at: minutesAfterEpoch(3),
      attempt_count: 10,
    });
    const before = Date.now();
    expect(await json(await replay({ event_id: failedEvent }))).toEqual({ requeued: 1 });
    const [row] = await deliveryRows({ eventId: failedEvent });
    // A replay starts the retry schedule afresh; the earlier attempts stay listed.
    expect(row).toMatchObject({ id: failed, status: "pending", attempt_count: 0 });
    expect(Date.parse(row!.next_attempt_at!)).toBeGreaterThanOrEqual(before - 5_000);

    const foreign = await seedEvent(other.id, { created_at: minutesAfterEpoch(1) });
    await expectProblem(await replay({ event_id: foreign }), 404, "not_found");
    await expectProblem(await replay({ event_id: newId("evt") }), 404, "not_found");
    expect(await deliveryRows({ eventId: foreign })).toEqual([]);
  });

  it("re-queues every failed delivery created at or after failed_since, and nothing else", async () => {
    const g = await createGallery();
    const endpoint = await createdEndpoint(g.key, { event_types: ["artwork.*"] });
    const neighbour = await createdEndpoint(g.key, { event_types: ["artwork.*"] });
    const seeded: Record<string, string> = {};
    const cases: [string, string, number, string][] = [
      ["oldFailed", "failed", 10, endpoint.id],
      ["failedAtCutoff", "failed", 20, endpoint.id],
      ["failedLater", "failed", 30, endpoint.id],
      ["abandoned", "abandoned", 31, endpoint.id],
      ["succeeded", "succeeded", 32, endpoint.id],
      ["pending", "pending", 33, endpoint.id],
      ["neighbourFailed", "failed", 34, neighbour.id],
    ];
    for (const [name, status, minute, endpointId] of cases) {
      const event = await seedEvent(g.id, { created_at: minutesAfterEpoch(minute - 1) });
      seeded[name] = await seedDelivery(g.id, endpointId, event, {
        status,
        created_at: minutesAfterEpoch(minute),
        attempt_count: 3,
        next_attempt_at: status === "pending" ? minutesAfterEpoch(1000) : null,
      });
    }
    const response = await call("POST", `${BASE}/${endpoint.id}/replay`, {
      key: g.key,
      body: { failed_since: minutesAfterEpoch(20).replace(".000Z", "Z") },
    });
    expect(response.status).toBe(202);
    expect(await json(response)).toEqual({ requeued: 3 });
    const rows = await db().execute<{ id: string; status: string; attempt_count: number }>(
      sql`select id, status, attempt_count from webhook_deliveries where gallery_id = ${g.id}`,
    );
    const statusOf = (name: string) => rows.rows.find((r) => r.id === seeded[name])?.status;
    expect(statusOf("oldFailed")).toBe("failed");
    expect(statusOf("failedAtCutoff")).toBe("pending");
    expect(statusOf("failedLater")).toBe("pending");
    expect(statusOf("abandoned")).toBe("pending");
    expect(statusOf("succeeded")).toBe("succeeded");
    expect(statusOf("neighbourFailed")).toBe("failed");
    const attemptsOf = (name: string) => rows.rows.find((r) => r.id === seeded[name])?.attempt_count;
    for (const name of ["failedAtCutoff", "failedLater", "abandoned"]) expect(attemptsOf(name)).toBe(0);
    for (const name of ["oldFailed", "succeeded", "pending", "neighbourFailed"])
      expect(attemptsOf(name)).toBe(3);
    const [pending] = await deliveryRows({ eventId: (await deliveryEvent(seeded.pending!))! });
    expect(pending?.next_attempt_at).toBe(minutesAfterEpoch(1000));

    const none = await call("POST", `${BASE}/${endpoint.id}/replay`, {
      key: g.key,
      body: { failed_since: "2099-01-01T00:00Z" },
    });
    expect(await json(none)).toEqual({ requeued: 0 });
  });

  it("refuses a disabled endpoint and another gallery's endpoint", async () => {
    const [g, other] = await Promise.all([createGallery(), createGallery()]);
    const endpoint = await createdEndpoint(g.key, { enabled: false });
    const body = { failed_since: "2024-01-01T00:00:00Z" };
    await expectProblem(
      await call("POST", `${BASE}/${endpoint.id}/replay`, { key: g.key, body }),
      409,
      "conflict",
    );
    await expectProblem(
      await call("POST", `${BASE}/${endpoint.id}/replay`, { key: other.key, body }),
      404,
      "not_found",
    );
  });
});

async function deliveryEvent(deliveryId: string): Promise<string | undefined> {
  const result = await db().execute<{ event_id: string }>(
    sql`select event_id from webhook_deliveries where id = ${deliveryId}`,
  );
  return result.rows[0]?.event_id;
}

describe("fan-out to endpoints created through the API", () => {
  it("queues one pending delivery per enabled matching endpoint when an artwork is created", async () => {
    const g = await createGallery();
    const all = await createdEndpoint(g.key, { event_types: ["*"] });
    const artworks = await createdEndpoint(g.key, { event_types: ["artwork.*"] });
    const exact = await createdEndpoint(g.key, { event_types: ["api_key.revoked", "artwork.created"] });
    const disabled = await createdEndpoint(g.key, { event_types: ["*"], enabled: false });
    const unrelated = await createdEndpoint(g.key, { event_types: ["artwork.deleted", "api_key.*"] });
    const paused = await createdEndpoint(g.key, { event_types: ["artwork.created"] });
    await call("PATCH", `${BASE}/${paused.id}`, { key: g.key, body: { enabled: false } });

    const response = await call("POST", "/gallery/artworks", { key: g.key, body: { title: "Fan-out" } });
    expect(response.status).toBe(201);
    const artwork = await json<{ id: string }>(response);
    const [event] = (await eventsOfType(g.id, "artwork.created")).filter((e) => e.resource_id === artwork.id);
    const rows = await deliveryRows({ eventId: event!.id });
    expect(rows.map((r) => r.endpoint_id).sort()).toEqual([all.id, artworks.id, exact.id].sort());
    expect(rows.every((r) => r.status === "pending" && r.attempt_count === 0)).toBe(true);
    for (const skipped of [disabled, unrelated, paused]) {
      expect(rows.map((r) => r.endpoint_id)).not.toContain(skipped.id);
    }

    const listed = await json<Page<Delivery>>(
      await call("GET", `${BASE}/${all.id}/deliveries`, { key: g.key }),
    );
    expect(listed.data[0]).toMatchObject({
      event_id: event!.id,
      event_type: "artwork.created",
      status: "pending",
    });
  });
});
