/**
 * The 400 works with everything hanging off them (credited artists, dimensions, images, tags, formats, auction
 * records, published versions), among them edition families: parent works with numbered editions that show
 * their parent's values through, but for the fields each edition overrides.
 */
import * as schema from "../../db/schema";
import type { InheritableField } from "../../lib/schemas/artworks";
import type { auctionResults } from "../../lib/schemas/auction-records";
import { assetUrl, storagePath } from "../../lib/uploads";
import type { ReferenceData } from "./catalogue";
import { BASE, DAY, HOUR, iso, isoDate, priceCents, round1, SPAN_START } from "./common";
import type { Art, Artist, Credit, Insert, SeedContext } from "./context";
import {
  ANTIQUITY_TITLES,
  ARTWORK_TAGS,
  AUCTION_HOUSES,
  CONDITION_NOTES,
  DESCRIPTIONS,
  MEDIA,
  MONTHS,
  PLACES,
  PRESS,
  PROVENANCES,
  STYLE_TAGS,
  TITLE_ADJECTIVES,
  TITLE_NOUNS,
} from "./material";

const ARTWORK_COUNT = 400;
/** Editions per family, one family per entry; these editions count towards ARTWORK_COUNT. */
const FAMILY_SIZES = [6, 5, 5, 4, 4, 3, 3] as const;

type ArtworkRow = Insert<typeof schema.artworks>;

/** The 400 works, edition families included. */
export function seedArtworks(ctx: SeedContext, ref: ReferenceData): Art[] {
  const { rng } = ctx;
  const familyEditions = FAMILY_SIZES.reduce((n, k) => n + k, 0);
  const createdTimes = Array.from({ length: ARTWORK_COUNT - familyEditions }, () =>
    rng.between(SPAN_START, BASE - DAY),
  ).sort((a, b) => a - b);
  const catalogue = new Catalogue(ctx, ref);
  for (const createdMs of createdTimes) catalogue.addWork(createdMs);
  catalogue.addFamilies();
  return catalogue.arts;
}

/** Draws the works one at a time, keeping what later works depend on (unique titles, inventory numbers). */
class Catalogue {
  readonly arts: Art[] = [];
  private readonly usedTitles = new Set<string>();
  private readonly seqByYear = new Map<number, number>();
  private readonly livingArtists: Artist[];
  private readonly antiquityArtists: Artist[];
  /** Artwork tag ids by name, and the ids of the styles' tags. */
  private readonly tagIdByName: Map<string, string>;
  private readonly styleTagIds: Set<string>;

  constructor(
    private readonly ctx: SeedContext,
    private readonly ref: ReferenceData,
  ) {
    this.livingArtists = ref.artists.filter((a) => a.practice !== "antiquity");
    this.antiquityArtists = ref.artists.filter((a) => a.practice === "antiquity");
    this.tagIdByName = new Map(ARTWORK_TAGS.map((name, i) => [name, ref.artworkTags[i]!]));
    this.styleTagIds = new Set(STYLE_TAGS.map((name) => this.tagIdByName.get(name)!));
  }

  private inventoryNumber(createdMs: number): string {
    const year = new Date(createdMs).getUTCFullYear();
    const seq = (this.seqByYear.get(year) ?? 0) + 1;
    this.seqByYear.set(year, seq);
    return `NL-${year}-${String(seq).padStart(4, "0")}`;
  }

  /** Where a work is: the museum loan (the last location) when on loan, else mostly one of the gallery's own. */
  private location(availability: string): string | null {
    const { rng } = this.ctx;
    const { locations } = this.ref;
    if (availability === "on_loan") return locations[locations.length - 1]!;
    return rng.chance(0.92) ? rng.pick(locations.slice(0, 5)) : null;
  }

