/**
 * The disclosure judge: do an artwork's condition notes describe, about the work itself, something a buyer must
 * be told (design §3)? Damage or loss, deterioration after making, instability, any past intervention, replaced
 * or altered parts or support, or a grade of fair or poor. Hedged problems count; a negation counts only within
 * its scope; the frame, glazing, mat, backing and crate are not the work unless the artist made them part of it;
 * features of the making are not disclosures.
 *
 * The notes are read sentence by sentence (wink-nlp), each sentence cut into clauses at semicolons and at
 * contrast or exception words ("but", "except", "apart from", …), and each clause into comma parts. Every
 * problem term found is then weighed in its context: negated, about something that is not the work, a feature
 * of the making, a risk rather than a fact, or a generic mention; what survives decides.
 */
import { LANGUAGE_FEATURES, type Language, languageOneHot } from "./language";
import { sentences } from "./nlp";
import type { DisclosureJudgment, ModelName, PhraseEvidence } from "./types";

/** The rules alone; the judge the engine uses is lib/engine/disclosure-judge.ts (rules and learned weights). */
export const DISCLOSURE_RULES_MODEL: ModelName = "disclosure-rules@1";

const SOURCE = "condition_notes";

// ---------------------------------------------------------------------------------------------------------
// Vocabularies. Each term lists its written forms (inflections, spellings, a few French, German and Spanish
// equivalents); `weak` marks terms that are less certain signs of a problem on their own.

type Category = "damage" | "deterioration" | "instability" | "intervention" | "replaced" | "support";

interface Term {
  name: string;
  category: Category;
  /** Written forms, separated by `|`. */
  forms: string;
  weak?: boolean;
  /** A change over time (fading, foxing, a stain): "inherent to the ink" explains it but does not unmake it. */
  change?: boolean;
}

