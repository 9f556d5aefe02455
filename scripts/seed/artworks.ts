/**
 * The 400 works with everything hanging off them (artists, dimensions, images, tags, formats, auction
 * records, published versions), pending drafts, and the activity timeline's created/moved/priced entries.
 */
import * as schema from "../../db/schema";
import type { ReferenceData } from "./catalogue";
import { BASE, DAY, HOUR, IMAGE_HOST, iso, isoDate, priceCents, round1, SPAN_START } from "./common";
import type { Art, Insert, SeedContext } from "./context";
import {
  ANTIQUITY_TITLES,
  AUCTION_HOUSES,
  CONDITION_NOTES,
  DESCRIPTIONS,
  MEDIA,
  MONTHS,
  PLACES,
  PRESS,
  PROVENANCES,
  TITLE_ADJECTIVES,
  TITLE_NOUNS,
} from "./material";

const ARTWORK_COUNT = 400;

/** The 400 works with their artists, dimensions, images, tags, formats, auction records and versions. */
export function seedArtworks(ctx: SeedContext, ref: ReferenceData): Art[] {
  const { rng, newId, G, rows, galleryId, editorId } = ctx;
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
    const id = newId("art", createdMs);
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

    const row: Insert<typeof schema.artworks> = {
      id,
      ...G,
      title,
      artistId: artist.id,
      artistName: artist.name,
      inventoryNumber: `NL-${year2}-${String(seq).padStart(4, "0")}`,
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
      dimensionsText: dimensionsText,
      locationId:
        availability === "on_loan" ? loanLocation : rng.chance(0.92) ? rng.pick(locations.slice(0, 5)) : null,
      priceCents: price,
      currency,
      isEdition: isEdition,
      editionNumber: editionNumber,
      editionSize: editionSize,
      editionType: editionType,
      editionOverrides: editionOverrides,
      parentArtworkId: null,
      coaStatus: coa,
      coaTrackingNumber: coa === "issued" ? `NL-COA-${String(arts.length + 1001).padStart(5, "0")}` : null,
      conditionStatus: condition,
      conditionNotes: conditionNotes,
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
      publishedAt: publishedMs === null ? null : iso(publishedMs),
      publishedVersion: publishedVersion === null ? null : Number(publishedVersion),
      saveState: published ? "published" : "new",
      sourceSystem: sourced ? "artlogic" : null,
      sourceExternalId: sourced ? `AL-${10_000 + arts.length}` : null,
      metadata,
      readiness,
      disclosureRequired: disclosure,
      judgedAt: judged ? iso(rng.between(createdMs, BASE - HOUR)) : null,
      imageCount: imageCount,
      thumbnailUrl: thumbnailUrl,
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs),
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
      showPricePublicly: row.showPricePublicly as boolean,
      thumbnailUrl,
      row,
    };
    arts.push(art);
    if (rng.chance(0.4)) art.updatedMs = rng.between(art.updatedMs, BASE - HOUR);

    // Children of the artwork
    rows(schema.artworkArtists).push({
      ...G,
      artworkId: id,
      artistId: artist.id,
      role: "primary",
      position: 0,
    });
    if (!isAntiquity && rng.chance(0.08)) {
      const other = rng.pick(livingArtists.filter((a) => a.id !== artist.id));
      rows(schema.artworkArtists).push({
        ...G,
        artworkId: id,
        artistId: other.id,
        role: "collaborator",
        position: 1,
      });
    }

    if (height !== null && width !== null && rng.chance(0.35)) {
      rows(schema.artworkDimensions).push({
        id: newId("dim", createdMs),
        ...G,
        artworkId: id,
        component: "overall",
        label: "Overall",
        heightCm: height,
        widthCm: width,
        depthCm: depth,
        position: 0,
        note: null,
      });
      if (framedPad !== null) {
        rows(schema.artworkDimensions).push({
          id: newId("dim", createdMs),
          ...G,
          artworkId: id,
          component: "framed",
          label: "Framed",
          heightCm: round1(height + framedPad),
          widthCm: round1(width + framedPad),
          depthCm: round1(4 + rng.next() * 3),
          position: 1,
          note: rng.chance(0.5) ? "Artist's frame" : null,
        });
      } else if (practice === "sculpture") {
        rows(schema.artworkDimensions).push({
          id: newId("dim", createdMs),
          ...G,
          artworkId: id,
          component: "base",
          label: "Plinth",
          heightCm: round1(80 + rng.next() * 30),
          widthCm: round1(width + 10),
          depthCm: round1((depth ?? width) + 10),
          position: 1,
          note: "Plinth supplied by the gallery",
        });
      }
    }

    for (let p = 0; p < imageCount; p++) {
      const pxW = 2400;
      const pxH = height !== null && width !== null ? Math.round((pxW * height) / width) : 1800;
      rows(schema.artworkImages).push({
        id: newId("img", createdMs + p),
        ...G,
        artworkId: id,
        storagePath: `galleries/${galleryId}/artworks/${id}/${p + 1}.jpg`,
        url: `${IMAGE_HOST}/${id}/${p + 1}.jpg`,
        caption: p === 0 ? null : rng.pick(["Detail", "Verso", "Installation view", "Side view"]),
        width: pxW,
        height: pxH,
        position: p,
        createdAt: iso(createdMs),
      });
    }

    for (const tagId of rng.sample(
      artworkTags,
      Number(rng.weighted({ "0": 20, "1": 35, "2": 30, "3": 15 })),
    )) {
      rows(schema.artworkTags).push({ ...G, artworkId: id, tagId: tagId, createdAt: iso(createdMs) });
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
        rows(schema.artworkFormats).push({
          id: newId("fmt", createdMs + p),
          ...G,
          artworkId: id,
          label: `${label} — ${h} × ${w} cm`,
          heightCm: h,
          widthCm: w,
          depthCm: null,
          dimensionUnit: unit,
          medium: practice === "photography" ? `${medium} on baryta paper` : `${medium} on Somerset Satin`,
          editionSize: rng.pick([10, 15, 25, 50]),
          stockQuantity: stock,
          availabilityState: stock === 0 ? "sold" : "available",
          priceCents: Math.round((base * (1 + p * 0.6)) / 10_000) * 10_000,
          currency,
          position: p,
          metadata: {
            paper: practice === "photography" ? "baryta" : "cotton rag",
            framing: p === 2 ? "framed" : "unframed",
          },
          createdAt: iso(createdMs),
          updatedAt: iso(createdMs),
        });
      }
    }

    if (market === "secondary" && rng.chance(0.5)) {
      const count = rng.int(1, 3);
      for (let r = 0; r < count; r++) {
        const saleMs = rng.between(Date.UTC(1995, 0, 1), createdMs);
        const result = rng.weighted({ sold: 75, bought_in: 20, withdrawn: 5 });
        rows(schema.auctionRecords).push({
          id: newId("auc", createdMs + r),
          ...G,
          artworkId: id,
          auctionHouse: rng.pick(AUCTION_HOUSES),
          lotNumber: String(rng.int(1, 480)),
          notes: result === "sold" && rng.chance(0.3) ? "Sold above the high estimate." : null,
          saleDate: isoDate(saleMs),
          hammerPriceCents: result === "withdrawn" ? null : priceCents(rng, ...artist.priceRange),
          currency: rng.weighted({ USD: 60, GBP: 25, EUR: 15 }),
          result,
          createdAt: iso(createdMs),
          updatedAt: iso(createdMs),
        });
      }
    }

    if (published && publishedVersion !== null) {
      const versions = Number(publishedVersion);
      for (let v = 1; v <= versions; v++) {
        const at = v === versions ? publishedMs! : publishedMs! - (versions - v) * 3 * DAY;
        rows(schema.artworkVersions).push({
          ...G,
          artworkId: id,
          version: v,
          snapshot: { id, title, price_cents: price, currency, availability_state: availability, medium },
          publishedBy: editorId,
          publishedAt: iso(Math.max(createdMs, at)),
        });
      }
    }
  }
  return arts;
}