  addWork(createdMs: number): Art {
    const { rng, newId, G } = this.ctx;
    const { customStatuses } = this.ref;
    const isAntiquity = rng.chance(0.02);
    const artist = isAntiquity ? rng.pick(this.antiquityArtists) : rng.pick(this.livingArtists);
    const practice = artist.practice;
    const id = newId("art", createdMs);
    const medium = rng.pick(MEDIA[practice]);

    let title: string;
    do {
      if (isAntiquity)
        title = `${rng.pick(ANTIQUITY_TITLES)}${this.usedTitles.size % 3 === 0 ? "" : ` (${rng.int(2, 9)})`}`;
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
    } while (this.usedTitles.has(`${artist.id}:${title}`));
    this.usedTitles.add(`${artist.id}:${title}`);

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

    // Market, ownership, availability, price
    const market =
      isAntiquity || (artist.died !== null && rng.chance(0.7)) || rng.chance(0.2) ? "secondary" : "primary";
    const availability = drawAvailability(this.ctx);
    const ownership = drawOwnership(this.ctx, market);
    const price = rng.chance(0.15) ? null : priceCents(rng, ...artist.priceRange);
    const currency = rng.weighted({ USD: 80, EUR: 12, GBP: 8 });
    const condition = drawCondition(this.ctx);

    // Editions without a parent in the inventory: the other impressions are elsewhere.
    const editionable =
      practice === "print" ? 1 : practice === "photography" ? 0.85 : practice === "sculpture" ? 0.2 : 0;
    const isEdition = rng.chance(editionable);
    let editionType: string | null = null;
    let editionNumber: number | null = null;
    let editionSize: number | null = null;
    if (isEdition) {
      editionType = rng.weighted({ numbered: 70, artist_proof: 20, open: 10 });
      if (editionType !== "open") {
        editionSize = rng.pick([5, 8, 10, 12, 15, 20, 25, 30, 50, 75, 100]);
        editionNumber = editionType === "artist_proof" ? rng.int(1, 2) : rng.int(1, editionSize);
      }
    }

    const publishing = drawPublishing(this.ctx, createdMs);
    const imageCount = rng.chance(0.7) ? rng.int(1, 4) : 0;
    const description = rng.chance(0.6) ? rng.pick(DESCRIPTIONS) : null;
    const coa = rng.weighted({ not_required: 55, issued: 30, pending: 15 });
    const sourced = rng.chance(0.1);

    const metadata: Record<string, string> = {};
    if (rng.chance(0.4)) metadata.shelf = `${rng.pick(["A", "B", "C", "D"])}${rng.int(1, 12)}`;
    if (rng.chance(0.3)) metadata.insurance_band = rng.pick(["tier_1", "tier_2", "tier_3"]);
    if (rng.chance(0.15)) metadata.photographer = rng.pick(["studio", "Pellucid Photography"]);

    const row: ArtworkRow = {
      id,
      ...G,
      title,
      artistId: artist.id,
      artistName: artist.name,
      inventoryNumber: this.inventoryNumber(createdMs),
      ownershipStatus: ownership,
      availabilityState: availability,
      medium,
      year,
      endYear: endYear,
      datePrecision: precision,
      dateDisplay: dateDisplay,
      description,
      dimensionUnit: unit,
      heightCm: height,
      widthCm: width,
      depthCm: depth,
      framedHeightCm: framedPad !== null && height !== null ? round1(height + framedPad) : null,
      framedWidthCm: framedPad !== null && width !== null ? round1(width + framedPad) : null,
      framedDepthCm: framedPad !== null ? round1(4 + rng.next() * 3) : null,
      dimensionsText: dimensionsText(unit, height, width, depth),
      locationId: this.location(availability),
      priceCents: price,
      currency,
      isEdition: isEdition,
      editionNumber: editionNumber,
      editionSize: editionSize,
      editionType: editionType,
      editionOverrides: [],
      parentArtworkId: null,
      coaStatus: coa,
      coaTrackingNumber:
        coa === "issued" ? `NL-COA-${String(this.arts.length + 1001).padStart(5, "0")}` : null,
      conditionStatus: condition.status,
      conditionNotes: condition.notes,
      provenance: market === "secondary" ? rng.pick(PROVENANCES) : null,
      exhibitionHistory: rng.chance(0.25)
        ? `${rng.pick(PLACES)} Museum of Art, group exhibition, ${(year ?? 2000) + 1}.`
        : null,
      literature:
        market === "secondary" && rng.chance(0.4) ? `${rng.pick(PRESS)}, ${(year ?? 1990) + 2}, ill.` : null,
      catalogueRaisonne:
        artist.died !== null && rng.chance(0.5) ? `CR ${String(rng.int(1, 900)).padStart(3, "0")}` : null,
      market,
      customStatusId: rng.chance(0.15) ? rng.pick(customStatuses) : null,
      showPricePublicly: price !== null && rng.chance(0.4),
      ...publishing.columns,
      sourceSystem: sourced ? "artlogic" : null,
      sourceExternalId: sourced ? `AL-${10_000 + this.arts.length}` : null,
      metadata,
      ...drawJudgment(this.ctx, createdMs, imageCount, description, price, condition),
      imageCount: imageCount,
      thumbnailUrl: null,
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs),
    };

