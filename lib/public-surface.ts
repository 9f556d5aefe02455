/**
 * The public surface's freshness: how long its reads may be reused, and which domain events change what it shows.
 * The API Worker (http/edge-cache.ts) caches public reads under the gallery's current generation; the cron
 * Worker (services/edge-cache) moves a gallery's generation when one of these events is written, so the next read
 * everywhere misses and is built afresh.
 *
 * The bound, documented in docs: a change is served at most PUBLIC_STALENESS_BOUND_SECONDS after it commits.
 * A data center keeps an entry EDGE_TTL_SECONDS at most (whether or not the cron ran), a browser or shared cache
 * PUBLIC_MAX_AGE_SECONDS more; the generation usually ends an entry sooner (the cron's minute, then KV reaching
 * every data center in about a minute).
 */

/** Browsers and shared caches reuse a public read this long (`Cache-Control: public, max-age`). */
export const PUBLIC_MAX_AGE_SECONDS = 30;
/** A data center keeps a public read this long at most, under the generation it was built for. */
export const EDGE_TTL_SECONDS = 120;
/** The longest a visitor can be shown a state that a committed change ended. */
export const PUBLIC_STALENESS_BOUND_SECONDS = EDGE_TTL_SECONDS + PUBLIC_MAX_AGE_SECONDS;

/**
 * How far back each invalidation pass looks for events. Longer than the cron's minute with room for a late or
 * skipped tick; an event older than this has outlived every entry built before it anyway (EDGE_TTL_SECONDS).
 */
export const INVALIDATION_WINDOW_SECONDS = 600;

/** A generation key lives this long without change; an absent key reads as generation "0". */
export const GENERATION_TTL_SECONDS = 86_400;

/**
 * The domain events that can change what a public viewing room shows: the room itself (its fields, visibility,
 * open and close times, its works), and each work it shows (fields, availability, price, images, formats,
 * deletion, a published working copy), and the artists named on them. Coarse by design: any such event of a
 * gallery renews all its public reads.
 */
export const PUBLIC_SURFACE_EVENT_PREFIXES = ["viewing_room."] as const;
export const PUBLIC_SURFACE_EVENT_TYPES = [
  "artwork.updated",
  "artwork.price_changed",
  "artwork.deleted",
  "artwork.published",
  "artwork_image.created",
  "artwork_image.updated",
  "artwork_image.deleted",
  "artwork_format.created",
  "artwork_format.updated",
  "artwork_format.deleted",
  "artist.updated",
  "artist.deleted",
] as const;

/**
 * The SQL condition on `domain_events.type` selecting those events. The partial index
 * `domain_events_public_surface_idx` (migration 0009) is declared with exactly this text, so the planner can use
 * it; a test compares the two.
 */
export const PUBLIC_SURFACE_EVENT_CONDITION = `(type like 'viewing_room.%' or type in (${PUBLIC_SURFACE_EVENT_TYPES.map(
  (t) => `'${t}'`,
).join(", ")}))`;

/** True when an event of this type changes the public surface. */
export function changesPublicSurface(type: string): boolean {
  return (
    PUBLIC_SURFACE_EVENT_PREFIXES.some((prefix) => type.startsWith(prefix)) ||
    (PUBLIC_SURFACE_EVENT_TYPES as readonly string[]).includes(type)
  );
}

/** The KV key (binding EDGE_KV) of a gallery's current public generation. */
export function generationKey(galleryId: string): string {
  return `generation:${galleryId}`;
}
