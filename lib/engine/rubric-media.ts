import { fold } from "./rubric-places";

/**
 * Media families for segment rubrics: what a rubric's words ("works on paper", "photography", "a print") name,
 * and which family a sold work's medium line ("Etching, edition of 20", "chromogenic print", "oil on linen")
 * belongs to. A gallery's vocabulary, not a list of the labelled set's strings: the order of the tests matters
 * (a pigment print is a photograph, an etching is a print, acrylic on paper is a work on paper, oil on linen is
 * a painting, hand-woven linen is a textile).
 */

export const FAMILIES = [
  "painting",
  "paper",
  "print",
  "photography",
  "sculpture",
  "ceramics",
  "textile",
  "video",
  "installation",
] as const;
export type Family = (typeof FAMILIES)[number];

/** Plain names of the families, for reasons. */
export const FAMILY_LABEL: Record<Family, string> = {
  painting: "painting",
  paper: "work on paper",
  print: "print",
  photography: "photograph",
  sculpture: "sculpture",
  ceramics: "ceramics",
  textile: "textile",
  video: "video or new media",
  installation: "installation",
};

const has = (text: string, re: RegExp) => re.test(text);

const PHOTO =
  /\b(photo\w*|gelatin|silver print|silver gelatin|pigment print|archival pigment|c-print|c print|chromogenic|platinum|palladium|inkjet|giclee|dye transfer|cibachrome|ilfochrome|polaroid|daguerreotype|tintype|ambrotype|cyanotype|albumen|type-c|lambda print|digital print|photogravure)\b/;
const PRINTMAKING =
  /\b(etching|etchings|lithograph\w*|litho|screenprint\w*|screen print\w*|silkscreen\w*|serigraph\w*|woodcut\w*|woodblock\w*|wood engraving|linocut\w*|lino cut|drypoint|aquatint|engraving|mezzotint|monotype|monoprint|intaglio|relief print|print|prints|mokuhanga|ukiyo-e)\b/;
const PAPER_MEDIA =
  /\b(watercolou?r\w*|gouache|pastel|pastels|charcoal|graphite|pencil|crayon|conte|ink|ink wash|sanguine|chalk|drawing|drawings|collage|silverpoint|sumi)\b/;
const ON_PAPER = /\bon (\w+ )?(paper|vellum|card|washi|rice paper|somerset|arches|hahnemuhle)\b|\bpaper\b/;
const PAINT =
  /\b(oil|oils|acrylic|acrylics|tempera|encaustic|alkyd|enamel paint|oil stick|distemper|fresco)\b/;
const PAINT_SUPPORT =
  /\bon (\w+ )?(canvas|linen|panel|board|wood|gesso|aluminium|aluminum|copper|masonite|jute)\b/;
const SCULPTURE =
  /\b(bronze|marble|stone|granite|limestone|alabaster|steel|iron|aluminium|aluminum|cast|carved|carving|oak|walnut|wood|resin|fibreglass|fiberglass|plaster|sculpture|sculptures|sculpted|assemblage|brass|copper)\b/;
const CERAMICS =
  /\b(ceramic|ceramics|stoneware|porcelain|earthenware|terracotta|terra cotta|raku|clay|glaze|glazed|celadon|pottery|faience|majolica|slip)\b/;
const TEXTILE =
  /\b(textile|textiles|tapestry|tapestries|woven|weave|weaving|jacquard|embroider\w*|quilt\w*|wool|silk|felt|cotton|linen|thread|yarn|rug|kilim|batik|appliqu\w*)\b/;
const VIDEO =
  /\b(video|videos|film|16mm|35mm|animation|animated|software|generative|digital|led|screen|monitor|projection|new media|nft|virtual reality|vr|sound installation|single-channel|two-channel|multi-channel)\b/;
const INSTALLATION = /\b(installation|site-specific|mixed media installation)\b/;

export interface MediumReading {
  family: Family | null;
  /** Printmaking is a kind of work on paper: a print matches both "print" and "works on paper". */
  families: Family[];
  /** True when the family rests on a weak cue (a material that several families share). */
  loose: boolean;
}