    const credits: Credit[] = [{ artistId: artist.id, role: "primary" }];
    if (!isAntiquity && rng.chance(0.08)) {
      const other = rng.pick(this.livingArtists.filter((a) => a.id !== artist.id));
      credits.push({ artistId: other.id, role: "collaborator" });
    }
    const art = this.push(row, artist, credits, publishing.versionTimes);

    if (height !== null && width !== null && rng.chance(0.35)) {
      const dims: Dimension[] = [
        {
          component: "overall",
          label: "Overall",
          heightCm: height,
          widthCm: width,
          depthCm: depth,
          note: null,
        },
      ];
      if (framedPad !== null) {
        dims.push({
          component: "framed",
          label: "Framed",
          heightCm: row.framedHeightCm!,
          widthCm: row.framedWidthCm!,
          depthCm: row.framedDepthCm!,
          note: rng.chance(0.5) ? "Artist's frame" : null,
        });
      } else if (practice === "sculpture") {
        dims.push({
          component: "base",
          label: "Plinth",
          heightCm: round1(80 + rng.next() * 30),
          widthCm: round1(width + 10),
          depthCm: round1((depth ?? width) + 10),
          note: "Plinth supplied by the gallery",
        });
      }
      dims.forEach((d, position) => {
        this.ctx
          .rows(schema.artworkDimensions)
          .push({ id: newId("dim", createdMs), ...G, artworkId: id, ...d, position });
      });
    }

