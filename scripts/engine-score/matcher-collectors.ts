/**
 * Generates test/engine/labelled/collectors.json, the matcher's labelled histories:
 * `npx tsx scripts/engine-score/matcher-collectors.ts` (deterministic: the same file every run).
 *
 * The assumptions here are a model of collectors, written before and apart from the matcher (lib/engine/
 * matcher.ts): nothing below reads the judge or its sub-scores, and the parameters were fixed before the judge
 * was first scored.
 *
 * - A catalogue of 48 artists, each with a medium family (a second one for some), an active period and a price
 *   level; 1,000 works arriving over eight years of inventory (200 of them from 2024 on), in euros, 8% of them
 *   price on request. The works the hand-written histories bought are set aside for them.
 * - Each collector has a taste profile: a main medium family and perhaps a second, one or two disliked
 *   families for some, one to three favourite artists (mostly of the families they like), a budget, a period
 *   preference (contemporary, modern or historical), for some a wall-space limit, and an openness (how often a
 *   purchase is off-profile: drawn at random from what is available).
 * - A purchase is the available work with the highest utility: favourite artist + medium preference − distance
 *   of the price from the budget (in log units) + period fit − too large for the walls + a little for new
 *   work, plus Gumbel noise (a random-utility choice). Works sell once.
 * - Some collectors' taste shifts halfway (new main family and new favourites; their notes say so).
 * - Views and favourites in viewing rooms and inquiries are drawn from the same taste with more noise; a
 *   purchase is preceded by a view (30%) or an inquiry (12%) of that very work, as sales often are.
 * - Profile facts are written from the taste profile in a gallery's words: collecting focus, wishlist, notes,
 *   a budget, private notes; some negations ("Not interested in photography", "No more prints"), some notes
 *   about other things, and for some collectors none at all (thin histories).
 * - Each collector's last purchase is hidden (`hidden`), between June and November 2026: the score ranks the
 *   works available then and asks where the hidden one lands.
 * - Splits by collector: train (fit the model), tune (looked at while building the judge), holdout (reported
 *   at first sight). Hand-written histories (test/engine/labelled/collectors-hand.json) are split `hand`.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const NOW = "2026-11-27T00:00:00.000Z";

// Seeded RNGs (mulberry32): the main stream, and one of its own for the later inventory (so adding it left
// the first 800 works as they were).
function mulberry(start: number): () => number {
  let seed = start;
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const main = mulberry(20261127);
let rand = main;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
function normal(): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}
const gumbel = () => -Math.log(-Math.log(Math.max(rand(), 1e-12)));
function shuffle<T>(xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

type Fam = "painting" | "paper" | "print" | "photography" | "sculpture" | "ceramics" | "textile";
const FAMS: Fam[] = ["painting", "paper", "print", "photography", "sculpture", "ceramics", "textile"];
const FAM_SHARE: Record<Fam, number> = {
  painting: 12,
  paper: 8,
  print: 7,
  photography: 7,
  sculpture: 6,
  ceramics: 5,
  textile: 3,
};
const MEDIUM_LINES: Record<Fam, string[]> = {
  painting: [
    "Oil on canvas",
    "Oil on linen",
    "Acrylic on canvas",
    "Oil and wax on panel",
    "Tempera on gesso panel",
    "Acrylic and oil stick on canvas",
  ],
  paper: [
    "Watercolour on paper",
    "Gouache on paper",
    "Charcoal on paper",
    "Ink and wash on paper",
    "Pastel on paper",
    "Graphite and collage on paper",
  ],
  print: [
    "Etching, edition of 25",
    "Lithograph, edition of 40",
    "Screenprint, edition of 50",
    "Woodcut on Japanese paper, edition of 20",
    "Aquatint and drypoint, edition of 30",
  ],
  photography: [
    "Archival pigment print",
    "Gelatin silver print",
    "Chromogenic print, edition of 5",
    "Platinum palladium print",
  ],
  sculpture: [
    "Bronze, edition of 8",
    "Carved marble",
    "Patinated steel",
    "Carved oak",
    "Cast bronze, unique",
  ],
  ceramics: [
    "Stoneware, celadon glaze",
    "Glazed porcelain",
    "Raku-fired earthenware",
    "Stoneware, ash glaze",
  ],
  textile: ["Hand-woven wool tapestry", "Embroidered silk", "Jacquard weaving, cotton and linen"],
};
const FAM_WORDS: Record<Fam, string[]> = {
  painting: ["painting", "oil paintings", "paintings"],
  paper: ["works on paper", "drawings", "watercolours"],
  print: ["prints", "etchings", "printmaking"],
  photography: ["photography", "photographs"],
  sculpture: ["sculpture", "bronzes"],
  ceramics: ["ceramics", "stoneware"],
  textile: ["textiles", "tapestries"],
};
const SIZE_RANGE: Record<Fam, [number, number]> = {
  painting: [30, 220],
  paper: [20, 90],
  print: [25, 100],
  photography: [30, 180],
  sculpture: [20, 200],
  ceramics: [15, 70],
  textile: [60, 250],
};
const PRICE_SIZE: Record<Fam, number> = {
  painting: 1.0,
  paper: 0.35,
  print: 0.15,
  photography: 0.4,
  sculpture: 1.1,
  ceramics: 0.3,
  textile: 0.6,
};

type Period = "contemporary" | "modern" | "historical";
const FIRST = [
  "Ines",
  "Tomas",
  "Aiko",
  "Kaito",
  "Lena",
  "Marek",
  "Sofia",
  "Jonas",
  "Amara",
  "Felix",
  "Nadia",
  "Oskar",
  "Priya",
  "Ruben",
  "Clara",
  "Hugo",
  "Yara",
  "Elias",
  "Mina",
  "Anton",
  "Leila",
  "Matteo",
  "Hanna",
  "Viktor",
  "Camille",
  "Jakob",
  "Noor",
  "Emil",
  "Greta",
  "Samuel",
  "Iris",
  "Laszlo",
  "Tove",
  "Rafael",
  "Ada",
  "Nils",
  "Zofia",
  "Pablo",
  "Ingrid",
  "Cyril",
  "Maren",
  "Dario",
  "Elin",
  "Bruno",
  "Selma",
  "Otto",
  "Vera",
  "Arne",
];
const LAST = [
  "Marchetti",
  "Halvorsen",
  "Tanabe",
  "Mori",
  "Vogel",
  "Novak",
  "Ruiz",
  "Lindqvist",
  "Okafor",
  "Brandt",
  "Haddad",
  "Berg",
  "Raman",
  "Castillo",
  "Fournier",
  "Lemaire",
  "Adeyemi",
  "Sørensen",
  "Kowalski",
  "Weiss",
  "Aziz",
  "Conti",
  "Nyström",
  "Petrov",
  "Delacroix",
  "Eriksen",
  "Farouk",
  "Gallo",
  "Holm",
  "Ibsen",
  "Janssen",
  "Kovacs",
  "Lund",
  "Moreau",
  "Nakamura",
  "Olsen",
  "Pereira",
  "Quinn",
  "Rossi",
  "Schmid",
  "Takeda",
  "Urban",
  "Varga",
  "Wolff",
  "Yilmaz",
  "Zeller",
  "Abbott",
  "Blom",
];
const TITLES_A = [
  "Quiet",
  "Northern",
  "Red",
  "Late",
  "Blue",
  "Open",
  "Small",
  "Salt",
  "Winter",
  "High",
  "Low",
  "Still",
  "Paper",
  "Dark",
  "Silver",
  "Green",
];
const TITLES_B = [
  "Field",
  "Harbour",
  "Room",
  "Study",
  "Garden",
  "Tide",
  "Figure",
  "Vessel",
  "Window",
  "Light",
  "Shore",
  "Stair",
  "Orchard",
  "Ridge",
  "Interior",
  "Bloom",
];

interface Artist {
  id: string;
  name: string;
  fams: Fam[];
  period: Period;
  yearFrom: number;
  yearTo: number;
  level: number; // euros for a mid-size work
}

interface Work {
  id: string;
  title: string;
  artistId: string;
  artistName: string;
  medium: string;
  year: number;
  heightCm: number;
  widthCm: number;
  priceCents: number | null;
  currency: string;
  createdAt: string;
  fam: Fam;
}

const artists: Artist[] = [];
const famPool: Fam[] = FAMS.flatMap((f) => Array(FAM_SHARE[f]).fill(f));
const firsts = shuffle([...FIRST]);
const lasts = shuffle([...LAST]);
for (let i = 0; i < 48; i++) {
  const main = famPool[i % famPool.length]!;
  const fams: Fam[] = [main];
  if (rand() < 0.25) fams.push(pick(FAMS.filter((f) => f !== main)));
  const r = rand();
  const period: Period = r < 0.62 ? "contemporary" : r < 0.85 ? "modern" : "historical";
  const [yearFrom, yearTo] =
    period === "contemporary"
      ? ((y) => [y, Math.min(2026, y + int(6, 20))])(int(1998, 2016))
      : period === "modern"
        ? ((y) => [y, y + int(10, 30)])(int(1930, 1975))
        : ((y) => [y, y + int(10, 35)])(int(1820, 1900));
  const level = Math.round(Math.exp(Math.log(9000) + normal() * 1.0) / 100) * 100;
  artists.push({
    id: `ar-${String(i + 1).padStart(3, "0")}`,
    name: `${firsts[i]} ${lasts[i]}`,
    fams,
    period,
    yearFrom,
    yearTo,
    level: Math.max(800, level),
  });
}

const START = Date.parse("2018-01-01T00:00:00Z");
const END_INVENTORY = Date.parse("2026-10-31T00:00:00Z");
const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString();

const LATER_FROM = Date.parse("2024-01-01T00:00:00Z");
/** A gallery's catalogue of 1,000 works (block 0: `w-0001`…; a further block b: `g{b}-w-0001`…). */
function makeWorks(block: number): Work[] {
  const works: Work[] = [];
  for (let n = 0; n < 1000; n++) {
    // Block 0's works 801–1000: the inventory that kept arriving from 2024 on, from a stream of their own.
    if (block === 0 && n === 800) rand = mulberry(20261128);
    const artist = artists[n < 48 * 6 ? n % 48 : int(0, 47)]!;
    const fam = rand() < 0.8 ? artist.fams[0]! : pick(artist.fams);
    const [lo, hi] = SIZE_RANGE[fam];
    const h = Math.round(lo + (hi - lo) * rand() ** 1.6);
    const w = Math.round(h * (0.6 + rand() * 0.9));
    const size = Math.max(h, w) / 100;
    const price =
      rand() < 0.08
        ? null
        : Math.round((artist.level * PRICE_SIZE[fam] * (0.5 + size) * Math.exp(normal() * 0.3)) / 50) *
          50 *
          100;
    // Inventory arrives through the eight years, a little faster lately.
    const t =
      n < 800
        ? START + (END_INVENTORY - START) * rand() ** 0.8
        : LATER_FROM + (END_INVENTORY - LATER_FROM) * rand();
    works.push({
      id: `${block ? `g${block}-` : ""}w-${String(n + 1).padStart(4, "0")}`,
      title: `${pick(TITLES_A)} ${pick(TITLES_B)}${rand() < 0.3 ? ` ${int(2, 12)}` : ""}`,
      artistId: artist.id,
      artistName: artist.name,
      medium: pick(MEDIUM_LINES[fam]),
      year: int(artist.yearFrom, artist.yearTo),
      heightCm: h,
      widthCm: w,
      priceCents: price,
      currency: "EUR",
      createdAt: iso(Math.floor(t / 60_000) * 60_000),
      fam,
    });
  }
  return works;
}
const artistOf = new Map(artists.map((a) => [a.id, a]));

