import { z } from "@hono/zod-openapi";

const UTC_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?Z$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A filter timestamp: UTC only (ends in an upper-case `Z`), seconds and fraction optional, and a real calendar
 * date (leap years included). Returns false for anything else.
 */
export function isStrictUtcTimestamp(value: string): boolean {
  const m = UTC_TIMESTAMP.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m
    .slice(1, 7)
    .map((v) => (v === undefined ? 0 : Number(v)));
  if (month! < 1 || month! > 12 || day! < 1 || year! < 1) return false;
  const maxDay = month === 2 && isLeapYear(year!) ? 29 : DAYS_IN_MONTH[month! - 1]!;
  return day! <= maxDay && hour! <= 23 && minute! <= 59 && second! <= 59;
}

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A date without a time (`2024-02-29`): a real calendar date, leap years included, year 0001 to 9999. */
export function isCalendarDate(value: string): boolean {
  const m = CALENDAR_DATE.exec(value);
  if (!m) return false;
  const [year, month, day] = m.slice(1, 4).map(Number) as [number, number, number];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!);
}

export const CalendarDate = z
  .string()
  .refine(isCalendarDate, { message: "must be a real calendar date written YYYY-MM-DD, e.g. 2024-02-29" })
  // No explicit `type`: the generator derives it, so `CalendarDate.nullable()` documents `["string", "null"]`.
  .openapi({ format: "date", pattern: CALENDAR_DATE.source, example: "2024-02-29" });

export const UtcTimestamp = z
  .string()
  .refine(isStrictUtcTimestamp, {
    message:
      "must be a UTC date-time ending in Z with a real calendar date, e.g. 2024-02-29T00:00Z or 2024-02-29T23:59:59.123Z",
  })
  .openapi({
    format: "date-time",
    pattern: UTC_TIMESTAMP.source,
    example: "2024-02-29T00:00:00Z",
  });

/** Output timestamps: UTC with milliseconds. Postgres text (`2026-11-21 09:37:31.548+00`) in, ISO out. */
export function isoTimestamp(value: string | Date | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(value);
  return date.toISOString();
}

export const TimestampOut = z.string().openapi({ format: "date-time", example: "2026-11-21T09:37:31.548Z" });

const FRACTION = /\.(\d{1,9})Z$/;

/**
 * A strict UTC timestamp as the API prints it (`2024-02-29T00:00:00.000Z`), rounded to the nearest millisecond as
 * the columns store it: an update compares it with the stored value (previous_attributes) without a spurious change.
 */
export function toStoredMs(value: string): string {
  const m = FRACTION.exec(value);
  const whole = m ? `${value.slice(0, m.index)}Z` : value;
  const micros = m ? Math.round(Number(m[1]!.padEnd(9, "0")) / 1000) : 0;
  return new Date(Date.parse(whole) + Math.floor((micros + 500) / 1000)).toISOString();
}

/**
 * A filter's "at or after" instant in the API's output form. A fraction finer than a millisecond rounds up:
 * stored times have millisecond precision, so the rounded bound keeps exactly the rows the written one would.
 */
export function toFilterMs(value: string): string {
  const m = FRACTION.exec(value);
  if (!m) return new Date(Date.parse(value)).toISOString();
  const whole = value.slice(0, m.index);
  const fraction = m[1]!;
  const ms = Date.parse(`${whole}.${fraction.slice(0, 3).padEnd(3, "0")}Z`);
  return new Date(ms + (/[1-9]/.test(fraction.slice(3)) ? 1 : 0)).toISOString();
}
