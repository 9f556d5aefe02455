import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { webhookHeaders } from "../../lib/webhook-signing";
import { type ReceivedRequest, type Receiver, startReceiver } from "../receiver";

/**
 * `npm run webhooks:listen` as a child process against the API Worker under `wrangler dev` (the live stack of
 * test/browser/global-setup.ts), in its own gallery. Most tests send the listener what the cron Worker would, so
 * each knows exactly what arrives: the event as GET /gallery/events/{id} returns it, signed by
 * lib/webhook-signing.ts (the signer the cron Worker uses) with the secret the create response showed. One runs
 * the live stack's cron Worker, as `npm start` does every 10 s, and watches a change arrive through its Queue. The
 * forward target is the real receiver of test/receiver.ts.
 */

const { api, secretKey, cron } = inject("listen");
const auth = { authorization: `Bearer ${secretKey}` };

class Output {
  text = "";
  private waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  push(chunk: Buffer): void {
    this.text += chunk.toString();
    this.waiters = this.waiters.filter((w) => {
      const match = this.text.match(w.pattern);
      if (match) w.resolve(match);
      return !match;
    });
  }
  /** The first match of `pattern` in the output so far or to come, within `ms`. */
  wait(pattern: RegExp, ms = 30_000): Promise<RegExpMatchArray> {
    const match = this.text.match(pattern);
    if (match) return Promise.resolve(match);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${pattern} in the listener's output:\n${this.text}`)),
        ms,
      );
      this.waiters.push({
        pattern,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }
}

/** What `read` gives once it gives something, polled for up to 15 s (what an asynchronous step records). */
async function eventually<T>(read: () => Promise<T[]>): Promise<T[]> {
  for (let attempt = 0; ; attempt++) {
    const found = await read();
    if (found.length > 0 || attempt >= 75) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function received(receiver: Receiver, path: string): Promise<ReceivedRequest[]> {
  const response = await fetch(`${receiver.url}/__received${path}`);
  return (await response.json()) as ReceivedRequest[];
}

describe("npm run webhooks:listen against the live API", () => {
  let receiver: Receiver;
  let child: ChildProcessWithoutNullStreams;
  const out = new Output();
  let listenerUrl: string;
  let endpointId: string;
  let secret: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    // One process (node with tsx's loader), so the signal the test sends is the one the listener gets.
    child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "scripts/webhooks-listen.ts",
        "--api-url",
        api,
        "--api-key",
        secretKey,
        "--forward",
        `${receiver.url}/hooks`,
      ],
      { stdio: "pipe", env: { ...process.env, GALLERY_API_URL: "", GALLERY_API_KEY: "" } },
    );
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => out.push(chunk));
    const ready = await out.wait(
      /Listening on (\S+) as webhook endpoint (\S+) [\s\S]*Signing secret: (\S+)[\s\S]*Ready\./,
    );
    [, listenerUrl = "", endpointId = "", secret = ""] = ready;
  });

  afterAll(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await receiver?.close();
  });

  it("subscribes a temporary endpoint at its own loopback address to every event type", async () => {
    expect(listenerUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(secret).toMatch(/^whsec_/);
    const response = await fetch(`${api}/gallery/webhook-endpoints/${endpointId}`, { headers: auth });
    expect(response.status).toBe(200);
    const endpoint = (await response.json()) as { url: string; event_types: string[]; enabled: boolean };
    expect(endpoint).toMatchObject({ url: listenerUrl, event_types: ["*"], enabled: true });
  });

  it("prints a verified delivery and forwards its raw body with the same webhook headers", async () => {
    const create = await fetch(`${api}/gallery/artworks`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ title: "Listener Study", price_cents: 250_000, currency: "USD" }),
    });
    expect(create.status).toBe(201);
    const artwork = (await create.json()) as { id: string };
    const events = (await (
      await fetch(`${api}/gallery/events?type=artwork.created&limit=100`, { headers: auth })
    ).json()) as { data: { id: string; resource_id: string }[] };
    const event = events.data.find((e) => e.resource_id === artwork.id);
    expect(event).toBeDefined();
    // The delivery body is the event as its read returns it, byte for byte.
    const body = await (await fetch(`${api}/gallery/events/${event?.id}`, { headers: auth })).text();
    const headers = await webhookHeaders({
      id: event?.id ?? "",
      timestamp: Math.floor(Date.now() / 1000),
      body,
      secrets: [secret],
    });

    const delivery = await fetch(listenerUrl, { method: "POST", headers, body });
    expect(delivery.status).toBe(200);
    await out.wait(new RegExp(`← artwork\\.created  ${event?.id}  ${artwork.id}  "Listener Study"`));
    await out.wait(new RegExp(`→ ${receiver.url}/hooks answered 200`));

    const forwarded = await received(receiver, "/hooks");
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0]?.body).toBe(body);
    for (const name of [
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
      "content-type",
      "user-agent",
    ]) {
      expect(forwarded[0]?.headers[name], name).toBe(headers[name]);
    }

    // The receiver's answer is the listener's: a failing receiver gets the platform's retries.
    await fetch(`${receiver.url}/__control/hooks`, { method: "POST", body: JSON.stringify({ status: 503 }) });
    const retried = await fetch(listenerUrl, { method: "POST", headers, body });
    expect(retried.status).toBe(503);
    await out.wait(/\(again: a retry or replay of the same webhook-id\)[\s\S]*answered 503/);
  });

  it("answers 401 to a request that fails verification, and does not forward it", async () => {
    const before = (await received(receiver, "/hooks")).length;
    const body = JSON.stringify({ id: "evt_forged", type: "artwork.deleted", data: { object: {} } });
    const headers = await webhookHeaders({
      id: "evt_forged",
      timestamp: Math.floor(Date.now() / 1000),
      body,
      secrets: ["whsec_dGhpcy1pcy1ub3QtdGhlLWxpc3RlbmVyJ3Mtc2VjcmV0"],
    });
    const response = await fetch(listenerUrl, { method: "POST", headers, body });
    expect(response.status).toBe(401);
    await out.wait(/✗ rejected a request that failed verification/);
    expect(out.text).not.toContain("evt_forged");
    expect(await received(receiver, "/hooks")).toHaveLength(before);
  });

  it("shows a change made through the API as the cron Worker delivers it, and forwards it", async () => {
    await fetch(`${receiver.url}/__control/hooks`, { method: "POST", body: JSON.stringify({ status: 200 }) });
    const create = await fetch(`${api}/gallery/artworks`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ title: "Delivered Study" }),
    });
    expect(create.status).toBe(201);
    const artwork = (await create.json()) as { id: string };
    // What npm start does every 10 s: the cron Worker's scheduled run hands the endpoint's due deliveries to the
    // gallery-webhooks Queue, whose consumer (the same Worker) sends them.
    const tick = await fetch(`${cron}/__scheduled?cron=*+*+*+*+*`);
    expect(tick.status).toBe(200);
    const [, eventId] = await out.wait(
      new RegExp(`← artwork\\.created  (evt_\\w+)  ${artwork.id}  "Delivered Study"`),
      60_000,
    );
    // Forwarded as it came, and on record as the cron Worker's attempt, answered 200.
    const forwarded = await eventually(async () =>
      (await received(receiver, "/hooks")).filter((r) => r.headers["webhook-id"] === eventId),
    );
    expect(forwarded).toHaveLength(1);
    expect(JSON.parse(forwarded[0]?.body ?? "{}")).toMatchObject({
      id: eventId,
      type: "artwork.created",
      data: { object: { id: artwork.id, title: "Delivered Study" } },
    });
    const delivery = await eventually(async () => {
      const page = (await (
        await fetch(`${api}/gallery/webhook-endpoints/${endpointId}/deliveries?limit=100`, { headers: auth })
      ).json()) as { data: { event_id: string; status: string }[] };
      const found = page.data.find((d) => d.event_id === eventId);
      return found?.status === "succeeded" ? [found] : [];
    });
    expect(delivery).toHaveLength(1);
  });

  it("deletes the endpoint on Ctrl-C and says so", async () => {
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(out.text).toContain(`deleted webhook endpoint ${endpointId}`);
    const response = await fetch(`${api}/gallery/webhook-endpoints/${endpointId}`, { headers: auth });
    expect(response.status).toBe(404);
  });
});