// ---------------------------------------------------------------------------------------------------------
// Collectors

interface Taste {
  pref: Partial<Record<Fam, number>>;
  favourites: string[];
  budget: number; // euros
  period: Period | null;
  maxSizeCm: number | null;
  openness: number;
}
interface Collector {
  id: string;
  name: string;
  split: string;
  band: string;
  tastes: Taste[]; // one, or two when the taste shifts
  shiftAt: number | null;
  disliked: Fam[];
  slots: number[]; // history purchase times
  hiddenAt: number;
  facts: { id: string; kind: string; text: string; at: string | null }[];
  purchases: { id: string; at: string; priceCents: number | null; currency: string; artworkId: string }[];
  interactions: {
    id: string;
    at: string;
    type: string;
    direction: string;
    summary: string;
    artworkId: string | null;
  }[];
  engagements: { id: string; at: string; kind: string; artworkId: string }[];
  feedback: { id: string; artworkId: string; action: string; at: string }[];
  hidden: { id: string; at: string; artworkId: string } | null;
}

const BANDS: [string, number, number][] = [
  ["under_5k", 800, 5000],
  ["5k_25k", 5000, 25000],
  ["25k_100k", 25000, 100000],
  ["over_100k", 100000, 300000],
];

function newTaste(
  main: Fam,
  disliked: Fam[],
  budget: number,
  period: Period | null,
  maxSizeCm: number | null,
): Taste {
  const pref: Partial<Record<Fam, number>> = { [main]: 1 };
  if (rand() < 0.5) {
    const second = pick(FAMS.filter((f) => f !== main && !disliked.includes(f)));
    pref[second] = 0.5;
  }
  for (const d of disliked) pref[d] = -1.5;
  const liked = artists.filter((a) => a.fams.some((f) => (pref[f] ?? 0) > 0));
  const favourites: string[] = [];
  for (let k = int(1, 3); k > 0; k--) {
    const a = rand() < 0.75 && liked.length ? pick(liked) : pick(artists);
    if (!favourites.includes(a.id)) favourites.push(a.id);
  }
  return { pref, favourites, budget, period, maxSizeCm, openness: 0.06 + rand() * 0.14 };
}

