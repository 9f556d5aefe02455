/**
 * Seeds the demo gallery "Northlight Gallery" (slug `demo`): 400 artworks, 300 contacts and everything around
 * them, so every endpoint has something to show. Deterministic: all content comes from a seeded PRNG and a
 * fixed clock (2026-01-01T00:00:00Z); only credentials (keys, password salts) are truly random. Idempotent:
 * if the demo gallery exists nothing is written and null is returned. One transaction, one set-based INSERT
 * per table.
 *
 * Run directly: `DATABASE_URL=postgres://… tsx scripts/seed.ts` (the database must be migrated).
 */
import { pbkdf2Sync, randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { allScopes, PUBLISHABLE_SCOPES, readScopes } from "../lib/scopes";
import { insertApiKey, type LocalKeys } from "./local-keys";

export type SeedResult = LocalKeys;

export const DEMO_SLUG = "demo";
export const DEMO_EDITOR = { email: "editor@northlight.example", password: "northlight-editor" } as const;
export const DEMO_VIEWER = { email: "viewer@northlight.example", password: "northlight-viewer" } as const;

const BASE = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SPAN_START = Date.UTC(2024, 0, 1);
const IMAGE_HOST = "https://images.northlight.example";
const MATCH_MODEL = "northlight-match-2025-11";

const ARTWORK_COUNT = 400;
const CONTACT_COUNT = 300;
const MATCH_COUNT = 500;

type Row = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------------------
// Deterministic randomness

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

/** mulberry32: small, fast, and the same sequence on every machine. */
class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [key, w] of entries) {
      r -= w;
      if (r < 0) return key;
    }
    return entries[entries.length - 1]![0];
  }

  /** `k` distinct items in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = [...items];
    const n = Math.min(k, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, n);
  }

  /** A whole-second instant in [start, end]. */
  between(start: number, end: number): number {
    return Math.floor((start + this.next() * Math.max(0, end - start)) / 1000) * 1000;
  }

  /** Same format as lib/ids newId: `${prefix}_` + 10 Crockford chars of ms + 16 random chars. */
  id(prefix: string, ms: number): string {
    let time = "";
    let t = ms;
    for (let i = 0; i < 10; i++) {
      time = CROCKFORD[t % 32] + time;
      t = Math.floor(t / 32);
    }
    let tail = "";
    for (let i = 0; i < 16; i++) tail += CROCKFORD[Math.floor(this.next() * 32)];
    return `${prefix}_${time}${tail}`;
  }

  uuid(): string {
    const bytes = Array.from({ length: 16 }, () => Math.floor(this.next() * 256));
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const h = bytes.map((b) => b.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
const isoDate = (ms: number) => iso(ms).slice(0, 10);
const slugify = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
const ascii = (s: string) => slugify(s).replaceAll("-", "");
const round1 = (n: number) => Math.round(n * 10) / 10;

/** Log-uniform price in cents, rounded the way dealers price: $100 steps, then $500, then $1,000. */
function priceCents(rng: Rng, min: number, max: number): number {
  const raw = Math.exp(Math.log(min) + rng.next() * (Math.log(max) - Math.log(min)));
  const step = raw < 1_000_000 ? 10_000 : raw < 10_000_000 ? 50_000 : 100_000;
  return Math.max(Math.ceil(min / 10_000) * 10_000, Math.round(raw / step) * step);
}

function hashPassword(password: string): string {
  const iterations = 100_000;
  const salt = randomBytes(16);
  const hash = pbkdf2Sync(password, salt, iterations, 32, "sha256");
  return `pbkdf2$sha256$${iterations}$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

// ---------------------------------------------------------------------------------------------------------
// Source material

/** A word list written as comma-separated text (kept compact; the formatter would put one item per line). */
function list(text: string): readonly string[] {
  return text
    .split(/,|\n/)
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

type Practice = "painting" | "sculpture" | "photography" | "print" | "paper" | "mixed" | "antiquity";

const ARTISTS: readonly [
  name: string,
  born: number | null,
  died: number | null,
  nationality: string | null,
  practice: Practice,
][] = [
  ["Mara Lindqvist", 1978, null, "Swedish", "painting"],
  ["Theo Adeyemi", 1985, null, "British-Nigerian", "painting"],
  ["Ines Carvalho", 1969, null, "Portuguese", "paper"],
  ["Jonah Whitcombe", 1952, null, "American", "painting"],
  ["Aiko Tanabe", 1974, null, "Japanese", "sculpture"],
  ["Rafael Ostrowski", 1961, null, "Polish", "print"],
  ["Celeste Duval", 1938, 2011, "French", "painting"],
  ["Samuel Achterberg", 1929, 2003, "Dutch", "paper"],
  ["Priya Raman", 1988, null, "Indian", "mixed"],
  ["Oskar Hale", 1947, null, "American", "sculpture"],
  ["Lucia Ferrante", 1983, null, "Italian", "photography"],
  ["Dmitri Volkonsky", 1925, 1998, "Russian", "painting"],
  ["Harriet Quill", 1956, null, "British", "print"],
  ["Kwame Asante-Boateng", 1979, null, "Ghanaian", "mixed"],
  ["Elsbeth Morrow", 1934, 2019, "American", "painting"],
  ["Yusuf Demir", 1990, null, "Turkish", "photography"],
  ["Camille Fournier-Blanc", 1972, null, "French", "paper"],
  ["Ngaio Parata", 1981, null, "New Zealander", "sculpture"],
  ["Wen Liqing", 1966, null, "Chinese", "painting"],
  ["August Brenner", 1918, 1987, "German", "print"],
  ["Sofía Márquez Ruiz", 1993, null, "Mexican", "painting"],
  ["Henrik Solberg", 1958, null, "Norwegian", "photography"],
  ["Delphine Okoro", 1986, null, "Nigerian", "mixed"],
  ["Callum Reid", 1975, null, "Scottish", "painting"],
  ["Beatriz Almeida", 1963, null, "Brazilian", "sculpture"],
  ["Tomasz Wierzbicki", 1944, 2016, "Polish", "paper"],
  ["Ruth Abernathy", 1931, 2008, "American", "photography"],
  ["Kenji Morimoto", 1949, null, "Japanese", "photography"],
  ["Esther Van Leeuwen", 1970, null, "Belgian", "painting"],
  ["Marcus Bell", 1995, null, "American", "print"],
  ["Anouk Declercq", 1984, null, "Belgian", "paper"],
  ["Ilya Petrenko", 1976, null, "Ukrainian", "painting"],
  ["Grace Holloway", 1960, null, "Canadian", "mixed"],
  ["Matteo Bianchi-Rossi", 1987, null, "Italian", "sculpture"],
  ["Farah Nazari", 1982, null, "Iranian", "painting"],
  ["Leopold Wendt", 1902, 1971, "Austrian", "paper"],
  ["Olivia Strand", 1991, null, "Danish", "photography"],
  ["Joaquín Ibarra", 1954, null, "Argentine", "print"],
  ["Anonymous, Roman", null, null, null, "antiquity"],
  ["Anonymous, Attic workshop", null, null, null, "antiquity"],
];

/** Price bounds in cents per practice; every price lies within 50_000..25_000_000. */
const PRICE_RANGES: Readonly<Record<Practice, [number, number]>> = {
  painting: [400_000, 25_000_000],
  sculpture: [300_000, 18_000_000],
  photography: [50_000, 2_500_000],
  print: [50_000, 1_200_000],
  paper: [100_000, 4_000_000],
  mixed: [250_000, 8_000_000],
  antiquity: [1_500_000, 20_000_000],
};

const MEDIA: Readonly<Record<Practice, readonly string[]>> = {
  painting: [
    "Oil on canvas",
    "Acrylic on canvas",
    "Oil on linen",
    "Oil on panel",
    "Acrylic and graphite on canvas",
  ],
  sculpture: ["Bronze", "Marble", "Painted steel", "Glazed stoneware", "Cast aluminum"],
  photography: [
    "Gelatin silver print",
    "Chromogenic print",
    "Archival pigment print",
    "Platinum-palladium print",
  ],
  print: ["Screenprint", "Lithograph", "Etching with aquatint", "Woodcut"],
  paper: ["Watercolor on paper", "Gouache on paper", "Charcoal on paper", "Ink on paper", "Pastel on paper"],
  mixed: ["Mixed media on panel", "Collage on paper", "Textile and thread", "Oil and wax on canvas"],
  antiquity: ["Terracotta", "Marble", "Bronze", "Black-figure ceramic"],
};

const TITLE_NOUNS = list(`
  Harbour, Meridian, Threshold, Orchard, Tidewater, Lantern, Quarry, Nocturne, Salt Flats, Aperture,
  Canopy, Ember, Cartography, Ridge, Vessel, Reverie, Monsoon, Fieldwork, Undertow, Garden, Window,
  Stairwell, Figure, Landscape, Still Life, Coastline, Archive, Interior, Bather, Estuary, Lighthouse,
  Procession
`);
const TITLE_ADJECTIVES = list(`
  Blue, Quiet, Northern, Late, Silver, Burnt, Folded, Open, Distant, Small, Red, Vanishing, Second, Soft,
  Hollow, Golden, Winter, Lowland
`);
const MONTHS = ["January", "March", "May", "June", "August", "October", "November"];
const ANTIQUITY_TITLES = list(`
  Head of a Youth, Kylix with Dancing Figures, Fragment of a Funerary Relief, Oil Lamp with Dolphin,
  Torso of Aphrodite, Amphora with Chariot Scene, Portrait Head of a Woman, Votive Figure of a Horse
`);

const CONDITION_NOTES: Readonly<Record<string, readonly string[]>> = {
  clean: [
    "Examined under raking light and UV; no restoration visible.",
    "Original stretcher; surface clean and stable.",
    "Minor handling marks to the frame only.",
    "Sheet hinged at top edge with Japanese tissue; no foxing.",
  ],
  damage: [
    "Retouching visible under UV along the lower left edge.",
    "Small tear repaired and relined in 1994; inpainting approx. 2 cm.",
    "Foxing across the lower margin and light staining at the corners.",
    "Hairline craquelure in the upper quadrant with minor paint loss.",
    "Patina rubbed at high points; one toe restored.",
    "Water damage to the verso; sheet trimmed at right margin.",
  ],
};

const DESCRIPTIONS = [
  "A layered, luminous surface built up over many months, with the horizon held just below the midpoint.",
  "Part of a series made during a residency on the coast; the palette shifts with the tide tables.",
  "The artist's characteristic economy of line, with passages of scraped-back colour.",
  "Exhibited in the artist's first institutional survey; one of the key works of the period.",
  "A study in weight and balance, cast from a hand-carved original.",
  "Printed by the artist in the studio on heavyweight cotton rag paper.",
  "An intimate work that rewards close looking, with traces of underdrawing visible at the edges.",
  "Made in response to the architecture of the artist's childhood home.",
];

const PROVENANCES = [
  "The artist; Private collection, New York (acquired from the above); thence by descent.",
  "Galerie Rive Gauche, Paris; Private collection, Geneva; acquired from the above by the present owner.",
  "Estate of the artist; Private collection, London.",
  "Acquired directly from the artist by the present owner in 1989.",
];

const ARTWORK_TAGS = list(`
  Abstraction, Figurative, Landscape, Portraiture, Still life, Minimalism, Large scale, Works on paper,
  Photography, Sculpture, Editions, Blue-chip, Emerging, Estate, Nordic, West African, Japanese,
  Latin American, Textile, Architecture, Nocturne, Color field, Monochrome, Art Basel Miami Beach 2025,
  Frieze London 2025
`);
const CONTACT_TAGS = list(`
  VIP, Museum board, Photography collector, Prints buyer, Newsletter, Met at fair, Referral,
  Young collector, Estate planning, Press list
`);

const FIRST_NAMES = list(`
  Amelia, Benedict, Clara, Dariusz, Eleanor, Felix, Greta, Hugo, Isabel, Jasper, Katarina, Laurent, Mei,
  Nikolai, Olamide, Penelope, Quentin, Rosalind, Sebastian, Tamsin, Umberto, Vivienne, Wendell, Ximena,
  Yara, Zoltan, Adaeze, Bjorn, Cordelia, Desmond, Esme, Farid, Georgina, Hamish, Ingrid, Julian, Kiran,
  Lorenzo, Marguerite, Nadia, Orson, Phoebe, Rupert, Saoirse, Tobias, Valentina, Wilhelmina, Arjun,
  Beatrix, Cosimo
`);
const LAST_NAMES = list(`
  Ashworth, Blackwood, Castellanos, Delacroix-Hume, Eriksen, Fairbanks, Goldschmidt, Hargreaves,
  Ishikawa, Jovanovic, Kowalczyk, Lindgren, Montague, Nakamura, Okonkwo, Pemberton, Quintero, Rosenthal,
  Sandoval, Thistlewood, Underhill, Vasquez, Whitfield, Yamamoto, Zielinski, Abernethy, Beaumont,
  Carrington, Drummond, Esterhazy, Fitzgerald, Grünewald, Holbrook, Iverson, Kaplan, Larkspur,
  Merriweather, Novak, Osei, Prescott, Rahimi, Sterling, Takahashi, Van der Berg, Wolcott
`);
const PLACES = list(`
  Harborview, Ashgrove, Lakeshore, Redwater, Kingsbridge, Northfield, Brightwater, Stonehaven, Fairmont,
  Elm Point, Westmere, Caldera
`);
const INSTITUTION_PATTERNS = [
  (p: string) => `${p} Museum of Art`,
  (p: string) => `${p} Museum of Contemporary Art`,
  (p: string) => `${p} University Art Collection`,
  (p: string) => `${p} Kunsthalle`,
  (p: string) => `The ${p} Foundation`,
];
const INSTITUTION_KINDS = ["museum", "museum", "university", "kunsthalle", "foundation"] as const;
const ADVISORIES = ["Vantage Art Advisory", "Meridian Fine Art Partners", "Halcyon Advisory", "Larch & Co."];
const PRESS = [
  "Artline Weekly",
  "The Canvas Review",
  "Northern Arts Quarterly",
  "Frame & Field",
  "The Studio Journal",
];
const TRADES = ["Bowery Frames", "Atlas Fine Art Logistics", "Kline Conservation", "Pellucid Photography"];
const COMPANIES = [
  "Hartwell Capital",
  "Orrin & Maddox LLP",
  "Sable Ventures",
  "Quayside Holdings",
  "Lumen Biotech",
];

const CONTACT_TYPES = {
  collector: 45,
  institution: 10,
  consignor: 8,
  lender: 5,
  advisor: 10,
  press: 7,
  other: 15,
} as const;
const LEAD_STATUSES = { new: 18, active: 30, engaged: 22, dormant: 20, closed: 10 } as const;
const ENGAGEMENT_KINDS = [
  "session_started",
  "room_opened",
  "artwork_viewed",
  "document_viewed",
  "email_opened",
  "link_clicked",
  "inquiry_submitted",
  "unsubscribed",
  "favorite_added",
  "favorite_removed",
  "waitlist_joined",
  "waitlist_notified",
  "checkout_started",
  "purchase_completed",
  "drop_entered",
  "drop_allocated",
  "drop_claimed",
] as const;
const ENGAGEMENT_WEIGHTS: Readonly<Record<(typeof ENGAGEMENT_KINDS)[number], number>> = {
  session_started: 14,
  room_opened: 12,
  artwork_viewed: 20,
  document_viewed: 6,
  email_opened: 16,
  link_clicked: 8,
  inquiry_submitted: 4,
  unsubscribed: 1,
  favorite_added: 5,
  favorite_removed: 1,
  waitlist_joined: 2,
  waitlist_notified: 1,
  checkout_started: 2,
  purchase_completed: 1,
  drop_entered: 2,
  drop_allocated: 1,
  drop_claimed: 1,
};
const BUDGET_BANDS = ["under_5k", "5k_25k", "25k_100k", "over_100k"] as const;
const AUCTION_HOUSES = [
  "Harrow & Vale, London",
  "Lindqvist Auktioner, Stockholm",
  "Meridian Fine Art Auctions, New York",
  "Maison Ferrand, Paris",
  "Carraway's, Hong Kong",
];

// ---------------------------------------------------------------------------------------------------------
// The generator

interface Artist {
  id: string;
  name: string;
  born: number | null;
  died: number | null;
  practice: Practice;
  /** The artist's market: works are priced log-uniformly within it. */
  priceRange: [number, number];
}

interface Art {
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
  row: Row;
}

interface Person {
  id: string;
  name: string;
  email: string | null;
  type: keyof typeof CONTACT_TYPES;
  createdMs: number;
  archived: boolean;
  budget: (typeof BUDGET_BANDS)[number] | null;
  interactionIds: string[];
  engagementIds: string[];
  saleIds: string[];
  row: Row;
}

/** Rows per table, filled by the generator; INSERT_ORDER decides the order they are written in. */
type Tables = Map<string, Row[]>;

/** What every part of the generator shares: the PRNG, the tenant, its members and the rows collected so far. */
interface World {
  rng: Rng;
  G: { gallery_id: string };
  galleryId: string;
  editorId: string;
  viewerId: string;
  table(name: string): Row[];
  /** Appends to an artwork's activity timeline, keeping the work's updated_at at or after the event. */
  activity(art: Art, ms: number, event: Partial<Row> & { event_type: string; summary: string }): void;
}

interface Sale {
  id: string;
  art: Art;
  buyer: Person;
  amount: number;
  currency: string;
  soldMs: number;
  status: string;
}

interface ReferenceData {
  artists: Artist[];
  locations: string[];
  customStatuses: string[];
  artworkTags: string[];
  contactTags: string[];
}

const isBuyer = (p: Person) => p.type === "collector" || p.type === "institution" || p.type === "advisor";

/** Artists, locations, custom statuses and tags. */
function referenceData(w: World): ReferenceData {
  const { rng, G, table } = w;
  const artists: Artist[] = ARTISTS.map(([name, born, died, nationality, practice], i) => {
    const createdMs = SPAN_START - DAY * (60 - i);
    const id = rng.id("artist", createdMs);
    table("artists").push({
      id,
      ...G,
      name,
      birth_year: born,
      death_year: died,
      nationality,
      bio:
        practice === "antiquity"
          ? "Works attributed to unnamed makers, catalogued by period and workshop."
          : `${nationality} artist${born ? `, born ${born}` : ""}, working primarily in ${practice === "paper" ? "works on paper" : practice}.`,
      created_at: iso(createdMs),
      updated_at: iso(createdMs),
    });
    // Each artist sits somewhere in their medium's market; estates of older artists sit higher.
    const [lo, hi] = PRICE_RANGES[practice];
    const stature = Math.min(1, rng.next() * 0.8 + (died !== null ? 0.3 : 0));
    const span = Math.log(hi) - Math.log(lo);
    const priceRange: [number, number] = [
      Math.exp(Math.log(lo) + stature * 0.5 * span),
      Math.exp(Math.log(lo) + (0.5 + stature * 0.5) * span),
    ];
    return { id, name, born, died, practice, priceRange };
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
    const id = rng.id("loc", createdMs);
    table("locations").push({
      id,
      ...G,
      name,
      kind,
      address,
      created_at: iso(createdMs),
      updated_at: iso(createdMs),
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
    const id = rng.id("cst", createdMs);
    table("custom_statuses").push({
      id,
      ...G,
      name,
      color,
      position,
      created_at: iso(createdMs),
      updated_at: iso(createdMs),
    });
    return id;
  });

  const tagRow = (name: string, scope: string, i: number) => {
    const createdMs = SPAN_START - DAY * 5 + i * HOUR;
    const id = rng.id("tag", createdMs);
    table("tags").push({ id, ...G, name, scope, created_at: iso(createdMs), updated_at: iso(createdMs) });
    return id;
  };
  const artworkTags = ARTWORK_TAGS.map((name, i) => tagRow(name, "artwork", i));
  const contactTags = CONTACT_TAGS.map((name, i) => tagRow(name, "contact", i + ARTWORK_TAGS.length));
  return { artists, locations, customStatuses, artworkTags, contactTags };
}

/** The 400 works with their artists, dimensions, images, tags, formats, auction records and versions. */
function artworks(w: World, ref: ReferenceData): Art[] {
  const { rng, G, table, galleryId, editorId } = w;
  const { artists, locations, customStatuses, artworkTags } = ref;
  // The last location is the museum loan.
  const loanLocation = locations[locations.length - 1]!;
  const livingArtists = artists.filter((a) => a.practice !== "antiquity");
  const antiquityArtists = artists.filter((a) => a.practice === "antiquity");
  const createdTimes = Array.from({ length: ARTWORK_COUNT }, () => rng.between(SPAN_START, BASE - DAY)).sort(
    (a, b) => a - b,
  );
  const arts: Art[] = [];
  const usedTitles = new Set<string>();
  const seqByYear = new Map<number, number>();

  for (const createdMs of createdTimes) {
    const isAntiquity = rng.chance(0.02);
    const artist = isAntiquity ? rng.pick(antiquityArtists) : rng.pick(livingArtists);
    const practice = artist.practice;
    const id = rng.id("art", createdMs);
    const medium = rng.pick(MEDIA[practice]);

    let title: string;
    do {
      if (isAntiquity)
        title = `${rng.pick(ANTIQUITY_TITLES)}${usedTitles.size % 3 === 0 ? "" : ` (${rng.int(2, 9)})`}`;
      else {
        const noun = rng.pick(TITLE_NOUNS);
        const adj = rng.pick(TITLE_ADJECTIVES);
        title = rng.pick([
          `${adj} ${noun}`,
          `${noun} No. ${rng.int(1, 24)}`,
          `Untitled (${noun})`,
          `Study for ${noun}`,
          `${noun}, ${rng.pick(MONTHS)}`,
          `${noun} in ${adj} Light`,
          practice === "photography" ? `Untitled #${rng.int(1, 120)}` : `${adj} ${noun} II`,
        ]);
      }
    } while (usedTitles.has(`${artist.id}:${title}`));
    usedTitles.add(`${artist.id}:${title}`);

    // Date
    let year: number | null;
    let endYear: number | null = null;
    let precision = "year";
    let dateDisplay: string | null;
    if (isAntiquity) {
      year = -rng.int(50, 520);
      precision = "circa";
      dateDisplay = `c. ${-year} BCE`;
    } else if (rng.chance(0.05)) {
      year = null;
      dateDisplay = "Undated";
    } else {
      const from = (artist.born ?? 1900) + 22;
      const to = Math.min(artist.died ?? 2025, 2025);
      year = rng.int(Math.min(from, to), to);
      dateDisplay = String(year);
      if (rng.chance(0.07) && year < to) {
        endYear = Math.min(to, year + rng.int(1, 3));
        dateDisplay = `${year}–${endYear}`;
      } else if (rng.chance(0.08)) {
        precision = "circa";
        dateDisplay = `c. ${year}`;
      }
    }

    // Dimensions
    const unit = rng.chance(0.55) ? "cm" : "in";
    let height: number | null = null;
    let width: number | null = null;
    let depth: number | null = null;
    if (!rng.chance(0.08)) {
      const [hMin, hMax] =
        practice === "painting" || practice === "mixed"
          ? [30, 240]
          : practice === "sculpture" || practice === "antiquity"
            ? [12, 180]
            : [18, 110];
      height = round1(hMin + rng.next() * (hMax - hMin));
      width = round1(height * (0.55 + rng.next() * 0.9));
      if (practice === "sculpture" || practice === "antiquity")
        depth = round1(width * (0.3 + rng.next() * 0.7));
      else if (practice === "painting" || practice === "mixed") depth = round1(2 + rng.next() * 3);
    }
    const framed = height !== null && width !== null && practice !== "sculpture" && practice !== "antiquity";
    const framedPad = framed && rng.chance(0.5) ? round1(6 + rng.next() * 10) : null;
    const fmt = (cm: number) => (unit === "cm" ? String(cm) : String(round1(cm / 2.54)));
    const dimensionsText =
      height === null || width === null
        ? null
        : `${fmt(height)} × ${fmt(width)}${depth !== null ? ` × ${fmt(depth)}` : ""} ${unit}`;

    // Market, ownership, availability, price
    const market =
      isAntiquity || (artist.died !== null && rng.chance(0.7)) || rng.chance(0.2) ? "secondary" : "primary";
    const availability = rng.weighted({
      available: 45,
      on_hold: 8,
      reserved: 7,
      sold: 25,
      not_for_sale: 8,
      on_loan: 7,
    });
    const ownership =
      market === "primary"
        ? rng.weighted({ consigned: 45, owned: 20, co_owned: 5, artist_property: 30 })
        : rng.weighted({ owned: 55, consigned: 30, co_owned: 15 });
    const price = rng.chance(0.15) ? null : priceCents(rng, ...artist.priceRange);
    const currency = rng.weighted({ USD: 80, EUR: 12, GBP: 8 });

    // Condition
    const condition = rng.chance(0.25)
      ? null
      : rng.weighted({ excellent: 30, very_good: 30, good: 22, fair: 12, poor: 6 });
    const damaged = condition === "fair" || condition === "poor" || (condition === "good" && rng.chance(0.3));
    const conditionNotes =
      condition !== null && (damaged || rng.chance(0.3))
        ? rng.pick(damaged ? CONDITION_NOTES.damage! : CONDITION_NOTES.clean!)
        : null;

    // Editions
    const editionable =
      practice === "print" ? 1 : practice === "photography" ? 0.85 : practice === "sculpture" ? 0.2 : 0;
    const isEdition = rng.chance(editionable);
    let editionType: string | null = null;
    let editionNumber: number | null = null;
    let editionSize: number | null = null;
    let editionOverrides: string[] = [];
    if (isEdition) {
      editionType = rng.weighted({ numbered: 70, artist_proof: 20, open: 10 });
      if (editionType !== "open") {
        editionSize = rng.pick([5, 8, 10, 12, 15, 20, 25, 30, 50, 75, 100]);
        editionNumber = editionType === "artist_proof" ? rng.int(1, 2) : rng.int(1, editionSize);
      }
      if (rng.chance(0.15))
        editionOverrides = rng.chance(0.5) ? ["price_cents"] : ["price_cents", "condition_status"];
    }

    // Publishing
    const published = rng.chance(0.6);
    const publishedMs = published ? Math.min(BASE - HOUR, createdMs + rng.int(1, 20) * DAY) : null;
    const publishedVersion = published ? rng.weighted({ "1": 60, "2": 25, "3": 10, "4": 5 }) : null;

    // Images
    const imageCount = rng.chance(0.7) ? rng.int(1, 4) : 0;
    const thumbnailUrl = imageCount > 0 ? `${IMAGE_HOST}/${id}/1.jpg` : null;
    const description = rng.chance(0.6) ? rng.pick(DESCRIPTIONS) : null;

    // Judgments (null = not judged yet)
    const readiness = rng.chance(0.3)
      ? null
      : imageCount > 0 && description !== null && price !== null
        ? "ready"
        : imageCount > 0 || description !== null
          ? "thin"
          : "empty";
    const disclosure = rng.chance(0.3) ? null : conditionNotes !== null && damaged;
    const judged = readiness !== null || disclosure !== null;

    const year2 = new Date(createdMs).getUTCFullYear();
    const seq = (seqByYear.get(year2) ?? 0) + 1;
    seqByYear.set(year2, seq);
    const coa = rng.weighted({ not_required: 55, issued: 30, pending: 15 });
    const sourced = rng.chance(0.1);

    const metadata: Record<string, string> = {};
    if (rng.chance(0.4)) metadata.shelf = `${rng.pick(["A", "B", "C", "D"])}${rng.int(1, 12)}`;
    if (rng.chance(0.3)) metadata.insurance_band = rng.pick(["tier_1", "tier_2", "tier_3"]);
    if (rng.chance(0.15)) metadata.photographer = rng.pick(["studio", "Pellucid Photography"]);

    const row: Row = {
      id,
      ...G,
      title,
      artist_id: artist.id,
      artist_name: artist.name,
      inventory_number: `NL-${year2}-${String(seq).padStart(4, "0")}`,
      ownership_status: ownership,
      availability_state: availability,
      medium,
      year,
      end_year: endYear,
      date_precision: precision,
      date_display: dateDisplay,
      description,
      dimension_unit: unit,
      height_cm: height,
      width_cm: width,
      depth_cm: depth,
      framed_height_cm: framedPad !== null && height !== null ? round1(height + framedPad) : null,
      framed_width_cm: framedPad !== null && width !== null ? round1(width + framedPad) : null,
      framed_depth_cm: framedPad !== null ? round1(4 + rng.next() * 3) : null,
      dimensions_text: dimensionsText,
      location_id:
        availability === "on_loan" ? loanLocation : rng.chance(0.92) ? rng.pick(locations.slice(0, 5)) : null,
      price_cents: price,
      currency,
      is_edition: isEdition,
      edition_number: editionNumber,
      edition_size: editionSize,
      edition_type: editionType,
      edition_overrides: editionOverrides,
      parent_artwork_id: null,
      coa_status: coa,
      coa_tracking_number: coa === "issued" ? `NL-COA-${String(arts.length + 1001).padStart(5, "0")}` : null,
      condition_status: condition,
      condition_notes: conditionNotes,
      provenance: market === "secondary" ? rng.pick(PROVENANCES) : null,
      exhibition_history: rng.chance(0.25)
        ? `${rng.pick(PLACES)} Museum of Art, group exhibition, ${(year ?? 2000) + 1}.`
        : null,
      literature:
        market === "secondary" && rng.chance(0.4) ? `${rng.pick(PRESS)}, ${(year ?? 1990) + 2}, ill.` : null,
      catalogue_raisonne:
        artist.died !== null && rng.chance(0.5) ? `CR ${String(rng.int(1, 900)).padStart(3, "0")}` : null,
      market,
      custom_status_id: rng.chance(0.15) ? rng.pick(customStatuses) : null,
      show_price_publicly: price !== null && rng.chance(0.4),
      published_at: publishedMs === null ? null : iso(publishedMs),
      published_version: publishedVersion === null ? null : Number(publishedVersion),
      save_state: published ? "published" : "new",
      source_system: sourced ? "artlogic" : null,
      source_external_id: sourced ? `AL-${10_000 + arts.length}` : null,
      metadata,
      readiness,
      disclosure_required: disclosure,
      judged_at: judged ? iso(rng.between(createdMs, BASE - HOUR)) : null,
      image_count: imageCount,
      thumbnail_url: thumbnailUrl,
      created_at: iso(createdMs),
      updated_at: iso(createdMs),
    };
    const art: Art = {
      id,
      title,
      artist,
      createdMs,
      updatedMs: Math.max(createdMs, publishedMs ?? 0),
      price,
      currency,
      availability,
      published,
      showPricePublicly: row.show_price_publicly as boolean,
      thumbnailUrl,
      row,
    };
    arts.push(art);
    if (rng.chance(0.4)) art.updatedMs = rng.between(art.updatedMs, BASE - HOUR);

    // Children of the artwork
    table("artwork_artists").push({
      ...G,
      artwork_id: id,
      artist_id: artist.id,
      role: "primary",
      position: 0,
    });
    if (!isAntiquity && rng.chance(0.08)) {
      const other = rng.pick(livingArtists.filter((a) => a.id !== artist.id));
      table("artwork_artists").push({
        ...G,
        artwork_id: id,
        artist_id: other.id,
        role: "collaborator",
        position: 1,
      });
    }

    if (height !== null && width !== null && rng.chance(0.35)) {
      table("artwork_dimensions").push({
        id: rng.id("dim", createdMs),
        ...G,
        artwork_id: id,
        component: "overall",
        label: "Overall",
        height_cm: height,
        width_cm: width,
        depth_cm: depth,
        position: 0,
        note: null,
      });
      if (framedPad !== null) {
        table("artwork_dimensions").push({
          id: rng.id("dim", createdMs),
          ...G,
          artwork_id: id,
          component: "framed",
          label: "Framed",
          height_cm: round1(height + framedPad),
          width_cm: round1(width + framedPad),
          depth_cm: round1(4 + rng.next() * 3),
          position: 1,
          note: rng.chance(0.5) ? "Artist's frame" : null,
        });
      } else if (practice === "sculpture") {
        table("artwork_dimensions").push({
          id: rng.id("dim", createdMs),
          ...G,
          artwork_id: id,
          component: "base",
          label: "Plinth",
          height_cm: round1(80 + rng.next() * 30),
          width_cm: round1(width + 10),
          depth_cm: round1((depth ?? width) + 10),
          position: 1,
          note: "Plinth supplied by the gallery",
        });
      }
    }

    for (let p = 0; p < imageCount; p++) {
      const pxW = 2400;
      const pxH = height !== null && width !== null ? Math.round((pxW * height) / width) : 1800;
      table("artwork_images").push({
        id: rng.id("img", createdMs + p),
        ...G,
        artwork_id: id,
        storage_path: `galleries/${galleryId}/artworks/${id}/${p + 1}.jpg`,
        url: `${IMAGE_HOST}/${id}/${p + 1}.jpg`,
        caption: p === 0 ? null : rng.pick(["Detail", "Verso", "Installation view", "Side view"]),
        width: pxW,
        height: pxH,
        position: p,
        created_at: iso(createdMs),
      });
    }

    for (const tagId of rng.sample(
      artworkTags,
      Number(rng.weighted({ "0": 20, "1": 35, "2": 30, "3": 15 })),
    )) {
      table("artwork_tags").push({ ...G, artwork_id: id, tag_id: tagId, created_at: iso(createdMs) });
    }

    if (isEdition && (practice === "print" || practice === "photography") && rng.chance(0.85)) {
      const sizes = [
        ["Small", 30, 40],
        ["Medium", 50, 70],
        ["Large", 80, 110],
      ] as const;
      const count = rng.int(1, 3);
      const base = price ?? priceCents(rng, 50_000, 800_000);
      for (let p = 0; p < count; p++) {
        const [label, h, w] = sizes[p]!;
        const stock = rng.int(0, 12);
        table("artwork_formats").push({
          id: rng.id("fmt", createdMs + p),
          ...G,
          artwork_id: id,
          label: `${label} — ${h} × ${w} cm`,
          height_cm: h,
          width_cm: w,
          depth_cm: null,
          dimension_unit: unit,
          medium: practice === "photography" ? `${medium} on baryta paper` : `${medium} on Somerset Satin`,
          edition_size: rng.pick([10, 15, 25, 50]),
          stock_quantity: stock,
          availability_state: stock === 0 ? "sold" : "available",
          price_cents: Math.round((base * (1 + p * 0.6)) / 10_000) * 10_000,
          currency,
          position: p,
          metadata: {
            paper: practice === "photography" ? "baryta" : "cotton rag",
            framing: p === 2 ? "framed" : "unframed",
          },
          created_at: iso(createdMs),
          updated_at: iso(createdMs),
        });
      }
    }

    if (market === "secondary" && rng.chance(0.5)) {
      const count = rng.int(1, 3);
      for (let r = 0; r < count; r++) {
        const saleMs = rng.between(Date.UTC(1995, 0, 1), createdMs);
        const result = rng.weighted({ sold: 75, bought_in: 20, withdrawn: 5 });
        table("auction_records").push({
          id: rng.id("auc", createdMs + r),
          ...G,
          artwork_id: id,
          auction_house: rng.pick(AUCTION_HOUSES),
          lot_number: String(rng.int(1, 480)),
          notes: result === "sold" && rng.chance(0.3) ? "Sold above the high estimate." : null,
          sale_date: isoDate(saleMs),
          hammer_price_cents: result === "withdrawn" ? null : priceCents(rng, ...artist.priceRange),
          currency: rng.weighted({ USD: 60, GBP: 25, EUR: 15 }),
          result,
          created_at: iso(createdMs),
          updated_at: iso(createdMs),
        });
      }
    }

    if (published && publishedVersion !== null) {
      const versions = Number(publishedVersion);
      for (let v = 1; v <= versions; v++) {
        const at = v === versions ? publishedMs! : publishedMs! - (versions - v) * 3 * DAY;
        table("artwork_versions").push({
          ...G,
          artwork_id: id,
          version: v,
          snapshot: { id, title, price_cents: price, currency, availability_state: availability, medium },
          published_by: editorId,
          published_at: iso(Math.max(createdMs, at)),
        });
      }
    }
  }
  return arts;
}

