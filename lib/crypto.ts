const encoder = new TextEncoder();

/** The bytes as a binary string (one character per byte), for btoa. */
function binary(view: Uint8Array): string {
  let s = "";
  // fromCharCode takes the bytes as arguments: a chunk at a time keeps the call within any argument limit.
  for (let i = 0; i < view.length; i += 0x8000)
    s += String.fromCharCode.apply(null, view.subarray(i, i + 0x8000) as unknown as number[]);
  return s;
}

const URL_SAFE: Record<string, string> = { "+": "-", "/": "_", "=": "" };

export function base64url(bytes: Uint8Array): string {
  return btoa(binary(bytes)).replace(/[+/=]/g, (c) => URL_SAFE[c] as string);
}

export function fromBase64url(value: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) return null;
  try {
    const bin = atob(value.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

const HEX_BYTES = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

export function hex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let out = "";
  for (let i = 0; i < view.length; i++) out += HEX_BYTES[view[i]!];
  return out;
}

/** The bytes of a hex string (either case), or null when it is not one (odd length, another character). */
export function fromHex(value: string): Uint8Array | null {
  if (value.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(value)) return null;
  const out = new Uint8Array(value.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(value.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Standard base64 (`+` and `/`, padded with `=`). */
export function base64(bytes: ArrayBuffer | Uint8Array): string {
  return btoa(binary(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)));
}

/**
 * The bytes of standard base64, or null unless it is written exactly as `base64` writes it: padded, no
 * whitespace, unused trailing bits zero (so one value has one spelling).
 */
export function fromBase64(value: string): Uint8Array | null {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value)) return null;
  const bytes = Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
  return base64(bytes) === value ? bytes : null;
}

export async function sha256Hex(value: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(value)));
}

/** A random secret of `bytes` bytes (at least 128 bits), base64url, behind a type prefix. */
export function randomToken(prefix: string, bytes = 24): string {
  return `${prefix}${base64url(crypto.getRandomValues(new Uint8Array(bytes)))}`;
}

const hmacKeys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    hmacKeys.set(secret, key);
  }
  return key;
}

export async function hmacSign(secret: string, message: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(message)));
}

/** Constant-time comparison of two byte strings (MACs, password hashes). */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
