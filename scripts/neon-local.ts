/**
 * A local stand-in for Neon's edge endpoints so the production driver (`@neondatabase/serverless`) can run
 * unchanged against a plain PostgreSQL, locally and in tests:
 *
 * - `POST /sql` speaks the protocol of the driver's `neon()` HTTP query function (one query, or a batch run
 *   in one transaction).
 * - WebSocket upgrades on any path (the driver uses `/v2?address=host:port`) are piped to a TCP connection to
 *   `address`, which is what the driver's `Pool`/`Client` expect from Neon's WebSocket proxy.
 *
 * Callers point the driver here with:
 *   neonConfig.fetchEndpoint = () => `${url}/sql`;
 *   neonConfig.wsProxy = (host, port) => `${new URL(url).host}/v2?address=${host}:${port}`;
 *   neonConfig.useSecureWebSocket = false;
 *   neonConfig.pipelineTLS = false;
 *   neonConfig.pipelineConnect = false;
 *
 * Run directly: `tsx scripts/neon-local.ts [--port 4444] [--host 127.0.0.1]` prints the URL on stdout.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { connect as connectTcp, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { type CustomTypesConfig, DatabaseError, Pool, type PoolClient, type QueryConfig } from "pg";
import { type RawData, type WebSocket, WebSocketServer } from "ws";

export interface NeonLocalStats {
  /** Plain HTTP requests of any kind (WebSocket upgrades are counted as `wsConnections` instead). */
  httpRequests: number;
  /** WebSocket connections accepted for proxying. */
  wsConnections: number;
  /** WebSocket messages relayed, in both directions. */
  wsMessages: number;
  /** SQL statements received over HTTP (the BEGIN/COMMIT wrapped around a batch are not counted). */
  queries: number;
}

export interface NeonLocal {
  /** Origin of the endpoint, e.g. `http://127.0.0.1:4444`. */
  url: string;
  port: number;
  stats(): NeonLocalStats;
  resetStats(): void;
  close(): Promise<void>;
}

export interface NeonLocalOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  log?: (msg: string) => void;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const POOL_SIZE = 10;
/** Pause reading from Postgres while this much is still queued for a slow WebSocket client. */
const WS_HIGH_WATER_BYTES = 1024 * 1024;

/** The Postgres error fields the driver copies onto its NeonDbError (its `hi` list in index.mjs). */
const ERROR_FIELDS = [
  "severity",
  "code",
  "detail",
  "hint",
  "position",
  "internalPosition",
  "internalQuery",
  "where",
  "schema",
  "table",
  "column",
  "dataType",
  "constraint",
  "file",
  "line",
  "routine",
] as const satisfies readonly (keyof DatabaseError)[];

/** `Neon-Batch-Isolation-Level` carries the driver's `isolationLevel` option verbatim. */
const ISOLATION_LEVELS: Record<string, string> = {
  ReadUncommitted: "READ UNCOMMITTED",
  ReadCommitted: "READ COMMITTED",
  RepeatableRead: "REPEATABLE READ",
  Serializable: "SERIALIZABLE",
};

/**
 * The driver parses every value itself from Postgres text (it always asks for raw text output), so pg must not
 * parse anything.
 */
const RAW_TEXT: CustomTypesConfig = {
  getTypeParser: (() => (value: string) => value) as unknown as CustomTypesConfig["getTypeParser"],
};

const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-max-age": "86400",
};

interface SqlQuery {
  query: string;
  params: unknown[];
}

interface BatchOptions {
  isolationLevel: string | undefined;
  readOnly: boolean | undefined;
  deferrable: boolean | undefined;
}

/** A problem with the request itself (as opposed to one reported by Postgres). */
class RequestError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export async function startNeonLocal(opts: NeonLocalOptions = {}): Promise<NeonLocal> {
  const host = opts.host ?? "127.0.0.1";
  const log = opts.log ?? (() => {});
  const counters: NeonLocalStats = { httpRequests: 0, wsConnections: 0, wsMessages: 0, queries: 0 };
  const pools = new Map<string, Pool>();
  const tcpSockets = new Set<Socket>();

  function poolFor(connectionString: string): Pool {
    let pool = pools.get(connectionString);
    if (!pool) {
      pool = new Pool({
        connectionString: upstreamConnectionString(connectionString),
        max: POOL_SIZE,
        connectionTimeoutMillis: 10_000,
      });
      // An idle client losing its connection (e.g. Postgres restarted) must not take the process down.
      pool.on("error", (err) => log(`neon-local: idle connection error: ${err.message}`));
      pools.set(connectionString, pool);
    }
    return pool;
  }

