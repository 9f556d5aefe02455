import { describe, expect, it } from "vitest";
import { WebhookEndpoint } from "../../lib/schemas/webhooks";
import { call, createGallery, json, readJson } from "../helpers/gallery";
import type { Page } from "../helpers/pages";
import { pageOf } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import {
  BASE,
  create,
  createdEndpoint,
  type Endpoint,
  eventsOfType,
  ISO_MS,
  SECRET,
  storedSecrets,
} from "./helpers";

/** POST /gallery/webhook-endpoints. */

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
    const page = await readJson(pageOf(WebhookEndpoint), await call("GET", BASE, { key: g.key }));
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
