/** The catalogue's reference data: artists, locations, custom statuses and the tag vocabularies. */
import * as schema from "../../db/schema";
import { DAY, HOUR, iso, SPAN_START } from "./common";
import type { Artist, SeedContext } from "./context";
import { ARTIST_STYLES, ARTISTS, ARTWORK_TAGS, CONTACT_TAGS, PRICE_RANGES } from "./material";

export interface ReferenceData {
  artists: Artist[];
  locations: string[];
  customStatuses: string[];
  artworkTags: string[];
  contactTags: string[];
}

/** Artists, locations, custom statuses and tags. */
export function seedCatalogue(ctx: SeedContext): ReferenceData {
  const { rng, newId, G, rows } = ctx;
  const artists: Artist[] = ARTISTS.map(([name, born, died, nationality, practice], i) => {
    const createdMs = SPAN_START - DAY * (60 - i);
    const id = newId("artist", createdMs);
    rows(schema.artists).push({
      id,
      ...G,
      name,
      birthYear: born,
      deathYear: died,
      nationality,
      bio:
        practice === "antiquity"
          ? "Works attributed to unnamed makers, catalogued by period and workshop."
          : `${nationality} artist${born ? `, born ${born}` : ""}, working primarily in ${practice === "paper" ? "works on paper" : practice}.`,
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs),
    });
    // Each artist sits somewhere in their medium's market; estates of older artists sit higher.
    const [lo, hi] = PRICE_RANGES[practice];
    const stature = Math.min(1, rng.next() * 0.8 + (died !== null ? 0.3 : 0));
    const span = Math.log(hi) - Math.log(lo);
    const priceRange: [number, number] = [
      Math.exp(Math.log(lo) + stature * 0.5 * span),
      Math.exp(Math.log(lo) + (0.5 + stature * 0.5) * span),
    ];
    return { id, name, born, died, practice, priceRange, style: ARTIST_STYLES[name] ?? null };
  });

  const locationSpecs = [
    ["Main Gallery, Ground Floor", "gallery", "14 Wharf Street, New York, NY 10013"],
    ["Viewing Room, Second Floor", "gallery", "14 Wharf Street, New York, NY 10013"],
    ["Red Hook Storage, Bay 4", "storage", "220 Ferris Street, Brooklyn, NY 11231"],
    ["Bowery Frames", "framer", "301 Bowery, New York, NY 10003"],
    ["Kline Conservation Studio", "conservator", "45 Ludlow Street, New York, NY 10002"],
    ["On loan: Harborview Museum of Art", "loan", "1 Museum Way, Harborview, ME 04101"],
  ] as const;
  const locations = locationSpecs.map(([name, kind, address], i) => {
    const createdMs = SPAN_START - DAY * (20 - i);
    const id = newId("loc", createdMs);
    rows(schema.locations).push({
      id,
      ...G,
      name,
      kind,
      address,
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs),
    });
    return id;
  });

  const statusSpecs = [
    ["Needs photography", "amber"],
    ["Awaiting framing", "sky"],
    ["Ready for fair", "emerald"],
    ["Under conservation", "rose"],
  ] as const;
  const customStatuses = statusSpecs.map(([name, color], position) => {
    const createdMs = SPAN_START - DAY * (10 - position);
    const id = newId("cst", createdMs);
    rows(schema.customStatuses).push({
      id,
      ...G,
      name,
      color,
      position,
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs),
    });
    return id;
  });

  const tagRow = (name: string, scope: string, i: number) => {
    const createdMs = SPAN_START - DAY * 5 + i * HOUR;
    const id = newId("tag", createdMs);
    rows(schema.tags).push({ id, ...G, name, scope, createdAt: iso(createdMs), updatedAt: iso(createdMs) });
    return id;
  };
  const artworkTags = ARTWORK_TAGS.map((name, i) => tagRow(name, "artwork", i));
  const contactTags = CONTACT_TAGS.map((name, i) => tagRow(name, "contact", i + ARTWORK_TAGS.length));
  return { artists, locations, customStatuses, artworkTags, contactTags };
}
