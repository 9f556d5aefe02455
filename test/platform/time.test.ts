import { describe, expect, it } from "vitest";
import { isoTimestamp, isStrictUtcTimestamp, UtcTimestamp } from "../../lib/time";

describe("isStrictUtcTimestamp", () => {
  const valid = [
    "2024-02-29T00:00Z",
    "2024-02-29T23:59:59.123456Z",
    "2024-01-01T00:00:00Z",
    "2000-02-29T12:00Z",
    // Boundaries of each part.
    "2024-12-31T23:59:59Z",
    "2023-02-28T00:00Z",
    "2024-04-30T00:00Z",
    "2024-01-31T00:00Z",
    "2024-01-01T00:00:00.1Z",
    "2024-01-01T00:00:00.123456789Z",
  ];
  const invalid = [
    "2023-02-29T00:00Z",
    "1900-02-29T00:00:00Z",
    "2024-04-31T00:00:00Z",
    "2024-13-01T00:00:00Z",
    "2024-01-01T24:00:00Z",
    "2024-01-01T00:00:00+01:00",
    "2024-01-01",
    "2024-01-01T00:00:00z",
    "2024-01-01T00:60Z",
    "2024-00-10T00:00Z",
    // More that a lenient parser (Date.parse) would accept.
    "2024-01-00T00:00Z",
    "2024-01-32T00:00Z",
    "2024-01-01T00:00:60Z",
    "2024-01-01T00:00:00+00:00",
    "2024-01-01T00:00:00",
    "2024-01-01 00:00:00Z",
    "2024-01-01T00Z",
    "2024-01-01T00:00:00.Z",
    "2024-01-01T00:00:00.1234567890Z",
    "0000-01-01T00:00Z",
    "24-01-01T00:00Z",
    "+002024-01-01T00:00Z",
    " 2024-01-01T00:00Z",
    "2024-01-01T00:00Z ",
    "2024-1-01T00:00Z",
    "",
  ];

  it.each(valid)("accepts %s", (value) => {
    expect(isStrictUtcTimestamp(value)).toBe(true);
  });

  it.each(invalid)("rejects %j", (value) => {
    expect(isStrictUtcTimestamp(value)).toBe(false);
  });

  it("applies the Gregorian leap-year rule (every 4th year, not centuries, but every 400th)", () => {
    const leap = [1600, 2000, 2004, 2024, 2400];
    const common = [1700, 1800, 1900, 2001, 2023, 2100];
    for (const year of leap) expect(isStrictUtcTimestamp(`${year}-02-29T00:00Z`), String(year)).toBe(true);
    for (const year of common) expect(isStrictUtcTimestamp(`${year}-02-29T00:00Z`), String(year)).toBe(false);
  });

  it("knows the length of every month", () => {
    const days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    days.forEach((last, i) => {
      const month = String(i + 1).padStart(2, "0");
      expect(isStrictUtcTimestamp(`2023-${month}-${last}T00:00Z`), `2023-${month}-${last}`).toBe(true);
      expect(isStrictUtcTimestamp(`2023-${month}-${last + 1}T00:00Z`), `2023-${month}-${last + 1}`).toBe(
        false,
      );
    });
  });

  it("backs the UtcTimestamp schema with the same rule and a message naming the expected form", () => {
    expect(UtcTimestamp.safeParse("2024-02-29T00:00Z").success).toBe(true);
    const result = UtcTimestamp.safeParse("2023-02-29T00:00Z");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      "must be a UTC date-time ending in Z with a real calendar date, e.g. 2024-02-29T00:00Z or 2024-02-29T23:59:59.123Z",
    );
  });
});

describe("isoTimestamp", () => {
  it("renders Postgres timestamptz text as UTC ISO 8601 with milliseconds", () => {
    expect(isoTimestamp("2026-11-21 09:37:31.548+00")).toBe("2026-11-21T09:37:31.548Z");
    expect(isoTimestamp("2026-11-21 10:37:31+01")).toBe("2026-11-21T09:37:31.000Z");
    expect(isoTimestamp(new Date(Date.UTC(2024, 1, 29)))).toBe("2024-02-29T00:00:00.000Z");
    expect(isoTimestamp(null)).toBeNull();
    expect(isoTimestamp(undefined)).toBeNull();
  });
});
