import { newId } from "../../lib/ids";
import { seedArtwork } from "../artworks/helpers";
import type { Page } from "../helpers/pages";
import { compareKeys } from "../helpers/pages";
import { minutesAfterEpoch } from "../helpers/seed";

/**
 * Cursor pagination of GET /gallery/artworks (and the cursor's binding to its list, sort and dir). Keyset order
 * is (sort key, id) in the requested direction, with unpriced/undated works mapped below every real value.
 */

export type Sort = "created" | "updated" | "price" | "year";
export type Dir = "asc" | "desc";
export type Key = readonly [number | string, string];

export interface Seeded {
  id: string;
  created: number;
  updated: number;
  price: number | null;
  year: number | null;
}

export const NULL_PRICE = -1;
export const NULL_YEAR = -2147483648;

export function keyOf(row: Seeded, sort: Sort): Key {
  switch (sort) {
    case "created":
      return [row.created, row.id];
    case "updated":
      return [row.updated, row.id];
    case "price":
      return [row.price ?? NULL_PRICE, row.id];
    case "year":
      return [row.year ?? NULL_YEAR, row.id];
  }
}

export function expectedOrder(rows: Seeded[], sort: Sort, dir: Dir): string[] {
  const asc = [...rows].sort((a, b) => compareKeys(keyOf(a, sort), keyOf(b, sort))).map((r) => r.id);
  return dir === "asc" ? asc : asc.reverse();
}

/** Seeds `n` works with distinct created/updated times and prices/years that tie and are sometimes missing. */
export async function seedCatalogue(galleryId: string, n: number): Promise<Seeded[]> {
  const rows: Seeded[] = [];
  for (let i = 0; i < n; i++) {
    const row: Seeded = {
      id: newId("art"),
      created: i + 1,
      // A permutation of the creation order, so sort=updated differs from sort=created.
      updated: ((i * 7) % n) + 1000,
      price: i % 5 === 0 ? null : (i % 4) * 1000,
      year: i % 6 === 0 ? null : i % 2 === 0 ? 1900 + (i % 3) * 50 : -2500 + (i % 3),
    };
    await seedArtwork(galleryId, {
      id: row.id,
      title: `Work ${i}`,
      price_cents: row.price,
      year: row.year,
      created_at: minutesAfterEpoch(row.created),
      updated_at: minutesAfterEpoch(row.updated),
    });
    rows.push(row);
  }
  return rows;
}

export type Listed = { id: string; price_cents: number | null; year: number | null };

export function idsOf(pages: Page<Listed>[]): string[] {
  return pages.flatMap((p) => p.data.map((a) => a.id));
}
