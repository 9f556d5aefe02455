/**
 * Collectors' tastes: what a buyer of the demo gallery likes, drawn once per buyer, and everything the buyer does
 * afterwards (purchases, inquiries, viewing-room visits, fair visits, the profile and notes a member writes)
 * follows it with noise. A taste is favourite artists and the circle around them (artists of the same practice
 * and generation), one or two practices, a price band, and a pattern over time (steady, new, lapsed, occasional).
 * Advisors buy for two clients, so their taste is two tastes; institutions collect a period and pay more.
 *
 * Nothing here knows the engine: the demo's matches and segment verdicts are whatever the engine reads into
 * these histories (design §8: no hand-made judgments).
 */
import { BASE, DAY, FX_TO_DEFAULT } from "./common";
import type { Art, Artist } from "./context";
import type { Practice } from "./material";
import type { Rng } from "./random";

/** How a buyer's purchases spread over time. */
export type Pattern = "steady" | "new" | "lapsed" | "occasional";

export interface Taste {
  /** One to three artists the buyer follows. */
  favourites: Artist[];
  /** Artists of the favourites' practice and generation: bought now and then. */
  circle: Set<string>;
  practices: Practice[];
  /** A style the buyer follows across artists (an artwork tag, as the artists' styles are), or null. */
  style: string | null;
  /** Living artists (contemporary), artists no longer living (modern and post-war), or both. */
  era: "contemporary" | "modern" | "both";
  /** The price band the buyer spends in, in cents of the default currency (inclusive bounds). */
  band: [number, number];
  pattern: Pattern;
  /** When the buyer buys: purchases fall within [from, to]. */
  window: [number, number];
  /** How many works a year the buyer buys, relative to the others. */
  appetite: number;
  /** An advisor's clients, each with a taste of its own (the advisor's taste is their union). */
  clients: Taste[];
}

/** The bands a collector profile records, in cents. */
export const BAND_BOUNDS: Readonly<Record<string, [number, number]>> = {
  under_5k: [0, 499_999],
  "5k_25k": [500_000, 2_499_999],
  "25k_100k": [2_500_000, 9_999_999],
  over_100k: [10_000_000, Number.MAX_SAFE_INTEGER],
};

/** The band name of an amount in cents. */
export function bandOf(cents: number): string {
  for (const [band, [lo, hi]] of Object.entries(BAND_BOUNDS)) if (cents >= lo && cents <= hi) return band;
  return "over_100k";
}

/** Practices a buyer of the first often buys too. */
const NEIGHBOUR_PRACTICES: Readonly<Record<Practice, Practice[]>> = {
  painting: ["paper"],
  paper: ["print", "painting"],
  print: ["paper", "photography"],
  photography: ["print"],
  sculpture: ["mixed"],
  mixed: ["sculpture", "painting"],
  antiquity: ["sculpture"],
};

/** Words a gallery uses for a practice in a profile. */
export const PRACTICE_WORDS: Readonly<Record<Practice, string>> = {
  painting: "painting",
  paper: "works on paper",
  print: "prints and editions",
  photography: "photography",
  sculpture: "sculpture",
  mixed: "mixed media",
  antiquity: "antiquities",
};

const isModern = (a: Artist) => a.died !== null;
const generation = (a: Artist) => a.born ?? 0;

/** The price of a work in cents of the default currency, or null when it has none. */
export const priceInDefault = (art: Art): number | null =>
  art.price === null ? null : Math.round(art.price * (FX_TO_DEFAULT[art.currency] ?? 1));

const SINCE_LAPSED = Date.UTC(2024, 0, 1);

