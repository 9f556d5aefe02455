import { base64url, fromBase64url, hex } from "./crypto";

/**
 * Secrets the platform must use again later (webhook signing secrets) are stored sealed with AES-256-GCM under a
 * key held as a Worker secret, never in the database. Stored format: `v1:<key id>:<iv>:<ciphertext>` (base64url
 * parts); the key id is the first 8 hex digits of the key's SHA-256, so a value names the key that opens it and the
 * key can be rotated: new values are sealed with the current key, older ones opened with the previous key. The
 * caller's context (the owning row's id) is bound as additional data, so a sealed value copied onto another row
 * does not open.
 */

export interface SecretBoxKeys {
  /** base64 (or base64url) of 32 random bytes. */
  WEBHOOK_SECRET_KEY: string;
  /** The key being rotated out: still opens values sealed with it, never seals. */
  WEBHOOK_SECRET_KEY_PREVIOUS?: string;
}

const VERSION = "v1";
const IV_BYTES = 12;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface BoxKey {
  id: string;
  key: CryptoKey;
}

const imported = new Map<string, Promise<BoxKey>>();

function keyBytes(material: string | undefined): Uint8Array {
  if (typeof material !== "string" || material.trim() === "") {
    throw new Error("WEBHOOK_SECRET_KEY is not set (a Worker secret; locally .dev.vars or npm start)");
  }
  const bytes = fromBase64url(material.trim().replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, ""));
  if (!bytes || bytes.length !== 32) {
    throw new Error("WEBHOOK_SECRET_KEY must be the base64 of 32 random bytes (openssl rand -base64 32)");
  }
  return bytes;
}

function boxKey(material: string): Promise<BoxKey> {
  let key = imported.get(material);
  if (!key) {
    key = (async () => {
      const bytes = keyBytes(material);
      const id = hex(await crypto.subtle.digest("SHA-256", bytes)).slice(0, 8);
      const cryptoKey = await crypto.subtle.importKey("raw", bytes, "AES-GCM", false, ["encrypt", "decrypt"]);
      return { id, key: cryptoKey };
    })();
    key.catch(() => imported.delete(material));
    imported.set(material, key);
  }
  return key;
}

/** Seals `plaintext` for the row `context` with the current key. */
export async function sealSecret(keys: SecretBoxKeys, plaintext: string, context: string): Promise<string> {
  const { id, key } = await boxKey(keys.WEBHOOK_SECRET_KEY);
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(context) },
    key,
    encoder.encode(plaintext),
  );
  return [VERSION, id, base64url(iv), base64url(new Uint8Array(sealed))].join(":");
}

/** Whether a stored value is sealed (as opposed to a legacy plaintext value). */
export function isSealed(stored: string): boolean {
  return stored.startsWith(`${VERSION}:`);
}

/**
 * Opens a value sealed by `sealSecret` for the same `context`, with whichever configured key sealed it. A value
 * that is not sealed (`legacyPrefix`, e.g. `whsec_`: rows written before sealing) is returned as it is.
 */
export async function openSecret(
  keys: SecretBoxKeys,
  stored: string,
  context: string,
  legacyPrefix: string,
): Promise<string> {
  if (!isSealed(stored)) {
    if (stored.startsWith(legacyPrefix)) return stored;
    throw new Error("the stored secret is in no known format");
  }
  const [, id, ivText, sealedText, ...rest] = stored.split(":");
  const iv = fromBase64url(ivText ?? "");
  const sealed = fromBase64url(sealedText ?? "");
  if (rest.length > 0 || !iv || iv.length !== IV_BYTES || !sealed)
    throw new Error("the sealed secret is malformed");
  const candidates = [keys.WEBHOOK_SECRET_KEY, keys.WEBHOOK_SECRET_KEY_PREVIOUS].filter(
    (k): k is string => typeof k === "string" && k !== "",
  );
  for (const material of candidates) {
    const box = await boxKey(material);
    if (box.id !== id) continue;
    try {
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv, additionalData: encoder.encode(context) },
        box.key,
        sealed,
      );
      return decoder.decode(plain);
    } catch {
      throw new Error(`the sealed secret does not open with key ${id} (tampered, or sealed for another row)`);
    }
  }
  throw new Error(`the secret is sealed with key ${id}, which is not configured`);
}