/** Pending drafts over a few published works. */
function drafts(w: World, arts: Art[]): void {
  const { rng, G, table, editorId } = w;
  for (const art of rng.sample(
    arts.filter((a) => a.published),
    10,
  )) {
    const patch: Record<string, unknown> = rng.pick([
      {
        title: `${art.title} (revised)`,
        price_cents: art.price === null ? 450_000 : Math.round(art.price * 1.1),
      },
      { description: "Revised catalogue note awaiting review by the director." },
      { availability_state: "on_hold", price_cents: 1_250_000 },
      { title: `${art.title}, second state` },
    ]);
    const editedMs = rng.between(art.updatedMs, BASE - HOUR);
    art.updatedMs = editedMs;
    art.row.save_state = "draft";
    table("artwork_drafts").push({
      artwork_id: art.id,
      ...G,
      patch,
      edited_by: editorId,
      created_at: iso(editedMs),
      updated_at: iso(editedMs),
    });
  }
}

/** The activity timeline: created for every work, plus moves and price changes. */
function timeline(w: World, arts: Art[], locations: string[]): void {
  const { rng } = w;
  for (const art of arts) {
    w.activity(art, art.createdMs, {
      event_type: "created",
      summary: `Added "${art.title}" to the inventory`,
    });
    if (rng.chance(0.15)) {
      const to = rng.pick(locations);
      w.activity(art, rng.between(art.createdMs, BASE - DAY), {
        event_type: "moved",
        summary: "Moved to a new location",
        metadata: { from_location_id: art.row.location_id, to_location_id: to },
      });
    }
    if (art.price !== null && rng.chance(0.2)) {
      const before = Math.round((art.price * 0.85) / 10_000) * 10_000;
      w.activity(art, rng.between(art.createdMs, BASE - DAY), {
        event_type: "price_changed",
        summary: "Price updated",
        metadata: { from_cents: before, to_cents: art.price, currency: art.currency },
      });
    }
  }
}

