/** Publications (with pricing and plates) and the viewing rooms built on them. */
import * as schema from "../../db/schema";
import { DAY, iso, slugify } from "./common";
import type { Art, SeedContext } from "./context";

/** Publications and viewing rooms with their works. Returns the room ids. */
export function seedPublications(ctx: SeedContext, publishedArts: Art[]): string[] {
  const { rng, newId, G, rows, galleryId } = ctx;
  const publicationSpecs = [
    ["Tidewater — Exhibition Catalogue", "catalogue", true, "public", 4_500, "public"],
    ["In the Studio with Theo Adeyemi", "article", true, "public", null, null],
    ["The Long Exposure — Collector Preview", "catalogue", false, "private", 12_000, "members"],
  ] as const;
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
        coverImagePath: isPublished ? `galleries/${galleryId}/publications/${id}/cover.jpg` : null,
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
          currency: "USD",
          priceVisibility: priceVisibility,
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

  const roomSpecs = [
    ["Winter Viewing Room 2025", "public", publicationIds[0]!, Date.UTC(2025, 11, 1), Date.UTC(2026, 1, 28)],
    [
      "Collector Preview: The Long Exposure",
      "unlisted",
      publicationIds[2]!,
      Date.UTC(2026, 0, 15),
      Date.UTC(2026, 3, 25),
    ],
    ["Private Selection: Secondary Market", "private", null, null, null],
  ] as const;
  const rooms = roomSpecs.map(([title, visibility, publicationId, opens, closes], i) => {
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
    const pool = publishedArts.filter((a) => a.availability === "available" || a.availability === "on_hold");
    rng.sample(pool, rng.int(6, 12)).forEach((art, position) => {
      rows(schema.viewingRoomArtworks).push({
        ...G,
        viewingRoomId: id,
        artworkId: art.id,
        position,
        showPrice: art.showPricePublicly,
        createdAt: iso(createdMs),
      });
    });
    return id;
  });
  return rooms;
}
