/** Publications (with pricing and plates) and the viewing rooms built on them. */
import * as schema from "../../db/schema";
import { idMinter } from "../../lib/ids";
import type {
  priceVisibilities,
  publicationKinds,
  publicationVisibilities,
} from "../../lib/schemas/publications";
import { assetUrl, storagePath } from "../../lib/uploads";
import { DAY, DEFAULT_CURRENCY, iso, slugify } from "./common";
import type { Art, SeedContext } from "./context";
import { Rng } from "./random";

type PublicationSpec = readonly [
  title: string,
  kind: (typeof publicationKinds)[number],
  published: boolean,
  visibility: (typeof publicationVisibilities)[number],
  priceCents: number | null,
  priceVisibility: (typeof priceVisibilities)[number] | null,
];

/** The covers' file ids come from a stream of their own ("covr"), apart from the demo's PRNG. */
const COVER_SEED = 0x636f7672;

/**
 * A published publication's cover as the API stores one: a storage path of the cover-upload shape
 * (`galleries/<gallery>/publications/<publication>/cov_….jpg`) and the URL the asset route serves it at. The
 * picture itself is drawn and stored with the works' images (./images).
 */
function cover(ctx: SeedContext, publicationId: string, fileId: string) {
  const path = storagePath(ctx.galleryId, "publications", publicationId, fileId, "image/jpeg");
  return { coverImagePath: path, coverImageUrl: assetUrl({ PUBLIC_BASE_URL: ctx.publicBaseUrl }, path) };
}

/**
 * Publications and viewing rooms with their works. Returns the room ids. Publications come in several kinds and
 * every visibility; a published one has published_at (and a cover), an unpublished one neither; some carry a
 * price in publication_pricing, one for each price_visibility (public, members, private). Slugs are the titles'.
 */
/** A viewing room with the works it shows, and when visitors could first open it. */
export interface Room {
  id: string;
  title: string;
  arts: Art[];
  opensMs: number;
  /** When it closed to visitors, or null while open. */
  closesMs: number | null;
}

export function seedPublications(ctx: SeedContext, publishedArts: Art[]): Room[] {
  const { rng, newId, G, rows } = ctx;
  const coverStream = new Rng(COVER_SEED);
  const coverId = idMinter(() => coverStream.next());
  const publicationSpecs: readonly PublicationSpec[] = [
    ["Tidewater — Exhibition Catalogue", "catalogue", true, "public", 4_500, "public"],
    ["In the Studio with Theo Adeyemi", "article", true, "public", null, null],
    ["The Long Exposure — Collector Preview", "catalogue", false, "private", 12_000, "members"],
  ];
  const publicationIds = publicationSpecs.map(
    ([title, kind, isPublished, visibility, price, priceVisibility], i) => {
      const createdMs = Date.UTC(2025, 2, 1) + i * 120 * DAY;
      const id = newId("pub", createdMs);
      rows(schema.publications).push({
        id,
        ...G,
        title,
        slug: slugify(title),
        kind,
        body: `${title}. Texts by the gallery, with plates of the works.`,
        ...(isPublished
          ? cover(ctx, id, coverId("cov", createdMs))
          : { coverImagePath: null, coverImageUrl: null }),
        published: isPublished,
        publishedAt: isPublished ? iso(createdMs + 5 * DAY) : null,
        visibility,
        createdAt: iso(createdMs),
        updatedAt: iso(createdMs + 5 * DAY),
      });
      if (price !== null) {
        rows(schema.publicationPricing).push({
          publicationId: id,
          ...G,
          priceCents: price,
          currency: DEFAULT_CURRENCY,
          priceVisibility: priceVisibility ?? "private",
          createdAt: iso(createdMs),
          updatedAt: iso(createdMs),
        });
      }
      rng.sample(publishedArts, rng.int(4, 10)).forEach((art, position) => {
        rows(schema.publicationArtworks).push({
          ...G,
          publicationId: id,
          artworkId: art.id,
          position,
          createdAt: iso(createdMs),
        });
      });
      return id;
    },
  );

  // Open and close times are read against the real clock (the public surface serves rooms open now): the public
  // and unlisted rooms stay open whenever the demo runs, and the closed one closed before the seed's clock.
  const roomSpecs = [
    ["Winter Viewing Room 2025", "public", publicationIds[0]!, Date.UTC(2025, 11, 1), null],
    ["Collector Preview: The Long Exposure", "unlisted", publicationIds[2]!, Date.UTC(2025, 11, 15), null],
    ["Private Selection: Secondary Market", "private", null, null, null],
  ] as const;
  // A room shows works a visitor can see: each has a picture.
  const roomPool = publishedArts.filter(
    (a) => (a.availability === "available" || a.availability === "on_hold") && a.thumbnailUrl !== null,
  );
  const rooms = roomSpecs.map(([title, visibility, publicationId, opens, closes], i): Room => {
    const createdMs = Date.UTC(2025, 10, 1) + i * 9 * DAY;
    const id = newId("room", createdMs);
    rows(schema.viewingRooms).push({
      id,
      ...G,
      title,
      slug: slugify(title),
      description: `${title}: a selection of works available from Northlight Gallery.`,
      visibility,
      publicationId: publicationId,
      opensAt: opens === null ? null : iso(opens),
      closesAt: closes === null ? null : iso(closes),
      publishedAt: visibility === "private" ? null : iso(createdMs + DAY),
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs + DAY),
    });
    const arts = rng.sample(roomPool, rng.int(6, 12));
    arts.forEach((art, position) => {
      rows(schema.viewingRoomArtworks).push({
        ...G,
        viewingRoomId: id,
        artworkId: art.id,
        position,
        // The room shows every price it may: a public-priced work shows its price, the others read "Price on
        // request" (the public read shows a price only where both say so).
        showPrice: true,
        createdAt: iso(createdMs),
      });
    });
    return { id, title, arts, opensMs: opens ?? createdMs + DAY, closesMs: closes };
  });
  rooms.push(seedClosedRoom(ctx, roomPool));
  seedLaterPublications(ctx, publishedArts);
  return rooms;
}