const PROBLEM_TERMS: Term[] = [
  // damage or loss
  {
    name: "loss",
    category: "damage",
    forms:
      "loss|losses|lost|perte|pertes|Verlust|Verluste|Fehlstelle|Fehlstellen|pérdida|pérdidas|faltante|faltantes",
  },
  {
    name: "tear",
    category: "damage",
    forms:
      "tear|tears|torn|rip|rips|ripped|déchirure|déchirures|Riss|Risse|Einriss|rasgadura|rasgaduras|desgarro",
  },
  { name: "split", category: "damage", forms: "split|splits|splitting" },
  {
    name: "crack",
    category: "damage",
    forms: "crack|cracks|cracked|cracking|hairline|hairlines|fissure|fissures|fêlure|fêlures|grieta|grietas",
  },
  {
    name: "chip",
    category: "damage",
    forms: "chip|chips|chipped|chipping|éclat|éclats|ébréchure|ébréchures|Chip|desportillado|desportilladura",
  },
  { name: "nick", category: "damage", forms: "nick|nicks|nicked|gouge|gouges|gouged" },
  { name: "crazing", category: "deterioration", forms: "crazing|crazed", weak: true },
  { name: "blemish", category: "damage", forms: "blemish|blemishes|blemished", weak: true },
  { name: "marks", category: "damage", forms: "mark|marks|marked|marking|markings", weak: true },
  { name: "dent", category: "damage", forms: "dent|dents|dented|denting|bump|bumps|bumped" },
  {
    name: "scratch",
    category: "damage",
    forms: "scratch|scratches|scratched|scratching|rayure|rayures|Kratzer|arañazo|arañazos|rayón|rayones",
  },
  { name: "scuff", category: "damage", forms: "scuff|scuffs|scuffed|scuffing" },
  {
    name: "abrasion",
    category: "damage",
    forms: "abrasion|abrasions|abraded|rub|rubs|rubbed|rubbing|rubbings",
    weak: true,
  },
  { name: "wear", category: "damage", forms: "wear|worn|usure|Abrieb|desgaste", weak: true },
  {
    name: "crease",
    category: "damage",
    forms: "crease|creases|creased|creasing|fold|folds|folded|pli|plis|Knick|Knicke|pliegue|pliegues",
  },
  {
    name: "hole",
    category: "damage",
    forms: "hole|holes|pinhole|pinholes|puncture|punctures|punctured|trou|trous|Loch|Löcher|agujero|agujeros",
  },
  {
    name: "break",
    category: "damage",
    forms: "broken|break|breaks|breakage|cassé|cassée|gebrochen|roto|rota",
  },
  { name: "missing", category: "damage", forms: "missing|manquant|manquante|fehlt|fehlend" },
  {
    name: "damage",
    category: "damage",
    forms:
      "damage|damaged|damages|dommage|dommages|endommagé|endommagée|beschädigt|Beschädigung|Schaden|Schäden|daño|daños|dañado|dañada",
  },
  { name: "fraying", category: "damage", forms: "fraying|frayed|fray" },
  {
    name: "stretcher marks",
    category: "damage",
    forms:
      "stretcher marks|stretcher mark|stretcher bar marks|stretcher bar lines|stretcher bar creases|stretcher lines|stretcher creases|stretcher cracks",
  },
  { name: "burn", category: "damage", forms: "burn|burns|burnt|scorch|scorched|scorching" },
  {
    name: "dead pixels",
    category: "damage",
    forms:
      "dead pixel|dead pixels|screen burn|burn-in|flicker|flickers|flickering|malfunction|malfunctions|malfunctioning|faulty",
  },
  // deterioration after making
  {
    name: "foxing",
    category: "deterioration",
    change: true,
    forms:
      "foxing|foxed|fox marks|fox spots|rousseur|rousseurs|piqûre|piqûres|Stockflecken|Stockfleck|manchas de óxido",
  },
  {
    name: "toning",
    category: "deterioration",
    change: true,
    forms:
      "toning|toned|browning|browned|darkening|darkened|yellowing|yellowed|yellowish|insolé|insolation|gebräunt|Bräunung|amarilleado|amarilleo",
  },
  {
    name: "discolouration",
    category: "deterioration",
    change: true,
    forms:
      "discolouration|discoloration|discoloured|discolored|discolouring|discoloring|discolourations|discolorations",
  },
  {
    name: "fading",
    category: "deterioration",
    change: true,
    forms:
      "fading|faded|fade|fades|bleached|light-struck|lightstruck|sun-faded|sunfaded|passé|passée|verblasst|Verblassung|descolorido|desvaído",
  },
  {
    name: "mat burn",
    category: "deterioration",
    change: true,
    forms: "mat burn|mat-burn|matt burn|mat stain|mat line|mount burn|window burn",
  },
  {
    name: "silvering",
    category: "deterioration",
    change: true,
    forms: "silvering|silvered|silver mirroring|mirroring",
  },
  {
    name: "cockling",
    category: "deterioration",
    forms:
      "cockling|cockled|cockle|cockles|ripple|ripples|rippling|rippled|undulation|undulations|undulating|buckling|buckled|waviness|wavy|gondolé|gondolage|gewellt|ondulado|ondulación",
  },
  {
    name: "distortion",
    category: "deterioration",
    forms:
      "warp|warped|warping|bowed|bowing|distortion|distorted|dimpling|dimple|dimples|dimpled|slack|sagging|bulge|bulges|bulging|deformation|deformed|cupped",
  },
  {
    name: "stain",
    category: "deterioration",
    change: true,
    forms:
      "stain|stains|stained|staining|tide line|tide lines|tideline|tidelines|tache|taches|taché|Fleck|Flecken|fleckig|mancha|manchas",
  },
  {
    name: "spots",
    category: "deterioration",
    change: true,
    forms: "spot|spots|spotting|specks|speck",
    weak: true,
  },
  {
    name: "tape residue",
    category: "deterioration",
    change: true,
    forms:
      "tape residue|tape residues|hinge remnants|hinge residue|remnants|remains of old hinges|tape stain|tape stains|tape marks|adhesive residue|glue residue|adhesive stains|residue|residues",
  },
  {
    name: "soiling",
    category: "deterioration",
    change: true,
    forms:
      "soiling|soiled|soil|surface soil|dirt|dirty|grime|grimy|dust|dusty|accretion|accretions|fly specks|fly speck|flyspecks|fly-specks|smudge|smudges|smudged|smudging|fingerprint|fingerprints|finger marks|grease|greasy|salissure|salissures|Verschmutzung|verschmutzt|suciedad",
  },
  {
    name: "biological",
    category: "deterioration",
    change: true,
    forms:
      "mould|mold|mouldy|moldy|mildew|moth damage|moth holes|moth-eaten|moth grazing|moth larvae|moth activity|insect damage|insect activity|insect holes|insect frass|insect debris|insect remains|woodworm|worm holes|wormholes|worming|bloom|efflorescence|moisissure|moisissures|Schimmel|moho",
  },
  {
    name: "corrosion",
    category: "deterioration",
    change: true,
    forms:
      "corrosion|corroded|corroding|rust|rusted|rusty|oxidation|oxidisation|oxidization|oxidised|oxidized|tarnish|tarnished|tarnishing|bronze disease",
  },
  {
    name: "weathering",
    category: "deterioration",
    forms: "weathered|weathering|deterioration|deteriorated|degraded|degradation|perished",
  },
  // instability
  {
    name: "flaking",
    category: "instability",
    forms:
      "flaking|flake|flakes|flaked|lifting|lifted|cupping|blister|blisters|blistering|blistered|tenting|tented|delamination|delaminating|delaminated|powdering|friable|crumbling|écaillage|soulèvement|soulèvements|Abplatzung|Abplatzungen|Farbabplatzungen|desprendimiento|desprendimientos",
  },
  {
    name: "unstable",
    category: "instability",
    forms: "unstable|instability|loose|brittle|embrittlement|embrittled|detached|detaching|inestable",
  },
  // past intervention by anyone
  {
    name: "restoration",
    category: "intervention",
    forms:
      "restoration|restorations|restored|restore|restoring|restauration|restaurations|restauré|restaurée|restauriert|Restaurierung|Restaurierungen|restauración|restauraciones|restaurado|restaurada|restauro|restauri",
  },
  {
    name: "retouching",
    category: "intervention",
    forms:
      "retouching|retouchings|retouched|retouches|retouch|re-touched|inpainting|inpainted|in-painting|in-painted|inpaint|overpaint|overpainted|overpainting|overpaints|repaint|repainted|repainting|retouches|Retusche|Retuschen|retuschiert|repeint|repeints|repinte|repintes",
  },
  {
    name: "lining",
    category: "intervention",
    forms:
      "relined|re-lined|relining|re-lining|reline|lined|lining|strip-lined|strip lined|strip-lining|strip lining|rentoilé|rentoilage|doubliert|Doublierung|reentelado",
  },
  {
    name: "cleaning",
    category: "intervention",
    forms:
      "cleaned|cleaning|surface-cleaned|washed|deacidified|deacidification|de-acidified|bleached|nettoyé|nettoyage|gereinigt|Reinigung|limpiado|limpieza",
  },
  {
    name: "varnish work",
    category: "intervention",
    forms:
      "revarnished|re-varnished|revarnishing|varnish removed|varnish was removed|varnish has been removed",
  },
  {
    name: "consolidation",
    category: "intervention",
    forms:
      "consolidated|consolidation|consolidating|stabilised|stabilized|fixed down|secured|treated|conserved",
  },
  {
    name: "repair",
    category: "intervention",
    forms:
      "repair|repairs|repaired|repairing|mended|reattached|re-attached|reglued|re-glued|rejoined|re-joined|reassembled|filled|fill|fills|infill|infills|infilled|réparé|réparée|réparation|réparations|repariert|Reparatur|reparado|reparada|reparación",
  },
  {
    name: "reworking",
    category: "intervention",
    forms:
      "reworked|re-worked|refreshed|repatinated|re-patinated|repatination|strengthened|reinforced|restretched|re-stretched|flattened|humidified|keyed out",
  },
  // replaced or altered original parts
  {
    name: "replaced",
    category: "replaced",
    forms:
      "replaced|replacement|replacements|not original|non-original|later signature|later addition|later additions|later hand|added later|substituted|altered|alteration|alterations|remplacé|remplacée|ersetzt|reemplazado|reemplazada",
  },
  // interventions on the support, which the artist may also have made
  {
    name: "support",
    category: "support",
    forms:
      "trimmed|cut down|reduced in size|reduced at the edges|reduced in height|reduced in width|laid down|laid on|laid to|sewn onto|sewn on|sewn to|stitched onto|stitched to|glued down|glued to|extended with|pasted down|pasted to|adhered to|laminated|mounted on card|mounted to card|mounted on board|mounted to board|mounted to aluminium|mounted on aluminium|marouflaged|transferred to canvas|transferred onto canvas|transferred to panel|transferred onto panel|transferred to a new support|transferred onto a new support|cradle|cradled|added later|later added|added to the reverse|added to the back|added to the verso|added to the support|added to the canvas|backed with|backed on|rogné|rognée|beschnitten|recortado",
  },
];

