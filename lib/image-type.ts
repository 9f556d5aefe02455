/**
 * What image a byte string really holds, read from its signature (magic bytes) and header, and its pixel size
 * where the header states it. An upload is stored only when its bytes are the type it declares.
 */

export const imageTypes = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
export type ImageType = (typeof imageTypes)[number];

/** The file extension each type is stored under. */
export const imageExtensions: Record<ImageType, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
};

export interface DetectedImage {
  contentType: ImageType;
  /** Pixels; null when the header does not state it within the bytes read. */
  width: number | null;
  height: number | null;
}

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((b, i) => bytes[at + i] === b);
}

function ascii(bytes: Uint8Array, at: number, text: string): boolean {
  return startsWith(
    bytes,
    [...text].map((ch) => ch.charCodeAt(0)),
    at,
  );
}

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | u16be(b, at + 2)) >>> 0;

const UNKNOWN_SIZE = { width: null, height: null };

function size(width: number, height: number): { width: number | null; height: number | null } {
  return width > 0 && height > 0 ? { width, height } : UNKNOWN_SIZE;
}

function png(b: Uint8Array): DetectedImage | null {
  if (!startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return null;
  const known = b.length >= 24 && ascii(b, 12, "IHDR");
  return { contentType: "image/png", ...(known ? size(u32be(b, 16), u32be(b, 20)) : UNKNOWN_SIZE) };
}

function gif(b: Uint8Array): DetectedImage | null {
  if (!(ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a"))) return null;
  return { contentType: "image/gif", ...(b.length >= 10 ? size(u16le(b, 6), u16le(b, 8)) : UNKNOWN_SIZE) };
}

function webp(b: Uint8Array): DetectedImage | null {
  if (!(ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP"))) return null;
  let dims: { width: number | null; height: number | null } = UNKNOWN_SIZE;
  if (ascii(b, 12, "VP8 ") && b.length >= 30 && startsWith(b, [0x9d, 0x01, 0x2a], 23)) {
    dims = size(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  } else if (ascii(b, 12, "VP8L") && b.length >= 25 && b[20] === 0x2f) {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    dims = size((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  } else if (ascii(b, 12, "VP8X") && b.length >= 30) {
    dims = size(u24le(b, 24) + 1, u24le(b, 27) + 1);
  }
  return { contentType: "image/webp", ...dims };
}

/** Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpeg(b: Uint8Array): DetectedImage | null {
  if (!startsWith(b, [0xff, 0xd8, 0xff])) return null;
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) break;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    // Markers without a length: TEM and the restart markers.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (isStartOfFrame(marker) && at + 9 <= b.length) {
      return { contentType: "image/jpeg", ...size(u16be(b, at + 7), u16be(b, at + 5)) };
    }
    // Start of scan: the entropy-coded data follows; a frame header would have come before it.
    if (marker === 0xda) break;
    at += 2 + u16be(b, at + 2);
  }
  return { contentType: "image/jpeg", ...UNKNOWN_SIZE };
}

/** The image type the bytes hold (with its size where stated), or null when they are none of `imageTypes`. */
export function detectImage(bytes: Uint8Array): DetectedImage | null {
  return png(bytes) ?? jpeg(bytes) ?? gif(bytes) ?? webp(bytes);
}