/** Pending drafts over a few published works. */
export function seedDrafts(ctx: SeedContext, arts: Art[]): void {
  const { rng, G, rows, editorId } = ctx;
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
    art.row.saveState = "draft";
    rows(schema.artworkDrafts).push({
      artworkId: art.id,
      ...G,
      patch,
      editedBy: editorId,
      createdAt: iso(editedMs),
      updatedAt: iso(editedMs),
    });
  }
}

/** The activity timeline: created for every work, plus moves and price changes. */
export function seedTimeline(ctx: SeedContext, arts: Art[], locations: string[]): void {
  const { rng } = ctx;
  for (const art of arts) {
    ctx.activity(art, art.createdMs, {
      eventType: "created",
      summary: `Added "${art.title}" to the inventory`,
    });
    if (rng.chance(0.15)) {
      const to = rng.pick(locations);
      ctx.activity(art, rng.between(art.createdMs, BASE - DAY), {
        eventType: "moved",
        summary: "Moved to a new location",
        metadata: { from_location_id: art.row.locationId, to_location_id: to },
      });
    }
    if (art.price !== null && rng.chance(0.2)) {
      const before = Math.round((art.price * 0.85) / 10_000) * 10_000;
      ctx.activity(art, rng.between(art.createdMs, BASE - DAY), {
        eventType: "price_changed",
        summary: "Price updated",
        metadata: { from_cents: before, to_cents: art.price, currency: art.currency },
      });
    }
  }
}