/** The later publications' own stream ("publ"), apart from the demo's PRNG. */
const LATER_PUBLICATIONS_SEED = 0x7075626c;

/**
 * Three more publications (a monograph with a private price, a press release, an unpublished newsletter). Their
 * ids and works come from a stream of their own, so adding them left every other generated value as it was.
 */
function seedLaterPublications(ctx: SeedContext, publishedArts: Art[]): void {
  const { G, rows } = ctx;
  const stream = new Rng(LATER_PUBLICATIONS_SEED);
  const newId = idMinter(() => stream.next());
  const specs: readonly (readonly [...PublicationSpec, createdMs: number])[] = [
    [
      "Mara Lindqvist: Paintings 2015–2025",
      "monograph",
      true,
      "unlisted",
      6_500,
      "private",
      Date.UTC(2025, 8, 15),
    ],
    [
      "Quiet Instruments Opens 13 November",
      "press_release",
      true,
      "public",
      null,
      null,
      Date.UTC(2025, 10, 3),
    ],
    [
      "Northlight Newsletter — Winter 2025",
      "newsletter",
      false,
      "private",
      null,
      null,
      Date.UTC(2025, 11, 18),
    ],
  ];
  for (const [title, kind, isPublished, visibility, price, priceVisibility, createdMs] of specs) {
    const id = newId("pub", createdMs);
    const publishedMs = createdMs + 2 * DAY;
    rows(schema.publications).push({
      id,
      ...G,
      title,
      slug: slugify(title),
      kind,
      body: `${title}. Texts by the gallery, with plates of the works.`,
      ...(isPublished
        ? cover(ctx, id, newId("cov", publishedMs))
        : { coverImagePath: null, coverImageUrl: null }),
      published: isPublished,
      publishedAt: isPublished ? iso(publishedMs) : null,
      visibility,
      createdAt: iso(createdMs),
      updatedAt: iso(isPublished ? publishedMs : createdMs),
    });
    if (price !== null) {
      rows(schema.publicationPricing).push({
        publicationId: id,
        ...G,
        priceCents: price,
        currency: DEFAULT_CURRENCY,
        priceVisibility: priceVisibility ?? "private",
        createdAt: iso(createdMs),
        updatedAt: iso(createdMs),
      });
    }
    const pool =
      kind === "monograph" ? publishedArts.filter((a) => a.artist.name === "Mara Lindqvist") : publishedArts;
    stream.sample(pool, stream.int(3, 8)).forEach((art, position) => {
      rows(schema.publicationArtworks).push({
        ...G,
        publicationId: id,
        artworkId: art.id,
        position,
        createdAt: iso(createdMs),
      });
    });
  }
}

/** The closed room's own id stream ("clsd"), apart from the demo's PRNG. */
const CLOSED_ROOM_SEED = 0x636c7364;

/**
 * A public room that has closed (autumn 2025): never served to visitors. Its id comes from a stream of its own
 * and its works are the pool's first six, so adding it left every other generated value as it was.
 */
function seedClosedRoom(ctx: SeedContext, pool: Art[]): Room {
  const { G, rows } = ctx;
  const title = "Autumn Viewing Room 2025";
  const createdMs = Date.UTC(2025, 7, 20);
  const stream = new Rng(CLOSED_ROOM_SEED);
  const id = idMinter(() => stream.next())("room", createdMs);
  rows(schema.viewingRooms).push({
    id,
    ...G,
    title,
    slug: slugify(title),
    description: `${title}: a selection of works available from Northlight Gallery.`,
    visibility: "public",
    publicationId: null,
    opensAt: iso(Date.UTC(2025, 8, 1)),
    closesAt: iso(Date.UTC(2025, 10, 15)),
    publishedAt: iso(createdMs + DAY),
    createdAt: iso(createdMs),
    updatedAt: iso(createdMs + DAY),
  });
  pool.slice(0, 6).forEach((art, position) => {
    rows(schema.viewingRoomArtworks).push({
      ...G,
      viewingRoomId: id,
      artworkId: art.id,
      position,
      showPrice: true,
      createdAt: iso(createdMs),
    });
  });
  return {
    id,
    title,
    arts: pool.slice(0, 6),
    opensMs: Date.UTC(2025, 8, 1),
    closesMs: Date.UTC(2025, 10, 15),
  };
}