function utility(t: Taste, w: Work, at: number, noise: number): number {
  const a = artistOf.get(w.artistId)!;
  let u = 0;
  if (t.favourites.includes(w.artistId)) u += 2.2;
  u += 1.5 * (t.pref[w.fam] ?? 0);
  if (w.priceCents !== null) u -= Math.abs(Math.log(w.priceCents / 100 / t.budget)) / Math.log(2.5);
  else u -= 0.4;
  if (t.period && a.period === t.period) u += 0.8;
  if (t.maxSizeCm && Math.max(w.heightCm, w.widthCm) > t.maxSizeCm) u -= 2;
  if (at - Date.parse(w.createdAt) < 120 * DAY) u += 0.3;
  return u + noise * gumbel();
}

// Works the hand-written histories bought (collectors-hand.json) are theirs: set aside from the start.
const handPath = "test/engine/labelled/collectors-hand.json";
let hand: {
  purchases: { artworkId: string }[];
  hidden: { artworkId: string };
}[] = [];
try {
  hand = JSON.parse(readFileSync(handPath, "utf8"));
} catch {
  hand = [];
}
const handWorks = new Set<string>(
  hand.flatMap((h) => [...h.purchases.map((p) => p.artworkId), h.hidden.artworkId]),
);
// The block being generated: its catalogue and the works sold so far.
let works: Work[] = [];
let sold = new Set<string>(handWorks);
function available(at: number): Work[] {
  return works.filter((w) => Date.parse(w.createdAt) <= at && !sold.has(w.id));
}
function choose(t: Taste, at: number, noise: number, pool: Work[]): Work | null {
  if (pool.length === 0) return null;
  if (rand() < t.openness) return pick(pool);
  let best: Work | null = null;
  let bestU = Number.NEGATIVE_INFINITY;
  for (const w of pool) {
    const u = utility(t, w, at, noise);
    if (u > bestU) {
      bestU = u;
      best = w;
    }
  }
  return best;
}

