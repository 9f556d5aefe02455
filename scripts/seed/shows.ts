/** Shows with their tags and works. */
import * as schema from "../../db/schema";
import { idMinter } from "../../lib/ids";
import type { showStatuses, showTagColors, showTagFacets, showTagOrigins } from "../../lib/schemas/shows";
import { DAY, HOUR, iso } from "./common";
import type { Art, SeedContext } from "./context";
import type { Practice } from "./material";
import { Rng } from "./random";

type TagSpec = readonly [
  name: string,
  facet: (typeof showTagFacets)[number],
  color: (typeof showTagColors)[number],
  origin: (typeof showTagOrigins)[number],
];

/**
 * Shows in every status against the seed's clock (2026-01-01): one closed before it, one open across it, one
 * planned after it, one cancelled and one planned without dates yet (sort=starts puts it last). Each has facet
 * tags, manual and ai_suggested, and works of one practice.
 */
export function seedShows(ctx: SeedContext, arts: Art[]): void {
  seedFirstShows(ctx, arts);
  seedLaterShows(ctx, arts);
}

/** Three shows (closed, open, planned), each with facet tags and works of one practice. */
function seedFirstShows(ctx: SeedContext, arts: Art[]): void {
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
  ] as const satisfies readonly (readonly [
    string,
    (typeof showStatuses)[number],
    string,
    string,
    readonly TagSpec[],
  ])[];
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

/** The later shows' own stream ("shw2"), apart from the demo's PRNG. */
const LATER_SHOWS_SEED = 0x73687732;

interface LaterShow {
  title: string;
  status: (typeof showStatuses)[number];
  startsOn: string | null;
  endsOn: string | null;
  practice: Practice;
  createdMs: number;
  updatedMs: number;
  tags: readonly TagSpec[];
}

const LATER_SHOWS: readonly LaterShow[] = [
  {
    title: "Works on Paper: A Winter Salon",
    status: "cancelled",
    startsOn: "2026-02-05",
    endsOn: "2026-03-14",
    practice: "paper",
    createdMs: Date.UTC(2025, 9, 1),
    updatedMs: Date.UTC(2025, 11, 12),
    tags: [
      ["Works on paper", "medium", "teal", "manual"],
      ["Drawing", "technique", "gray", "ai_suggested"],
      ["Group show", "format", "sky", "manual"],
    ],
  },
  {
    title: "Mara Lindqvist: New Work",
    status: "planned",
    startsOn: null,
    endsOn: null,
    practice: "painting",
    createdMs: Date.UTC(2025, 11, 10),
    updatedMs: Date.UTC(2025, 11, 10),
    tags: [
      ["Solo show", "format", "indigo", "manual"],
      ["Seascape", "theme", "sky", "ai_suggested"],
      ["Abstraction", "style", "fuchsia", "ai_suggested"],
    ],
  },
];

/**
 * A cancelled show and an undated planned one. Their ids and works come from a stream of their own, so adding
 * them left every other generated value as it was.
 */
function seedLaterShows(ctx: SeedContext, arts: Art[]): void {
  const { G, rows } = ctx;
  const stream = new Rng(LATER_SHOWS_SEED);
  const newId = idMinter(() => stream.next());
  for (const spec of LATER_SHOWS) {
    const showId = newId("show", spec.createdMs);
    rows(schema.shows).push({
      id: showId,
      ...G,
      title: spec.title,
      description: `${spec.title} at Northlight Gallery, 14 Wharf Street.`,
      startsOn: spec.startsOn,
      endsOn: spec.endsOn,
      status: spec.status,
      venue: "Northlight Gallery, Project Room",
      createdAt: iso(spec.createdMs),
      updatedAt: iso(spec.updatedMs),
    });
    spec.tags.forEach(([name, facet, color, origin], j) => {
      rows(schema.showTags).push({
        id: newId("stag", spec.createdMs + j),
        ...G,
        showId,
        name,
        color,
        facet,
        origin,
        createdAt: iso(spec.createdMs + j * HOUR),
        updatedAt: iso(spec.createdMs + j * HOUR),
      });
    });
    const pool = arts.filter((a) => a.artist.practice === spec.practice);
    stream.sample(pool, stream.int(5, 9)).forEach((art, position) => {
      rows(schema.showArtworks).push({
        ...G,
        showId,
        artworkId: art.id,
        position,
        createdAt: iso(spec.createdMs),
      });
    });
  }
}
