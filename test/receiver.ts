import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { text } from "node:stream/consumers";

/**
 * A real HTTP webhook receiver for the tests (Node; workerd cannot listen). Every request to a path is recorded
 * with its raw body and headers, and answered as the test told that path to answer:
 *
 *   POST   /__control/<path>   {status?, delay_ms?, headers?, body?}   how <path> answers from now on (default 200)
 *   DELETE /__control/<path>                                           back to the default
 *   GET    /__received/<path>  -> ReceivedRequest[]                    what <path> received, in order
 *   DELETE /__received/<path>                                          forget it
 */

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  received_at: string;
}

export interface Behaviour {
  status?: number;
  /** Wait this long before answering (a slow receiver). */
  delay_ms?: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface Receiver {
  url: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

export async function startReceiver(): Promise<Receiver> {
  const received = new Map<string, ReceivedRequest[]>();
  const behaviours = new Map<string, Behaviour>();

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://receiver");
    const body = await text(req);
    const control = /^\/__(control|received)(\/.*)$/.exec(url.pathname);
    if (control) {
      const [, kind, path] = control as unknown as [string, string, string];
      if (kind === "control" && req.method === "POST") behaviours.set(path, JSON.parse(body) as Behaviour);
      else if (kind === "control" && req.method === "DELETE") behaviours.delete(path);
      else if (kind === "received" && req.method === "GET") return send(res, 200, received.get(path) ?? []);
      else if (kind === "received" && req.method === "DELETE") received.delete(path);
      else return send(res, 405, { error: "method not allowed" });
      return send(res, 200, { ok: true });
    }

    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    const log = received.get(url.pathname) ?? [];
    log.push({
      method: req.method ?? "",
      path: url.pathname,
      headers,
      body,
      received_at: new Date().toISOString(),
    });
    received.set(url.pathname, log);

    const behaviour = behaviours.get(url.pathname) ?? {};
    if (behaviour.delay_ms) await new Promise((r) => setTimeout(r, behaviour.delay_ms));
    if (res.destroyed) return;
    res.writeHead(behaviour.status ?? 200, { "content-type": "text/plain", ...behaviour.headers });
    res.end(behaviour.body ?? "ok");
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