const GIVEN = [
  "Anna",
  "Ben",
  "Carla",
  "David",
  "Eva",
  "Frank",
  "Gina",
  "Henrik",
  "Isla",
  "Jon",
  "Karin",
  "Luca",
  "Maya",
  "Nico",
  "Olga",
  "Peter",
  "Rosa",
  "Stefan",
  "Tara",
  "Ulrich",
  "Wen",
  "Xavier",
  "Yusuf",
  "Zara",
];
const FAMILY = [
  "Albers",
  "Bauer",
  "Chen",
  "Dubois",
  "Engel",
  "Fischer",
  "Garcia",
  "Hughes",
  "Ito",
  "Jensen",
  "Klein",
  "Larsen",
  "Meyer",
  "Nguyen",
  "Ortiz",
  "Park",
  "Reyes",
  "Singh",
  "Thorne",
  "Valli",
  "Walsh",
  "Young",
];

const COLLECTORS = 200;
const HIDDEN_FROM = Date.parse("2026-06-01T00:00:00Z");
const HIDDEN_TO = Date.parse("2026-11-20T00:00:00Z");
const tasteAt = (c: Collector, at: number) =>
  c.shiftAt !== null && at >= c.shiftAt ? c.tastes[1]! : c.tastes[0]!;

let seq = 0;
const nextId = (p: string) => `${p}-${String(++seq).padStart(5, "0")}`;
const byTime = <T extends { at: string }>(xs: T[]) => xs.sort((a, b) => a.at.localeCompare(b.at) || 0);