    this.addChildren(art, imageCount);
    const formatVariants =
      isEdition && (practice === "print" || practice === "photography")
        ? 0.85
        : practice === "paper" || (isEdition && practice === "sculpture")
          ? 0.4
          : 0;
    if (rng.chance(formatVariants)) this.addFormats(art);
    if (market === "secondary" && rng.chance(0.5)) this.addAuctionRecords(art, rng.int(1, 3));
    return art;
  }

  private push(row: ArtworkRow, artist: Artist, credits: Credit[], versionTimes: number[]): Art {
    const { rng } = this.ctx;
    const createdMs = Date.parse(row.createdAt as string);
    const art: Art = {
      id: row.id,
      title: row.title,
      artist,
      createdMs,
      updatedMs: Math.max(createdMs, versionTimes[versionTimes.length - 1] ?? 0),
      price: row.priceCents ?? null,
      currency: row.currency as string,
      availability: row.availabilityState as string,
      published: versionTimes.length > 0,
      showPricePublicly: row.showPricePublicly as boolean,
      thumbnailUrl: row.thumbnailUrl ?? null,
      credits,
      versionTimes,
      row,
    };
    this.arts.push(art);
    if (rng.chance(0.4)) art.updatedMs = rng.between(art.updatedMs, BASE - HOUR);
    credits.forEach(({ artistId, role }, position) => {
      this.ctx
        .rows(schema.artworkArtists)
        .push({ ...this.ctx.G, artworkId: row.id, artistId, role, position });
    });
    return art;
  }

  /** Images, tags and published versions: what every work has, editions included. */
  private addChildren(art: Art, imageCount: number): void {
    const { rng, newId, G, rows, galleryId, editorId, publicBaseUrl } = this.ctx;
    const { row } = art;
    for (let p = 0; p < imageCount; p++) {
      const id = newId("img", art.createdMs + p);
      // Stored where a signed upload of this image would be, and served by the asset route; the picture, its
      // pixel size and byte count are filled in once every work is final (./images).
      const path = storagePath(galleryId, "artworks", art.id, id, "image/jpeg");
      const url = assetUrl({ PUBLIC_BASE_URL: publicBaseUrl }, path);
      if (p === 0) art.thumbnailUrl = row.thumbnailUrl = url;
      rows(schema.artworkImages).push({
        id,
        ...G,
        artworkId: art.id,
        storagePath: path,
        url,
        caption: p === 0 ? null : rng.pick(["Detail", "Verso", "Installation view", "Side view"]),
        width: null,
        height: null,
        contentType: "image/jpeg",
        sizeBytes: null,
        position: p,
        createdAt: iso(art.createdMs),
        updatedAt: iso(art.createdMs),
      });
      // The draw that once made up a file size: kept, so every value generated after it stays as it was.
      rng.next();
    }

    // Other tags at random; of the styles' tags only the artist's, on three works in four.
    const tags = rng
      .sample(this.ref.artworkTags, Number(rng.weighted({ "0": 20, "1": 35, "2": 30, "3": 15 })))
      .filter((tagId) => !this.styleTagIds.has(tagId));
    const style = art.artist.style === null ? undefined : this.tagIdByName.get(art.artist.style);
    if (style !== undefined && rng.chance(0.75)) tags.push(style);
    for (const tagId of tags) {
      rows(schema.artworkTags).push({ ...G, artworkId: art.id, tagId: tagId, createdAt: iso(art.createdMs) });
    }

    art.versionTimes.forEach((at, i) => {
      rows(schema.artworkVersions).push({
        ...G,
        artworkId: art.id,
        version: i + 1,
        snapshot: {
          id: art.id,
          title: art.title,
          price_cents: art.price,
          currency: art.currency,
          availability_state: art.availability,
          medium: row.medium,
        },
        publishedBy: editorId,
        publishedAt: iso(at),
      });
    });
  }

  /** Sellable variants: print and photograph sizes, sculpture patinas, framings of works on paper. */
  private addFormats(art: Art): void {
    const { rng, newId, G, rows } = this.ctx;
    const { row } = art;
    const practice = art.artist.practice;
    const medium = row.medium ?? "";
    const variants: { label: string; h: number | null; w: number | null; medium: string; framing: string }[] =
      practice === "print" || practice === "photography"
        ? [
            [`Small — 30 × 40 cm`, 30, 40],
            [`Medium — 50 × 70 cm`, 50, 70],
            [`Large — 80 × 110 cm`, 80, 110],
          ].map(([label, h, w], p) => ({
            label: label as string,
            h: h as number,
            w: w as number,
            medium: practice === "photography" ? `${medium} on baryta paper` : `${medium} on Somerset Satin`,
            framing: p === 2 ? "framed" : "unframed",
          }))
        : practice === "sculpture"
          ? ["Dark brown patina", "Gold patina", "Polished"].map((finish) => ({
              label: finish,
              h: row.heightCm ?? null,
              w: row.widthCm ?? null,
              medium: `${medium}, ${finish.toLowerCase()}`,
              framing: "none",
            }))
          : ["Unframed", "Framed — white oak", "Framed — black lacquer"].map((label, p) => ({
              label,
              h: row.heightCm == null ? null : round1(row.heightCm + (p === 0 ? 0 : 8)),
              w: row.widthCm == null ? null : round1(row.widthCm + (p === 0 ? 0 : 8)),
              medium,
              framing: p === 0 ? "unframed" : "framed",
            }));
    const count = rng.int(1, variants.length);
    const base = art.price ?? priceCents(rng, 50_000, 800_000);
    for (let p = 0; p < count; p++) {
      const v = variants[p]!;
      const stock = rng.int(0, 12);
      rows(schema.artworkFormats).push({
        id: newId("fmt", art.createdMs + p),
        ...G,
        artworkId: art.id,
        label: v.label,
        heightCm: v.h,
        widthCm: v.w,
        depthCm: practice === "sculpture" ? (row.depthCm ?? null) : null,
        dimensionUnit: row.dimensionUnit as string,
        medium: v.medium,
        editionSize: practice === "paper" ? null : rng.pick([10, 15, 25, 50]),
        stockQuantity: stock,
        availabilityState: stock === 0 ? "sold" : "available",
        priceCents: Math.round((base * (1 + p * 0.6)) / 10_000) * 10_000,
        currency: art.currency,
        position: p,
        metadata: {
          paper: practice === "photography" ? "baryta" : practice === "print" ? "cotton rag" : "none",
          framing: v.framing,
        },
        pending: null,
        pendingAction: null,
        createdAt: iso(art.createdMs),
        updatedAt: iso(art.createdMs),
      });
    }
  }

  /** The work's earlier appearances at auction, before the gallery took it in. */
  private addAuctionRecords(art: Art, count: number): void {
    const { rng, newId, G, rows } = this.ctx;
    for (let r = 0; r < count; r++) {
      const saleMs = rng.between(Date.UTC(1995, 0, 1), art.createdMs - DAY);
      const result = rng.weighted<(typeof auctionResults)[number]>({
        sold: 58,
        sold_after_sale: 8,
        bought_in: 20,
        withdrawn: 7,
        postponed: 7,
      });
      const house = rng.pick(AUCTION_HOUSES);
      rows(schema.auctionRecords).push({
        id: newId("auc", art.createdMs + r),
        ...G,
        artworkId: art.id,
        auctionHouse: house,
        lotNumber: String(rng.int(1, 480)),
        notes:
          result === "sold" && rng.chance(0.3)
            ? "Sold above the high estimate."
            : result === "withdrawn"
              ? "Withdrawn by the consignor before the sale."
              : result === "postponed"
                ? "Offered again at the following season's sale."
                : null,
        saleDate: isoDate(saleMs),
        // A bought-in lot records the last bid below the reserve; withdrawn and postponed lots were never offered.
        hammerPriceCents:
          result === "withdrawn" || result === "postponed" ? null : priceCents(rng, ...art.artist.priceRange),
        currency: rng.weighted({ USD: 60, GBP: 25, EUR: 15 }),
        result,
        createdAt: iso(art.createdMs),
        updatedAt: iso(art.createdMs),
      });
    }
  }

  /**
   * Edition families: a parent work (never an edition itself) stands for the whole edition, and its editions
   * repeat every inheritable field but for the few each one overrides (an artist's proof, a smaller sheet…).
   */
  addFamilies(): void {
    const { rng } = this.ctx;
    const candidates = this.arts.filter(
      (a) =>
        ["print", "photography", "sculpture"].includes(a.artist.practice) &&
        a.row.heightCm != null &&
        a.row.widthCm != null,
    );
    for (const [i, parent] of rng.sample(candidates, FAMILY_SIZES.length).entries()) {
      const size = FAMILY_SIZES[i]!;
      const editionSize = rng.pick([8, 10, 12, 15, 20, 25]);
      Object.assign(parent.row, {
        isEdition: false,
        editionNumber: null,
        editionSize,
        editionType: "numbered",
        editionOverrides: [],
        parentArtworkId: null,
      } satisfies Partial<ArtworkRow>);
      const numbers = rng
        .sample(
          Array.from({ length: editionSize }, (_, n) => n + 1),
          size,
        )
        .sort((a, b) => a - b);
      for (const n of numbers) this.addEdition(parent, n);
    }
  }

  private addEdition(parent: Art, editionNumber: number): Art {
    const { rng, newId } = this.ctx;
    const p = parent.row;
    const createdMs = rng.between(
      parent.createdMs + HOUR,
      Math.min(BASE - DAY, parent.createdMs + 120 * DAY),
    );
    const id = newId("art", createdMs);
    const availability = drawAvailability(this.ctx);
    const price =
      parent.price === null ? null : Math.round((parent.price * (0.9 + rng.next() * 0.4)) / 10_000) * 10_000;
    const condition = drawCondition(this.ctx);
    const publishing = drawPublishing(this.ctx, createdMs);
    const imageCount = rng.chance(0.6) ? rng.int(1, 2) : 0;

    // Inherited: every inheritable field starts as the parent's; the overrides then take values of their own.
    const inherited: ArtworkRow = {
      ...p,
      id,
      inventoryNumber: `${p.inventoryNumber}/${editionNumber}`,
      ownershipStatus: drawOwnership(this.ctx, p.market as string),
      availabilityState: availability,
      framedHeightCm: null,
      framedWidthCm: null,
      framedDepthCm: null,
      locationId: this.location(availability),
      priceCents: price,
      isEdition: true,
      editionNumber,
      parentArtworkId: parent.id,
      coaStatus: "issued",
      coaTrackingNumber: `NL-COA-${String(this.arts.length + 1001).padStart(5, "0")}`,
      conditionStatus: condition.status,
      conditionNotes: condition.notes,
      exhibitionHistory: null,
      customStatusId: null,
      showPricePublicly: price !== null && rng.chance(0.5),
      ...publishing.columns,
      sourceSystem: null,
      sourceExternalId: null,
      metadata: { edition_stamp: `${editionNumber}/${p.editionSize}` },
      ...drawJudgment(this.ctx, createdMs, imageCount, p.description ?? null, price, condition),
      imageCount,
      thumbnailUrl: null,
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs),
    };
    const overrides = rng.sample(EDITION_OVERRIDES, rng.int(1, 2));
    for (const o of overrides) Object.assign(inherited, o.values(p));
    inherited.editionOverrides = overrides.flatMap((o) => o.fields);

    const art = this.push(inherited, parent.artist, parent.credits, publishing.versionTimes);
    this.addChildren(art, imageCount);
    return art;
  }
}

