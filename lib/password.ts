import { base64url, fromBase64url, timingSafeEqual } from "./crypto";

/**
 * Member password hashes: `pbkdf2$sha256$<iterations>$<salt b64url>$<hash b64url>`, PBKDF2-HMAC-SHA256 with a
 * 32-byte output. Node's `pbkdf2Sync(password, salt, iterations, 32, "sha256")` over the UTF-8 password and
 * the decoded salt bytes yields the same hash, so scripts can write hashes that Workers verify.
 */

/** workerd refuses PBKDF2 above 100000 iterations, so that is both the default and the ceiling. */
export const PASSWORD_ITERATIONS = 100_000;
const MAX_ITERATIONS = 100_000;
const HASH_BYTES = 32;
const SALT_BYTES = 16;
const SCHEME = "pbkdf2";
const DIGEST = "sha256";

const encoder = new TextEncoder();

interface ParsedHash {
  iterations: number;
  salt: Uint8Array;
  hash: Uint8Array;
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    key,
    HASH_BYTES * 8,
  );
  return new Uint8Array(bits);
}

function parse(stored: string): ParsedHash | null {
  const parts = stored.split("$");
  if (parts.length !== 5 || parts[0] !== SCHEME || parts[1] !== DIGEST) return null;
  const [, , iterationsText, saltText, hashText] = parts as [string, string, string, string, string];
  if (!/^[1-9]\d{0,8}$/.test(iterationsText)) return null;
  const iterations = Number(iterationsText);
  if (iterations > MAX_ITERATIONS) return null;
  const salt = fromBase64url(saltText);
  const hash = fromBase64url(hashText);
  if (!salt || salt.length === 0 || !hash || hash.length !== HASH_BYTES) return null;
  return { iterations, salt, hash };
}

export async function hashPassword(password: string, iterations = PASSWORD_ITERATIONS): Promise<string> {
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > MAX_ITERATIONS) {
    throw new RangeError(`iterations must be an integer from 1 to ${MAX_ITERATIONS}`);
  }
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, iterations);
  return `${SCHEME}$${DIGEST}$${iterations}$${base64url(salt)}$${base64url(hash)}`;
}

/**
 * Stands in for the stored hash when there is none (unknown email) or it cannot be parsed, so every failed
 * login costs one full-strength derivation and response time does not reveal whether an account exists.
 */
const DECOY: ParsedHash = {
  iterations: PASSWORD_ITERATIONS,
  salt: new Uint8Array(SALT_BYTES),
  hash: new Uint8Array(HASH_BYTES),
};

/**
 * True when `password` matches `stored`. Pass `null` for an unknown account: the same work is done and the
 * answer is false. A malformed stored hash never matches.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parsed = stored === null ? null : parse(stored);
  const target = parsed ?? DECOY;
  const derived = await derive(password, target.salt, target.iterations);
  return timingSafeEqual(derived, target.hash) && parsed !== null;
}
