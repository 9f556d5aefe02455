import { base64url, fromBase64url, hmacSign, timingSafeEqual } from "./crypto";
import { ApiError } from "./problem";

export type SortDir = "asc" | "desc";
/** The last row's sort value and id; the value is a string/number as the sort column is, or null. */
export type CursorKey = [value: string | number | null, id: string];

interface CursorPayload {
  /** The list it was minted for, so a cursor cannot wander to another endpoint. */
  r: string;
  s: string;
  d: SortDir;
  k: CursorKey;
}

const SIGNATURE_BYTES = 16;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Opaque, signed cursor: base64url(JSON) "." base64url(HMAC-SHA256 truncated to 128 bits). */
export async function encodeCursor(secret: string, payload: CursorPayload): Promise<string> {
  const body = base64url(encoder.encode(JSON.stringify(payload)));
  const signature = (await hmacSign(secret, body)).slice(0, SIGNATURE_BYTES);
  return `${body}.${base64url(signature)}`;
}

function invalid(detail: string): ApiError {
  return new ApiError("invalid_request", detail, [{ location: "query", field: "cursor", message: detail }]);
}

/**
 * Verifies a cursor and that it was minted for this list with this sort and dir; anything else is a 400.
 */
export async function decodeCursor(
  secret: string,
  cursor: string,
  expected: { route: string; sort: string; dir: SortDir },
): Promise<CursorKey> {
  const [body, sig, extra] = cursor.split(".");
  const signature = sig === undefined ? null : fromBase64url(sig);
  if (!body || !signature || extra !== undefined || signature.length !== SIGNATURE_BYTES) {
    throw invalid("The cursor is malformed. Pass back exactly the next_cursor of the previous page.");
  }
  const expectedSig = (await hmacSign(secret, body)).slice(0, SIGNATURE_BYTES);
  if (!timingSafeEqual(expectedSig, signature))
    throw invalid("The cursor is not valid: it was altered or minted by another server.");
  let payload: CursorPayload;
  try {
    payload = JSON.parse(decoder.decode(fromBase64url(body)!)) as CursorPayload;
  } catch {
    throw invalid("The cursor is malformed. Pass back exactly the next_cursor of the previous page.");
  }
  if (payload.r !== expected.route) throw invalid("The cursor belongs to another list.");
  if (payload.s !== expected.sort || payload.d !== expected.dir) {
    throw invalid(
      `The cursor was minted for sort=${payload.s}&dir=${payload.d}; it cannot be used with sort=${expected.sort}&dir=${expected.dir}.`,
    );
  }
  return payload.k;
}
