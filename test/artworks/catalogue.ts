import { createGallery, type TestGallery } from "../helpers/gallery";
import { minutesAfterEpoch } from "../helpers/seed";
import { creditArtist, listedIds, seedArtist, seedArtwork, seedDraft, seedTag, tagArtwork } from "./helpers";
/**
 * GET /gallery/artworks against a fixed catalogue of seven works (A–G) whose every filterable column is known,
 * plus a second gallery holding look-alike works that must never leak into the first gallery's results.
 */

export type Name = "A" | "B" | "C" | "D" | "E" | "F" | "G";

export interface Fixture {
  created: number;
  updated: number;
  price: number | null;
  year: number | null;
  columns: Record<string, unknown>;
}

export const PUBLISHED = "2024-06-01T12:00:00.000Z";

export const fixtures: Record<Name, Fixture> = {
  A: {
    created: 1,
    updated: 100,
    price: 100000,
    year: 1900,
    columns: {
      title: "Blue Horizon",
      artist_name: "Claude Monet",
      medium: "Oil on canvas",
      height_cm: 50,
      width_cm: 70,
      availability_state: "available",
      ownership_status: "owned",
      condition_status: "excellent",
      market: "primary",
      published_at: PUBLISHED,
      image_count: 1,
      thumbnail_url: "https://img.test/a.jpg",
      readiness: "ready",
      disclosure_required: false,
      show_price_publicly: false,
    },
  },
  B: {
    created: 2,
    updated: 20,
    price: 250000,
    year: 1915,
    columns: {
      title: "Red Square",
      artist_name: "Kazimir Malevich",
      medium: "oil on canvas",
      height_cm: 100,
      width_cm: 100,
      availability_state: "sold",
      ownership_status: "consigned",
      condition_status: "good",
      market: "secondary",
      readiness: "thin",
      disclosure_required: true,
    },
  },
  C: {
    created: 3,
    updated: 70,
    price: null,
    year: null,
    columns: {
      title: "100% Cotton",
      medium: "Textile",
      availability_state: "on_hold",
      ownership_status: "co_owned",
      condition_status: "fair",
      market: "primary",
      readiness: "empty",
    },
  },
  D: {
    created: 4,
    updated: 10,
    price: 0,
    year: -500,
    columns: {
      title: "100 Cotton Study",
      medium: "Textile",
      height_cm: 20.5,
      width_cm: 30,
      availability_state: "reserved",
      ownership_status: "artist_property",
      condition_status: "poor",
      market: "secondary",
    },
  },
  E: {
    created: 5,
    updated: 50,
    price: 250000,
    year: 1915,
    columns: {
      title: "snake_case",
      medium: "Bronze",
      height_cm: 200,
      width_cm: 10,
      availability_state: "not_for_sale",
      ownership_status: "owned",
      condition_status: "very_good",
      market: "primary",
      published_at: PUBLISHED,
      image_count: 2,
      thumbnail_url: "https://img.test/e.jpg",
      readiness: "ready",
      disclosure_required: true,
      show_price_publicly: true,
    },
  },
  F: {
    created: 6,
    updated: 30,
    price: null,
    year: 2020,
    columns: {
      title: "snakeXcase",
      medium: "BRONZE",
      height_cm: 0,
      width_cm: 0,
      availability_state: "on_loan",
      ownership_status: "owned",
      market: "primary",
      readiness: "thin",
      disclosure_required: false,
    },
  },
  G: {
    created: 7,
    updated: 60,
    price: 5,
    year: -3000,
    columns: {
      title: "Ancient Vase",
      medium: "Terracotta",
      date_display: "c. 3000 BC",
      inventory_number: "INV-777",
      height_cm: 40,
      width_cm: 25,
      availability_state: "available",
      ownership_status: "consigned",
      condition_status: "excellent",
      market: "primary",
    },
  },
};

export const names = Object.keys(fixtures) as Name[];
export const F_DRAFT = { title: "Draft Title", price_cents: 777, medium: "Draft medium" };

export let g: TestGallery;
export let other: TestGallery;
export const id = {} as Record<Name, string>;
export let monet: string;
export let malevich: string;
export let t1: string;
export let t2: string;
export let otherArtwork: string;
export let otherArtist: string;
export let otherTag: string;

/** Ids of the named works in newest-first (created desc) order, as every filter test expects by default. */
export function newestFirst(...subset: Name[]): string[] {
  return [...subset].sort((a, b) => fixtures[b].created - fixtures[a].created).map((n) => id[n]);
}

export async function ids(query: string): Promise<string[]> {
  return listedIds(g.key, query);
}

/** Seeds the catalogue; each list suite calls it once, in its own beforeAll. */
export async function seedCatalogue(): Promise<void> {
  g = await createGallery();
  other = await createGallery();
  monet = await seedArtist(g.id, "Claude Monet");
  malevich = await seedArtist(g.id, "Kazimir Malevich");
  t1 = await seedTag(g.id, "Landscape");
  t2 = await seedTag(g.id, "Abstract");
  for (const name of names) {
    const f = fixtures[name];
    id[name] = await seedArtwork(g.id, {
      ...f.columns,
      price_cents: f.price,
      year: f.year,
      created_at: minutesAfterEpoch(f.created),
      updated_at: minutesAfterEpoch(f.updated),
    });
  }
  await creditArtist(g.id, id.A, monet, "primary", 0);
  await creditArtist(g.id, id.B, malevich, "primary", 0);
  await creditArtist(g.id, id.B, monet, "collaborator", 1);
  await tagArtwork(g.id, id.A, t1);
  await tagArtwork(g.id, id.B, t2);
  await tagArtwork(g.id, id.C, t1);
  await tagArtwork(g.id, id.C, t2);
  await seedDraft(g.id, id.F, F_DRAFT);

  // A look-alike of A in another gallery: it matches most filters below and must never appear.
  otherArtist = await seedArtist(other.id, "Claude Monet");
  otherTag = await seedTag(other.id, "Landscape");
  otherArtwork = await seedArtwork(other.id, {
    ...fixtures.A.columns,
    price_cents: 100000,
    year: 1900,
    created_at: minutesAfterEpoch(8),
    updated_at: minutesAfterEpoch(8),
  });
  await creditArtist(other.id, otherArtwork, otherArtist);
  await tagArtwork(other.id, otherArtwork, otherTag);
}