/** What an edition can keep for itself, as groups of inheritable fields that change together. */
const EDITION_OVERRIDES: readonly {
  fields: InheritableField[];
  values: (parent: ArtworkRow) => Partial<ArtworkRow>;
}[] = [
  { fields: ["edition_type"], values: () => ({ editionType: "artist_proof" }) },
  {
    fields: ["medium"],
    values: (p) => ({ medium: `${p.medium ?? "Impression"}, hand-coloured by the artist` }),
  },
  {
    fields: ["title"],
    values: (p) => ({ title: `${p.title} (trial proof)` }),
  },
  {
    fields: ["description"],
    values: () => ({
      description: "Printed later by the artist's studio on a heavier sheet; signed and numbered in pencil.",
    }),
  },
  {
    fields: ["height_cm", "width_cm", "depth_cm", "dimensions_text"],
    values: (p) => {
      const h = round1((p.heightCm ?? 40) * 0.6);
      const w = round1((p.widthCm ?? 30) * 0.6);
      const d = p.depthCm == null ? null : round1(p.depthCm * 0.6);
      return {
        heightCm: h,
        widthCm: w,
        depthCm: d,
        dimensionsText: dimensionsText(p.dimensionUnit!, h, w, d),
      };
    },
  },
  {
    fields: ["year", "end_year", "date_display"],
    values: (p) => {
      const year = Math.min(2025, (p.endYear ?? p.year ?? 2018) + 2);
      return { year, endYear: null, dateDisplay: `${year} (printed)` };
    },
  },
];

