import { describe, expect, it } from "vitest";
import { invalidUtf8At, strictJson } from "../../lib/strict-json";

/** lib/strict-json.ts: what a JSON request body may not contain, and which field is named. */

const utf8 = (text: string) => new TextEncoder().encode(text);
const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...utf8(p)] : p)));

describe("strictJson", () => {
  it.each([
    ['{"a":1,"a":2}', "a", "more than once"],
    ['{"a":1,"b":{"c":1,"c":2}}', "b.c", "more than once"],
    ['{"a":[{"x":1},{"y":1,"y":2}]}', "a.1.y", "more than once"],
    ['[[{"k":0}],[{"k":0,"k":1}]]', "1.0.k", "more than once"],
    ['{"a":1,"\\u0061":2}', "a", "more than once"],
    ['{ "a" : 1 , "a" : 2 }', "a", "more than once"],
    ['{"s":"\\ud800"}', "s", "surrogate"],
    ['{"s":"\\uDFFF"}', "s", "surrogate"],
    ['{"s":"x\\ud83dy"}', "s", "surrogate"],
    ['{"s":"\\ud83d\\n"}', "s", "surrogate"],
    ['{"s":"\\ude00\\ud83d"}', "s", "surrogate"],
    ['{"s":"\\ud83d\\ud83d\\ude00"}', "s", "surrogate"],
    ['{"list":["ok","\\udc00"]}', "list.1", "surrogate"],
    ['{"\\ud800":1}', "\uFFFD", "surrogate"],
    ['"\\ud800"', "(root)", "surrogate"],
  ])("refuses %s at %s", (body, field, message) => {
    const result = strictJson(utf8(body));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.issue.field).toBe(field);
      expect(result.issue.message).toContain(message);
    }
  });

  it.each([
    '{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}',
    '{"emoji":"\\ud83d\\ude00","raw":"😀","fffd":"\uFFFD","escapes":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041"}',
    '{"n":-1.5e+10,"t":true,"f":false,"z":null,"e":{},"l":[]}',
    "  [1, 2, [3, [4]]]  ",
    '{"A":1,"a":2}',
  ])("accepts %s with its text unchanged", (body) => {
    expect(strictJson(utf8(body))).toEqual({ ok: true, text: body });
  });

  it("leaves syntax errors to JSON.parse", () => {
    for (const body of ["", "{", '{"a":1,}', "[1 2]", '{"a" 1}', "nul", '{"a":"\n"}', "{} {}"]) {
      expect(strictJson(utf8(body)), body).toEqual({ ok: true, text: body });
    }
  });

  it("refuses invalid UTF-8 and names the field holding the bad byte", () => {
    const cases: [Uint8Array, string][] = [
      [bytes('{"title":"caf', [0xe9], '"}'), "title"],
      [bytes('{"a":"ok","b":{"c":"', [0xc3, 0x28], '"}}'), "b.c"],
      [bytes('{"list":["x","', [0xff], '"]}'), "list.1"],
      [bytes('{"s":"', [0xed, 0xa0, 0x80], '"}'), "s"], // an encoded surrogate (CESU-8)
      [bytes('{"s":"', [0xc0, 0xaf], '"}'), "s"], // overlong "/"
      [bytes('{"s":"', [0xf4, 0x90, 0x80, 0x80], '"}'), "s"], // above U+10FFFF
      [bytes('{"s":"', [0xe2, 0x82], '"}'), "s"], // truncated
      [bytes([0xff], "{}"), "(root)"],
    ];
    for (const [body, field] of cases) {
      const result = strictJson(body);
      expect(result, field).toEqual({
        ok: false,
        issue: { field, message: expect.stringContaining("UTF-8") },
      });
    }
  });

  it("finds the first invalid UTF-8 byte", () => {
    expect(invalidUtf8At(utf8("plain ascii, é, 😀, €"))).toBe(-1);
    expect(invalidUtf8At(bytes("ab", [0x80]))).toBe(2);
    expect(invalidUtf8At(bytes("é", [0xe0, 0x80, 0x80]))).toBe(2);
    expect(invalidUtf8At(bytes([0xf0, 0x9f, 0x98, 0x80, 0xf8]))).toBe(4);
  });

  it("scans deep nesting without using the stack", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(strictJson(utf8(deep)).ok).toBe(true);
    const deepDuplicate = `${'{"a":'.repeat(5000)}{"k":1,"k":2}${"}".repeat(5000)}`;
    const result = strictJson(utf8(deepDuplicate));
    expect(result.ok ? "" : result.issue.field).toBe(`${"a.".repeat(5000)}k`);
  });
});
