/**
 * Strict JSON for request bodies: what JSON.parse and a lenient text decoder let through silently. A body must be
 * valid UTF-8 (a bad byte is not turned into U+FFFD), no object may repeat a key at any depth (JSON.parse keeps
 * the last one, so two readers of the same body could disagree), and no string or key may hold an unpaired
 * surrogate escape such as "\ud800" (not Unicode text; PostgreSQL and most clients cannot store or show it).
 * Syntax errors are left to JSON.parse, which reports them as before.
 */

/** A strictness violation: the field (dotted path, `(root)` for the body itself) and what is wrong with it. */
export interface JsonIssue {
  field: string;
  message: string;
}

export type StrictJson = { ok: true; text: string } | { ok: false; issue: JsonIssue };

const fatalDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

const WHITESPACE = /[ \t\n\r]*/y;
/** A run of string characters that need no attention (not a quote, backslash or control character). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings must not hold raw control characters.
const PLAIN = /[^"\\\u0000-\u001f]*/y;
const LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const SIMPLE_ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Not JSON at all: JSON.parse will say so. */
class SyntaxStop extends Error {}
/** The text ended early (only expected when scanning the valid prefix of a body with a bad byte). */
class EndStop extends Error {}

function fieldOf(path: readonly (string | number)[]): string {
  if (path.length === 0) return "(root)";
  return path.map((p) => String(p).replace(LONE_SURROGATE, "\uFFFD")).join(".");
}

/**
 * Scans JSON text for duplicate keys and unpaired surrogate escapes without building values (iteratively, so
 * nesting depth costs no stack). Returns the first issue; `atEnd` names the field being read where the text ends.
 */
function scan(text: string, atEnd?: (field: string) => JsonIssue): JsonIssue | null {
  let i = 0;
  const path: (string | number)[] = [];
  /** Open containers: the keys seen so far of an object, or null for an array (its index is the path's last). */
  const frames: (Set<string> | null)[] = [];

  const skipWhitespace = () => {
    WHITESPACE.lastIndex = i;
    WHITESPACE.test(text);
    i = WHITESPACE.lastIndex;
  };
  const stop = (): never => {
    throw i >= text.length ? new EndStop() : new SyntaxStop();
  };
  /** Reads the string at `i` (its opening quote); answers whether it holds an unpaired surrogate escape. */
  const readString = (): boolean => {
    i++;
    let high = false;
    let lone = false;
    for (;;) {
      PLAIN.lastIndex = i;
      PLAIN.test(text);
      if (PLAIN.lastIndex > i) {
        if (high) lone = true;
        high = false;
        i = PLAIN.lastIndex;
      }
      const ch = text[i];
      if (ch === '"') {
        i++;
        return lone || high;
      }
      if (ch !== "\\") return stop();
      const escaped = text[i + 1];
      if (escaped === "u") {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) return stop();
        const unit = Number.parseInt(hex, 16);
        if (unit >= 0xdc00 && unit <= 0xdfff) {
          if (!high) lone = true;
          high = false;
        } else {
          if (high) lone = true;
          high = unit >= 0xd800 && unit <= 0xdbff;
        }
        i += 6;
      } else if (escaped !== undefined && SIMPLE_ESCAPES.has(escaped)) {
        if (high) lone = true;
        high = false;
        i += 2;
      } else {
        return stop();
      }
    }
  };
  const unpaired = (): JsonIssue => ({
    field: fieldOf(path),
    message: "contains an unpaired UTF-16 surrogate escape (such as \\ud800), which is not text",
  });

  try {
    let state: "value" | "after" | "key" = "value";
    for (;;) {
      skipWhitespace();
      if (state === "value") {
        const ch = text[i];
        if (ch === "{" || ch === "[") {
          i++;
          skipWhitespace();
          if (text[i] === (ch === "{" ? "}" : "]")) {
            i++;
            state = "after";
          } else if (ch === "{") {
            frames.push(new Set());
            state = "key";
          } else {
            frames.push(null);
            path.push(0);
          }
        } else if (ch === '"') {
          if (readString()) return unpaired();
          state = "after";
        } else {
          LITERAL.lastIndex = i;
          if (!LITERAL.test(text)) stop();
          i = LITERAL.lastIndex;
          state = "after";
        }
      } else if (state === "key") {
        if (text[i] !== '"') stop();
        const start = i;
        const lone = readString();
        const key = JSON.parse(text.slice(start, i)) as string;
        path.push(key);
        if (lone) return unpaired();
        const seen = frames[frames.length - 1]!;
        if (seen.has(key)) return { field: fieldOf(path), message: "appears more than once in its object" };
        seen.add(key);
        skipWhitespace();
        if (text[i] !== ":") stop();
        i++;
        state = "value";
      } else {
        if (frames.length === 0) return i === text.length ? null : stop();
        const isArray = frames[frames.length - 1] === null;
        const ch = text[i];
        if (ch === ",") {
          i++;
          if (isArray) path[path.length - 1] = (path[path.length - 1] as number) + 1;
          else path.pop();
          state = isArray ? "value" : "key";
        } else if (ch === (isArray ? "]" : "}")) {
          i++;
          frames.pop();
          path.pop();
        } else {
          stop();
        }
      }
    }
  } catch (error) {
    if (error instanceof EndStop && atEnd) return atEnd(fieldOf(path));
    if (error instanceof SyntaxStop || error instanceof EndStop) return null;
    throw error;
  }
}

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence, or -1. */
export function invalidUtf8At(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b === 0xe0) [need, low] = [2, 0xa0];
    else if (b === 0xed) [need, high] = [2, 0x9f];
    else if (b >= 0xe1 && b <= 0xef) need = 2;
    else if (b === 0xf0) [need, low] = [3, 0x90];
    else if (b === 0xf4) [need, high] = [3, 0x8f];
    else if (b >= 0xf1 && b <= 0xf3) need = 3;
    else return i;
    for (let k = 1; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return i;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * Decodes a JSON request body strictly. `ok` with the text when it is valid UTF-8 without duplicate keys or
 * unpaired surrogate escapes (or is not JSON at all, which the caller's JSON.parse reports); else the first issue.
 */
export function strictJson(bytes: Uint8Array): StrictJson {
  let text: string;
  try {
    text = fatalDecoder.decode(bytes);
  } catch {
    const at = invalidUtf8At(bytes);
    const message = "is not valid UTF-8: the body must be encoded as UTF-8";
    const prefix = fatalDecoder.decode(bytes.subarray(0, Math.max(0, at)));
    const issue = scan(prefix, (field) => ({ field, message })) ?? { field: "(root)", message };
    return { ok: false, issue };
  }
  const issue = scan(text);
  return issue ? { ok: false, issue } : { ok: true, text };
}
