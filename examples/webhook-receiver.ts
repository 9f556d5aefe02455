/**
 * A webhook receiver: a small HTTP server that takes the API's deliveries, verifies each one's Standard Webhooks
 * signature with the endpoint's secret (the client's `verifyWebhook`), acknowledges it, and handles each event
 * once: delivery is at least once (a retry, a replay), so it dedupes on the `webhook-id` header, the event's id.
 * It prints each event's type, id and what it is about.
 *
 * With an endpoint's secret (`whsec_…`, shown once when the endpoint is made):
 *   GALLERY_WEBHOOK_SECRET=whsec_… npx tsx examples/webhook-receiver.ts
 * Or let it subscribe itself on the local stack (POST /v1/gallery/webhook-endpoints with its own URL; local mode
 * allows a loopback http URL) and remove that endpoint again on Ctrl-C:
 *   GALLERY_API_URL=http://127.0.0.1:8787/v1 GALLERY_API_KEY=gpk_… npx tsx examples/webhook-receiver.ts
 * PORT (default 4242) is where it listens; deliveries go to http://127.0.0.1:PORT/hooks.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type GalleryClient,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from "../clients/typescript/src/index";
import { clientFromEnv, isMain, run } from "./config";

/** How many event ids are remembered for dedupe; a store that outlives the process would keep them in a table. */
const REMEMBERED_IDS = 10_000;

export type Outcome = "handled" | "duplicate" | "refused";

export interface ReceiverOptions {
  /** The endpoint's signing secret, `whsec_…`. */
  secret: string;
  log?: (line: string) => void;
  /** Called once per event, after verification and dedupe. */
  onEvent?: (event: WebhookEvent) => void | Promise<void>;
}

/** One line about an event: its type and id, and the resource it is about, with its title or name when it has one. */
export function describeEvent(event: WebhookEvent): string {
  const object = (event.data as { object?: { title?: unknown; name?: unknown } }).object;
  const label = object?.title ?? object?.name;
  const about = `${event.resource_type} ${event.resource_id}${typeof label === "string" ? ` "${label}"` : ""}`;
  return `${event.type.padEnd(28)} ${event.id}  ${about}`;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The request handler: 204 for a verified new event, 200 for one already handled (acknowledged, so it is not
 * sent again, but not handled twice), 400 for a delivery whose signature does not verify.
 */
export function createReceiver(options: ReceiverOptions): {
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>;
  outcomes: Outcome[];
} {
  const log = options.log ?? console.log;
  const seen = new Set<string>();
  const outcomes: Outcome[] = [];
  const answer = (response: ServerResponse, status: number, outcome: Outcome | null) => {
    if (outcome) outcomes.push(outcome);
    response.writeHead(status).end();
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== "POST") return answer(response, 405, null);
    // Verify the raw body exactly as received, before any JSON parsing.
    const body = await readBody(request);
    let event: WebhookEvent;
    try {
      event = verifyWebhook(options.secret, body, request.headers);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      log(`refused   ${request.headers["webhook-id"] ?? "(no webhook-id)"}: ${error.message}`);
      return answer(response, 400, "refused");
    }
    // The id is signed with the body, so a verified webhook-id can be trusted as the dedupe key.
    const id = String(request.headers["webhook-id"]);
    if (seen.has(id)) {
      log(`duplicate ${id} (already handled)`);
      return answer(response, 200, "duplicate");
    }
    seen.add(id);
    if (seen.size > REMEMBERED_IDS) seen.delete(seen.values().next().value as string);
    log(describeEvent(event));
    await options.onEvent?.(event);
    return answer(response, 204, "handled");
  };
  return { handle, outcomes };
}

export interface RunningReceiver {
  server: Server;
  /** Where deliveries go: http://127.0.0.1:<port>/hooks. */
  url: string;
  outcomes: Outcome[];
  close: () => Promise<void>;
}

/** Starts the receiver on 127.0.0.1 (`port` 0: any free port). */
export async function startReceiver(options: ReceiverOptions & { port?: number }): Promise<RunningReceiver> {
  const { handle, outcomes } = createReceiver(options);
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.error(error);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}/hooks`,
    outcomes,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // kept-alive connections of the sender would hold close() open
      }),
  };
}

/** Subscribes `url` to the gallery's events (every type, unless `eventTypes` narrows them): its id and secret. */
export async function subscribe(
  client: GalleryClient,
  url: string,
  eventTypes: string[] = ["*"],
): Promise<{ id: string; secret: string }> {
  const { data } = await client.POST("/gallery/webhook-endpoints", {
    body: { url, event_types: eventTypes, description: "examples/webhook-receiver.ts" },
  });
  if (!data.secret) throw new Error("the new endpoint's answer carries no secret");
  return { id: data.id, secret: data.secret };
}

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const port = env.PORT ? Number(env.PORT) : 4242;
  if (env.GALLERY_WEBHOOK_SECRET) {
    const receiver = await startReceiver({ secret: env.GALLERY_WEBHOOK_SECRET, port });
    console.log(`listening on ${receiver.url}`);
    return;
  }
  // No secret given: subscribe this receiver on the local stack, and remove the endpoint on Ctrl-C.
  const client = clientFromEnv(env);
  const url = `http://127.0.0.1:${port}/hooks`;
  let secret = "";
  const receiver = await startReceiver({
    port,
    get secret() {
      return secret;
    },
  });
  const endpoint = await subscribe(client, url);
  secret = endpoint.secret;
  console.log(
    `listening on ${receiver.url}, subscribed as webhook endpoint ${endpoint.id} (every event type)`,
  );
  console.log(
    "deliveries are sent within the cron interval (10 s under npm start); Ctrl-C removes the endpoint",
  );
  let stopping = false;
  const stop = () => {
    // Ctrl-C reaches the whole process group (npx, tsx and this process): remove the endpoint once.
    if (stopping) return;
    stopping = true;
    client
      .DELETE("/gallery/webhook-endpoints/{id}", { params: { path: { id: endpoint.id } } })
      .then(() => console.log(`\nremoved webhook endpoint ${endpoint.id}`))
      .catch((error: unknown) => console.error(`could not remove webhook endpoint ${endpoint.id}:`, error))
      .finally(() => receiver.close().then(() => process.exit(0)));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (isMain(import.meta.url)) run(() => main());