/**
 * A gallery's 200 collectors over the catalogue in `works` (block 0: `col-001`…; a further block b:
 * `g{b}-col-001`…), each as it is written out.
 */
function makeCollectors(block: number) {
  const collectors: Collector[] = [];
  for (let i = 0; i < COLLECTORS; i++) {
    const id = `${block ? `g${block}-` : ""}col-${String(i + 1).padStart(3, "0")}`;
    const r = rand();
    const [band, lo, hi] = BANDS[r < 0.35 ? 0 : r < 0.75 ? 1 : r < 0.95 ? 2 : 3]!;
    const budget = Math.exp(Math.log(lo) + rand() * (Math.log(hi) - Math.log(lo)));
    const main = famPool[Math.floor(rand() * famPool.length)]!;
    const disliked = rand() < 0.3 ? [pick(FAMS.filter((f) => f !== main))] : [];
    const pr = rand();
    const period: Period | null =
      pr < 0.45 ? "contemporary" : pr < 0.6 ? "modern" : pr < 0.7 ? "historical" : null;
    const maxSizeCm = rand() < 0.2 ? 100 : null;
    const thin = rand() < 0.2;
    const count = thin ? 1 : int(2, rand() < 0.3 ? 6 : 3);
    const firstAt = START + rand() * (HIDDEN_FROM - START - 200 * DAY);
    const slots = Array.from(
      { length: count },
      () => firstAt + rand() * (HIDDEN_FROM - 30 * DAY - firstAt),
    ).sort((a, b) => a - b);
    const tastes = [newTaste(main, disliked, budget, period, maxSizeCm)];
    let shiftAt: number | null = null;
    if (count >= 3 && rand() < 0.15) {
      const main2 = pick(FAMS.filter((f) => f !== main && !disliked.includes(f)));
      tastes.push(newTaste(main2, disliked, budget * (0.7 + rand() * 0.8), period, maxSizeCm));
      shiftAt = slots[Math.floor(count / 2)]! - DAY;
    }
    const splitR = rand();
    collectors.push({
      id,
      name: `${pick(GIVEN)} ${pick(FAMILY)}`,
      split: splitR < 0.5 ? "train" : splitR < 0.75 ? "tune" : "holdout",
      band,
      tastes,
      shiftAt,
      disliked,
      slots,
      hiddenAt: HIDDEN_FROM + rand() * (HIDDEN_TO - HIDDEN_FROM),
      facts: [],
      purchases: [],
      interactions: [],
      engagements: [],
      feedback: [],
      hidden: null,
    });
  }
  const INQUIRY = [
    (w: Work) => `Asked for the price of ${w.title} by ${w.artistName}`,
    (w: Work) => `Wanted more images of ${w.title}`,
    (w: Work) => `Asked whether ${w.title} is still available`,
    (w: Work) => `Inquiry about the ${w.artistName} (${w.title}), condition and framing`,
    (w: Work) => `Would like to see ${w.title} in person`,
  ];
  const OTHER_INTERACTIONS = [
    "Thanked us for the dinner",
    "Sent the preview PDF",
    "Follow-up after the fair",
    "Invoice query, resolved",
    "Came to the opening with friends",
    "Asked about shipping to the country house",
  ];

  function prePurchase(c: Collector, w: Work, at: number) {
    const r = rand();
    if (r < 0.3)
      c.engagements.push({
        id: nextId("eng"),
        at: iso(at - int(1, 30) * DAY),
        kind: "artwork_viewed",
        artworkId: w.id,
      });
    else if (r < 0.42)
      c.interactions.push({
        id: nextId("int"),
        at: iso(at - int(1, 20) * DAY),
        type: pick(["email", "call", "visit", "whatsapp"]),
        direction: "inbound",
        summary: pick(INQUIRY)(w),
        artworkId: w.id,
      });
  }

  // History purchases, in time order across all collectors (works sell once).
  const slots = collectors.flatMap((c) => c.slots.map((at) => ({ c, at }))).sort((a, b) => a.at - b.at);
  for (const { c, at } of slots) {
    const w = choose(tasteAt(c, at), at, 1.0, available(at));
    if (!w) continue;
    sold.add(w.id);
    c.purchases.push({
      id: nextId("sal"),
      at: iso(at),
      priceCents: w.priceCents,
      currency: "EUR",
      artworkId: w.id,
    });
    prePurchase(c, w, at);
  }

  // Browsing and inquiries: the same taste, more noise, any work already in the inventory.
  for (const c of collectors) {
    const from = c.slots[0]! - 60 * DAY;
    const views = c.slots.length === 1 ? int(0, 3) : int(1, 12);
    for (let k = 0; k < views; k++) {
      const at = from + rand() * (c.hiddenAt - 2 * DAY - from);
      const pool = works.filter((w) => Date.parse(w.createdAt) <= at);
      const w = choose(tasteAt(c, at), at, 2.0, pool);
      if (!w) continue;
      c.engagements.push({
        id: nextId("eng"),
        at: iso(at),
        kind: rand() < 0.8 ? "artwork_viewed" : "favorite_added",
        artworkId: w.id,
      });
    }
    for (let k = c.slots.length === 1 ? int(0, 1) : int(0, 3); k > 0; k--) {
      const at = from + rand() * (c.hiddenAt - 2 * DAY - from);
      const pool = works.filter((w) => Date.parse(w.createdAt) <= at);
      const w = choose(tasteAt(c, at), at, 1.6, pool);
      if (!w) continue;
      c.interactions.push({
        id: nextId("int"),
        at: iso(at),
        type: pick(["email", "call", "visit", "whatsapp"]),
        direction: "inbound",
        summary: pick(INQUIRY)(w),
        artworkId: w.id,
      });
    }
    for (let k = int(0, 3); k > 0; k--) {
      const at = from + rand() * (c.hiddenAt - from);
      c.interactions.push({
        id: nextId("int"),
        at: iso(at),
        type: pick(["email", "call", "visit"]),
        direction: pick(["inbound", "outbound"]),
        summary: pick(OTHER_INTERACTIONS),
        artworkId: null,
      });
    }
  }

  // The hidden last purchase, in time order.
  for (const c of [...collectors].sort((a, b) => a.hiddenAt - b.hiddenAt)) {
    const w = choose(tasteAt(c, c.hiddenAt), c.hiddenAt, 1.0, available(c.hiddenAt));
    if (!w) continue;
    sold.add(w.id);
    c.hidden = { id: nextId("sal"), at: iso(c.hiddenAt), artworkId: w.id };
    prePurchase(c, w, c.hiddenAt);
  }

  // Profile facts, written from the taste (the latest one, as a gallery's notes would be).
  const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
  const PERIOD_WORDS: Record<Period, string[]> = {
    contemporary: ["contemporary", "recent", "living artists'"],
    modern: ["post-war", "mid-century", "modern"],
    historical: ["19th-century", "historical", "nineteenth-century"],
  };
  for (const c of collectors) {
    const t = c.tastes[c.tastes.length - 1]!;
    const liked = (Object.entries(t.pref) as [Fam, number][])
      .filter(([, v]) => v > 0)
      .sort((a, b) => b[1] - a[1]);
    const thin = c.slots.length === 1;
    const facts = c.facts;
    const fav = t.favourites.map((a) => artistOf.get(a)!.name);
    const surname = (n: string) => n.split(" ").slice(-1)[0]!;
    if (rand() < (thin ? 0.35 : 0.65)) {
      const fam = pick(FAM_WORDS[liked[0]![0]]);
      const per = t.period && rand() < 0.7 ? `${pick(PERIOD_WORDS[t.period])} ` : "";
      const more = liked[1] && rand() < 0.5 ? ` and ${pick(FAM_WORDS[liked[1][0]])}` : "";
      const artist = rand() < 0.5 ? `; especially ${fav[0]}` : "";
      facts.push({
        id: `${c.id}:collecting_focus`,
        kind: "collecting_focus",
        text: cap(`${per}${fam}${more}${artist}`),
        at: null,
      });
    }
    if (rand() < (thin ? 0.15 : 0.3)) {
      const a = pick(fav);
      const fam = FAM_WORDS[liked[0]![0]][0]!;
      const text = pick([
        `Would love a work by ${a}`,
        `Looking for ${fam} by ${surname(a)}, ideally a smaller piece`,
        `Wants the next ${surname(a)} that comes in`,
        `Waiting list for ${a}`,
      ]);
      facts.push({ id: `${c.id}:wishlist_notes`, kind: "wishlist_notes", text, at: null });
    }
    const notes: string[] = [];
    for (const d of c.disliked)
      if (rand() < 0.7)
        notes.push(
          pick([
            `Not interested in ${pick(FAM_WORDS[d])}.`,
            `No more ${pick(FAM_WORDS[d])}, the walls are full of them.`,
            `Says ${pick(FAM_WORDS[d])} leaves him cold.`,
            `Doesn't want ${pick(FAM_WORDS[d])}.`,
          ]),
        );
    if (c.tastes.length === 2) {
      const old = (Object.entries(c.tastes[0]!.pref) as [Fam, number][]).sort((a, b) => b[1] - a[1])[0]![0];
      if (old !== liked[0]![0] && rand() < 0.7)
        notes.push(`Moved away from ${pick(FAM_WORDS[old])}, now buying ${pick(FAM_WORDS[liked[0]![0]])}.`);
    }
    if (t.maxSizeCm && rand() < 0.7)
      notes.push(
        pick([
          "No room for large works.",
          "Small flat: nothing over a metre.",
          "Walls are full, only small pieces now.",
        ]),
      );
    if (rand() < 0.3)
      notes.push(
        pick(["Prefers calls before 10am.", "Lives between Lisbon and Berlin.", "Met at the Basel fair."]),
      );
    if (notes.length) facts.push({ id: `${c.id}:notes`, kind: "notes", text: notes.join(" "), at: null });
    if (rand() < 0.25) {
      const budget = Math.round(t.budget / 1000) * 1000 || 1000;
      facts.push({
        id: nextId("pn"),
        kind: "private_note",
        text: pick([
          `Budget around €${budget.toLocaleString("en")} a piece.`,
          "Prefers to see works in person before buying.",
          "Pays promptly; likes to be called first.",
        ]),
        at: iso(c.slots[0]! + 10 * DAY),
      });
    }
    // A member dismissed a work of a disliked family now and then.
    if (c.disliked.length && rand() < 0.4) {
      const w = works.find(
        (x) => x.fam === c.disliked[0] && Date.parse(x.createdAt) < c.hiddenAt - 30 * DAY && !sold.has(x.id),
      );
      if (w)
        c.feedback.push({
          id: nextId("mfb"),
          artworkId: w.id,
          action: "not_interested",
          at: iso(c.hiddenAt - 20 * DAY),
        });
    }
  }

  const written = collectors
    .filter((c) => c.hidden)
    .map((c) => ({
      id: c.id,
      name: c.name,
      split: c.split,
      priceBand: rand() < 0.7 ? c.band : null,
      facts: c.facts,
      purchases: byTime(c.purchases),
      interactions: byTime(c.interactions),
      engagements: byTime(c.engagements),
      feedback: c.feedback,
      hidden: c.hidden,
    }));
  return { collectors, written };
}