interface Dimension {
  component: string;
  label: string;
  heightCm: number;
  widthCm: number;
  depthCm: number | null;
  note: string | null;
}

function dimensionsText(unit: string, h: number | null, w: number | null, d: number | null): string | null {
  if (h === null || w === null) return null;
  const fmt = (cm: number) => (unit === "cm" ? String(cm) : String(round1(cm / 2.54)));
  return `${fmt(h)} × ${fmt(w)}${d !== null ? ` × ${fmt(d)}` : ""} ${unit}`;
}

function drawAvailability(ctx: SeedContext): string {
  return ctx.rng.weighted({
    available: 45,
    on_hold: 8,
    reserved: 7,
    sold: 25,
    not_for_sale: 8,
    on_loan: 7,
  });
}

function drawOwnership(ctx: SeedContext, market: string): string {
  return market === "primary"
    ? ctx.rng.weighted({ consigned: 45, owned: 20, co_owned: 5, artist_property: 30 })
    : ctx.rng.weighted({ owned: 55, consigned: 30, co_owned: 15 });
}

interface Condition {
  status: string | null;
  notes: string | null;
  damaged: boolean;
}

function drawCondition(ctx: SeedContext): Condition {
  const { rng } = ctx;
  const status = rng.chance(0.25)
    ? null
    : rng.weighted({ excellent: 30, very_good: 30, good: 22, fair: 12, poor: 6 });
  const damaged = status === "fair" || status === "poor" || (status === "good" && rng.chance(0.3));
  const notes =
    status !== null && (damaged || rng.chance(0.3))
      ? rng.pick(damaged ? CONDITION_NOTES.damage! : CONDITION_NOTES.clean!)
      : null;
  return { status, notes, damaged };
}