/** Features of the making, read before the problem terms so their words ("crack", "crease") are not. */
const MAKING_TERMS =
  "kiln flaw|kiln flaws|kiln mark|kiln marks|kiln crack|kiln cracks|kiln grit|firing crack|firing cracks|firing flaw|firing flaws|firing bubble|firing bubbles|firing mark|firing marks|firing line|glaze crawling|crawling|glaze pooling|glaze crazing|crazed glaze|craquelure|craquelures|crackle|crackling|age crack|age cracks|age cracking|age-related crack|age-related cracks|age-related cracking|drying crack|drying cracks|traction crack|traction cracks|traction cracking|printer's crease|printers crease|printer's creases|printer’s crease|printing crease|centre fold|center fold|centrefold|platemark|plate mark|plate marks|casting mark|casting marks|casting seam|casting seams|casting line|casting lines|casting flaw|casting flaws|foundry mark|foundry marks|deckle|deckle edge|deckle edges|wood grain|natural inclusions|inclusions|manufacturing flaw|manufacturing flaws|as issued|as printed|as published";

/**
 * Clause-level attributions to the making: a problem term beside one is set aside (an intervention never is).
 * The strong ones say the feature was there from the making; the weak ones only explain it, which sets aside a
 * state ("a ripple inherent to the handmade sheet") but not a change over time ("fading inherent to the inks").
 */
