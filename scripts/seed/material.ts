/** Source material for the demo gallery: names, titles, places and the weights the generator draws with. */

import {
  type contactTypes,
  engagementKinds,
  type leadStatuses,
  priceBands,
} from "../../lib/schemas/contacts";

/** A word list written as comma-separated text (kept compact; the formatter would put one item per line). */
function list(text: string): readonly string[] {
  return text
    .split(/,|\n/)
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

export type Practice = "painting" | "sculpture" | "photography" | "print" | "paper" | "mixed" | "antiquity";

export const ARTISTS: readonly [
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

/**
 * Each artist's style, as an artwork tag of ARTWORK_TAGS: most of the artist's works carry it, so a style is
 * something a collector can follow and the engine can read. Photographers and the anonymous makers have none.
 */
export const ARTIST_STYLES: Readonly<Record<string, string>> = {
  "Mara Lindqvist": "Color field",
  "Theo Adeyemi": "Figurative",
  "Ines Carvalho": "Abstraction",
  "Jonah Whitcombe": "Abstraction",
  "Aiko Tanabe": "Minimalism",
  "Rafael Ostrowski": "Abstraction",
  "Celeste Duval": "Abstraction",
  "Samuel Achterberg": "Figurative",
  "Priya Raman": "Abstraction",
  "Oskar Hale": "Minimalism",
  "Dmitri Volkonsky": "Figurative",
  "Harriet Quill": "Figurative",
  "Kwame Asante-Boateng": "Figurative",
  "Elsbeth Morrow": "Color field",
  "Camille Fournier-Blanc": "Minimalism",
  "Ngaio Parata": "Abstraction",
  "Wen Liqing": "Abstraction",
  "August Brenner": "Figurative",
  "Sofía Márquez Ruiz": "Figurative",
  "Delphine Okoro": "Figurative",
  "Callum Reid": "Abstraction",
  "Beatriz Almeida": "Abstraction",
  "Tomasz Wierzbicki": "Abstraction",
  "Esther Van Leeuwen": "Minimalism",
  "Marcus Bell": "Abstraction",
  "Anouk Declercq": "Minimalism",
  "Ilya Petrenko": "Figurative",
  "Grace Holloway": "Minimalism",
  "Matteo Bianchi-Rossi": "Figurative",
  "Farah Nazari": "Color field",
  "Leopold Wendt": "Figurative",
  "Joaquín Ibarra": "Abstraction",
};
/** The styles' tags, which a work carries at most one of. */
export const STYLE_TAGS = ["Abstraction", "Figurative", "Minimalism", "Color field"] as const;

/** Price bounds in cents per practice; every price lies within 50_000..25_000_000. */
export const PRICE_RANGES: Readonly<Record<Practice, [number, number]>> = {
  painting: [400_000, 25_000_000],
  sculpture: [300_000, 18_000_000],
  photography: [50_000, 2_500_000],
  print: [50_000, 1_200_000],
  paper: [100_000, 4_000_000],
  mixed: [250_000, 8_000_000],
  antiquity: [1_500_000, 20_000_000],
};

export const MEDIA: Readonly<Record<Practice, readonly string[]>> = {
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

export const TITLE_NOUNS = list(`
  Harbour, Meridian, Threshold, Orchard, Tidewater, Lantern, Quarry, Nocturne, Salt Flats, Aperture,
  Canopy, Ember, Cartography, Ridge, Vessel, Reverie, Monsoon, Fieldwork, Undertow, Garden, Window,
  Stairwell, Figure, Landscape, Still Life, Coastline, Archive, Interior, Bather, Estuary, Lighthouse,
  Procession
`);
export const TITLE_ADJECTIVES = list(`
  Blue, Quiet, Northern, Late, Silver, Burnt, Folded, Open, Distant, Small, Red, Vanishing, Second, Soft,
  Hollow, Golden, Winter, Lowland
`);
export const MONTHS = ["January", "March", "May", "June", "August", "October", "November"];
export const ANTIQUITY_TITLES = list(`
  Head of a Youth, Kylix with Dancing Figures, Fragment of a Funerary Relief, Oil Lamp with Dolphin,
  Torso of Aphrodite, Amphora with Chariot Scene, Portrait Head of a Woman, Votive Figure of a Horse
`);

export const CONDITION_NOTES: Readonly<Record<string, readonly string[]>> = {
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

export const DESCRIPTIONS = [
  "A layered, luminous surface built up over many months, with the horizon held just below the midpoint.",
  "Part of a series made during a residency on the coast; the palette shifts with the tide tables.",
  "The artist's characteristic economy of line, with passages of scraped-back colour.",
  "Exhibited in the artist's first institutional survey; one of the key works of the period.",
  "A study in weight and balance, cast from a hand-carved original.",
  "Printed by the artist in the studio on heavyweight cotton rag paper.",
  "An intimate work that rewards close looking, with traces of underdrawing visible at the edges.",
  "Made in response to the architecture of the artist's childhood home.",
];

export const PROVENANCES = [
  "The artist; Private collection, New York (acquired from the above); thence by descent.",
  "Galerie Rive Gauche, Paris; Private collection, Geneva; acquired from the above by the present owner.",
  "Estate of the artist; Private collection, London.",
  "Acquired directly from the artist by the present owner in 1989.",
];

export const ARTWORK_TAGS = list(`
  Abstraction, Figurative, Landscape, Portraiture, Still life, Minimalism, Large scale, Works on paper,
  Photography, Sculpture, Editions, Blue-chip, Emerging, Estate, Nordic, West African, Japanese,
  Latin American, Textile, Architecture, Nocturne, Color field, Monochrome, Art Basel Miami Beach 2025,
  Frieze London 2025
`);
export const CONTACT_TAGS = list(`
  VIP, Museum board, Photography collector, Prints buyer, Newsletter, Met at fair, Referral,
  Young collector, Estate planning, Press list
`);

export const FIRST_NAMES = list(`
  Amelia, Benedict, Clara, Dariusz, Eleanor, Felix, Greta, Hugo, Isabel, Jasper, Katarina, Laurent, Mei,
  Nikolai, Olamide, Penelope, Quentin, Rosalind, Sebastian, Tamsin, Umberto, Vivienne, Wendell, Ximena,
  Yara, Zoltan, Adaeze, Bjorn, Cordelia, Desmond, Esme, Farid, Georgina, Hamish, Ingrid, Julian, Kiran,
  Lorenzo, Marguerite, Nadia, Orson, Phoebe, Rupert, Saoirse, Tobias, Valentina, Wilhelmina, Arjun,
  Beatrix, Cosimo
`);
export const LAST_NAMES = list(`
  Ashworth, Blackwood, Castellanos, Delacroix-Hume, Eriksen, Fairbanks, Goldschmidt, Hargreaves,
  Ishikawa, Jovanovic, Kowalczyk, Lindgren, Montague, Nakamura, Okonkwo, Pemberton, Quintero, Rosenthal,
  Sandoval, Thistlewood, Underhill, Vasquez, Whitfield, Yamamoto, Zielinski, Abernethy, Beaumont,
  Carrington, Drummond, Esterhazy, Fitzgerald, Grünewald, Holbrook, Iverson, Kaplan, Larkspur,
  Merriweather, Novak, Osei, Prescott, Rahimi, Sterling, Takahashi, Van der Berg, Wolcott
`);
export const PLACES = list(`
  Harborview, Ashgrove, Lakeshore, Redwater, Kingsbridge, Northfield, Brightwater, Stonehaven, Fairmont,
  Elm Point, Westmere, Caldera
`);
export const INSTITUTION_PATTERNS = [
  (p: string) => `${p} Museum of Art`,
  (p: string) => `${p} Museum of Contemporary Art`,
  (p: string) => `${p} University Art Collection`,
  (p: string) => `${p} Kunsthalle`,
  (p: string) => `The ${p} Foundation`,
];
export const INSTITUTION_KINDS = ["museum", "museum", "university", "kunsthalle", "foundation"] as const;
export const ADVISORIES = [
  "Vantage Art Advisory",
  "Meridian Fine Art Partners",
  "Halcyon Advisory",
  "Larch & Co.",
];
export const PRESS = [
  "Artline Weekly",
  "The Canvas Review",
  "Northern Arts Quarterly",
  "Frame & Field",
  "The Studio Journal",
];
export const TRADES = [
  "Bowery Frames",
  "Atlas Fine Art Logistics",
  "Kline Conservation",
  "Pellucid Photography",
];
export const COMPANIES = [
  "Hartwell Capital",
  "Orrin & Maddox LLP",
  "Sable Ventures",
  "Quayside Holdings",
  "Lumen Biotech",
];

export const CONTACT_TYPES = {
  collector: 45,
  institution: 10,
  consignor: 8,
  lender: 5,
  advisor: 10,
  press: 7,
  other: 15,
} as const satisfies Record<(typeof contactTypes)[number], number>;
export const LEAD_STATUSES = {
  new: 18,
  active: 30,
  engaged: 22,
  dormant: 20,
  closed: 10,
} as const satisfies Record<(typeof leadStatuses)[number], number>;
/** The spec's seventeen `engaged_event` values, as the API declares them. */
export const ENGAGEMENT_KINDS = engagementKinds;
/** How often each engagement kind occurs, relative to the others (demo seed and bench seed). */
export const ENGAGEMENT_WEIGHTS: Readonly<Record<(typeof ENGAGEMENT_KINDS)[number], number>> = {
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
/** A collector profile's budget band reads like the price bands the contacts list filters by. */
export const BUDGET_BANDS = priceBands;
export const AUCTION_HOUSES = [
  "Harrow & Vale, London",
  "Lindqvist Auktioner, Stockholm",
  "Meridian Fine Art Auctions, New York",
  "Maison Ferrand, Paris",
  "Carraway's, Hong Kong",
];
