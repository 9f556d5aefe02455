/** The fixed clock and the small formatting helpers every family of the seed shares. */
import type { Rng } from "./random";

/** The seed's "now": every generated instant lies before or shortly around it. */
export const BASE = Date.UTC(2026, 0, 1);
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** The gallery's history starts here: four years of inventory, contacts and sales before the seed's clock. */
export const SPAN_START = Date.UTC(2022, 0, 1);
/** The API's origin under `npm start` (wrangler.toml's PUBLIC_BASE_URL): the demo's image URLs name it. */
export const DEFAULT_PUBLIC_BASE_URL = "http://127.0.0.1:8787";
/** The demo gallery's default currency, and what a unit of each currency it sells in is worth in it. */
export const DEFAULT_CURRENCY = "USD";
export const FX_TO_DEFAULT: Readonly<Record<string, number>> = { USD: 1, EUR: 1.08, GBP: 1.27 };

export const iso = (ms: number) => new Date(ms).toISOString();
export const isoDate = (ms: number) => iso(ms).slice(0, 10);
export const slugify = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
export const ascii = (s: string) => slugify(s).replaceAll("-", "");
export const round1 = (n: number) => Math.round(n * 10) / 10;

/** Log-uniform price in cents, rounded the way dealers price: $100 steps, then $500, then $1,000. */
export function priceCents(rng: Rng, min: number, max: number): number {
  const raw = Math.exp(Math.log(min) + rng.next() * (Math.log(max) - Math.log(min)));
  const step = raw < 1_000_000 ? 10_000 : raw < 10_000_000 ? 50_000 : 100_000;
  return Math.max(Math.ceil(min / 10_000) * 10_000, Math.round(raw / step) * step);
}
