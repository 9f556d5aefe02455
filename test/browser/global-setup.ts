import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { newId } from "../../lib/ids";
import { allScopes, PUBLISHABLE_SCOPES } from "../../lib/scopes";
import { exampleUrl, serveExample } from "../../scripts/example-server";
import { insertApiKey } from "../../scripts/local-keys";
import { migrateDatabase } from "../../scripts/migrate";
import { startNeonLocal } from "../../scripts/neon-local";
import { freePort, startDatabase } from "../../scripts/postgres";
import { renderArtworkPicture } from "../../scripts/seed/pictures";
import { apiServiceConfigs, spawnWranglerDev } from "../../scripts/wrangler";

/**
 * The live stack the `live` project's suites share, in Node: PostgreSQL (embedded, or DATABASE_URL) with a fresh
 * database, the local Neon endpoint and the API Worker under `wrangler dev`, started once for both suites.
 *
 * - The browser suite (test/browser/): the example page served on another port (so the page and the API are two
 *   origins and Chromium enforces CORS between them), and a gallery made through the API: an open public room, a
 *   private one, their works, each with a picture uploaded through the signed-upload flow. Without Chromium that
 *   suite is skipped, said in one line (never a browser download), and none of this is made.
 * - The client suite (test/client/): a gallery of its own, empty, and a secret key with every scope.
 * - The examples suite (test/examples/): the same, in another gallery, so that neither sees the other's works.
 * - The webhook listener's suite (test/listen/) and the collection's: another such gallery of their own.
 * - The stack's own suite (test/browser/stack.test.ts): the Workers' secrets, to look for in every process's
 *   command line.
 */

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const SKIP_LINE =
  "browser suite skipped: Chromium not found — install it with `apt-get install chromium` (or set CHROMIUM_PATH)";

export interface BrowserFixture {
  chromium: string;
  /** API base, with /v1. */
  api: string;
  pageOrigin: string;
  publishableToken: string;
  secretKey: string;
  publicRoom: { slug: string; titles: string[] };
  privateRoom: { slug: string; titles: string[] };
  /** The page's address for the public room. */
  publicPage: string;
  privatePage: string;
}

/** The client suite's gallery on the live stack. */
export interface ClientFixture {
  /** API base, with /v1. */
  api: string;
  /** A secret key of the suite's own gallery, with every scope. */
  secretKey: string;
}

/** The MCP suite's two galleries on the live stack: keys of several scope sets in one, a key of the other. */
export interface McpFixture {
  /** API base, with /v1. */
  api: string;
  /** Keys of the suite's gallery: every scope, and read-only on artworks and artists. */
  allScopesKey: string;
  artworksReadKey: string;
  /** A key of another gallery, with every scope. */
  otherGalleryKey: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** "" when Chromium is not installed: the suite is skipped. */
    browser: BrowserFixture | "";
    client: ClientFixture;
    examples: ClientFixture;
    mcp: McpFixture;
    /** The webhook listener's gallery (test/listen/), like the client's, and the cron Worker's origin. */
    listen: ClientFixture & { cron: string };
    /** The settings of the stack's Workers that no process's command line may show (test/browser/stack.test.ts). */
    stackSecrets: Record<string, string>;
  }
}

const TEST_DATABASE = `gallery_browser_${process.pid}`;
const HEALTH_TIMEOUT_MS = 120_000;