/**
 * Blocks: block 0 is the first gallery (test/engine/labelled/collectors.json, with the hand-written histories
 * added as they are); each further block is another gallery with the same artists, a catalogue and collectors
 * of its own made by the same procedure from a seeded stream of its own (test/engine/labelled/collectors-g{b}.json,
 * the file naming its `gallery`). More blocks give the reliability bands of the match probability enough
 * labelled pairs; block 0 is as it was, and a block's collectors only ever buy from its own catalogue.
 */
const BLOCKS = 8;
const blocks: {
  works: Work[];
  collectors: Collector[];
  written: ReturnType<typeof makeCollectors>["written"];
}[] = [];
for (let b = 0; b < BLOCKS; b++) {
  if (b > 0) rand = mulberry(20261127 + 7919 * b);
  works = makeWorks(b);
  if (b === 0) rand = main;
  sold = new Set<string>(b === 0 ? handWorks : []);
  blocks.push({ works, ...makeCollectors(b) });
}

const publicWork = ({ fam: _fam, ...w }: Work) => w;
const files = [
  {
    path: "test/engine/labelled/collectors.json",
    out: {
      about:
        "Generated by scripts/engine-score/matcher-collectors.ts (seeded) from explicit taste profiles, plus hand-written histories (split 'hand'). Each collector's last purchase is `hidden`.",
      now: NOW,
      works: blocks[0]!.works.map(publicWork),
      collectors: [...blocks[0]!.written, ...hand],
    },
  },
  ...blocks.slice(1).map((x, i) => ({
    path: `test/engine/labelled/collectors-g${i + 1}.json`,
    out: {
      about: `Generated by scripts/engine-score/matcher-collectors.ts (seeded): gallery g${i + 1}, a catalogue and collectors of its own made as those of collectors.json. Each collector's last purchase is \`hidden\`.`,
      now: NOW,
      gallery: `g${i + 1}`,
      works: x.works.map(publicWork),
      collectors: x.written,
    },
  })),
];
for (const { path, out } of files) {
  writeFileSync(path, `${JSON.stringify(out, null, 2)}\n`);
  // In the repository's JSON style, so `biome check .` passes on the file as generated.
  execFileSync("npx", ["biome", "format", "--write", path], { stdio: "ignore" });
  console.log(`${path}: ${out.works.length} works, ${out.collectors.length} collectors`);
}

