/**
 * `npm run webhooks:listen`: watch the local stack's webhook deliveries arrive, like `stripe listen`.
 *
 *   npm run webhooks:listen -- [--forward http://localhost:3000/hooks] [--events artwork.*,offer.sent]
 *                              [--api-url http://127.0.0.1:8787/v1] [--api-key gpk_…] [--port 0]
 *
 * Starts an HTTP server on a free loopback port, subscribes a temporary webhook endpoint of the gallery to it
 * (POST /v1/gallery/webhook-endpoints; `ENVIRONMENT=local` accepts loopback URLs), and for each delivery the cron
 * Worker of `npm start` sends (every 10 s locally): verifies it with `standardwebhooks` and the secret the create
 * response showed, prints its type, event id and object (id and title or name), and, with `--forward`, posts the
 * same raw body with the same `webhook-*` headers there and prints the answer's status. The listener answers the
 * platform with that status (502 when the forward target cannot be reached; 200 without `--forward`), so a
 * failing receiver gets the platform's retries as it would in production. A request that fails verification is
 * answered 401, printed, and not forwarded. Ctrl-C (SIGINT) or SIGTERM deletes the endpoint, and says so.
 *
 * The API base is --api-url, else GALLERY_API_URL, else http://127.0.0.1:8787/v1; the key --api-key, else
 * GALLERY_API_KEY, else the demo secret key `npm start` saved in .data/local-keys.json. The key needs
 * `webhooks:create` and `webhooks:delete`, and the read scopes of the types subscribed to.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { buffer } from "node:stream/consumers";
import { parseArgs } from "node:util";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { LOCAL_KEYS_PATH, loadLocalKeys } from "./local-keys";

const DEFAULT_API_URL = "http://127.0.0.1:8787/v1";

/** The headers a delivery carries that the forward passes on as they came. */
const FORWARDED_HEADERS = [
  "content-type",
  "user-agent",
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
];
const FORWARD_TIMEOUT_MS = 30_000;

interface Options {
  apiUrl: string;
  apiKey: string;
  forward: URL | null;
  events: string[];
  port: number;
}

class UsageError extends Error {}

function options(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      forward: { type: "string" },
      events: { type: "string" },
      "api-url": { type: "string" },
      "api-key": { type: "string" },
      port: { type: "string" },
    },
    strict: true,
  });
  const apiUrl = (values["api-url"] ?? process.env.GALLERY_API_URL ?? DEFAULT_API_URL).replace(/\/+$/, "");
  const apiKey = values["api-key"] ?? process.env.GALLERY_API_KEY ?? loadLocalKeys()?.secretKey;
  if (!apiKey) {
    throw new UsageError(
      `no API key: pass --api-key or set GALLERY_API_KEY, or run \`npm start\` once so ${LOCAL_KEYS_PATH} holds the demo key.`,
    );
  }
  let forward: URL | null = null;
  if (values.forward !== undefined) {
    try {
      forward = new URL(values.forward);
    } catch {
      throw new UsageError(`--forward is not a URL: ${values.forward}`);
    }
    if (forward.protocol !== "http:" && forward.protocol !== "https:") {
      throw new UsageError(`--forward must be an http(s) URL: ${values.forward}`);
    }
  }
  const events = (values.events ?? "*")
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "");
  if (events.length === 0) throw new UsageError("--events names no event type");
  const port = Number(values.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port: ${values.port}`);
  return { apiUrl, apiKey, forward, events, port };
}

interface Endpoint {
  id: string;
  secret: string;
}

/** The answer's problem+json `detail` (or its text), for a message. */
async function problemText(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const problem = JSON.parse(text) as { code?: string; detail?: string; title?: string };
    return [problem.code, problem.detail ?? problem.title].filter(Boolean).join(": ") || text;
  } catch {
    return text;
  }
}

async function createEndpoint(opts: Options, url: string): Promise<Endpoint> {
  let response: Response;
  try {
    response = await fetch(`${opts.apiUrl}/gallery/webhook-endpoints`, {
      method: "POST",
      headers: { authorization: `Bearer ${opts.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        url,
        event_types: opts.events,
        description: "npm run webhooks:listen (temporary: deleted when the listener stops)",
      }),
    });
  } catch (error) {
    throw new UsageError(
      `cannot reach the API at ${opts.apiUrl} (${(error as Error).message}): is \`npm start\` running?`,
    );
  }
  if (response.status !== 201) {
    throw new UsageError(
      `POST /gallery/webhook-endpoints answered ${response.status}: ${await problemText(response)}`,
    );
  }
  const created = (await response.json()) as { id: string; secret: string | null };
  if (!created.secret) throw new UsageError("the created endpoint came back without its signing secret");
  return { id: created.id, secret: created.secret };
}

