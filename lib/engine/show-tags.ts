import type { ModelName, RecordEvidence, ShowTagSuggestion, ShowWorkFacts } from "./types";

export const SHOW_TAGS_MODEL: ModelName = "show-tags-rules@1";

/**
 * Show tags suggested from a show's works (docs/decisions.md "Show tag suggestions"). Four kinds of facts are
 * read: the medium family of each work, the period its year falls in, who made it, and its format (edition or
 * unique, scale). A tag is suggested only when enough of the show's works support it: its probability is that
 * support, the share of the show's works behind it, and its evidence names those works.
 *
 * Facets are the show tags' own (lib/schemas/shows.ts showTagFacets): medium families under `medium`, decades,
 * centuries and "Contemporary" under `period`, solo / two-person / group and edition, unique and scale under
 * `format`. That set has no artist facet: the artist of a solo show (or one who dominates a group show) is
 * suggested under `subject`, what the show is about.
 */

type Facet = "medium" | "period" | "subject" | "format";

/** The least share of the show's works a tag needs, per facet. A show of paintings and works on paper in
 * roughly equal parts is tagged with both, so the medium floor is a third. */
const MIN_SHARE: Record<Facet, number> = { medium: 1 / 3, period: 0.5, subject: 0.6, format: 0.5 };
/** Two works at least behind a tag, unless the show has only one. */
const MIN_WORKS = 2;
/** A solo show: every work with a known artist is by one artist, and they make at least this share. */
const SOLO_SHARE = 0.8;
/** A two-person show: exactly two artists, the second with at least this share. */
const TWO_PERSON_SHARE = 0.25;
/** Works from this year on are "Contemporary" rather than a decade. */
const CONTEMPORARY_FROM = 2000;
/** The longer side, in centimetres, from which a work is large scale, and up to which it is small. */
const LARGE_CM = 150;
const SMALL_CM = 30;
/** Show tag names are 1 to 60 characters. */
const MAX_NAME = 60;

const FACET_ORDER: Facet[] = ["format", "subject", "medium", "period"];

// ---------------------------------------------------------------------------------------------------------
// Medium families

const PRINT_PROCESS =
  /\b(etching|lithograph\w*|litho|screen ?print\w*|silk ?screen\w*|serigraph\w*|woodcut|wood engraving|linocut|linoleum cut|engraving|aquatint|drypoint|mezzotint|intaglio|gicl[eé]e|relief print)\b/;
const UNIQUE_PRINT = /\b(monotype|monoprint)\b/;

/** A support of paper named, as English and the other catalogue languages write it. */
const ON_PAPER = /\b(on|sur|auf|su|sobre|op) (\w+ ){0,2}(paper|papier|carta|papel)\b/;
/** A painting's support named: it decides over the medium (a silkscreen on canvas is a painting). */
const PAINTING_SUPPORT =
  /\bon (\w+ )?(canvas|linen|panel|board|wood|aluminium|aluminum|copper|masonite|gesso)\b|\b(sur toile|auf leinwand|su tela|sobre (lienzo|tela)|op doek)\b/;

/** Families in the order they are tried: the first whose pattern matches names the work's family. */
const FAMILIES: { name: string; pattern: RegExp }[] = [
  {
    name: "Photography",
    pattern:
      /\b(photo\w*|gelatin silver|silver gelatin|c-?print|c-?type|chromogenic|pigment print|platinum|palladium|albumen|cyanotype|daguerreotype|tintype|ambrotype|polaroid|dye transfer|inkjet|lambda|light ?jet)\b/,
  },
  { name: "Video", pattern: /\b(video|single[- ]channel|multi[- ]channel|16 ?mm|35 ?mm|moving image)\b/ },
  { name: "Works on paper", pattern: ON_PAPER },
  { name: "Painting", pattern: PAINTING_SUPPORT },
  { name: "Works on paper", pattern: new RegExp(`${PRINT_PROCESS.source}|${UNIQUE_PRINT.source}`) },
  {
    name: "Textile",
    pattern:
      /\b(textile|tapestry|woven|weaving|wool|embroider\w*|felt(?!-tip)|quilt\w*|thread|yarn|jacquard)\b/,
  },
  { name: "Painting", pattern: /\b(oil|oils|acrylic|tempera|encaustic|alkyd|distemper|huile|olio)\b/ },
  {
    name: "Ceramics",
    pattern:
      /\b(ceramic\w*|stoneware|porcelain|earthenware|terracotta|terra cotta|raku|glazed?|slip ?cast)\b/,
  },
  {
    name: "Sculpture",
    pattern:
      /\b(bronze|marble|granite|stone|steel|iron|aluminium|aluminum|brass|copper|resin|plaster|fibreglass|fiberglass|carved|cast|sculpture|wood|glass)\b/,
  },
  // Drawing media with no support named are works on paper more often than not.
  {
    name: "Works on paper",
    pattern:
      /\b(drawing|graphite|pencil|charcoal|pastel|watercolou?r|gouache|ink|crayon|cont[eé]|sanguine|collage|encre|tinta|aquarelle|acquerello|fusain|bleistift)\b/,
  },
  { name: "Installation", pattern: /\binstallation\b/ },
  { name: "Mixed media", pattern: /\bmixed[- ]media\b/ },
];