/** Shows with their tags and works; publications (with pricing) and viewing rooms. Returns the room ids. */
function showsAndRooms(w: World, arts: Art[], publishedArts: Art[]): string[] {
  const { rng, G, table, galleryId } = w;
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
    const showId = rng.id("show", createdMs);
    table("shows").push({
      id: showId,
      ...G,
      title,
      description: `${title} at Northlight Gallery, 14 Wharf Street.`,
      starts_on: startsOn,
      ends_on: endsOn,
      status,
      venue: "Northlight Gallery, Main Gallery",
      created_at: iso(createdMs),
      updated_at: iso(createdMs + 7 * DAY),
    });
    tags.forEach(([name, facet, color, origin], j) => {
      table("show_tags").push({
        id: rng.id("stag", createdMs + j),
        ...G,
        show_id: showId,
        name,
        color,
        facet,
        origin,
        created_at: iso(createdMs + j * HOUR),
        updated_at: iso(createdMs + j * HOUR),
      });
    });
    const wanted = i === 0 ? "painting" : i === 1 ? "sculpture" : "photography";
    const pool = arts.filter((a) => a.artist.practice === wanted);
    rng.sample(pool, rng.int(8, 14)).forEach((art, position) => {
      table("show_artworks").push({
        ...G,
        show_id: showId,
        artwork_id: art.id,
        position,
        created_at: iso(createdMs),
      });
    });
  });

  const publicationSpecs = [
    ["Tidewater — Exhibition Catalogue", "catalogue", true, "public", 4_500, "public"],
    ["In the Studio with Theo Adeyemi", "article", true, "public", null, null],
    ["The Long Exposure — Collector Preview", "catalogue", false, "private", 12_000, "members"],
  ] as const;
  const publications = publicationSpecs.map(
    ([title, kind, isPublished, visibility, price, priceVisibility], i) => {
      const createdMs = Date.UTC(2025, 2, 1) + i * 120 * DAY;
      const id = rng.id("pub", createdMs);
      table("publications").push({
        id,
        ...G,
        title,
        slug: slugify(title),
        kind,
        body: `${title}. Texts by the gallery, with plates of the works.`,
        cover_image_path: isPublished ? `galleries/${galleryId}/publications/${id}/cover.jpg` : null,
        published: isPublished,
        published_at: isPublished ? iso(createdMs + 5 * DAY) : null,
        visibility,
        created_at: iso(createdMs),
        updated_at: iso(createdMs + 5 * DAY),
      });
      if (price !== null) {
        table("publication_pricing").push({
          publication_id: id,
          ...G,
          price_cents: price,
          currency: "USD",
          price_visibility: priceVisibility,
          created_at: iso(createdMs),
          updated_at: iso(createdMs),
        });
      }
      rng.sample(publishedArts, rng.int(4, 10)).forEach((art, position) => {
        table("publication_artworks").push({
          ...G,
          publication_id: id,
          artwork_id: art.id,
          position,
          created_at: iso(createdMs),
        });
      });
      return id;
    },
  );

  const roomSpecs = [
    ["Winter Viewing Room 2025", "public", publications[0]!, Date.UTC(2025, 11, 1), Date.UTC(2026, 1, 28)],
    [
      "Collector Preview: The Long Exposure",
      "unlisted",
      publications[2]!,
      Date.UTC(2026, 0, 15),
      Date.UTC(2026, 3, 25),
    ],
    ["Private Selection: Secondary Market", "private", null, null, null],
  ] as const;
  const rooms = roomSpecs.map(([title, visibility, publicationId, opens, closes], i) => {
    const createdMs = Date.UTC(2025, 10, 1) + i * 9 * DAY;
    const id = rng.id("room", createdMs);
    table("viewing_rooms").push({
      id,
      ...G,
      title,
      slug: slugify(title),
      description: `${title}: a selection of works available from Northlight Gallery.`,
      visibility,
      publication_id: publicationId,
      opens_at: opens === null ? null : iso(opens),
      closes_at: closes === null ? null : iso(closes),
      published_at: visibility === "private" ? null : iso(createdMs + DAY),
      created_at: iso(createdMs),
      updated_at: iso(createdMs + DAY),
    });
    const pool = publishedArts.filter((a) => a.availability === "available" || a.availability === "on_hold");
    rng.sample(pool, rng.int(6, 12)).forEach((art, position) => {
      table("viewing_room_artworks").push({
        ...G,
        viewing_room_id: id,
        artwork_id: art.id,
        position,
        show_price: art.showPricePublicly,
        created_at: iso(createdMs),
      });
    });
    return id;
  });
  return rooms;
}