async function deleteEndpoint(opts: Options, id: string): Promise<string> {
  const response = await fetch(`${opts.apiUrl}/gallery/webhook-endpoints/${id}`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${opts.apiKey}` },
  });
  if (response.ok || response.status === 404) {
    await response.arrayBuffer();
    return `deleted webhook endpoint ${id}`;
  }
  return `could not delete webhook endpoint ${id}: ${response.status} ${await problemText(response)}`;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

interface Delivered {
  id?: string;
  type?: string;
  data?: { object?: Record<string, unknown> };
}

/** One line for a delivery: the event's type and id, then its object's id and its title or name. */
function summary(event: Delivered): string {
  const object = event.data?.object ?? {};
  const label = [object.title, object.name, object.display_name, object.subject].find(
    (v): v is string => typeof v === "string" && v !== "",
  );
  const parts = [event.type ?? "(no type)", event.id ?? "(no id)"];
  if (typeof object.id === "string") parts.push(object.id);
  if (label) parts.push(JSON.stringify(label.length > 60 ? `${label.slice(0, 59)}…` : label));
  return parts.join("  ");
}

function time(): string {
  return new Date().toISOString().slice(11, 19);
}

async function forwardTo(target: URL, headers: IncomingHttpHeaders, body: Buffer): Promise<number | string> {
  const sent: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = header(headers, name);
    if (value !== undefined) sent[name] = value;
  }
  try {
    const response = await fetch(target, {
      method: "POST",
      headers: sent,
      body: new Uint8Array(body),
      redirect: "manual",
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    return response.status;
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause;
    return (cause ?? (error as Error)).message;
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

async function main(): Promise<void> {
  const opts = options(process.argv.slice(2));
  let verifier: Webhook | null = null;
  const seen = new Set<string>();

  const server = createServer(async (req, res) => {
    const body = await buffer(req);
    if (req.method !== "POST" || !verifier) {
      res.writeHead(req.method !== "POST" ? 405 : 503).end();
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
      headers[name] = header(req.headers, name) ?? "";
    }
    let event: Delivered;
    try {
      event = verifier.verify(body.toString("utf8"), headers) as Delivered;
    } catch (error) {
      const reason = error instanceof WebhookVerificationError ? error.message : (error as Error).message;
      console.log(`${time()}  ✗ rejected a request that failed verification (${reason}): answered 401`);
      res.writeHead(401, { "content-type": "text/plain" }).end(`webhook verification failed: ${reason}\n`);
      return;
    }
    const id = headers["webhook-id"] ?? "";
    const again = seen.has(id) ? "  (again: a retry or replay of the same webhook-id)" : "";
    seen.add(id);
    console.log(`${time()}  ← ${summary(event)}${again}`);
    let status = 200;
    if (opts.forward) {
      const answer = await forwardTo(opts.forward, req.headers, body);
      if (typeof answer === "number") {
        status = answer;
        console.log(`          → ${opts.forward.href} answered ${answer}`);
      } else {
        status = 502;
        console.log(
          `          → ${opts.forward.href} failed: ${answer} (answered 502, the platform retries)`,
        );
      }
    }
    res.writeHead(status).end();
  });

  const port = await listen(server, opts.port);
  const url = `http://127.0.0.1:${port}/`;
  let endpoint: Endpoint;
  try {
    endpoint = await createEndpoint(opts, url);
  } catch (error) {
    server.close();
    throw error;
  }
  verifier = new Webhook(endpoint.secret);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: removing the temporary endpoint…`);
    let code = 0;
    try {
      console.log(await deleteEndpoint(opts, endpoint.id));
    } catch (error) {
      console.log(`could not delete webhook endpoint ${endpoint.id}: ${(error as Error).message}`);
      code = 1;
    }
    server.close();
    server.closeAllConnections();
    process.exit(code);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  console.log(
    [
      `Listening on ${url} as webhook endpoint ${endpoint.id} (events: ${opts.events.join(", ")})`,
      `API: ${opts.apiUrl}`,
      `Signing secret: ${endpoint.secret}`,
      opts.forward
        ? `Forwarding to: ${opts.forward.href}`
        : "Not forwarding (add --forward <url> to pass deliveries on)",
      "Deliveries come from the cron Worker of `npm start` (every 10 s). Ctrl-C deletes the endpoint.",
      "Ready.",
    ].join("\n"),
  );
}

main().catch((error: Error) => {
  console.error(error instanceof UsageError ? error.message : (error.stack ?? error.message));
  process.exit(1);
});