/** Published (60%) or new: a published work has versions 1..n, the last one at published_at. */
function drawPublishing(ctx: SeedContext, createdMs: number) {
  const { rng } = ctx;
  if (!rng.chance(0.6)) {
    return {
      versionTimes: [] as number[],
      columns: { publishedAt: null, publishedVersion: null, saveState: "new" },
    };
  }
  const publishedMs = Math.min(BASE - HOUR, createdMs + rng.int(1, 20) * DAY);
  const versions = Number(rng.weighted({ "1": 60, "2": 25, "3": 10, "4": 5 }));
  const versionTimes = Array.from({ length: versions }, (_, i) =>
    Math.max(createdMs, publishedMs - (versions - 1 - i) * 3 * DAY),
  );
  return {
    versionTimes,
    columns: { publishedAt: iso(publishedMs), publishedVersion: versions, saveState: "published" },
  };
}

/** The readiness and disclosure engines' judgments (null = not judged yet). */
function drawJudgment(
  ctx: SeedContext,
  createdMs: number,
  imageCount: number,
  description: string | null,
  price: number | null,
  condition: Condition,
) {
  const { rng } = ctx;
  const readiness = rng.chance(0.3)
    ? null
    : imageCount > 0 && description !== null && price !== null
      ? "ready"
      : imageCount > 0 || description !== null
        ? "thin"
        : "empty";
  const disclosure = rng.chance(0.3) ? null : condition.notes !== null && condition.damaged;
  const judged = readiness !== null || disclosure !== null;
  return {
    readiness,
    disclosureRequired: disclosure,
    judgedAt: judged ? iso(rng.between(createdMs, BASE - HOUR)) : null,
  };
}