  async function runQuery(client: PoolClient, { query, params }: SqlQuery, arrayMode: boolean) {
    counters.queries++;
    // Neon always uses the extended protocol, so several statements in one query fail there; match that
    // instead of letting pg fall back to the simple protocol for parameterless queries.
    const config: QueryConfig & { queryMode: "extended"; rowMode?: "array" } = {
      text: query,
      values: params,
      types: RAW_TEXT,
      queryMode: "extended",
      ...(arrayMode ? { rowMode: "array" } : {}),
    };
    const result = await client.query(config);
    return {
      fields: result.fields.map((f) => ({
        name: f.name,
        tableID: f.tableID,
        columnID: f.columnID,
        dataTypeID: f.dataTypeID,
        dataTypeSize: f.dataTypeSize,
        dataTypeModifier: f.dataTypeModifier,
        format: f.format,
      })),
      command: result.command,
      rowCount: result.rowCount,
      rows: result.rows,
      rowAsArray: arrayMode,
    };
  }

  /** Runs a batch in one transaction, as Neon does for `sql.transaction()` and drizzle's `db.batch()`. */
  async function runBatch(
    client: PoolClient,
    queries: SqlQuery[],
    arrayMode: boolean,
    options: BatchOptions,
  ) {
    await client.query(beginStatement(options));
    const results = [];
    for (const query of queries) results.push(await runQuery(client, query, arrayMode));
    await client.query("COMMIT");
    return { results };
  }

  async function execute(req: IncomingMessage, body: unknown): Promise<unknown> {
    const connectionString = header(req, "neon-connection-string");
    if (!connectionString) throw new RequestError("Missing Neon-Connection-String header");
    // The driver always sends `Neon-Array-Mode: true` and builds objects itself; objects are for other clients.
    const arrayMode = header(req, "neon-array-mode") === "true";
    const request = parseBody(body);
    // Validated up front so a bad header never costs a connection; the driver sends them only for batches.
    const batchOptions = parseBatchOptions(req);

    const client = await poolFor(connectionString).connect();
    let broken = false;
    // Postgres ending the connection between two statements (a restart) reaches the client as an error event,
    // not as a query's error; without a listener it would take the process down. The client is then dropped.
    const onError = (err: Error) => {
      broken = true;
      log(`neon-local: connection error: ${err.message}`);
    };
    client.on("error", onError);
    try {
      if (!Array.isArray(request)) return await runQuery(client, request, arrayMode);
      return await runBatch(client, request, arrayMode, batchOptions);
    } catch (err) {
      if (client.getTransactionStatus() !== "I") {
        await client.query("ROLLBACK").catch(() => {
          broken = true;
        });
      }
      throw err;
    } finally {
      // Never hand a connection still inside a transaction (e.g. after a lone `BEGIN` over HTTP) to the next
      // request.
      client.release(broken || client.getTransactionStatus() !== "I");
      client.removeListener("error", onError);
    }
  }

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    counters.httpRequests++;
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        ...CORS_HEADERS,
        "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*",
      });
      res.end();
      return;
    }
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/sql") return sendJson(res, 404, { message: `No route for ${path}; queries go to /sql` });
    if (req.method !== "POST") return sendJson(res, 405, { message: "Use POST for /sql" });

    try {
      const raw = await readBody(req);
      let body: unknown;
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        throw new RequestError("Request body is not valid JSON");
      }
      sendJson(res, 200, await execute(req, body));
    } catch (err) {
      if (err instanceof RequestError) {
        sendJson(res, err.status, { message: err.message });
      } else if (err instanceof DatabaseError) {
        sendJson(res, 400, postgresErrorBody(err));
      } else {
        // Not Postgres talking: the database is unreachable or the connection string is unusable.
        const message = err instanceof Error ? err.message : String(err);
        log(`neon-local: upstream error: ${message}`);
        sendJson(res, 502, { message });
      }
    }
  }

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const target = parseAddress(new URL(req.url ?? "/", "http://localhost").searchParams.get("address"));
    if (!target) {
      socket.end(
        "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\nMissing or invalid address=host:port\n",
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => proxy(ws, target));
  }

  function proxy(ws: WebSocket, target: { host: string; port: number }): void {
    counters.wsConnections++;
    const tcp = connectTcp(target);
    tcpSockets.add(tcp);
    tcp.setNoDelay(true);

    ws.on("message", (data) => {
      counters.wsMessages++;
      if (!tcp.write(toBuffer(data))) ws.pause();
    });
    tcp.on("drain", () => ws.resume());
    tcp.on("data", (chunk) => {
      counters.wsMessages++;
      ws.send(chunk, { binary: true }, () => {
        if (tcp.isPaused() && ws.bufferedAmount < WS_HIGH_WATER_BYTES) tcp.resume();
      });
      if (ws.bufferedAmount >= WS_HIGH_WATER_BYTES) tcp.pause();
    });

    ws.on("close", () => tcp.end());
    ws.on("error", (err) => {
      log(`neon-local: websocket error: ${err.message}`);
      tcp.destroy();
    });
    tcp.on("error", (err) => log(`neon-local: tcp ${target.host}:${target.port}: ${err.message}`));
    tcp.on("close", () => {
      tcpSockets.delete(tcp);
      ws.close();
    });
  }

  const server = createServer((req, res) => {
    handleRequest(req, res).catch((err: unknown) => {
      log(`neon-local: unhandled: ${err instanceof Error ? err.stack : String(err)}`);
      if (!res.headersSent) sendJson(res, 500, { message: "Internal error in neon-local" });
      else res.destroy();
    });
  });
  // workerd keeps its connections to this endpoint open between queries and reuses them; Node closes an idle one
  // after 5 s by default, and a query sent on a connection as it closes fails with "Network connection lost"
  // (seen under load, as a 503 the database never caused). Idle connections stay open as Neon's endpoint keeps them.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  server.on("upgrade", handleUpgrade);

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", (err) => log(`neon-local: server error: ${err.message}`));

  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("neon-local: not listening on TCP");
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
  log(`neon-local: listening on ${url}`);

  return {
    url,
    port: address.port,
    stats: () => ({ ...counters }),
    resetStats: () => {
      counters.httpRequests = 0;
      counters.wsConnections = 0;
      counters.wsMessages = 0;
      counters.queries = 0;
    },
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      for (const tcp of tcpSockets) tcp.destroy();
      wss.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await Promise.all([...pools.values()].map((pool) => pool.end()));
      pools.clear();
    },
  };
}