/** Which family a sold work's medium line belongs to; family null when it names none the vocabulary knows. */
export function classifyMedium(medium: string | null): MediumReading {
  if (!medium?.trim()) return { family: null, families: [], loose: false };
  const m = fold(medium);
  if (has(m, PHOTO) && !has(m, /\b(photo-?etching|photogravure)\b/)) {
    return {
      family: "photography",
      families: ["photography"],
      loose: has(m, /\b(inkjet|giclee|digital print)\b/),
    };
  }
  if (has(m, VIDEO) && !has(m, PAINT)) {
    const strong = has(
      m,
      /\b(video|film|animation|software|generative|new media|single-channel|two-channel|nft)\b/,
    );
    return { family: "video", families: ["video"], loose: !strong };
  }
  if (has(m, PRINTMAKING) && !has(m, PAINT_SUPPORT)) {
    return {
      family: "print",
      families: ["print", "paper"],
      loose:
        has(m, /\bprints?\b/) &&
        !has(m, /\b(etch|lith|screen|wood|lino|dry|aqua|engrav|mezzo|mono|intaglio|serigraph|silkscreen)/),
    };
  }
  if (has(m, ON_PAPER) || (has(m, PAPER_MEDIA) && !has(m, PAINT_SUPPORT) && !has(m, PAINT))) {
    return {
      family: "paper",
      families: ["paper"],
      loose: !has(m, ON_PAPER) && !has(m, /\b(watercolou?r|gouache|drawing|pastel|charcoal)\b/),
    };
  }
  if (has(m, PAINT) || (has(m, PAINT_SUPPORT) && has(m, /\b(paint\w*)\b/))) {
    return {
      family: "painting",
      families: ["painting"],
      loose: !has(m, PAINT_SUPPORT) && !has(m, /\bpainting\b/),
    };
  }
  if (has(m, /\bpainting\b/)) return { family: "painting", families: ["painting"], loose: true };
  if (has(m, CERAMICS))
    return {
      family: "ceramics",
      families: ["ceramics"],
      loose:
        has(m, /\b(clay|glaze|slip)\b/) &&
        !has(m, /\b(stoneware|porcelain|earthenware|ceramic|raku|terracotta)\b/),
    };
  if (has(m, TEXTILE))
    return {
      family: "textile",
      families: ["textile"],
      loose: !has(m, /\b(textile|tapestry|woven|weave|weaving|embroider\w*|quilt\w*|jacquard)\b/),
    };
  if (has(m, INSTALLATION)) return { family: "installation", families: ["installation"], loose: false };
  if (has(m, SCULPTURE))
    return {
      family: "sculpture",
      families: ["sculpture"],
      loose: !has(m, /\b(bronze|marble|sculpture|carved|cast)\b/),
    };
  return { family: null, families: [], loose: false };
}

/**
 * Phrases a rubric uses for media, folded, longest first, to the families they name. "Prints" alone means
 * printmaking (a photograph is "a photograph" or "photography").
 */
export const MEDIUM_PHRASES: [string, Family[]][] = (
  [
    ["works on paper", ["paper"]],
    ["work on paper", ["paper"]],
    ["on paper", ["paper"]],
    ["paper works", ["paper"]],
    ["paper", ["paper"]],
    ["drawings", ["paper"]],
    ["drawing", ["paper"]],
    ["watercolours", ["paper"]],
    ["watercolour", ["paper"]],
    ["watercolors", ["paper"]],
    ["watercolor", ["paper"]],
    ["gouaches", ["paper"]],
    ["pastels", ["paper"]],
    ["prints", ["print"]],
    ["print", ["print"]],
    ["printmaking", ["print"]],
    ["editions", ["print"]],
    ["etchings", ["print"]],
    ["etching", ["print"]],
    ["lithographs", ["print"]],
    ["lithograph", ["print"]],
    ["screenprints", ["print"]],
    ["woodcuts", ["print"]],
    ["paintings", ["painting"]],
    ["painting", ["painting"]],
    ["canvases", ["painting"]],
    ["canvas", ["painting"]],
    ["oils", ["painting"]],
    ["photography", ["photography"]],
    ["photographs", ["photography"]],
    ["photograph", ["photography"]],
    ["photos", ["photography"]],
    ["photo", ["photography"]],
    ["sculptures", ["sculpture"]],
    ["sculpture", ["sculpture"]],
    ["bronzes", ["sculpture"]],
    ["bronze", ["sculpture"]],
    ["works in bronze", ["sculpture"]],
    ["oil paintings", ["painting"]],
    ["canvas works", ["painting"]],
    ["vessels", ["ceramics"]],
    ["stoneware", ["ceramics"]],
    ["porcelain", ["ceramics"]],
    ["photographic works", ["photography"]],
    ["photo works", ["photography"]],
    ["editioned prints", ["print"]],
    ["ceramics", ["ceramics"]],
    ["ceramic", ["ceramics"]],
    ["pottery", ["ceramics"]],
    ["pots", ["ceramics"]],
    ["pot", ["ceramics"]],
    ["textiles", ["textile"]],
    ["textile", ["textile"]],
    ["tapestries", ["textile"]],
    ["tapestry", ["textile"]],
    ["weavings", ["textile"]],
    ["fibre art", ["textile"]],
    ["fiber art", ["textile"]],
    ["video art", ["video"]],
    ["video", ["video"]],
    ["videos", ["video"]],
    ["new media", ["video"]],
    ["digital art", ["video"]],
    ["digital works", ["video"]],
    ["film", ["video"]],
    ["moving image", ["video"]],
    ["installations", ["installation"]],
    ["installation", ["installation"]],
  ] as [string, Family[]][]
).sort((a, b) => b[0].length - a[0].length);
