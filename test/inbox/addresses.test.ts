import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textArray } from "../../db/queries/rows";
import { e164, normaliseAddress, normaliseEmail } from "../../lib/addresses";
import { db } from "../helpers/gallery";

/**
 * The inbox's address rules: e164() in lib/addresses.ts validates requests, its SQL twin e164(text) (migration
 * 0008) indexes contacts' phones for matching; the two must agree on every input, or a phone the API accepts
 * would never find its contact.
 */

/** e164 as Postgres computes it, for many values in one query, in order. */
async function sqlE164(values: string[]): Promise<(string | null)[]> {
  const result = await db().execute<{ v: string | null }>(
    sql`select e164(x.value) as v from unnest(${textArray(values)}) with ordinality as x(value, n) order by x.n`,
  );
  return result.rows.map((row) => row.v);
}

const CASES: [string, string | null][] = [
  ["+44 (0)20 7946 0958", "+442079460958"],
  ["0044 20 7946 0958", "+442079460958"],
  ["+1 (415) 555-2671", "+14155552671"],
  ["+1.415.555.2671", "+14155552671"],
  ["+1/415/555/2671", "+14155552671"],
  ["  +1 415 555 2671  ", "+14155552671"],
  ["+14155552671", "+14155552671"],
  ["+12345678", "+12345678"],
  ["+123456789012345", "+123456789012345"],
  ["+1234567", null],
  ["+1234567890123456", null],
  ["+0 20 7946 0958", null],
  ["00 0 20 7946 0958", null],
  ["415-555-2671", null],
  ["(415) 555-2671", null],
  ["+44 20 7946 0958 ext 12", null],
  ["tel:+14155552671", null],
  ["+1\t415 555 2671", null],
  ["+١٤١٥٥٥٥٢٦٧١", null],
  ["+", null],
  ["", null],
  ["desk@gallery.example", null],
];

describe("e164", () => {
  it.each(CASES)("%j → %j, in TypeScript and in SQL", async (input, expected) => {
    expect(e164(input)).toBe(expected);
    expect(await sqlE164([input])).toEqual([expected]);
  });

  it("agrees with its SQL twin on generated phone-like text", async () => {
    // Mostly digits and the separators a number is written with, now and then something that breaks it.
    const token = fc.oneof(
      { arbitrary: fc.constantFrom("0", "1", "4", "7", "9", "5555"), weight: 12 },
      { arbitrary: fc.constantFrom(" ", ".", "-", "/", "(", ")", "(0)"), weight: 4 },
      { arbitrary: fc.constantFrom("+", "00", "x", "\t", "é", "(0", "0)"), weight: 1 },
    );
    const values = fc.sample(
      fc.array(token, { minLength: 0, maxLength: 16 }).map((parts) => parts.join("")),
      { numRuns: 2000, seed: 11 },
    );
    // Also every value with an international prefix, so most of them are numbers worth agreeing on.
    const all = [...values, ...values.map((v) => `+${v}`), ...values.map((v) => `00${v}`)];
    const expected = all.map(e164);
    expect(expected.filter((v) => v !== null).length).toBeGreaterThan(200);
    expect(await sqlE164(all)).toEqual(expected);
  });
});

describe("normaliseEmail and normaliseAddress", () => {
  it("trims and lower-cases an email, and refuses what is not one", () => {
    expect(normaliseEmail("  Ada.Lovelace@Example.COM ")).toBe("ada.lovelace@example.com");
    expect(normaliseEmail("not-an-email")).toBeNull();
    expect(normaliseEmail("a@b")).toBeNull();
    expect(normaliseEmail(`${"a".repeat(250)}@example.com`)).toBeNull();
  });

  it("reads an address by its channel: email for email, E.164 for WhatsApp and SMS", () => {
    expect(normaliseAddress("email", "Desk@Gallery.Example")).toBe("desk@gallery.example");
    expect(normaliseAddress("email", "+1 415 555 2671")).toBeNull();
    expect(normaliseAddress("whatsapp", "+1 415 555 2671")).toBe("+14155552671");
    expect(normaliseAddress("sms", "0044 20 7946 0958")).toBe("+442079460958");
    expect(normaliseAddress("sms", "desk@gallery.example")).toBeNull();
  });
});
