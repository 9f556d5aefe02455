/**
 * What every family of the seed shares: the seeded PRNG, the id minter drawing from it, the tenant and its
 * members, and the typed rows collected so far (written afterwards, parents first; see ./insert).
 */
import type { PgTable } from "drizzle-orm/pg-core";
import * as schema from "../../db/schema";
import type { ArtworkActivityType } from "../../lib/schemas/artwork-timeline";
import { iso } from "./common";
import type { BUDGET_BANDS, CONTACT_TYPES, Practice } from "./material";
import type { Rng } from "./random";
import type { Taste } from "./tastes";

/** A row of `table` as drizzle types an insert into it. */
export type Insert<T extends PgTable> = T["$inferInsert"];

export interface Artist {
  id: string;
  name: string;
  born: number | null;
  died: number | null;
  practice: Practice;
  /** The artist's market: works are priced log-uniformly within it. */
  priceRange: [number, number];
  /** The artwork tag naming the artist's style (most of its works carry it), or null. */
  style: string | null;
}

export interface Art {
  id: string;
  title: string;
  artist: Artist;
  createdMs: number;
  updatedMs: number;
  price: number | null;
  currency: string;
  availability: string;
  published: boolean;
  showPricePublicly: boolean;
  thumbnailUrl: string | null;
  /** The credited artists in order (artwork_artists); an edition with a parent repeats its parent's. */
  credits: Credit[];
  /** When published: the instant of each version, oldest first (artwork_versions 1..n). */
  versionTimes: number[];
  /** The artwork's row; roll-ups (save state, updated_at) are applied to it before it is written. */
  row: Insert<typeof schema.artworks>;
}

export interface Credit {
  artistId: string;
  role: "primary" | "collaborator";
}

export interface Person {
  id: string;
  name: string;
  email: string | null;
  type: keyof typeof CONTACT_TYPES;
  createdMs: number;
  archived: boolean;
  budget: (typeof BUDGET_BANDS)[number] | null;
  /** What a buyer (collector, institution, advisor) likes; everything it does follows it (./tastes). */
  taste: Taste | null;
  interactionIds: string[];
  engagementIds: string[];
  saleIds: string[];
  /**
   * The contact's row; updated_at is rolled up before it is written. Its kept aggregates (spend, works, last
   * interaction, last engagement) are left at their defaults: the database's triggers fill them from the rows.
   */
  row: Insert<typeof schema.contacts>;
}

export interface Sale {
  id: string;
  /** The works sold together, in order (sale_artworks), each at its price in `prices`. */
  arts: Art[];
  prices: number[];
  buyer: Person;
  /** The sum of `prices`, in `currency`. */
  amount: number;
  currency: string;
  /** `amount` in the gallery's default currency. */
  baseAmount: number;
  soldMs: number;
  status: string;
}

export type ActivityEvent = Partial<Insert<typeof schema.artworkActivityEvents>> & {
  /** The closed set of timeline kinds the API serves. */
  eventType: ArtworkActivityType;
  summary: string;
};

export interface SeedContext {
  rng: Rng;
  /** lib/ids ids whose random part is drawn from `rng`. */
  newId: (prefix: string, now: number) => string;
  /** Spread into every row: the tenant column. */
  G: { galleryId: string };
  galleryId: string;
  editorId: string;
  viewerId: string;
  /** The API's origin (its PUBLIC_BASE_URL): stored images are served under it, at /v1/assets/<storage path>. */
  publicBaseUrl: string;
  /** The rows collected for `table`, to push to. */
  rows<T extends PgTable>(table: T): Insert<T>[];
  /** Every table written to so far with its rows, in the order the tables were first used. */
  tables(): [PgTable, readonly unknown[]][];
  /** Appends to an artwork's activity timeline, keeping the work's updated_at at or after the event. */
  activity(art: Art, ms: number, event: ActivityEvent): void;
}

export interface GalleryIds {
  galleryId: string;
  editorId: string;
  viewerId: string;
}

export function createContext(
  rng: Rng,
  newId: SeedContext["newId"],
  { galleryId, editorId, viewerId }: GalleryIds,
  publicBaseUrl: string,
): SeedContext {
  const collected = new Map<PgTable, unknown[]>();
  const rows = <T extends PgTable>(table: T): Insert<T>[] => {
    let list = collected.get(table);
    if (!list) {
      list = [];
      collected.set(table, list);
    }
    return list as Insert<T>[];
  };
  const G = { galleryId };
  return {
    rng,
    newId,
    G,
    galleryId,
    editorId,
    viewerId,
    publicBaseUrl,
    rows,
    tables: () => [...collected],
    activity(art, ms, event) {
      rows(schema.artworkActivityEvents).push({
        id: rng.uuid(),
        ...G,
        artworkId: art.id,
        actorId: editorId,
        contactId: null,
        refId: null,
        refTable: null,
        metadata: {},
        occurredAt: iso(ms),
        createdAt: iso(ms),
        ...event,
      });
      art.updatedMs = Math.max(art.updatedMs, ms);
    },
  };
}

/** Contacts who buy: collectors, institutions and advisors. */
export const isBuyer = (p: Person) =>
  p.type === "collector" || p.type === "institution" || p.type === "advisor";