/** 300 contacts with profiles, assignees and tags. */
function contacts(w: World, contactTags: string[]): Person[] {
  const { rng, G, table, editorId, viewerId } = w;
  const contactTimes = Array.from({ length: CONTACT_COUNT }, () =>
    rng.between(SPAN_START, BASE - 2 * DAY),
  ).sort((a, b) => a - b);
  const memberIds = [editorId, viewerId];
  const usedNames = new Set<string>();
  const personName = () => {
    let name: string;
    do name = `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
    while (usedNames.has(name));
    usedNames.add(name);
    return name;
  };
  const usedInstitutions = new Set<string>();
  const people: Person[] = [];
  const typeOrder = Object.keys(CONTACT_TYPES) as (keyof typeof CONTACT_TYPES)[];
  const statusOrder = Object.keys(LEAD_STATUSES) as (keyof typeof LEAD_STATUSES)[];

  contactTimes.forEach((createdMs, i) => {
    // The first few rows cover every type and status so filters always have something to find.
    const type = i < typeOrder.length ? typeOrder[i]! : rng.weighted(CONTACT_TYPES);
    const leadStatus = i < statusOrder.length ? statusOrder[i]! : rng.weighted(LEAD_STATUSES);
    const id = rng.id("con", createdMs);
    let name: string;
    let company: string | null = null;
    let email: string | null;
    let formOfAddress: string | null = null;
    let instIndex = 0;
    if (type === "institution") {
      let inst: string;
      do {
        instIndex = rng.int(0, INSTITUTION_PATTERNS.length - 1);
        inst = INSTITUTION_PATTERNS[instIndex]!(rng.pick(PLACES));
      } while (usedInstitutions.has(inst));
      usedInstitutions.add(inst);
      name = inst;
      company = inst;
      email = `acquisitions@${ascii(inst.replace(/^The /, ""))}.example`;
    } else {
      name = type === "consignor" && rng.chance(0.3) ? `Estate of ${personName()}` : personName();
      const [first, ...rest] = name.replace(/^Estate of /, "").split(" ");
      company =
        type === "advisor"
          ? rng.pick(ADVISORIES)
          : type === "press"
            ? rng.pick(PRESS)
            : type === "other"
              ? rng.pick(TRADES)
              : type === "collector" && rng.chance(0.2)
                ? rng.pick(COMPANIES)
                : null;
      const domain = company
        ? `${ascii(company)}.example`
        : rng.pick(["example.com", "example.org", "example.net"]);
      email = `${ascii(first!)}.${ascii(rest.join(""))}@${domain}`;
      formOfAddress = rng.chance(0.5) ? rng.pick(["Ms.", "Mr.", "Dr.", "Mx.", "Prof."]) : null;
    }
    if (rng.chance(0.05)) email = null;
    const doNotEmail = email !== null && rng.chance(0.06);
    const archived = i >= 20 && rng.chance(0.05);
    const budget = type === "collector" ? rng.pick(BUDGET_BANDS) : null;

    const customFields: Record<string, unknown> = {};
    if (rng.chance(0.3))
      customFields.source = rng.pick(["Art Basel Miami Beach 2024", "Referral", "Website", "Frieze 2025"]);
    if (rng.chance(0.2)) customFields.preferred_language = rng.pick(["en", "fr", "de", "ja", "es"]);
    if (rng.chance(0.1)) customFields.collection_size = rng.int(5, 400);

    const row: Row = {
      id,
      ...G,
      name,
      company,
      email,
      phone: rng.chance(0.6)
        ? rng.chance(0.7)
          ? `+1 212 555 01${String(rng.int(0, 99)).padStart(2, "0")}`
          : `+44 20 7946 0${String(rng.int(0, 999)).padStart(3, "0")}`
        : null,
      notes: rng.chance(0.25)
        ? rng.pick([
            "Prefers to be contacted in the morning.",
            "Collects across media; strong interest in works on paper.",
            "Introduced by a longtime client at the spring fair.",
            "Building a collection for a new home in the Hudson Valley.",
          ])
        : null,
      form_of_address: formOfAddress,
      contact_type: type,
      last_interaction_at: null,
      last_interaction_type: null,
      lead_status: leadStatus,
      do_not_email: doNotEmail,
      email_consent: doNotEmail ? "revoked" : rng.weighted({ granted: 55, pending: 40, revoked: 5 }),
      archived_at: archived ? iso(rng.between(createdMs, BASE - DAY)) : null,
      save_state: "new",
      custom_fields: customFields,
      metadata: rng.chance(0.3) ? { crm_id: `HS-${100_000 + i}` } : {},
      created_at: iso(createdMs),
      updated_at: iso(createdMs),
    };
    people.push({
      id,
      name,
      email,
      type,
      createdMs,
      archived,
      budget,
      interactionIds: [],
      engagementIds: [],
      saleIds: [],
      row,
    });

    if (type === "collector") {
      table("collector_profiles").push({
        contact_id: id,
        ...G,
        collecting_focus: rng.pick([
          "Postwar European painting",
          "Contemporary photography",
          "Works on paper",
          "Emerging painters",
          "Sculpture and objects",
          "Prints and multiples",
        ]),
        budget_band: budget,
        wishlist_notes: rng.chance(0.5)
          ? `Looking for a major ${rng.pick(TITLE_NOUNS).toLowerCase()} subject.`
          : null,
        preferred_contact_method: rng.pick(["email", "phone", "whatsapp", "in_person"]),
        vip: rng.chance(0.12),
        tax_exempt: rng.chance(0.03),
        created_at: iso(createdMs),
        updated_at: iso(createdMs),
      });
    } else if (type === "institution") {
      table("institution_profiles").push({
        contact_id: id,
        ...G,
        institution_kind: INSTITUTION_KINDS[instIndex],
        acquisition_process: rng.pick([
          "Curatorial proposal, then acquisitions committee (meets quarterly).",
          "Director approval under $50k; board vote above.",
          "Annual acquisitions fund allocated each spring.",
        ]),
        primary_contact_name: personName(),
        tax_exempt: rng.chance(0.85),
        created_at: iso(createdMs),
        updated_at: iso(createdMs),
      });
    }

    const assigneeCount = rng.weighted({ "0": 20, "1": 70, "2": 10 });
    const assignees =
      assigneeCount === "2"
        ? memberIds
        : assigneeCount === "1"
          ? [rng.chance(0.75) ? editorId : viewerId]
          : [];
    assignees.forEach((memberId, position) => {
      table("contact_assignees").push({
        ...G,
        contact_id: id,
        member_id: memberId,
        position,
        created_at: iso(createdMs),
      });
    });
    for (const tagId of rng.sample(contactTags, rng.int(0, 3))) {
      table("contact_tags").push({ ...G, contact_id: id, tag_id: tagId, created_at: iso(createdMs) });
    }
  });
  return people;
}

/** Consignments on the activity timeline. */
function consignments(w: World, arts: Art[], people: Person[]): void {
  const { rng } = w;
  const consignors = people.filter((p) => p.type === "consignor");
  for (const art of arts) {
    if (art.row.ownership_status === "consigned" && rng.chance(0.6)) {
      const consignor = rng.pick(consignors);
      w.activity(art, art.createdMs + HOUR, {
        event_type: "consigned",
        summary: `Consigned by ${consignor.name}`,
        contact_id: consignor.id,
        ref_table: "contacts",
        ref_id: consignor.id,
      });
    }
  }
}

/** Sales of sold (completed), reserved (pending) and a few available (cancelled) works. */
function recordSales(w: World, arts: Art[], buyers: Person[]): Sale[] {
  const { rng, G, table } = w;
  const sales: Sale[] = [];
  const addSale = (art: Art, status: string) => {
    const buyer = rng.pick(buyers);
    const soldMs = rng.between(Math.max(art.createdMs, buyer.createdMs) + DAY, BASE - DAY);
    const amount =
      art.price === null
        ? priceCents(rng, ...art.artist.priceRange)
        : Math.round((art.price * (rng.chance(0.6) ? 1 : 0.9)) / 10_000) * 10_000;
    const id = rng.id("sale", soldMs);
    sales.push({ id, art, buyer, amount, currency: art.currency, soldMs, status });
    buyer.saleIds.push(id);
    table("sales").push({
      id,
      ...G,
      contact_id: buyer.id,
      artwork_id: art.id,
      amount_cents: amount,
      currency: art.currency,
      sold_at: iso(soldMs),
      status,
      metadata: { channel: rng.pick(["gallery", "fair", "online", "viewing_room"]) },
      created_at: iso(soldMs),
      updated_at: iso(soldMs),
    });
    if (status === "completed") {
      w.activity(art, soldMs, {
        event_type: "ownership_changed",
        summary: `Sold to ${buyer.name}`,
        contact_id: buyer.id,
        ref_table: "sales",
        ref_id: id,
        metadata: { amount_cents: amount, currency: art.currency },
      });
    }
  };
  for (const art of arts) {
    if (art.availability === "sold") addSale(art, rng.chance(0.96) ? "completed" : "refunded");
    else if (art.availability === "reserved" && rng.chance(0.5)) addSale(art, "pending");
    else if (art.availability === "available" && rng.chance(0.03)) addSale(art, "cancelled");
  }
  return sales;
}

/** The CRM timeline; keeps each contact's last_interaction_* and updated_at consistent with it. */
function interactions(w: World, arts: Art[], people: Person[]): void {
  const { rng, G, table, editorId, viewerId } = w;
  const interactionTypes = { email: 35, call: 20, meeting: 12, visit: 10, note: 23 } as const;
  const lastInteraction = new Map<string, { ms: number; type: string }>();
  for (const person of people) {
    const n = rng.weighted({ "0": 15, "2": 25, "4": 25, "7": 20, "12": 15 });
    for (let k = 0; k < Number(n); k++) {
      const type = rng.weighted(interactionTypes);
      const ms = rng.between(person.createdMs, BASE - HOUR);
      const art = rng.chance(0.4) ? rng.pick(arts) : null;
      const direction =
        type === "email" || type === "call" ? (rng.chance(0.5) ? "inbound" : "outbound") : null;
      const summary =
        type === "note"
          ? rng.pick([
              "Noted interest in upcoming shows.",
              "Follow up after the holidays.",
              "Asked to be kept informed.",
            ])
          : art !== null
            ? `${direction === "inbound" ? "Asked about" : "Discussed"} "${art.title}" by ${art.artist.name}`
            : rng.pick([
                "Catch-up on the collection",
                "Invitation to the opening",
                "Shipping and installation questions",
                "Discussed the spring programme",
              ]);
      const id = rng.id("int", ms);
      person.interactionIds.push(id);
      table("interactions").push({
        id,
        ...G,
        contact_id: person.id,
        type,
        direction,
        summary,
        occurred_at: iso(ms),
        artwork_id: art?.id ?? null,
        member_id: rng.chance(0.8) ? editorId : viewerId,
        metadata: type === "meeting" ? { location: rng.pick(["gallery", "client home", "fair booth"]) } : {},
        created_at: iso(ms),
        updated_at: iso(ms),
      });
      const prev = lastInteraction.get(person.id);
      if (!prev || prev.ms < ms) lastInteraction.set(person.id, { ms, type });
      if (art !== null && direction === "inbound") {
        w.activity(art, ms, {
          event_type: "interaction",
          summary: `${person.name}: ${summary}`,
          contact_id: person.id,
          ref_table: "interactions",
          ref_id: id,
        });
      }
    }
  }

  // Contact roll-ups
  for (const person of people) {
    const last = lastInteraction.get(person.id);
    if (last) {
      person.row.last_interaction_at = iso(last.ms);
      person.row.last_interaction_type = last.type;
    }
    const archivedMs = person.row.archived_at ? Date.parse(person.row.archived_at as string) : 0;
    person.row.updated_at = iso(Math.max(person.createdMs, last?.ms ?? 0, archivedMs));
  }
}

/** Engagement signals of every kind the contact filters know. */
function engagement(w: World, people: Person[], publishedArts: Art[], rooms: string[]): void {
  const { rng, G, table } = w;
  let forced = 0;
  for (const person of people) {
    const n = rng.int(0, 8);
    for (let k = 0; k < n; k++) {
      const kind =
        forced < ENGAGEMENT_KINDS.length ? ENGAGEMENT_KINDS[forced++]! : rng.weighted(ENGAGEMENT_WEIGHTS);
      const ms = rng.between(Math.max(person.createdMs, Date.UTC(2025, 0, 1)), BASE - HOUR);
      const withArt = [
        "artwork_viewed",
        "favorite_added",
        "favorite_removed",
        "inquiry_submitted",
        "checkout_started",
        "purchase_completed",
        "waitlist_joined",
      ].includes(kind);
      const art = withArt ? rng.pick(publishedArts) : null;
      const room =
        kind === "room_opened" || (kind === "artwork_viewed" && rng.chance(0.5)) ? rooms[0]! : null;
      const id = rng.id("eng", ms);
      person.engagementIds.push(id);
      table("engagement_events").push({
        id,
        ...G,
        contact_id: person.id,
        kind,
        occurred_at: iso(ms),
        artwork_id: art?.id ?? null,
        viewing_room_id: room,
        metadata:
          kind === "email_opened" || kind === "link_clicked"
            ? { campaign: rng.pick(["Winter preview", "Tidewater opening", "New editions"]) }
            : {},
        created_at: iso(ms),
      });
      if (art !== null && (kind === "favorite_added" || kind === "inquiry_submitted")) {
        w.activity(art, ms, {
          event_type: "interest",
          summary:
            kind === "favorite_added" ? `${person.name} saved this work` : `${person.name} sent an inquiry`,
          actor_id: null,
          contact_id: person.id,
          ref_table: "engagement_events",
          ref_id: id,
        });
      }
    }
  }
  if (forced < ENGAGEMENT_KINDS.length) throw new Error("seed: not every engagement kind was generated");
}

/** Editor-only private notes and follow-up tasks. */
function notesAndTasks(w: World, people: Person[]): void {
  const { rng, G, table, editorId, viewerId } = w;
  for (const person of people) {
    if (rng.chance(0.15)) {
      for (let k = rng.int(1, 2); k > 0; k--) {
        const ms = rng.between(person.createdMs, BASE - HOUR);
        table("private_notes").push({
          id: rng.id("note", ms),
          ...G,
          contact_id: person.id,
          author_id: editorId,
          body: rng.pick([
            "Confidential: going through a divorce; avoid mentioning the Hudson Valley house.",
            "Has indicated a ceiling of about $80k this year.",
            "Will consign the Volkonsky if the estimate is right; do not share with other dealers.",
            "Prefers discretion; never list as a lender by name.",
          ]),
          created_at: iso(ms),
          updated_at: iso(ms),
        });
      }
    }
    if (rng.chance(0.25)) {
      for (let k = rng.int(1, 2); k > 0; k--) {
        const createdMs = rng.between(person.createdMs, BASE - DAY);
        const dueMs = BASE + rng.int(-20, 45) * DAY;
        const done = dueMs < BASE && rng.chance(0.6);
        table("tasks").push({
          id: rng.id("task", createdMs),
          ...G,
          contact_id: person.id,
          title: rng.pick([
            `Send ${person.name.split(" ")[0]} the winter viewing room`,
            "Follow up on the quote",
            "Arrange a studio visit",
            "Confirm shipping address",
            "Send condition report",
          ]),
          notes: rng.chance(0.3) ? "Mention the new editions." : null,
          due_at: iso(dueMs),
          completed_at: done ? iso(Math.min(dueMs, BASE - HOUR)) : null,
          assignee_id: rng.chance(0.8) ? editorId : viewerId,
          created_by: editorId,
          created_at: iso(createdMs),
          updated_at: iso(done ? Math.max(createdMs, Math.min(dueMs, BASE - HOUR)) : createdMs),
        });
      }
    }
  }
  for (const [title, days] of [
    ["Renew fine-art insurance policy", 14],
    ["Book art handlers for the March install", 30],
    ["Update price list for the fair", -3],
  ] as const) {
    const createdMs = BASE - 10 * DAY;
    table("tasks").push({
      id: rng.id("task", createdMs),
      ...G,
      contact_id: null,
      title,
      notes: null,
      due_at: iso(BASE + days * DAY),
      completed_at: null,
      assignee_id: editorId,
      created_by: editorId,
      created_at: iso(createdMs),
      updated_at: iso(createdMs),
    });
  }
}

/** Static and dynamic contact lists, and the engine's verdicts for the described segment. Returns list ids. */
function contactLists(w: World, people: Person[]): string[] {
  const { rng, G, table } = w;
  const buyers = people.filter(isBuyer);
  const active = people.filter((p) => !p.archived);
  const collectors = active.filter((p) => p.type === "collector");
  const listSpecs: [
    title: string,
    kind: string,
    description: string,
    members: Person[] | null,
    query: Row | null,
  ][] = [
    [
      "Spring Fair 2026 pipeline",
      "pipeline",
      "Collectors to invite to the booth preview.",
      rng.sample(buyers, 28),
      null,
    ],
    [
      "VIP collectors",
      "segment",
      "Hand-picked; see the director before contacting.",
      rng.sample(collectors, 18),
      null,
    ],
    [
      "Newsletter: Photography",
      "mailing",
      "Monthly photography newsletter.",
      rng.sample(
        active.filter((p) => p.email !== null),
        40,
      ),
      null,
    ],
    [
      "Museum acquisitions",
      "pipeline",
      "Institutions with open acquisition proposals.",
      active.filter((p) => p.type === "institution").slice(0, 14),
      null,
    ],
    [
      "Engaged collectors, $25k+",
      "segment",
      "Engaged collectors who have spent at least $25,000.",
      null,
      {
        type: "collector",
        lead_status: "engaged",
        min_total_spend_cents: 2_500_000,
        described_as: "collectors building a serious contemporary painting collection",
      },
    ],
    [
      "Viewing room visitors this winter",
      "segment",
      "Anyone who opened a viewing room since November.",
      null,
      { engaged_event: "room_opened", engaged_since: "2025-11-01T00:00:00Z" },
    ],
  ];
  const lists = listSpecs.map(([title, kind, description, members, query], i) => {
    const createdMs = Date.UTC(2025, 5, 1) + i * 21 * DAY;
    const id = rng.id("list", createdMs);
    table("contact_lists").push({
      id,
      ...G,
      title,
      description,
      kind,
      is_dynamic: query !== null,
      dynamic_query: query,
      created_at: iso(createdMs),
      updated_at: iso(createdMs + 3 * DAY),
    });
    (members ?? []).forEach((person, position) => {
      table("contact_list_memberships").push({
        ...G,
        list_id: id,
        contact_id: person.id,
        position,
        added_at: iso(Math.max(createdMs, person.createdMs)),
      });
    });
    return id;
  });
  // The engine's verdicts for the described dynamic segment (read by judged_rubric=segment:<list id>).
  const rubricKey = `segment:${lists[4]!}`;
  for (const person of rng.sample(collectors, 100)) {
    const probability = Math.round(rng.next() * 1000) / 1000;
    table("rubric_judgments").push({
      ...G,
      rubric_key: rubricKey,
      contact_id: person.id,
      verdict: probability >= 0.5,
      probability,
      model: MATCH_MODEL,
      reasons: [
        {
          label: `Collecting focus fits (${person.budget ?? "no budget band"})`,
          source_label: "Collector profile",
        },
      ],
      judged_at: iso(BASE - rng.int(1, 20) * DAY),
    });
  }
  return lists;
}

/** The editor's connected channels, threads and messages. */
function inbox(w: World, people: Person[], publishedArts: Art[]): void {
  const { rng, G, table, editorId, viewerId } = w;
  const buyers = people.filter(isBuyer);
  const connections = [
    ["email", "google", DEMO_EDITOR.email],
    ["whatsapp", "twilio", "+12125550100"],
    ["sms", "twilio", "+12125550101"],
  ] as const;
  const connectionIds = connections.map(([channel, provider, address]) => {
    const id = rng.uuid();
    table("inbox_connections").push({
      id,
      ...G,
      member_id: editorId,
      channel,
      provider,
      address,
      status: "active",
      last_synced_at: iso(BASE - 5 * 60_000),
      last_error: null,
      created_at: iso(Date.UTC(2025, 1, 1)),
      updated_at: iso(BASE - 5 * 60_000),
    });
    return { id, channel, address };
  });
  const threadContacts = rng.sample(
    buyers.filter((p) => p.email !== null && !p.archived),
    14,
  );
  threadContacts.forEach((person, i) => {
    const connection = connectionIds[i < 10 ? 0 : i < 12 ? 1 : 2]!;
    const art = rng.pick(publishedArts);
    const subject =
      connection.channel === "email"
        ? rng.pick([
            `Enquiry: "${art.title}" by ${art.artist.name}`,
            `Availability of works by ${art.artist.name}`,
            "Shipping quote for my recent purchase",
            "Loan request for the autumn exhibition",
            "Re: Winter Viewing Room 2025",
            "Visit to the gallery next week",
          ])
        : null;
    const count = rng.int(1, 5);
    let ms = BASE - rng.int(1, 30) * DAY - rng.int(0, 23) * HOUR;
    const createdMs = ms;
    const threadId = rng.id("thr", ms);
    let unread = 0;
    let last: { from: string; snippet: string; ms: number } | null = null;
    for (let m = 0; m < count; m++) {
      const inbound = m % 2 === 0 || rng.chance(0.3);
      const body = inbound
        ? rng.pick([
            `Could you send me more details on "${art.title}"? Is it still available?`,
            "Thank you, that all sounds good. What would shipping to London cost?",
            "Could we find a time to see the work in person?",
            "Is there any flexibility on the price?",
          ])
        : rng.pick([
            "Thank you for your note. I have attached the condition report and a few installation views.",
            "Yes, the work is available. I can hold it for you until Friday.",
            "Happy to arrange a private viewing; would Tuesday afternoon suit?",
          ]);
      const read = !inbound || m < count - 2 || rng.chance(0.4);
      if (inbound && !read) unread++;
      const fromName = inbound ? person.name : "Elena Marsh";
      const fromAddress =
        connection.channel === "email" ? (inbound ? person.email : DEMO_EDITOR.email) : connection.address;
      table("inbox_messages").push({
        id: rng.id("msg", ms),
        ...G,
        thread_id: threadId,
        direction: inbound ? "inbound" : "outbound",
        from_address: fromAddress,
        from_name: fromName,
        to_addresses: [
          inbound
            ? connection.channel === "email"
              ? DEMO_EDITOR.email
              : connection.address
            : (person.email ?? ""),
        ],
        body,
        snippet: body.slice(0, 120),
        sent_at: iso(ms),
        read_at: inbound && read ? iso(ms + HOUR) : null,
        provider_message_id: `${connection.channel}-${i}-${m}`,
        created_at: iso(ms),
      });
      last = { from: fromName, snippet: body.slice(0, 120), ms };
      ms += rng.int(1, 30) * HOUR;
    }
    const state = rng.weighted({ open: 60, snoozed: 15, done: 25 });
    const triaged = rng.chance(0.8);
    table("inbox_threads").push({
      id: threadId,
      ...G,
      member_id: editorId,
      connection_id: connection.id,
      channel: connection.channel,
      provider_thread_id: `${connection.channel}-thread-${i + 1}`,
      contact_id: person.id,
      contact_name: person.name,
      subject,
      last_from: last!.from,
      last_snippet: last!.snippet,
      last_message_at: iso(last!.ms),
      assigned_to: rng.chance(0.7) ? editorId : viewerId,
      state,
      snooze_until: state === "snoozed" ? iso(BASE + rng.int(1, 7) * DAY) : null,
      unread_count: unread,
      triage_intent: triaged
        ? rng.pick(["purchase_inquiry", "pricing_question", "logistics", "loan_request", "scheduling"])
        : null,
      triage_intent_probability: triaged ? Math.round((0.55 + rng.next() * 0.44) * 100) / 100 : null,
      triage_urgency: triaged ? rng.pick(["now", "today", "this_week", "later", "none"]) : null,
      triage_urgency_probability: triaged ? Math.round((0.5 + rng.next() * 0.49) * 100) / 100 : null,
      triage_expects_reply: triaged ? Math.round(rng.next() * 100) / 100 : null,
      triage_escalating: triaged ? Math.round(rng.next() * 0.6 * 100) / 100 : null,
      triage_corrected_intent: triaged && rng.chance(0.15) ? "pricing_question" : null,
      triaged_at: triaged ? iso(last!.ms + 60_000) : null,
      created_at: iso(createdMs),
      updated_at: iso(last!.ms + 60_000),
    });
  });
}

/** Ten invoices over recent completed sales. */
function invoices(w: World, allSales: Sale[]): void {
  const { rng, G, table } = w;
  const templateMs = Date.UTC(2024, 0, 5);
  const templateId = rng.id("tmpl", templateMs);
  table("invoice_templates").push({
    id: templateId,
    ...G,
    name: "Standard",
    header: "Northlight Gallery · 14 Wharf Street · New York, NY 10013",
    footer: "Thank you for supporting our artists.",
    terms: "Payment due within 30 days. Title passes on receipt of payment in full.",
    is_default: true,
    created_at: iso(templateMs),
    updated_at: iso(templateMs),
  });
  const fx: Record<string, number> = { USD: 1, EUR: 1.08, GBP: 1.27 };
  const invoiceStatuses = [
    "paid",
    "paid",
    "paid",
    "paid",
    "unpaid",
    "unpaid",
    "partially_paid",
    "overdue",
    "draft",
    "void",
  ];
  const completed = allSales.filter((s) => s.status === "completed").sort((a, b) => b.soldMs - a.soldMs);
  // The newest eight sales plus the newest in each foreign currency, so the FX fields vary.
  const invoiced = completed.slice(0, 8);
  for (const currency of ["EUR", "GBP"]) {
    const sale = completed.find((s) => s.currency === currency && !invoiced.includes(s));
    if (sale) invoiced.push(sale);
  }
  invoiced.sort((a, b) => a.soldMs - b.soldMs);
  invoiced.forEach((sale, i) => {
    const status = invoiceStatuses[i]!;
    const issuedMs = sale.soldMs + DAY;
    const subtotal = sale.amount;
    const discountBps = rng.pick([0, 0, 500, 1000]);
    const discount = Math.round((subtotal * discountBps) / 10_000);
    const domestic = sale.currency === "USD";
    const taxExempt = sale.buyer.type === "institution";
    const tax = domestic && !taxExempt ? Math.round((subtotal - discount) * 0.08875) : 0;
    const shipping = rng.pick([0, 45_000, 120_000, 250_000]);
    const shippingTax = domestic && !taxExempt ? Math.round(shipping * 0.08875) : 0;
    const total = subtotal - discount + tax + shipping + shippingTax;
    const paid = status === "paid" ? total : status === "partially_paid" ? Math.round(total / 2) : 0;
    const rate = fx[sale.currency] ?? 1;
    const city = domestic ? "New York" : sale.currency === "GBP" ? "London" : "Paris";
    const id = rng.id("inv", issuedMs);
    table("invoices").push({
      id,
      ...G,
      sale_id: sale.id,
      invoice_number: `NL-INV-${new Date(issuedMs).getUTCFullYear()}-${String(i + 1).padStart(4, "0")}`,
      status,
      issued_date: isoDate(issuedMs),
      due_date: isoDate(issuedMs + 30 * DAY),
      subtotal_cents: subtotal,
      discount_cents: discount,
      discount_bps: discountBps,
      tax_cents: tax,
      shipping_cents: shipping,
      shipping_tax_cents: shippingTax,
      total_cents: total,
      amount_paid_cents: paid,
      accepted_payment_methods: rng.pick([
        ["bank_transfer"],
        ["card", "bank_transfer"],
        ["bank_transfer", "check"],
      ]),
      currency: sale.currency,
      fx_as_of: isoDate(issuedMs),
      fx_usd_per_unit: rate,
      fx_base_usd_per_unit: 1,
      fx_base_currency: "USD",
      base_amount_cents: Math.round(total * rate),
      billing_name: sale.buyer.name,
      billing_address: `${rng.int(2, 980)} ${rng.pick(["Park Avenue", "King's Road", "Rue de Rivoli", "Hudson Street"])}, ${city}`,
      shipping_name: sale.buyer.name,
      shipping_address: `${rng.int(2, 980)} ${rng.pick(["Park Avenue", "King's Road", "Rue de Rivoli", "Hudson Street"])}, ${city}`,
      tax_address_line1: `${rng.int(2, 980)} Hudson Street`,
      tax_address_city: city,
      tax_address_state: domestic ? "NY" : null,
      tax_address_postal_code: domestic ? "10013" : sale.currency === "GBP" ? "SW3 4LY" : "75001",
      tax_address_country: domestic ? "US" : sale.currency === "GBP" ? "GB" : "FR",
      tax_calculated_at: status === "draft" ? null : iso(issuedMs),
      taxability_override: taxExempt ? "exempt" : "none",
      notes: status === "void" ? "Voided: reissued with corrected shipping address." : null,
      archived_at: status === "void" ? iso(issuedMs + 2 * DAY) : null,
      template_id: templateId,
      metadata: { sale_channel: "gallery" },
      created_at: iso(issuedMs),
      updated_at: iso(Math.min(BASE - HOUR, issuedMs + (status === "paid" ? 12 : 1) * DAY)),
    });
    table("invoice_line_items").push({
      id: rng.id("line", issuedMs),
      ...G,
      invoice_id: id,
      artwork_id: sale.art.id,
      description: `${sale.art.artist.name}, "${sale.art.title}"`,
      amount_cents: subtotal,
      position: 0,
      created_at: iso(issuedMs),
      updated_at: iso(issuedMs),
    });
  });
}

interface OfferSummary {
  offerId: string;
  artIds: Set<string>;
  recipientIds: Set<string>;
}

/** Offers with their items and recipients. */
function offers(w: World, people: Person[], publishedArts: Art[]): OfferSummary[] {
  const { rng, G, table, editorId } = w;
  const active = people.filter((p) => !p.archived);
  const collectors = active.filter((p) => p.type === "collector");
  const offerable = publishedArts.filter((a) => a.availability === "available" && a.price !== null);
  const offerSpecs = [
    ["Winter collectors preview", "sent", "A first look at the works for the winter viewing room."],
    [
      "New paintings by Mara Lindqvist",
      "scheduled",
      "Ahead of the opening, a few works we think you'll love.",
    ],
    ["Photography under $10,000", "draft", null],
    ["Museum acquisition proposals", "draft", "Proposed works for the committee's spring meeting."],
  ] as const;
  const offerItems: { offerId: string; artIds: Set<string>; recipientIds: Set<string> }[] = [];
  offerSpecs.forEach(([title, status, message], i) => {
    const createdMs = BASE - (40 - i * 9) * DAY;
    const id = rng.id("ofr", createdMs);
    table("offers").push({
      id,
      ...G,
      title,
      message,
      status,
      scheduled_at: status === "scheduled" ? iso(BASE + 5 * DAY) : null,
      sent_at: status === "sent" ? iso(createdMs + 2 * DAY) : null,
      currency: "USD",
      created_by: editorId,
      created_at: iso(createdMs),
      updated_at: iso(createdMs + 2 * DAY),
    });
    const pool =
      i === 1
        ? offerable.filter((a) => a.artist.name === "Mara Lindqvist")
        : i === 2
          ? offerable.filter((a) => a.artist.practice === "photography" && (a.price ?? 0) < 1_000_000)
          : offerable;
    const items = rng.sample(pool.length >= 3 ? pool : offerable, rng.int(3, 6));
    items.forEach((art, position) => {
      table("offer_items").push({
        ...G,
        offer_id: id,
        artwork_id: art.id,
        caption_override:
          position === 0 && rng.chance(0.5) ? `${art.title}: a highlight of the season` : null,
        position,
        price_shown_cents: art.price,
        currency: art.currency,
        price_visible: rng.chance(0.8),
        created_at: iso(createdMs),
      });
    });
    const recipients = rng.sample(
      (i === 3 ? active.filter((p) => p.type === "institution") : collectors).filter((p) => p.email !== null),
      rng.int(4, 10),
    );
    for (const person of recipients) {
      table("offer_recipients").push({
        ...G,
        offer_id: id,
        contact_id: person.id,
        status:
          status === "sent" ? rng.weighted({ sent: 40, opened: 35, replied: 20, bounced: 5 }) : "pending",
        added_at: iso(createdMs + HOUR),
      });
    }
    offerItems.push({
      offerId: id,
      artIds: new Set(items.map((a) => a.id)),
      recipientIds: new Set(recipients.map((p) => p.id)),
    });
  });
  return offerItems;
}

/** Recommendation matches with sub-scores, evidence and a few hidden pairs. */
function matches(w: World, arts: Art[], people: Person[], offerItems: OfferSummary[]): void {
  const { rng, G, table, editorId } = w;
  const active = people.filter((p) => !p.archived);
  const matchable = arts.filter((a) => a.availability === "available" || a.availability === "on_hold");
  const judgedContacts = rng.sample(
    active.filter((p) => p.type === "collector" || p.type === "institution" || p.type === "advisor"),
    130,
  );
  const pairs = new Set<string>();
  const questions = ["medium", "artist", "price", "scale", "period"] as const;
  const addMatch = (art: Art, person: Person, probability: number) => {
    const key = `${art.id}:${person.id}`;
    if (pairs.has(key)) return;
    pairs.add(key);
    const judgedMs = BASE - rng.int(1, 25) * DAY - rng.int(0, 23) * HOUR;
    const id = rng.id("mat", judgedMs);
    const subScores: Record<string, number> = {};
    for (const q of rng.sample(questions, rng.int(3, 5))) {
      subScores[q] =
        Math.round(Math.min(1, Math.max(0, probability + (rng.next() - 0.5) * 0.4)) * 1000) / 1000;
    }
    const evidenceCount = rng.int(1, 5);
    const reasons: Row[] = [];
    for (let e = 0; e < evidenceCount; e++) {
      const kind = rng.weighted({
        memory_fact: 35,
        interaction: person.interactionIds.length > 0 ? 25 : 0,
        purchase: person.saleIds.length > 0 ? 20 : 0,
        engagement: person.engagementIds.length > 0 ? 20 : 0,
      });
      const question = rng.pick(Object.keys(subScores));
      const evidenceId =
        kind === "interaction"
          ? rng.pick(person.interactionIds)
          : kind === "purchase"
            ? rng.pick(person.saleIds)
            : kind === "engagement"
              ? rng.pick(person.engagementIds)
              : null;
      const label =
        kind === "purchase"
          ? `Bought a ${art.artist.practice === "paper" ? "work on paper" : art.artist.practice} work from the gallery`
          : kind === "interaction"
            ? `Asked about ${question === "scale" ? "large-scale works" : `works like ${art.artist.name}'s`}`
            : kind === "engagement"
              ? `Viewed works by ${art.artist.name} online`
              : question === "price"
                ? `Budget band ${person.budget ?? "25k_100k"}`
                : `Collects ${art.row.medium as string}`;
      const sourceLabel =
        kind === "purchase"
          ? "Sale"
          : kind === "interaction"
            ? "Interaction"
            : kind === "engagement"
              ? "Viewing room"
              : "Collector profile";
      const at = iso(judgedMs - rng.int(1, 200) * DAY);
      table("match_evidence").push({
        id: rng.id("mev", judgedMs + e),
        ...G,
        match_id: id,
        question,
        kind,
        label,
        source_label: sourceLabel,
        at,
        evidence_ref: evidenceId,
        created_at: iso(judgedMs),
      });
      if (reasons.length < 3)
        reasons.push({ question, kind, evidence_id: evidenceId, label, source_label: sourceLabel, at });
    }
    const hidden = rng.chance(0.04);
    table("recommendation_matches").push({
      id,
      ...G,
      artwork_id: art.id,
      contact_id: person.id,
      model: MATCH_MODEL,
      counterpart_name: person.name,
      probability,
      sub_scores: subScores,
      reasons,
      evidence_count: evidenceCount,
      status: "active",
      hidden_until: hidden ? iso(BASE + 30 * DAY) : null,
      hidden_by: hidden ? editorId : null,
      judged_at: iso(judgedMs),
      created_at: iso(judgedMs),
      updated_at: iso(judgedMs),
    });
    if (hidden) {
      table("match_feedback").push({
        id: rng.id("mfb", judgedMs + HOUR),
        ...G,
        match_id: id,
        member_id: editorId,
        action: "hide",
        hidden_until: iso(BASE + 30 * DAY),
        created_at: iso(judgedMs + HOUR),
      });
    }
  };
  // Offer works get strong matches with contacts not yet on the offer, so recommended recipients is not empty.
  for (const offer of offerItems) {
    for (const artId of offer.artIds) {
      const art = arts.find((a) => a.id === artId)!;
      for (const person of rng.sample(
        judgedContacts.filter((p) => !offer.recipientIds.has(p.id)),
        3,
      )) {
        addMatch(art, person, Math.round((0.62 + rng.next() * 0.36) * 1000) / 1000);
      }
    }
  }
  while (pairs.size < MATCH_COUNT) {
    const probability = Math.round((0.15 + 0.84 * rng.next() ** 0.7) * 1000) / 1000;
    addMatch(rng.pick(matchable), rng.pick(judgedContacts), probability);
  }
}

/** Fair-submission runs: one finished, one waiting for approval of its gated step. */
function fairRuns(w: World, lists: string[]): void {
  const { rng, G, table, editorId } = w;
  const fairSpecs = [
    ["portal.northsea-art-fair.example", "completed", lists[0]!, null, 4],
    ["apply.pacific-contemporary.example", "running", null, null, 2],
  ] as const;
  fairSpecs.forEach(([portal, status, fairListId, error, steps], i) => {
    const createdMs = BASE - (12 - i * 8) * DAY;
    const tools = ["open_portal", "fill_application", "upload_images", "submit_application"];
    const actions = tools.slice(0, steps).map((tool, k) => ({
      tool,
      gated: tool === "submit_application",
      approved: tool !== "submit_application" || status === "completed",
      at: iso(createdMs + (k + 1) * 10 * 60_000),
    }));
    table("fair_runs").push({
      id: rng.id("fair", createdMs),
      ...G,
      user_id: editorId,
      portal_domain: portal,
      fair_list_id: fairListId,
      status,
      step_count: actions.length,
      actions,
      error,
      created_at: iso(createdMs),
      updated_at: actions.at(-1)?.at ?? iso(createdMs),
    });
  });
}

function generate(rng: Rng, galleryId: string, editorId: string, viewerId: string): Tables {
  const t: Tables = new Map();
  const table = (name: string) => {
    let rows = t.get(name);
    if (!rows) {
      rows = [];
      t.set(name, rows);
    }
    return rows;
  };
  const G = { gallery_id: galleryId };
  const w: World = {
    rng,
    G,
    galleryId,
    editorId,
    viewerId,
    table,
    activity(art, ms, e) {
      table("artwork_activity_events").push({
        id: rng.uuid(),
        ...G,
        artwork_id: art.id,
        actor_id: editorId,
        contact_id: null,
        ref_id: null,
        ref_table: null,
        metadata: {},
        occurred_at: iso(ms),
        created_at: iso(ms),
        ...e,
      });
      art.updatedMs = Math.max(art.updatedMs, ms);
    },
  };

  // The order of these calls is the order of the PRNG draws: changing it changes every generated value.
  const ref = referenceData(w);
  const arts = artworks(w, ref);
  const publishedArts = arts.filter((a) => a.published);
  drafts(w, arts);
  timeline(w, arts, ref.locations);
  const rooms = showsAndRooms(w, arts, publishedArts);
  const people = contacts(w, ref.contactTags);
  consignments(w, arts, people);
  const allSales = recordSales(w, arts, people.filter(isBuyer));
  interactions(w, arts, people);
  engagement(w, people, publishedArts, rooms);
  notesAndTasks(w, people);
  const lists = contactLists(w, people);
  inbox(w, people, publishedArts);
  invoices(w, allSales);
  const offerItems = offers(w, people, publishedArts);
  matches(w, arts, people, offerItems);
  fairRuns(w, lists);

  // Artwork roll-ups, then the outbox -------------------------------------------------------------------------
  for (const art of arts) art.row.updated_at = iso(Math.min(Math.max(art.updatedMs, art.createdMs), BASE));
  t.set(
    "artworks",
    arts.map((a) => a.row),
  );
  t.set(
    "contacts",
    people.map((p) => p.row),
  );
  t.set(
    "domain_events",
    arts.map((art) => ({
      id: rng.id("evt", art.createdMs),
      ...G,
      type: "artwork.created",
      livemode: false,
      resource_type: "artwork",
      resource_id: art.id,
      data: { object: { id: art.id, title: art.title } },
      actor_id: null,
      request_id: null,
      created_at: iso(art.createdMs),
    })),
  );
  return t;
}

/** Parents before children. */
const INSERT_ORDER = [
  "artists",
  "locations",
  "custom_statuses",
  "tags",
  "artworks",
  "artwork_artists",
  "artwork_dimensions",
  "artwork_formats",
  "artwork_images",
  "artwork_tags",
  "artwork_drafts",
  "artwork_versions",
  "auction_records",
  "shows",
  "show_tags",
  "show_artworks",
  "publications",
  "publication_pricing",
  "publication_artworks",
  "viewing_rooms",
  "viewing_room_artworks",
  "contacts",
  "collector_profiles",
  "institution_profiles",
  "contact_assignees",
  "contact_tags",
  "sales",
  "interactions",
  "engagement_events",
  "private_notes",
  "tasks",
  "contact_lists",
  "contact_list_memberships",
  "rubric_judgments",
  "inbox_connections",
  "inbox_threads",
  "inbox_messages",
  "invoice_templates",
  "invoices",
  "invoice_line_items",
  "offers",
  "offer_items",
  "offer_recipients",
  "recommendation_matches",
  "match_evidence",
  "match_feedback",
  "fair_runs",
  "artwork_activity_events",
  "domain_events",
] as const;

/** One INSERT per table: the rows travel as one jsonb array and Postgres types them from the table's row type. */
async function insertRows(client: pg.ClientBase, tableName: string, rows: readonly Row[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  for (const row of rows) {
    const keys = Object.keys(row);
    if (keys.length !== columns.length || !columns.every((c) => c in row)) {
      throw new Error(
        `seed: ${tableName} rows disagree on columns (${keys.join(",")} vs ${columns.join(",")})`,
      );
    }
  }
  const list = columns.map((c) => `"${c}"`).join(", ");
  await client.query(
    `insert into ${tableName} (${list}) select ${list} from jsonb_populate_recordset(null::${tableName}, $1::jsonb)`,
    [JSON.stringify(rows)],
  );
}

/** Seeds the demo gallery unless it already exists (then returns null and writes nothing). */
export async function seedDemo(url: string): Promise<SeedResult | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("begin");
    // Two seeders racing on one database: the second waits, then sees the gallery and stops.
    await client.query("select pg_advisory_xact_lock(hashtext('gallery-platform:seed-demo'))");
    const existing = await client.query("select id from galleries where slug = $1", [DEMO_SLUG]);
    if (existing.rowCount) {
      await client.query("rollback");
      return null;
    }

    const rng = new Rng(0x6e6c6967); // "nlig"
    const galleryCreated = SPAN_START - 90 * DAY;
    const galleryId = rng.id("gal", galleryCreated);
    const editorId = rng.id("mem", galleryCreated + HOUR);
    const viewerId = rng.id("mem", galleryCreated + 2 * HOUR);
    await insertRows(client, "galleries", [
      {
        id: galleryId,
        name: "Northlight Gallery",
        slug: DEMO_SLUG,
        livemode: false,
        default_currency: "USD",
        created_at: iso(galleryCreated),
        updated_at: iso(galleryCreated),
      },
    ]);
    await insertRows(
      client,
      "members",
      [
        [editorId, DEMO_EDITOR.email, "Elena Marsh", "editor", galleryCreated + HOUR],
        [viewerId, DEMO_VIEWER.email, "Tom Okafor", "viewer", galleryCreated + 2 * HOUR],
      ].map(([id, email, name, role, ms]) => ({
        id,
        gallery_id: galleryId,
        email,
        name,
        role,
        password_hash: hashPassword(
          email === DEMO_EDITOR.email ? DEMO_EDITOR.password : DEMO_VIEWER.password,
        ),
        disabled_at: null,
        created_at: iso(ms as number),
        updated_at: iso(ms as number),
      })),
    );

    const tables = generate(rng, galleryId, editorId, viewerId);
    for (const name of INSERT_ORDER) {
      await insertRows(client, name, tables.get(name) ?? []);
      tables.delete(name);
    }
    if (tables.size > 0) throw new Error(`seed: no insert order for ${[...tables.keys()].join(", ")}`);

    const keyTime = iso(BASE);
    const secret = await insertApiKey(client, {
      galleryId,
      kind: "secret",
      name: "Demo secret key (all scopes)",
      scopes: allScopes,
      createdAt: keyTime,
    });
    const readOnly = await insertApiKey(client, {
      galleryId,
      kind: "secret",
      name: "Demo read-only key",
      scopes: readScopes,
      createdAt: keyTime,
    });
    const publishable = await insertApiKey(client, {
      galleryId,
      kind: "publishable",
      name: "Demo publishable token",
      scopes: PUBLISHABLE_SCOPES,
      createdAt: keyTime,
    });
    await client.query("commit");
    return {
      galleryId,
      secretKey: secret.token,
      readOnlyKey: readOnly.token,
      publishableToken: publishable.token,
      editor: { ...DEMO_EDITOR },
      viewer: { ...DEMO_VIEWER },
    };
  } catch (err) {
    await client.query("rollback").catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error(
      "Set DATABASE_URL to a migrated database (npm start seeds its embedded database by itself).",
    );
    process.exit(1);
  }
  const started = performance.now();
  const result = await seedDemo(url);
  if (!result) {
    console.log(`The demo gallery (slug "${DEMO_SLUG}") already exists; nothing was written.`);
  } else {
    console.log(
      `Seeded the demo gallery ${result.galleryId} in ${Math.round(performance.now() - started)} ms.`,
    );
    console.log(`  secret key (all scopes): ${result.secretKey}`);
    console.log(`  read-only key:           ${result.readOnlyKey}`);
    console.log(`  publishable token:       ${result.publishableToken}`);
    console.log(`  editor login:            ${result.editor.email} / ${result.editor.password}`);
    console.log(`  viewer login:            ${result.viewer.email} / ${result.viewer.password}`);
    console.log("Only the keys' hashes are stored: copy them now.");
  }
}
