/** Shows with their tags and works. */
import * as schema from "../../db/schema";
import { DAY, HOUR, iso } from "./common";
import type { Art, SeedContext } from "./context";

/** Three shows (closed, open, planned), each with facet tags and works of one practice. */
export function seedShows(ctx: SeedContext, arts: Art[]): void {
  const { rng, newId, G, rows } = ctx;
  const showSpecs = [
    [
      "Tidewater: New Paintings by Mara Lindqvist",
      "closed",
      "2025-03-06",
      "2025-04-19",
      [
        ["Seascape", "theme", "sky", "manual"],
        ["Oil painting", "medium", "amber", "manual"],
        ["Nordic light", "region", "slate", "ai_suggested"],
        ["Contemporary", "period", "violet", "manual"],
      ],
    ],
    [
      "Quiet Instruments: Sculpture and Sound",
      "open",
      "2025-11-13",
      "2026-01-24",
      [
        ["Bronze", "medium", "amber", "manual"],
        ["Sound", "theme", "emerald", "ai_suggested"],
        ["Minimalism", "movement", "slate", "ai_suggested"],
        ["Installation", "medium", "rose", "manual"],
        ["Group show", "format", "sky", "manual"],
      ],
    ],
    [
      "The Long Exposure: Photography 1950–1990",
      "planned",
      "2026-03-05",
      "2026-04-25",
      [
        ["Gelatin silver", "medium", "slate", "manual"],
        ["Postwar", "period", "violet", "ai_suggested"],
        ["Street photography", "theme", "amber", "ai_suggested"],
      ],
    ],
  ] as const;
  showSpecs.forEach(([title, status, startsOn, endsOn, tags], i) => {
    const createdMs = Date.UTC(2025, 0, 10) + i * 90 * DAY;
    const showId = newId("show", createdMs);
    rows(schema.shows).push({
      id: showId,
      ...G,
      title,
      description: `${title} at Northlight Gallery, 14 Wharf Street.`,
      startsOn: startsOn,
      endsOn: endsOn,
      status,
      venue: "Northlight Gallery, Main Gallery",
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs + 7 * DAY),
    });
    tags.forEach(([name, facet, color, origin], j) => {
      rows(schema.showTags).push({
        id: newId("stag", createdMs + j),
        ...G,
        showId: showId,
        name,
        color,
        facet,
        origin,
        createdAt: iso(createdMs + j * HOUR),
        updatedAt: iso(createdMs + j * HOUR),
      });
    });
    const wanted = i === 0 ? "painting" : i === 1 ? "sculpture" : "photography";
    const pool = arts.filter((a) => a.artist.practice === wanted);
    rng.sample(pool, rng.int(8, 14)).forEach((art, position) => {
      rows(schema.showArtworks).push({
        ...G,
        showId: showId,
        artworkId: art.id,
        position,
        createdAt: iso(createdMs),
      });
    });
  });
}