/**
 * `sslmode` and `channel_binding` in a Neon URL govern the client's hop to Neon, which here is plain HTTP or
 * WebSocket on the loopback; applying them to the local Postgres would only make connections fail.
 */
function upstreamConnectionString(connectionString: string): string {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    throw new RequestError("Neon-Connection-String is not a valid URL");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new RequestError("Neon-Connection-String must be a postgres:// or postgresql:// URL");
  }
  url.searchParams.delete("sslmode");
  url.searchParams.delete("channel_binding");
  return url.href;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function optionalBoolean(req: IncomingMessage, name: string): boolean | undefined {
  const value = header(req, name);
  if (value === undefined) return undefined;
  if (value !== "true" && value !== "false") throw new RequestError(`${name} must be "true" or "false"`);
  return value === "true";
}

function parseBatchOptions(req: IncomingMessage): BatchOptions {
  const level = header(req, "neon-batch-isolation-level");
  if (level !== undefined && !(level in ISOLATION_LEVELS)) {
    throw new RequestError(
      `Neon-Batch-Isolation-Level must be one of ${Object.keys(ISOLATION_LEVELS).join(", ")}`,
    );
  }
  return {
    isolationLevel: level === undefined ? undefined : ISOLATION_LEVELS[level],
    readOnly: optionalBoolean(req, "neon-batch-read-only"),
    deferrable: optionalBoolean(req, "neon-batch-deferrable"),
  };
}

function beginStatement({ isolationLevel, readOnly, deferrable }: BatchOptions): string {
  const modes: string[] = [];
  if (isolationLevel) modes.push(`ISOLATION LEVEL ${isolationLevel}`);
  if (readOnly !== undefined) modes.push(readOnly ? "READ ONLY" : "READ WRITE");
  if (deferrable !== undefined) modes.push(deferrable ? "DEFERRABLE" : "NOT DEFERRABLE");
  return ["BEGIN", ...modes].join(" ");
}

/** `{query, params}` for one query, `{queries: [...]}` for a batch. */
function parseBody(body: unknown): SqlQuery | SqlQuery[] {
  if (typeof body !== "object" || body === null) throw new RequestError("Request body must be a JSON object");
  if ("queries" in body) {
    if (!Array.isArray(body.queries)) throw new RequestError("`queries` must be an array");
    return body.queries.map(parseQuery);
  }
  return parseQuery(body);
}

function parseQuery(value: unknown): SqlQuery {
  if (typeof value !== "object" || value === null || !("query" in value) || typeof value.query !== "string") {
    throw new RequestError("Each query must be an object with a string `query`");
  }
  const params = "params" in value ? value.params : [];
  if (params !== undefined && params !== null && !Array.isArray(params)) {
    throw new RequestError("`params` must be an array");
  }
  return { query: value.query, params: params ?? [] };
}

function postgresErrorBody(err: DatabaseError): Record<string, unknown> {
  const body: Record<string, unknown> = { message: err.message };
  for (const field of ERROR_FIELDS) body[field] = err[field];
  return body;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => new RequestError(`Request body exceeds ${MAX_BODY_BYTES} bytes`, 413);
    if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) return reject(tooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners("data");
        reject(tooLarge());
      } else {
        chunks.push(chunk);
      }
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    ...CORS_HEADERS,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(json),
    // An unread (oversized) body would otherwise be left on a kept-alive connection.
    ...(status === 413 ? { connection: "close" } : {}),
  });
  res.end(json);
}

function parseAddress(address: string | null): { host: string; port: number } | undefined {
  if (!address) return undefined;
  const colon = address.lastIndexOf(":");
  const host = address.slice(0, colon).replace(/^\[(.*)\]$/, "$1");
  const port = Number(address.slice(colon + 1));
  if (colon <= 0 || !host || !Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return { host, port };
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { port: { type: "string" }, host: { type: "string" } } });
  const local = await startNeonLocal({
    port: values.port === undefined ? 0 : Number(values.port),
    host: values.host,
    log: (msg) => console.error(msg),
  });
  console.log(local.url);
  const shutdown = () => {
    local.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}
