import { base64url, fromBase64url } from "./crypto";
import { ApiError } from "./problem";

export type SortDir = "asc" | "desc";
/** The last row's sort value and id; the value is a string/number as the sort column is, or null. */
export type CursorKey = [value: string | number | null, id: string];

/** Where a cursor may be used: the gallery it was minted for, and its list (operationId), sort and dir. */
export interface CursorScope {
  gallery: string;
  route: string;
  sort: string;
  dir: SortDir;
}

/** The encrypted part. The gallery is not in it: it is the AES-GCM associated data. */
interface CursorPayload {
  r: string;
  s: string;
  d: SortDir;
  k: CursorKey;
}

/** First byte of every cursor: the format and key derivation, so either can change without misreading old ones. */
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HKDF_SALT = "gallery-platform cursor";
const HKDF_INFO = "cursor v1 AES-256-GCM";
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Derived once per isolate and secret: importKey + deriveKey per request would cost CPU on every list call. */
const cursorKeys = new Map<string, Promise<CryptoKey>>();

function cursorKey(secret: string): Promise<CryptoKey> {
  let key = cursorKeys.get(secret);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: encoder.encode(HKDF_SALT), info: encoder.encode(HKDF_INFO) },
          base,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    cursorKeys.set(secret, key);
  }
  return key;
}

function associatedData(gallery: string): Uint8Array {
  return encoder.encode(`${VERSION}:${gallery}`);
}

/**
 * Opaque cursor: base64url(version byte, 96-bit random IV, AES-256-GCM of the JSON payload with its 128-bit tag).
 * The key is derived from the signing secret with HKDF; the gallery is authenticated as associated data, so the
 * cursor neither shows its position nor works for another gallery. About 160 characters for every list's sorts.
 */
export async function encodeCursor(secret: string, scope: CursorScope, key: CursorKey): Promise<string> {
  const payload: CursorPayload = { r: scope.route, s: scope.sort, d: scope.dir, k: key };
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: associatedData(scope.gallery) },
      await cursorKey(secret),
      encoder.encode(JSON.stringify(payload)),
    ),
  );
  const bytes = new Uint8Array(1 + IV_BYTES + sealed.length);
  bytes[0] = VERSION;
  bytes.set(iv, 1);
  bytes.set(sealed, 1 + IV_BYTES);
  return base64url(bytes);
}

function invalid(detail: string): ApiError {
  return new ApiError("invalid_request", detail, [{ location: "query", field: "cursor", message: detail }]);
}

const MALFORMED = "The cursor is malformed. Pass back exactly the next_cursor of the previous page.";

function isKey(value: unknown): value is CursorKey {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    (value[0] === null || typeof value[0] === "string" || typeof value[0] === "number") &&
    typeof value[1] === "string"
  );
}

/**
 * Decrypts a cursor and checks that it was minted for this gallery, list, sort and dir; anything else (altered,
 * forged, another gallery's or another server's) is a 400.
 */
export async function decodeCursor(
  secret: string,
  cursor: string,
  expected: CursorScope,
): Promise<CursorKey> {
  const bytes = fromBase64url(cursor);
  // Only the canonical spelling: base64 ignores the unused low bits of a last character, so a changed one would
  // otherwise decode to the same bytes.
  if (
    !bytes ||
    bytes.length < 1 + IV_BYTES + TAG_BYTES + 2 ||
    bytes[0] !== VERSION ||
    base64url(bytes) !== cursor
  )
    throw invalid(MALFORMED);
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt(
      {
        name: "AES-GCM",
        iv: bytes.subarray(1, 1 + IV_BYTES),
        additionalData: associatedData(expected.gallery),
      },
      await cursorKey(secret),
      bytes.subarray(1 + IV_BYTES),
    );
  } catch {
    throw invalid(
      "The cursor is not valid: it was altered, or minted for another gallery or by another server.",
    );
  }
  let payload: CursorPayload;
  try {
    payload = JSON.parse(decoder.decode(plain)) as CursorPayload;
  } catch {
    throw invalid(MALFORMED);
  }
  if (!isKey(payload.k)) throw invalid(MALFORMED);
  if (payload.r !== expected.route) throw invalid("The cursor belongs to another list.");
  if (payload.s !== expected.sort || payload.d !== expected.dir) {
    throw invalid(
      `The cursor was minted for sort=${payload.s}&dir=${payload.d}; it cannot be used with sort=${expected.sort}&dir=${expected.dir}.`,
    );
  }
  return payload.k;
}