/** A taste for a buyer of `type`, created at `createdMs`, among the gallery's artists. */
export function drawTaste(rng: Rng, artists: Artist[], type: string, createdMs: number): Taste {
  if (type === "advisor") {
    const clients = [
      drawTaste(rng, artists, "collector", createdMs),
      drawTaste(rng, artists, "collector", createdMs),
    ];
    const [a, b] = clients as [Taste, Taste];
    return {
      favourites: [...a.favourites, ...b.favourites],
      circle: new Set([...a.circle, ...b.circle]),
      practices: [...new Set([...a.practices, ...b.practices])],
      style: null,
      era: a.era === b.era ? a.era : "both",
      band: [Math.min(a.band[0], b.band[0]), Math.max(a.band[1], b.band[1])],
      pattern: "steady",
      window: [createdMs, BASE - DAY],
      appetite: 1.6,
      clients,
    };
  }
  const institution = type === "institution";
  const practice = rng.weighted<Practice>(
    institution
      ? { painting: 30, paper: 20, photography: 15, sculpture: 20, mixed: 10, print: 3, antiquity: 2 }
      : { painting: 34, paper: 14, print: 12, photography: 16, sculpture: 12, mixed: 10, antiquity: 2 },
  );
  const practices: Practice[] = [practice];
  if (rng.chance(0.35)) practices.push(rng.pick(NEIGHBOUR_PRACTICES[practice]));
  const era = institution
    ? rng.weighted({ modern: 45, contemporary: 35, both: 20 } as const)
    : rng.weighted({ contemporary: 70, modern: 18, both: 12 } as const);
  const fitsEra = (a: Artist) =>
    a.practice === "antiquity" || era === "both" || (era === "modern") === isModern(a);
  let pool = artists.filter((a) => a.practice === practice && fitsEra(a));
  if (pool.length === 0) pool = artists.filter((a) => a.practice === practice);
  const favourites = rng.sample(
    pool,
    rng.weighted({ "1": 35, "2": 45, "3": 20 } as const) === "1" ? 1 : rng.int(2, 3),
  );
  // The circle: the favourites' practices and generation (born within 25 years of one of them).
  const circle = new Set(
    artists
      .filter(
        (a) =>
          !favourites.includes(a) &&
          practices.includes(a.practice) &&
          fitsEra(a) &&
          favourites.some((f) => Math.abs(generation(f) - generation(a)) <= 25),
      )
      .map((a) => a.id),
  );
  // The band: where the favourites' markets sit, one band up or down now and then.
  const mid = Math.exp(
    favourites.reduce((s, f) => s + (Math.log(f.priceRange[0]) + Math.log(f.priceRange[1])) / 2, 0) /
      favourites.length,
  );
  const bands = Object.keys(BAND_BOUNDS);
  let bandIndex = bands.indexOf(bandOf(mid));
  if (rng.chance(0.2))
    bandIndex = Math.max(0, Math.min(bands.length - 1, bandIndex + (rng.chance(0.5) ? 1 : -1)));
  if (institution) bandIndex = Math.max(bandIndex, 2);
  const bandName = bands[bandIndex]!;
  const [lo, hi] = BAND_BOUNDS[bandName]!;
  // A lapsed buyer bought before 2024 and nothing since; a new one only in the last year.
  const pattern: Pattern = institution
    ? "occasional"
    : createdMs < SINCE_LAPSED - 365 * DAY && rng.chance(0.45)
      ? "lapsed"
      : createdMs > BASE - 400 * DAY
        ? "new"
        : rng.weighted({ steady: 75, occasional: 25 } as const);
  const window: [number, number] =
    pattern === "lapsed" ? [createdMs, SINCE_LAPSED - 30 * DAY] : [createdMs, BASE - DAY];
  // A lapsed buyer was a keen one while it bought.
  const appetite = pattern === "occasional" ? 0.5 : pattern === "lapsed" ? 2.5 : pattern === "new" ? 1.2 : 1;
  // A band's upper bound widened for a buyer who stretches for a favourite.
  // One buyer in four follows a style beyond its artists: its first favourite's.
  const style = favourites[0]!.style !== null && rng.chance(0.25) ? favourites[0]!.style : null;
  return {
    favourites,
    circle,
    practices,
    style,
    era,
    band: [lo, Math.min(hi * 1.3, Number.MAX_SAFE_INTEGER)],
    pattern,
    window,
    appetite,
    clients: [],
  };
}

/**
 * How much a work appeals to a taste, from nearly nothing to about 10: a favourite artist far ahead, then the
 * circle, then the practice; the price band scales it (a work far above the band is out of reach).
 */
export function appeal(taste: Taste, art: Art): number {
  if (taste.clients.length > 0) return Math.max(...taste.clients.map((c) => appeal(c, art)));
  const artist = art.artist;
  let score = taste.favourites.some((f) => f.id === artist.id)
    ? 10
    : taste.circle.has(artist.id) || (taste.style !== null && artist.style === taste.style)
      ? 2.5
      : taste.practices.includes(artist.practice)
        ? 0.8
        : 0.06;
  const price = priceInDefault(art);
  if (price !== null) {
    const [lo, hi] = taste.band;
    if (price > hi) score *= price > hi * 2.5 ? 0.02 : 0.25;
    else if (price < lo) score *= price < lo / 4 ? 0.3 : 0.7;
  }
  return score;
}

/** A work drawn by appeal (weighted), or null when none appeals at all. */
export function pickByTaste(rng: Rng, taste: Taste, arts: readonly Art[]): Art | null {
  const weights = arts.map((a) => appeal(taste, a));
  const total = weights.reduce((s, w) => s + w, 0);
  if (total <= 0) return null;
  let r = rng.next() * total;
  for (let i = 0; i < arts.length; i++) {
    r -= weights[i]!;
    if (r < 0) return arts[i]!;
  }
  return arts[arts.length - 1] ?? null;
}

/** How a member names a style in a profile. */
export const STYLE_WORDS: Readonly<Record<string, string[]>> = {
  "Color field": ["Colour-field painting", "Color field abstraction"],
  Minimalism: ["Minimal art", "Minimalism"],
  Abstraction: ["Abstract art", "Abstraction"],
  Figurative: ["Figurative work", "Figuration"],
};

/** The words of a taste's era and practice (or its style), as a member writes a collecting focus. */
export function focusOf(rng: Rng, taste: Taste): string {
  if (taste.style !== null && STYLE_WORDS[taste.style]) return rng.pick(STYLE_WORDS[taste.style]!);
  const practice = PRACTICE_WORDS[taste.practices[0]!];
  const era =
    taste.era === "contemporary"
      ? rng.pick(["Contemporary", "Emerging and mid-career", "Contemporary"])
      : taste.era === "modern"
        ? rng.pick(["Post-war", "Modern and post-war", "Twentieth-century"])
        : "";
  const second = taste.practices[1] ? ` and ${PRACTICE_WORDS[taste.practices[1]]}` : "";
  const text = `${era} ${practice}${second}`.trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}