/** The medium family of a work, or null when its medium says nothing recognisable. */
export function mediumFamily(medium: string | null): string | null {
  if (medium === null) return null;
  const text = medium.toLowerCase().normalize("NFC");
  for (const family of FAMILIES) if (family.pattern.test(text)) return family.name;
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Periods

function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th");
  return `${n}${suffix}`;
}

function decadeOf(year: number): string {
  return `${Math.floor(year / 10) * 10}s`;
}

/** 1900–1999 is the 20th century as galleries speak of it (the 1900s). */
function centuryOf(year: number): string {
  return `${ordinal(Math.floor(year / 100) + 1)} century`;
}

// ---------------------------------------------------------------------------------------------------------
// Formats

const EDITION_LABEL =
  /\b(editions?|ed\.|print run|a\.?p\.?|artist'?s proof)(?!\w)|\b\d+\s*\/\s*\d+\b|\bprints?\b/i;
const UNIQUE_LABEL = /\b(unique|one of a kind|unicum|unica|pi[eè]ce unique)\b/i;

function isEditioned(work: ShowWorkFacts): boolean {
  if (work.isEdition === true) return true;
  if ((work.editionSize ?? 0) > 1) return true;
  if (work.formats.some((label) => EDITION_LABEL.test(label) && !UNIQUE_LABEL.test(label))) return true;
  const medium = (work.medium ?? "").toLowerCase();
  return PRINT_PROCESS.test(medium) && !UNIQUE_PRINT.test(medium) && !UNIQUE_LABEL.test(medium);
}

function isUnique(work: ShowWorkFacts): boolean {
  if (work.isEdition === true || (work.editionSize ?? 0) > 1) return false;
  const medium = (work.medium ?? "").toLowerCase();
  return (
    UNIQUE_LABEL.test(medium) || UNIQUE_PRINT.test(medium) || work.formats.some((l) => UNIQUE_LABEL.test(l))
  );
}

function longerSide(work: ShowWorkFacts): number | null {
  const sides = [work.heightCm, work.widthCm].filter((v): v is number => v !== null && v > 0);
  return sides.length === 0 ? null : Math.max(...sides);
}

// ---------------------------------------------------------------------------------------------------------
// Suggesting

interface Candidate {
  name: string;
  facet: Facet;
  works: { work: ShowWorkFacts; label: string }[];
}

function evidenceOf(works: Candidate["works"]): RecordEvidence[] {
  return works.map(({ work, label }) => ({ kind: "artwork", id: work.artworkId, label, at: null }));
}

/** Groups works by a key (null: the work lends no support), keeping each work's label. */
function groupBy(
  works: ShowWorkFacts[],
  key: (work: ShowWorkFacts) => { key: string; label: string } | null,
): Map<string, Candidate["works"]> {
  const groups = new Map<string, Candidate["works"]>();
  for (const work of works) {
    const k = key(work);
    if (k === null) continue;
    const group = groups.get(k.key) ?? [];
    group.push({ work, label: k.label });
    groups.set(k.key, group);
  }
  return groups;
}

function mediumCandidates(works: ShowWorkFacts[]): Candidate[] {
  const groups = groupBy(works, (w) => {
    const family = mediumFamily(w.medium);
    return family === null ? null : { key: family, label: w.medium ?? family };
  });
  return [...groups].map(([name, group]) => ({ name, facet: "medium", works: group }));
}

function periodCandidates(works: ShowWorkFacts[]): Candidate[] {
  const dated = works.filter((w) => w.year !== null && w.year >= 1000 && w.year <= 9999);
  const label = (w: ShowWorkFacts) => String(w.year);
  const contemporary = dated
    .filter((w) => w.year! >= CONTEMPORARY_FROM)
    .map((w) => ({ work: w, label: label(w) }));
  const older = dated.filter((w) => w.year! < CONTEMPORARY_FROM);
  const candidates: Candidate[] = [{ name: "Contemporary", facet: "period", works: contemporary }];
  const decades = groupBy(older, (w) => ({ key: decadeOf(w.year!), label: label(w) }));
  const decadeCandidates = [...decades].map(
    ([name, group]): Candidate => ({ name, facet: "period", works: group }),
  );
  candidates.push(...decadeCandidates);
  // A century only where no single decade carries the show: "1960s" says more than "20th century".
  const share = (c: Candidate) => c.works.length / works.length;
  if (!decadeCandidates.some((c) => share(c) >= MIN_SHARE.period)) {
    const centuries = groupBy(older, (w) => ({ key: centuryOf(w.year!), label: label(w) }));
    candidates.push(
      ...[...centuries].map(([name, group]): Candidate => ({ name, facet: "period", works: group })),
    );
  }
  return candidates;
}

/** The artist of a solo show or one who dominates, and the show's format: solo, two-person or group. */
function artistCandidates(works: ShowWorkFacts[]): Candidate[] {
  const byArtist = groupBy(works, (w) => {
    const name = w.artistName?.trim().replace(/\s+/g, " ");
    return name ? { key: name.toLowerCase(), label: name } : null;
  });
  const ranked = [...byArtist.values()].sort((a, b) => b.length - a.length);
  const top = ranked[0];
  if (!top) return [];
  const candidates: Candidate[] = [];
  const topShare = top.length / works.length;
  const name = top[0]!.label;
  const second = ranked[1];
  // Dominant: most of the show, and at least three times the next artist (not one of a two-person show).
  const dominant = topShare >= MIN_SHARE.subject && (second === undefined || top.length >= 3 * second.length);
  // The name as the first of its works spells it.
  if (dominant) candidates.push({ name, facet: "subject", works: top });
  if (ranked.length === 1 && topShare >= SOLO_SHARE) {
    candidates.push({ name: "Solo show", facet: "format", works: top });
  } else if (ranked.length === 2 && second!.length / works.length >= TWO_PERSON_SHARE) {
    candidates.push({ name: "Two-person show", facet: "format", works: ranked.flat() });
  } else if (ranked.length >= 3 && !dominant) {
    candidates.push({ name: "Group show", facet: "format", works: ranked.flat() });
  }
  return candidates;
}

function formatCandidates(works: ShowWorkFacts[]): Candidate[] {
  const pick = (test: (w: ShowWorkFacts) => string | null): Candidate["works"] =>
    works.flatMap((work) => {
      const label = test(work);
      return label === null ? [] : [{ work, label }];
    });
  const editionLabel = (w: ShowWorkFacts) =>
    w.editionSize
      ? `edition of ${w.editionSize}`
      : (w.formats.find((l) => EDITION_LABEL.test(l)) ?? w.medium ?? "edition");
  return [
    { name: "Editions", facet: "format", works: pick((w) => (isEditioned(w) ? editionLabel(w) : null)) },
    { name: "Unique works", facet: "format", works: pick((w) => (isUnique(w) ? "unique" : null)) },
    {
      name: "Large scale",
      facet: "format",
      works: pick((w) => {
        const side = longerSide(w);
        return side !== null && side >= LARGE_CM ? `${side} cm` : null;
      }),
    },
    {
      name: "Small works",
      facet: "format",
      works: pick((w) => {
        const side = longerSide(w);
        return side !== null && side <= SMALL_CM ? `${side} cm` : null;
      }),
    },
  ];
}

export function suggestShowTags(works: ShowWorkFacts[]): ShowTagSuggestion[] {
  // One fact per work: a work listed twice is counted once.
  const seen = new Set<string>();
  const unique = works.filter((w) => !seen.has(w.artworkId) && seen.add(w.artworkId));
  if (unique.length === 0) return [];
  const candidates = [
    ...artistCandidates(unique),
    ...mediumCandidates(unique),
    ...periodCandidates(unique),
    ...formatCandidates(unique),
  ];
  const needed = Math.min(MIN_WORKS, unique.length);
  const suggestions: ShowTagSuggestion[] = [];
  const names = new Set<string>();
  for (const c of candidates) {
    const share = c.works.length / unique.length;
    if (c.works.length < needed || share < MIN_SHARE[c.facet]) continue;
    if (c.name.length > MAX_NAME || names.has(c.name.toLowerCase())) continue;
    names.add(c.name.toLowerCase());
    suggestions.push({
      name: c.name,
      facet: c.facet,
      probability: Math.round(share * 1000) / 1000,
      evidence: evidenceOf(c.works),
    });
  }
  return suggestions.sort(
    (a, b) =>
      FACET_ORDER.indexOf(a.facet as Facet) - FACET_ORDER.indexOf(b.facet as Facet) ||
      b.probability - a.probability ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}