// For scale (docs/engine-score.md): how often the collector's own taste, without noise, ranks the hidden work in
// the top 10 of what was available then. No judge can be expected to know the taste better than this from
// purchases alone; views and inquiries before a purchase are what lift a judge above it.
let hits = 0;
let n = 0;
for (const { works, collectors } of blocks) {
  const soldAt = new Map<string, number>();
  for (const c of collectors) {
    for (const p of c.purchases) soldAt.set(p.artworkId, Date.parse(p.at));
    if (c.hidden) soldAt.set(c.hidden.artworkId, c.hiddenAt);
  }
  for (const c of collectors) {
    if (!c.hidden) continue;
    const at = c.hiddenAt;
    const taste = tasteAt(c, at);
    const pool = works.filter(
      (w) => Date.parse(w.createdAt) <= at && !((soldAt.get(w.id) ?? Infinity) < at) && !handWorks.has(w.id),
    );
    const target = works.find((w) => w.id === c.hidden!.artworkId)!;
    const u = utility(taste, target, at, 0);
    n++;
    if (pool.filter((w) => utility(taste, w, at, 0) > u).length < 10) hits++;
  }
}
console.log(
  `Noise-free taste puts the hidden work in the top 10 for ${((100 * hits) / n).toFixed(0)}% of ${n} collectors`,
);