const MAKING_ATTRIBUTION =
  /\b(as (issued|printed|published|produced|cast|made|fired|intended)|intended|intentional(ly)?|deliberate(ly)?|by design|(part|feature) of the ([\w’']+ ){0,2}(design|making|firing|weave)|original to the (making|firing|casting)|(from|during|in) the (making|firing|kiln|casting|printing|manufacture)|from the kiln|(?<!\b(used|applied|employed|chosen|supplied|added|signed|dated|inscribed|titled|numbered) )(by|from) the (artist|foundry|printer|potter|maker)\b|the (artist|potter|maker)[’']s (own )?(?!signature|monogram|estate|foundation|family|gallery|dealer|catalogue)\w+|(since|from) (the time )?(it|the work|the piece) was (made|created|painted|printed|cast|fired)|since (its )?(making|creation|manufacture|production))/i;
const MAKING_EXPLANATION =
  /\b(inherent|typical of the (artist|technique|medium|process|firing|material)|(part|feature) of the ([\w’']+ ){0,2}(process|technique|method))\b/i;

/** Negation cues that open a scope running forward to the end of the clause. */
const NEGATORS =
  /\b(no(?!\.?\s*\d)|not|never|without|nor|neither|none|nil|free (of|from)|absence of|n[’']t|sin|sans|ni|pas de|aucun|aucune|ohne|kein|keine|keinerlei)\b|n[’']t\b/gi;

/** Words that end a negation's scope and start a new clause: contrast and exception. */
const CLAUSE_BREAKS =
  /;|\s[–—]\s|\b(but|except|excepting|apart from|aside from|other than|save for|save|beyond|besides|though|although|however|whereas|while|yet|otherwise|with the exception of|mais|sauf|aber|außer|pero|salvo|excepto)\b/gi;

/** A scope continues past a comma or "and" only into a further bare term of the same list. */
const SCOPE_CONTINUES = /^\s*(,|and|or|nor|\/|&)\s*(or |nor |and )?/i;

/** Post-posed negation: "Foxing: none", "inpainting not detected". */
const POST_NEGATION =
  /^(-?free\b|(\s+[\p{L}]+){0,2}\s*[:\-–—=]\s*(none|no|nil|n\/a)\b|\s*([:\-–—=]\s*(none|no|nil|n\/a|not (observed|visible|detected|found|present|evident|apparent|seen|noted))|(is |are |was |were |has been |have been )?(not|none) (observed|visible|detected|found|present|evident|apparent|seen|noted)|(none|nil)\b))/iu;

/** Hedges that keep a problem (it still counts, less certainly). */
const HEDGES =
  /\b(possible|possibly|perhaps|probable|probably|likely|apparent(ly)?|appears?|appeared|seems?|seemingly|may|might|could|suspected|suspect|presumably|reportedly|reported|reports|believed|thought to|we believe|consistent with|suggests?|indicat(es|ing)|traces of|uncertain|unconfirmed|not (been able to )?confirm(ed)?|peut-être|vielleicht|posible|posiblemente)\b/i;

/** A modal right before a term in its base form makes it a risk, not a fact: "may fade", "can smudge". */
const MODAL_BEFORE = /\b(may|might|can|could|will|would|to)\s+(easily\s+|further\s+|eventually\s+)?$/i;

/** A warning before a term in any form: "to avoid fading", "prone to cracking", "protect from fading". */
const WARNING_BEFORE =
  /\b(avoid|avoiding|prevent|preventing|against|risk of|risks|prone to|susceptible to|sensitive to|liable to|danger of|protect(ed|s)? from|minimi[sz]e)\s+(\w+\s+)?$/i;

/** A care instruction made of a term used as a verb: "dust with a soft brush", "rub gently". */
const INSTRUCTION_AFTER =
  /^\s+(with|gently|lightly|regularly|carefully|only|occasionally|periodically|using)\b/i;

/** Words that introduce an exception to what came before: "no losses except…", "no retouching apart from…". */
const EXCEPTION_MARKER =
  /^\s*(except|excepting|apart from|aside from|other than|save for|but for|with the exception of|sauf|außer|excepto|salvo)\b/i;

/** A quantifier that names no actual problem: "any losses", "any irregularities". */
const GENERIC_BEFORE = /\b(any|if)\s+$/i;

/** An open question puts nothing on record: "unknown whether the work has been cleaned". */
const OPEN_QUESTION =
  /\b(unknown|not known|unclear|uncertain|cannot say|can[’']t say|do not know|don[’']t know|no way of knowing|to check|to be checked|to confirm) (whether|if)\b/i;

/** Things that are not the work (unless the artist made them part of it). */
const NON_WORK =
  /\b(frames?|framing|frame's|moulding|fillet|liner|rebate|glass|glazing|plexi(glass)?|perspex|acrylic glazing|acrylic sheet|mats?|matt|mounts?|mount ?board|window mount|passe-partout|backing( board)?|backboard|back board|dust ?cover|dust jacket|jacket|hanging wire|hardware|d-rings?|mirror plates?|fixtures|fixings|hanging fixtures|cleats?|certificate|certificates|documentation|paperwork|crates?|packing case|case of the|display case|slipcase|slip case|solander|clamshell|packaging|box|plinths?|pedestals?|vitrine|labels?|stickers?|media player|player|cadre|Rahmen|marco|vidrio|Glas|verre)\b/gi;

/** Notes that say the work is glazed with acrylic make a bare "acrylic" the glazing, not the paint. */
const ACRYLIC_GLAZING =
  /\b((glazed|framed|fitted|protected) (with|under|behind) (\w+ )?(acrylic|perspex|plexi(glass)?)|(under|behind) (\w+ )?acrylic\b|acrylic (glazing|glass|sheet|box|cover|vitrine)|(uv|museum|optium|conservation|anti-reflective)[- ](acrylic|plexi))/i;
const NON_WORK_WITH_ACRYLIC = new RegExp(NON_WORK.source.replace("\\b(", "\\b(acrylic|optium|"), "gi");

/** The work itself: naming it in a part overrides a non-work noun in the same part. */
const WORK_NOUNS =
  /\b(work|artwork|painting|canvas|sheet|paper|print|drawing|image|picture|panel|photograph|photo|sculpture|piece|textile|tapestry|pastel|watercolou?r|gouache|support|paint|paint layer|impasto|emulsion|bronze|ceramic|vessel|figure|object|recto|verso|margin|margins)\b/i;

/** Words before a non-work noun that make it a cause or a place, not the subject: "from the frame rebate". */
const CAUSE_BEFORE =
  /\b(from|by|where|under|behind|beneath|through|against|out of|removed from|without)\s+((the|a|an|its|old|original|previous|former|earlier|modern|new)\s+)*$/i;

/** The artist made a frame, plinth or mount part of the work. */
const PART_OF_WORK =
  /(?<!\bnot |n[’']t |\bnever )\b(part of the (work|piece|artwork|sculpture|installation)|integral (to|part of) the (work|piece|artwork)|(made|painted|carved|built|designed|chosen|gilded|constructed) (and (painted|carved|gilded|made) )?by the artist|artist[’']?s (own )?(frame|plinth|base|mount)|artist-made|original to the work)\b/i;

/** Condition grades. */
const GRADE_BAD = /\b(poor|fair|mediocre|moyen|médiocre|mauvais|schlecht|mäßig|maessig|regular|malo|mala)\b/i;
/** Spanish grades are also ordinary English or Spanish words ("regular cleaning"): only after "estado". */
const SPANISH_GRADE = /^(regular|malo|mala)$/i;
const SPANISH_CONTEXT = /\b(estado|conservación|condición)\b[\s:.\-–—=]*(de conservación\s*)?$/i;
const GRADE_CONTEXT =
  /(?<![\p{L}])(condition|cond|state|grade|graded|état|etat|zustand|estado|conservación|condición|overall|general(ly)?|in)(?![\p{L}])[\s:.\-–—=]*(is\s+|was\s+|of\s+)?(\w+\s+(to|\/|-)\s+)?$/iu;
const GRADE_AFTER = /^\s*((to|\/|-)\s*(good|fine|very good)|condition|overall|état|zustand|estado)\b/i;
const GRADE_GOOD =
  /\b(excellent|very good|good|fine|mint|pristine|perfect|as new|near mint|bon|très bon|gut|sehr gut|bueno|muy bueno)\b/i;

/** Notes that hold no statement at all: "n/a", "none", "tbc". */
const PLACEHOLDER = /^\s*(n\/?a|none|nil|tbc|tbd|to follow|not applicable|no notes)\s*\.?\s*$/i;

// ---------------------------------------------------------------------------------------------------------
// Matching helpers

function escapeForm(form: string): string {
  return form
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/['’]/g, "['’]")
    .replace(/[- ]/g, "[- ]?");
}

/** One regex per vocabulary, longest forms first so "tape residue" wins over "residue". */
function alternation(forms: string): RegExp {
  const sorted = forms
    .split("|")
    .sort((a, b) => b.length - a.length)
    .map(escapeForm);
  return new RegExp(`(?<![\\p{L}\\p{N}])(${sorted.join("|")})(?![\\p{L}\\p{N}])`, "giu");
}

const TERM_PATTERNS = PROBLEM_TERMS.map((term) => ({ term, pattern: alternation(term.forms) }));

/**
 * Misspellings: a word one dropped, doubled or swapped letter away from a single-word form of six letters or
 * more, starting with the same two letters ("scratchs", "foxin", "resored", "tonning"). A changed letter is not
 * tried: too many real words lie one substitution from a form ("framed", "frayed"). Real words that lie one
 * such edit from a form are listed so they are never read as one ("secure" is not "secured").
 */
const NEAR_WORDS = new Set(
  (
    "created|creates|create|creative|refined|reclined|relied|facing|faced|listing|listed|tending|tended|" +
    "testing|tested|cleared|cleaner|cleaners|strain|strained|strainer|stairs|folder|holder|holds|homes|hopes|" +
    "boxed|bored|bowled|bowling|boxing|warmed|filed|fillet|minded|mender|tones|toner|lines|liner|teams|flamed|" +
    "flaming|slivered|snuffed|damaged|damages|repaint|retouch|restore|loosen|lifter|spotted|started|stables|" +
    "rested|related|retained|restated|reframed|reframe|dusted|dustin|crated|crater|grated|graded|traded|" +
    "secure|replace|buckle|flatten|bowling|repaint|treate|stable|fillet"
  ).split("|"),
);

const FUZZY_FORMS = PROBLEM_TERMS.filter((t) => t.category !== "support").flatMap((term) =>
  term.forms
    .split("|")
    .filter((f) => f.length >= 6 && /^[a-z]+$/.test(f))
    .map((form) => ({ term, form })),
);

/** One letter dropped or added, or two neighbours swapped. */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const restA = a.slice(i);
  const restB = b.slice(i);
  if (restA.slice(1) === restB || restA === restB.slice(1)) return true;
  return (
    restA.length >= 2 && restA[0] === restB[1] && restA[1] === restB[0] && restA.slice(2) === restB.slice(2)
  );
}

function misspelt(word: string): Term | null {
  const lower = word.toLowerCase();
  if (lower.length < 5 || NEAR_WORDS.has(lower)) return null;
  const hit = FUZZY_FORMS.find((f) => f.form.startsWith(lower.slice(0, 2)) && withinOneEdit(lower, f.form));
  return hit ? hit.term : null;
}

const MAKING_PATTERN = alternation(MAKING_TERMS);

/**
 * Words of technique, material, subject or handling that share a form with a problem term and say nothing of
 * condition ("lost-wax", "selenium-toned", "burnt sienna", "wear gloves"): masked like the making, with their own
 * effect.
 */
const NEUTRAL_TERMS =
  "lost-wax|lost wax|selenium-toned|selenium toned|sepia-toned|sepia toned|gold-toned|gold toned|platinum-toned|" +
  "split-toned|selenium toning|sepia toning|gold toning|toned gelatin|toned silver|burnt sienna|burnt umber|" +
  "burnt orange|burnt ochre|burnt wood|soak-stain|soak stain|stain painting|stain paintings|stained glass|" +
  "flake white|loose brushwork|loose handling|loose brushstrokes|loosely painted|loosely handled|" +
  "torn paper|torn-paper|torn paper collage|sgraffito|scratched into|graphite rubbing|brass rubbing|" +
  "pencil rubbing|rubbing technique|frottage|fades to black|fade to black|fade-in|fade-out|fade in|fade out|" +
  "in bloom|in full bloom|wear gloves|wear cotton gloves|wear nitrile gloves|wearing gloves|" +
  "tool marks|tool mark|brush marks|brushmarks|brush mark|chisel marks|chisel mark|printer's mark|printer's marks|" +
  "collector's mark|collector's marks|artist's mark|studio mark|studio stamp|mason's mark|maker's mark|" +
  "makers mark|hallmark|hallmarks|registration marks|edition marks|marked verso|marked on the reverse|" +
  "marked with|marked to the base|marked on the base|signature mark|markings by the artist|" +
  "crackle glaze|folding screen|gatefold|two-fold|three-fold|fourfold|threefold|twofold|lined paper|" +
  "price reduced|reduced price|ownership transferred|title transferred|transferred ownership";
const NEUTRAL_PATTERN = alternation(NEUTRAL_TERMS);

interface Match {
  start: number;
  end: number;
  text: string;
}

function findAll(pattern: RegExp, text: string): Match[] {
  const out: Match[] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    out.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
    if (m[0].length === 0) pattern.lastIndex++;
  }
  return out;
}

/** Half-open spans [start, end) of a sentence's clauses and of each clause's comma parts. */
interface Span {
  start: number;
  end: number;
}

function cut(text: string, from: number, to: number, breaks: RegExp): Span[] {
  const spans: Span[] = [];
  let at = from;
  for (const b of findAll(breaks, text.slice(from, to))) {
    spans.push({ start: at, end: from + b.start });
    at = from + b.start;
  }
  spans.push({ start: at, end: to });
  return spans.filter((s) => s.end > s.start);
}

function within(spans: Span[], at: number): Span {
  return spans.find((s) => at >= s.start && at < s.end) ?? { start: 0, end: at + 1 };
}

// ---------------------------------------------------------------------------------------------------------
// Rules, each a small function over one term in its sentence

type Verdict = { counts: true; hedged: boolean; effect: string } | { counts: false; effect: string };

/** The nearest negation before the term whose scope still reaches it (no clause break in between). */
function negatedBefore(sentence: string, clause: Span, term: Match, termStarts: number[]): Match | null {
  const before = sentence.slice(clause.start, term.start);
  const negations = findAll(NEGATORS, before);
  const last = negations[negations.length - 1];
  if (!last) return null;
  // Between the negation and the term: a comma or "and" keeps the scope only into a bare further list item.
  const gap = before.slice(last.end);
  const gapStart = clause.start + last.end;
  // A colon opens what the negated heading introduces: "not in perfect condition: there is a small tear".
  if (gap.includes(":")) return null;
  const listBreak = /,|\band\b|\bwith\b/gi;
  for (const sep of findAll(listBreak, gap)) {
    const after = gapStart + sep.start;
    const rest = sentence.slice(after);
    const continues = SCOPE_CONTINUES.exec(rest);
    const next = after + (continues ? continues[0].length : 1);
    const nextIsTerm = termStarts.includes(next) || NEGATORS.test(sentence.slice(next, next + 12));
    NEGATORS.lastIndex = 0;
    if (sep.text.toLowerCase() === "with" || !nextIsTerm) return null;
  }
  return { start: clause.start + last.start, end: clause.start + last.end, text: last.text };
}

function isRisk(sentence: string, clause: Span, term: Match): boolean {
  const before = sentence.slice(clause.start, term.start);
  const baseForm = !/(ed|ing|s)$/i.test(term.text);
  return WARNING_BEFORE.test(before) || (MODAL_BEFORE.test(before) && baseForm);
}

/** The term opens its clause as an imperative: care advice, not a description. */
function isInstruction(sentence: string, clause: Span, term: Match): boolean {
  const before = sentence.slice(clause.start, term.start).replace(/^[\s;,:–—-]+/, "");
  return /^(please\s+|only\s+|gently\s+)?$/i.test(before) && INSTRUCTION_AFTER.test(sentence.slice(term.end));
}

function isGeneric(sentence: string, clause: Span, term: Match): boolean {
  const before = sentence.slice(clause.start, term.start);
  return GENERIC_BEFORE.test(
    before.replace(/\b(further|other|obvious|significant|visible|major|minor)\s+$/i, ""),
  );
}

/** The non-work noun a comma part is about, if any; a part that names none inherits from the part before. */
function partSubjects(
  sentence: string,
  parts: Span[],
  exempt: Match[],
  nonWorkNouns: RegExp,
): (Match | null)[] {
  const subjects: (Match | null)[] = [];
  let inherited: Match | null = null;
  parts.forEach((part, i) => {
    const text = sentence.slice(part.start, part.end);
    const nonWork = findAll(nonWorkNouns, text)
      .map((m) => ({ ...m, start: part.start + m.start, end: part.start + m.end }))
      .filter((m) => !exempt.some((e) => m.start >= e.start && m.end <= e.end))
      .filter((m) => !CAUSE_BEFORE.test(sentence.slice(part.start, m.start)));
    // A part joined on with "and"/"or" that names the work and no problem of its own shares the problem before:
    // "scuffing to the frame and the sheet".
    const next = parts[i + 1];
    const nextText = next ? sentence.slice(next.start, next.end) : "";
    const sharedWithWork =
      /^\s*(and|or|&)\b/i.test(nextText) &&
      namesWork(nextText) &&
      !exempt.some((e) => next && e.start >= next.start && e.end <= next.end);
    let subject: Match | null;
    if (nonWork.length > 0 && !namesWork(text) && !sharedWithWork) subject = nonWork[0]!;
    else if (namesWork(text) || sharedWithWork) subject = null;
    else subject = inherited;
    subjects.push(subject);
    inherited = subject;
  });
  return subjects;
}

/**
 * Whether a stretch of text names the work itself. "Part of the work" is a statement about something else, and a
 * work noun right after a non-work one is a compound ("backing paper", "glass panel"), so neither names it.
 */
function namesWork(text: string): boolean {
  const plain = text
    .replace(/\b(part|feature) of the (work|piece|artwork)\b/gi, "")
    .replace(new RegExp(`${NON_WORK.source}\\s+[\\p{L}]+`, "giu"), "");
  return WORK_NOUNS.test(plain);
}

// ---------------------------------------------------------------------------------------------------------
// The judge

interface Found {
  evidence: PhraseEvidence;
  /** Belief this one phrase gives that the notes need disclosing (only for decisive ones). */
  strength: number;
}

interface FoundTerm {
  term: Term;
  match: Match;
  /** Read as a misspelling of one of the term's forms. */
  misspelt?: boolean;
}

/** What one sentence's reading needs from the whole notes. */
interface NotesContext {
  /** Non-work nouns (singular, lower case) the artist made part of the work. */
  partOfWork: Set<string>;
  nonWorkNouns: RegExp;
}

const NON_WORK_WORD = new RegExp(`^${NON_WORK.source}$`, "i");

/** Notes with nothing written in them: empty, a dash, "n/a". */
export function isEmptyNotes(text: string): boolean {
  return !/[\p{L}]/u.test(text) || PLACEHOLDER.test(text);
}

export function judgeDisclosureByRules(notes: string | null): DisclosureJudgment {
  const text = notes ?? "";
  if (isEmptyNotes(text)) {
    return { model: DISCLOSURE_RULES_MODEL, disclosure: false, probability: 0.97, evidence: [] };
  }
  const list = sentences(text);
  const context: NotesContext = {
    partOfWork: new Set(
      list
        .filter((s) => PART_OF_WORK.test(s.text))
        .flatMap((s) => findAll(NON_WORK, s.text).map((m) => singular(m.text))),
    ),
    nonWorkNouns: ACRYLIC_GLAZING.test(text) ? NON_WORK_WITH_ACRYLIC : NON_WORK,
  };
  const found = list.flatMap((s) => readSentence(s.text, s.start, context));
  return conclude(found);
}

function singular(noun: string): string {
  return noun.toLowerCase().replace(/s$/, "");
}

/** Every phrase of one sentence that was weighed, with offsets into the whole notes. */
function readSentence(sentence: string, offset: number, context: NotesContext): Found[] {
  const found: Found[] = [];
  const at = (m: Match) => ({ start: offset + m.start, end: offset + m.end, phrase: m.text });
  const clauses = cut(sentence, 0, sentence.length, CLAUSE_BREAKS);

  // Features of the making: recorded, and their words masked from the problem terms.
  const making = findAll(MAKING_PATTERN, sentence);
  for (const m of making) {
    const effect = "a feature of the making, not a disclosure";
    found.push({ evidence: { source: SOURCE, ...at(m), effect, decisive: false }, strength: 0 });
  }

  const neutral = findAll(NEUTRAL_PATTERN, sentence);
  for (const m of neutral) {
    const effect = "a word of technique, material or handling, not of condition";
    found.push({ evidence: { source: SOURCE, ...at(m), effect, decisive: false }, strength: 0 });
  }

  const terms = findTerms(sentence, [...making, ...neutral]);
  const termStarts = terms.map((k) => k.match.start);
  const exempt = [...making, ...neutral, ...terms.map((k) => k.match)];
  const partsByClause = clauses.map((c) =>
    cut(
      sentence,
      c.start,
      c.end,
      /,|\band\b(?= (a|an|the|some|one|two|its|minor|slight|slightly|light|small|tiny|few|several|old|faint|scattered|occasional|isolated|general)\b)/gi,
    ),
  );
  const subjectsByClause = partsByClause.map((parts) =>
    partSubjects(sentence, parts, exempt, context.nonWorkNouns),
  );

  for (const { term, match, misspelt } of terms) {
    const clauseIndex = clauses.findIndex((c) => match.start >= c.start && match.start < c.end);
    const clause = clauses[clauseIndex] ?? { start: 0, end: sentence.length };
    const parts = partsByClause[clauseIndex] ?? [clause];
    const part = within(parts, match.start);
    const subject = subjectsByClause[clauseIndex]?.[parts.indexOf(part)] ?? null;
    const next = clauses[clauseIndex + 1] ?? null;
    const verdict = weigh(sentence, clause, part, term, match, termStarts, subject, context.partOfWork, next);
    if (!verdict.counts) {
      found.push({
        evidence: { source: SOURCE, ...at(match), effect: verdict.effect, decisive: false },
        strength: 0,
      });
      continue;
    }
    const strength = misspelt ? 0.7 : verdict.hedged ? 0.8 : term.weak ? 0.85 : 0.93;
    const effect = misspelt ? `${verdict.effect} (read as a misspelling)` : verdict.effect;
    found.push({ evidence: { source: SOURCE, ...at(match), effect, decisive: true }, strength });
  }

  for (const g of grades(sentence, clauses)) {
    const strength = g.bad ? (/poor|mauvais|schlecht|malo|mala/i.test(g.match.text) ? 0.95 : 0.9) : 0;
    found.push({ evidence: { source: SOURCE, ...at(g.match), effect: g.effect, decisive: g.bad }, strength });
  }
  return found;
}

/** Problem terms in a sentence, longest match first, overlapping neither the making nor each other. */
function findTerms(sentence: string, making: Match[]): FoundTerm[] {
  const candidates: FoundTerm[] = TERM_PATTERNS.flatMap(({ term, pattern }) =>
    findAll(pattern, sentence).map((match) => ({ term, match })),
  );
  candidates.sort((a, b) => a.match.start - b.match.start || b.match.end - a.match.end);
  const kept: FoundTerm[] = [];
  const taken = (m: Match) =>
    making.some((x) => m.start < x.end && x.start < m.end) ||
    kept.some((k) => m.start < k.match.end && k.match.start < m.end);
  for (const c of candidates) if (!taken(c.match)) kept.push(c);
  for (const word of findAll(/\p{L}+/gu, sentence)) {
    if (taken(word) || NON_WORK_WORD.test(word.text)) continue;
    const term = misspelt(word.text);
    if (term) kept.push({ term, match: word, misspelt: true });
  }
  return kept.sort((a, b) => a.match.start - b.match.start);
}

/** The judgment from everything weighed: any decisive phrase makes a disclosure. */
function conclude(found: Found[]): DisclosureJudgment {
  found.sort((a, b) => a.evidence.start - b.evidence.start);
  const evidence = found.map((f) => f.evidence);
  const decisive = found.filter((f) => f.evidence.decisive);
  if (decisive.length > 0) {
    const doubt = decisive.reduce((p, f) => p * (1 - f.strength), 1);
    const probability = round(clamp(1 - doubt, 0.55, 0.99));
    return { model: DISCLOSURE_RULES_MODEL, disclosure: true, probability, evidence };
  }
  const setAside = found.length;
  // Nothing counted. Notes that were read and answered (a problem negated, a frame's damage, a good grade) are
  // surer than notes where nothing problem-like was recognised at all, which may use words the judge lacks.
  const probability = setAside === 0 ? 0.86 : clamp(0.9 + 0.02 * setAside, 0.9, 0.95);
  return { model: DISCLOSURE_RULES_MODEL, disclosure: false, probability: round(probability), evidence };
}

function weigh(
  sentence: string,
  clause: Span,
  part: Span,
  term: Term,
  match: Match,
  termStarts: number[],
  subject: Match | null,
  partOfWork: Set<string>,
  next: Span | null,
): Verdict {
  const name = term.name;
  const negation = negatedBefore(sentence, clause, match, termStarts);
  if (negation)
    return (
      exceptionTo(sentence, next, termStarts, name) ?? {
        counts: false,
        effect: `"${negation.text}" negates ${name}`,
      }
    );
  if (POST_NEGATION.test(sentence.slice(match.end, clause.end))) {
    return { counts: false, effect: `${name} is stated as absent` };
  }
  if (isRisk(sentence, clause, match))
    return { counts: false, effect: `a risk of ${name}, not a fact (care advice)` };
  if (isInstruction(sentence, clause, match))
    return { counts: false, effect: `"${match.text}" is care advice` };
  if (OPEN_QUESTION.test(sentence.slice(clause.start, match.start))) {
    return { counts: false, effect: `${name} is an open question, not stated` };
  }
  if (isGeneric(sentence, clause, match))
    return { counts: false, effect: `${name} named generically, none stated` };
  if (subject && !partOfWork.has(singular(subject.text))) {
    return { counts: false, effect: `${name} is about the ${subject.text.toLowerCase()}, not the work` };
  }
  const clauseText = sentence.slice(clause.start, clause.end);
  const attributionText = clauseText.replace(new RegExp(PART_OF_WORK.source, "gi"), "");
  const interventionByAnyone = term.category === "intervention" || term.category === "replaced";
  const explained = !term.change && MAKING_EXPLANATION.test(attributionText);
  if (!interventionByAnyone && (MAKING_ATTRIBUTION.test(attributionText) || explained)) {
    return { counts: false, effect: `${name} attributed to the making` };
  }
  const hedged = HEDGES.test(sentence.slice(part.start, part.end)) || HEDGES.test(clauseText);
  const what = {
    damage: "damage or loss",
    deterioration: "deterioration",
    instability: "instability",
    intervention: "a past intervention",
    replaced: "a replaced or altered part",
    support: "an intervention on the support",
  }[term.category];
  return {
    counts: true,
    hedged,
    effect: hedged ? `hedged ${name} still counts (${what})` : `describes ${what}: ${name}`,
  };
}

/**
 * A negated term followed by an exception that names no problem of its own keeps the term for what the exception
 * covers: "no retouching apart from the signature area" is retouching. An exception about the frame is not.
 */
function exceptionTo(
  sentence: string,
  next: Span | null,
  termStarts: number[],
  name: string,
): Verdict | null {
  if (!next) return null;
  const text = sentence.slice(next.start, next.end);
  const marker = EXCEPTION_MARKER.exec(text);
  if (!marker || termStarts.some((t) => t >= next.start && t < next.end)) return null;
  const nonWork = findAll(NON_WORK, text).filter((m) => !CAUSE_BEFORE.test(text.slice(0, m.start)));
  if (nonWork.length > 0 && !namesWork(text)) {
    return { counts: false, effect: `the exception to the negated ${name} is about the ${nonWork[0]!.text}` };
  }
  return {
    counts: true,
    hedged: false,
    effect: `negated, but "${marker[1]}" keeps ${name} for part of the work`,
  };
}

function grades(sentence: string, clauses: Span[]): { match: Match; bad: boolean; effect: string }[] {
  const out: { match: Match; bad: boolean; effect: string }[] = [];
  const onlyGrade = (m: Match) => {
    const clause = within(clauses, m.start);
    const rest = sentence.slice(clause.start, clause.end).replace(m.text, "");
    return !/[\p{L}]{3,}/u.test(
      rest.replace(/\b(to|very|and|overall|good|fine|condition|cond|grade)\b/gi, ""),
    );
  };
  const gradeLike = (m: Match) =>
    GRADE_CONTEXT.test(sentence.slice(0, m.start)) || GRADE_AFTER.test(sentence.slice(m.end)) || onlyGrade(m);
  for (const m of findAll(new RegExp(GRADE_BAD.source, "gi"), sentence)) {
    if (!gradeLike(m)) continue;
    if (SPANISH_GRADE.test(m.text) && !SPANISH_CONTEXT.test(sentence.slice(0, m.start))) continue;
    const negated = /\b(not|never|n[’']t)\s+$/i.test(sentence.slice(0, m.start));
    out.push({
      match: m,
      bad: !negated,
      effect: negated ? `grade "${m.text}" negated` : `a grade of ${m.text.toLowerCase()} must be disclosed`,
    });
  }
  if (out.length === 0) {
    for (const m of findAll(new RegExp(GRADE_GOOD.source, "gi"), sentence)) {
      if (!gradeLike(m)) continue;
      out.push({ match: m, bad: false, effect: `a grade of ${m.text.toLowerCase()} is not a disclosure` });
      break;
    }
  }
  return out;
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

/** What the rules found, as the learned model's dense features (lib/engine/disclosure-judge.ts). */
export const DISCLOSURE_DENSE = [
  "rule_disclosure",
  "rule_certainty",
  "decisive_phrases",
  "set_aside_phrases",
  "rules_silent_in_english",
  ...LANGUAGE_FEATURES,
];

/** `language` is the notes' language (lib/engine/language.ts): the rules' silence means most in English. */
export function disclosureDense(ruled: DisclosureJudgment, language: Language): number[] {
  const decisive = ruled.evidence.filter((e) => e.decisive).length;
  return [
    ruled.disclosure ? 1 : 0,
    (ruled.disclosure ? ruled.probability : 1 - ruled.probability) * 2 - 1,
    Math.min(decisive, 4) / 2,
    Math.min(ruled.evidence.length - decisive, 4) / 2,
    ruled.evidence.length === 0 && language === "en" ? 1 : 0,
    ...languageOneHot(language),
  ];
}