async function admin(url: string, statement: string): Promise<void> {
  const adminUrl = new URL(url);
  adminUrl.pathname = "/postgres";
  const client = new pg.Client({ connectionString: adminUrl.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function waitForHealth(origin: string, wrangler: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (wrangler.exitCode !== null) throw new Error(`wrangler dev exited early:\n${output()}`);
    try {
      const response = await fetch(`${origin}/v1/health`, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the API did not answer on ${origin} within ${HEALTH_TIMEOUT_MS / 1000} s:\n${output()}`);
}

/** Waits until the cron Worker runs its scheduled handler when asked (`wrangler dev --test-scheduled`). */
async function waitForScheduled(origin: string, wrangler: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (wrangler.exitCode !== null)
      throw new Error(`the cron Worker's wrangler dev exited early:\n${output()}`);
    try {
      const response = await fetch(`${origin}/__scheduled?cron=*+*+*+*+*`, {
        signal: AbortSignal.timeout(30_000),
      });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `the cron Worker did not answer on ${origin} within ${HEALTH_TIMEOUT_MS / 1000} s:\n${output()}`,
  );
}

async function api<T>(base: string, key: string, method: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface Work {
  title: string;
  price_cents: number;
  show_price_publicly: boolean;
  height_cm: number;
  width_cm: number;
}

/**
 * Gives the work its picture as a client would: mint a signed upload, PUT the bytes (the demo seed's picture of
 * this work), attach the stored file. The picture becomes the work's thumbnail, which the room shows.
 */
async function addPicture(base: string, key: string, id: string, work: Work): Promise<void> {
  const picture = await renderArtworkPicture(
    {
      id,
      title: work.title,
      artist: "",
      medium: MEDIUM,
      year: YEAR,
      heightCm: work.height_cm,
      widthCm: work.width_cm,
      depthCm: null,
    },
    "work",
  );
  const target = await api<{ signed_url: string; storage_path: string }>(
    base,
    key,
    "POST",
    `/gallery/artworks/${id}/images/uploads`,
    { content_type: picture.contentType, size_bytes: picture.bytes.byteLength },
  );
  const put = await fetch(target.signed_url, {
    method: "PUT",
    headers: { "content-type": picture.contentType },
    body: picture.bytes,
  });
  if (put.status !== 201) throw new Error(`PUT ${target.signed_url}: ${put.status} ${await put.text()}`);
  await api(base, key, "POST", `/gallery/artworks/${id}/images`, { storage_path: target.storage_path });
}

const MEDIUM = "Oil on linen";
const YEAR = 2025;

async function makeRoom(
  base: string,
  key: string,
  room: { title: string; visibility: string },
  works: Work[],
): Promise<{ slug: string; titles: string[] }> {
  const ids: string[] = [];
  for (const work of works) {
    const created = await api<{ id: string }>(base, key, "POST", "/gallery/artworks", {
      ...work,
      currency: "USD",
      year: YEAR,
      medium: MEDIUM,
    });
    await addPicture(base, key, created.id, work);
    ids.push(created.id);
  }
  const created = await api<{ slug: string }>(base, key, "POST", "/gallery/viewing-rooms", {
    ...room,
    artworks: ids.map((artwork_id) => ({ artwork_id, show_price: true })),
  });
  return { slug: created.slug, titles: works.map((w) => w.title) };
}

/** A gallery of its own for a suite, with a secret key holding every scope. */
async function insertGallery(
  client: pg.Client,
  name: string,
): Promise<{ galleryId: string; secretKey: string }> {
  const galleryId = newId("gal");
  await client.query("insert into galleries (id, name, slug, livemode) values ($1, $2, $1, false)", [
    galleryId,
    name,
  ]);
  const secretKey = (await insertApiKey(client, { galleryId, kind: "secret", name, scopes: allScopes }))
    .token;
  return { galleryId, secretKey };
}

export default async function setup(project: TestProject) {
  const hasChromium = existsSync(CHROMIUM_PATH);
  if (!hasChromium) console.log(SKIP_LINE);
  const stops: (() => Promise<void>)[] = [];
  const teardown = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  };
  try {
    const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), "gallery-browser-pg-"));
    const database = await startDatabase({
      dataDir: dataDir ?? ".data/browser-postgres",
      database: TEST_DATABASE,
    });
    const url = new URL(database.url);
    stops.push(async () => {
      await database.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });
    if (process.env.DATABASE_URL) {
      await admin(database.url, `create database "${TEST_DATABASE}"`);
      url.pathname = `/${TEST_DATABASE}`;
      stops.push(() => admin(url.toString(), `drop database "${TEST_DATABASE}" with (force)`));
    }
    await migrateDatabase(url.toString());

    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    let secretKey: string;
    let publishableToken: string;
    let clientKey: string;
    let examplesKey: string;
    let listenKey: string;
    let mcp: Omit<McpFixture, "api">;
    try {
      const browserGallery = await insertGallery(client, "Browser Gallery");
      const galleryId = browserGallery.galleryId;
      secretKey = browserGallery.secretKey;
      clientKey = (await insertGallery(client, "Client Gallery")).secretKey;
      examplesKey = (await insertGallery(client, "Examples Gallery")).secretKey;
      listenKey = (await insertGallery(client, "Listener Gallery")).secretKey;
      const mcpGallery = await insertGallery(client, "MCP Gallery");
      mcp = {
        allScopesKey: mcpGallery.secretKey,
        artworksReadKey: (
          await insertApiKey(client, {
            galleryId: mcpGallery.galleryId,
            kind: "secret",
            name: "MCP suite, read-only",
            scopes: ["artworks:read", "artists:read"],
          })
        ).token,
        otherGalleryKey: (await insertGallery(client, "MCP Other Gallery")).secretKey,
      };
      publishableToken = (
        await insertApiKey(client, {
          galleryId,
          kind: "publishable",
          name: "Browser suite",
          scopes: PUBLISHABLE_SCOPES,
        })
      ).token;
    } finally {
      await client.end();
    }

    const neon = await startNeonLocal({ port: 0 });
    stops.push(() => neon.close());
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const vars = {
      PUBLIC_BASE_URL: origin,
      DATABASE_URL: url.toString(),
      NEON_LOCAL_ENDPOINT: neon.url,
      // Fresh for each run, as npm start's are for each machine: another run's processes never show these.
      SIGNING_SECRET: randomBytes(32).toString("base64url"),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
      ENVIRONMENT: "local",
    };
    /** A Worker under `wrangler dev`, stopped (its process group) at teardown; its output's tail for errors. */
    const startWorker = async (
      config: string,
      workerPort: number,
      extraArgs: string[] = [],
      auxiliary?: (persistTo: string) => string[],
    ) => {
      const persistTo = mkdtempSync(join(tmpdir(), "gallery-browser-wrangler-"));
      stops.push(async () => rmSync(persistTo, { recursive: true, force: true }));
      const wrangler = await spawnWranglerDev({
        config,
        auxiliary: auxiliary?.(persistTo),
        port: workerPort,
        persistTo,
        vars,
        extraArgs,
      });
      let output = "";
      const keep = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-4_000);
      };
      wrangler.stdout.on("data", keep);
      wrangler.stderr.on("data", keep);
      stops.push(async () => {
        if (wrangler.pid === undefined || wrangler.exitCode !== null) return;
        const exited = new Promise((resolve) => wrangler.once("exit", resolve));
        try {
          process.kill(-wrangler.pid, "SIGTERM");
        } catch {
          return;
        }
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 8_000))]);
      });
      return { wrangler, output: () => output };
    };
    // With the Workers its service bindings name (the Email and MCP Workers), their configs in its own folder.
    const apiWorker = await startWorker("wrangler.toml", port, [], (persistTo) =>
      apiServiceConfigs(vars, persistTo),
    );
    // The cron Worker (webhook delivery through its Queue), run by the suites that ask: its scheduled handler runs
    // when a test calls /__scheduled, never by itself, so no suite sees a delivery it did not cause.
    const cronOrigin = `http://127.0.0.1:${await freePort()}`;
    const cronWorker = await startWorker("wrangler.cron.toml", Number(new URL(cronOrigin).port), [
      "--test-scheduled",
    ]);
    await waitForHealth(origin, apiWorker.wrangler, apiWorker.output);
    await waitForScheduled(cronOrigin, cronWorker.wrangler, cronWorker.output);

    const base = `${origin}/v1`;
    project.provide("client", { api: base, secretKey: clientKey });
    project.provide("examples", { api: base, secretKey: examplesKey });
    project.provide("mcp", { api: base, ...mcp });
    project.provide("listen", { api: base, secretKey: listenKey, cron: cronOrigin });
    project.provide("stackSecrets", {
      DATABASE_URL: vars.DATABASE_URL,
      SIGNING_SECRET: vars.SIGNING_SECRET,
      WEBHOOK_SECRET_KEY: vars.WEBHOOK_SECRET_KEY,
    });
    if (!hasChromium) {
      project.provide("browser", "");
      return teardown;
    }
    const publicRoom = await makeRoom(
      base,
      secretKey,
      { title: "Winter Viewing Room", visibility: "public" },
      [
        {
          title: "Harbour at Dusk",
          price_cents: 1_250_000,
          show_price_publicly: true,
          height_cm: 90,
          width_cm: 120,
        },
        {
          title: "Quiet Field",
          price_cents: 900_000,
          show_price_publicly: false,
          height_cm: 150,
          width_cm: 110,
        },
      ],
    );
    const privateRoom = await makeRoom(
      base,
      secretKey,
      { title: "Private Selection", visibility: "private" },
      [
        {
          title: "Secret Garden Study",
          price_cents: 3_000_000,
          show_price_publicly: true,
          height_cm: 40,
          width_cm: 30,
        },
      ],
    );

    const page = await serveExample();
    stops.push(() => page.close());

    const fixture: BrowserFixture = {
      chromium: CHROMIUM_PATH,
      api: base,
      pageOrigin: page.origin,
      publishableToken,
      secretKey,
      publicRoom,
      privateRoom,
      publicPage: exampleUrl(page.origin, base, publishableToken, publicRoom.slug),
      privatePage: exampleUrl(page.origin, base, publishableToken, privateRoom.slug),
    };
    project.provide("browser", fixture);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
