/**
 * The artworks' activity timelines. Every work: created, each published version, its auction records, now and
 * then a move or a price change. A handful of long-held works: hundreds of entries each (moves, price and
 * availability changes, consignments, ownership changes, collectors' interest), ending on the work's current
 * state. Sentences and metadata (`from`/`to` for changes) come from the same builders the API's writes use.
 */
import * as schema from "../../db/schema";
import type { auctionResults } from "../../lib/schemas/auction-records";
import { timelineEntries } from "../../services/artworks/timeline";
import { auctionRecordFacts, auctionRecordSentence } from "../../services/auction-records/summary";
import { BASE, DAY, MINUTE } from "./common";
import type { Art, Person, SeedContext } from "./context";

/** Entries of each long timeline, one work per entry. */
const LONG_TIMELINES = [640, 480, 360, 260, 200] as const;

const AVAILABILITY_STEPS = ["available", "on_hold", "reserved", "not_for_sale", "on_loan"] as const;
const INTEREST = [
  "requested a viewing",
  "asked for a condition report",
  "saved this work",
  "asked for the price and availability",
  "asked for installation photographs",
  "requested a hold while their advisor reviews it",
  "asked about the provenance",
] as const;

/** The timeline entry (or none) of one change to a work, as the API's update writes it. */
function change(
  ctx: SeedContext,
  art: Art,
  at: number,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  extra: { contactId?: string | null; refTable?: string | null; refId?: string | null } = {},
): void {
  for (const entry of timelineEntries(before, after, locationNames(ctx)))
    ctx.activity(art, at, { ...entry, ...extra });
}

/**
 * Entries for every work. Returns the works picked for long timelines (seeded by `seedLongTimelines` once the
 * contacts exist); they get no random move or price change here, so their long history stays consistent.
 */
export function seedTimeline(ctx: SeedContext, arts: Art[], locations: string[]): Art[] {
  const { rng, rows } = ctx;
  const long = rng.sample(
    arts.filter(
      (a) =>
        a.published &&
        a.price !== null &&
        a.row.parentArtworkId == null &&
        a.createdMs < BASE - 540 * DAY &&
        ["available", "on_hold", "not_for_sale"].includes(a.availability) &&
        ["owned", "co_owned", "artist_property"].includes(a.row.ownershipStatus as string),
    ),
    LONG_TIMELINES.length,
  );
  const recordsByWork = new Map<string, (typeof schema.auctionRecords.$inferInsert)[]>();
  for (const r of rows(schema.auctionRecords))
    recordsByWork.set(r.artworkId, [...(recordsByWork.get(r.artworkId) ?? []), r]);

  for (const art of arts) {
    ctx.activity(art, art.createdMs, {
      eventType: "created",
      summary: `Added "${art.title}" to the inventory`,
    });
    for (const r of recordsByWork.get(art.id) ?? []) {
      const facts = {
        auction_house: r.auctionHouse,
        lot_number: r.lotNumber ?? null,
        sale_date: r.saleDate as string,
        hammer_price_cents: r.hammerPriceCents ?? null,
        currency: r.currency as string,
        result: r.result as (typeof auctionResults)[number],
      };
      ctx.activity(art, art.createdMs + 10 * MINUTE, {
        eventType: "auction_record_added",
        summary: `Auction record added: ${auctionRecordSentence(facts)}.`,
        refTable: "auction_records",
        refId: r.id,
        metadata: { record: auctionRecordFacts(r.id, facts) },
      });
    }
    art.versionTimes.forEach((at, i) => {
      ctx.activity(art, at, {
        eventType: "published",
        summary: i === 0 ? "Published for the first time." : `Published version ${i + 1} of the work.`,
        metadata: {
          version: i + 1,
          changed: i === 0 ? [] : [rng.pick(["description", "price_cents", "title"])],
        },
      });
    });
    if (long.includes(art)) continue;
    if (art.row.locationId && rng.chance(0.15)) {
      const from = rng.pick(locations.filter((l) => l !== art.row.locationId));
      change(
        ctx,
        art,
        rng.between(art.createdMs, BASE - DAY),
        { location_id: from },
        { location_id: art.row.locationId },
      );
    }
    if (art.price !== null && rng.chance(0.2)) {
      const before = Math.round((art.price * 0.85) / 10_000) * 10_000;
      change(
        ctx,
        art,
        rng.between(art.createdMs, BASE - DAY),
        { price_cents: before, currency: art.currency },
        { price_cents: art.price },
      );
    }
  }
  return long;
}

function locationNames(ctx: SeedContext): Record<string, string> {
  return Object.fromEntries(ctx.rows(schema.locations).map((l) => [l.id, l.name]));
}

interface Held {
  location: string | null;
  price: number;
  availability: string;
  ownership: string;
  consignor: Person | null;
}

/** The long timelines: a few years of a work's life at the gallery, ending on its current state. */
export function seedLongTimelines(ctx: SeedContext, long: Art[], people: Person[]): void {
  const { rng } = ctx;
  const ownLocations = ctx.rows(schema.locations).filter((l) => l.kind !== "loan");
  const consignors = people.filter((p) => p.type === "consignor");
  long.forEach((art, i) => {
    const count = LONG_TIMELINES[i]!;
    const { row } = art;
    const finalLocation = row.locationId ?? null;
    const finalOwnership = row.ownershipStatus as string;
    const state: Held = {
      location: rng.pick(ownLocations).id,
      price: Math.round((art.price! * 0.6) / 10_000) * 10_000,
      availability: "available",
      ownership: "owned",
      consignor: null,
    };
    /** Moves the held state to `to`, with the timeline entry the API would write for that change. */
    const become = (at: number, to: Partial<Held>, contact: Person | null = null) => {
      const before = {
        location_id: state.location,
        price_cents: state.price,
        currency: art.currency,
        availability_state: state.availability,
        ownership_status: state.ownership,
      };
      Object.assign(state, to);
      const after = {
        location_id: state.location,
        price_cents: state.price,
        availability_state: state.availability,
        ownership_status: state.ownership,
      };
      change(
        ctx,
        art,
        at,
        before,
        after,
        contact ? { contactId: contact.id, refTable: "contacts", refId: contact.id } : {},
      );
    };

    const times = Array.from({ length: count }, () => rng.between(art.createdMs + DAY, BASE - 2 * DAY)).sort(
      (a, b) => a - b,
    );
    for (const at of times) {
      const kind = rng.weighted({ interest: 34, moved: 20, price: 16, availability: 16, ownership: 6 });
      if (kind === "moved") {
        become(at, { location: rng.pick(ownLocations.filter((l) => l.id !== state.location)).id });
      } else if (kind === "price") {
        // Prices wander around today's price rather than drifting away from it.
        const up = rng.chance(state.price < art.price! ? 0.7 : 0.3);
        const factor = up ? 1 + rng.int(3, 12) / 100 : 1 - rng.int(3, 12) / 100;
        const to = Math.max(50_000, Math.round((state.price * factor) / 10_000) * 10_000);
        become(at, { price: to });
      } else if (kind === "availability") {
        become(at, { availability: rng.pick(AVAILABILITY_STEPS.filter((s) => s !== state.availability)) });
      } else if (kind === "ownership") {
        if (state.ownership !== "consigned") {
          const consignor = rng.pick(consignors);
          become(at, { ownership: "consigned", consignor }, consignor);
        } else if (rng.chance(0.5)) {
          // Bought outright from the consignor.
          become(at, { ownership: "owned", consignor: null }, state.consignor);
        } else {
          const partner = rng.pick(people.filter((p) => p.type !== "consignor"));
          become(at, { ownership: "co_owned", consignor: null }, partner);
        }
      } else {
        const known = people.filter((p) => p.createdMs <= at && !p.archived);
        const person = rng.pick(known.length ? known : people);
        ctx.activity(art, at, {
          eventType: "interest",
          summary: `${person.name} ${rng.pick(INTEREST)}`,
          actorId: null,
          contactId: person.id,
          metadata: { channel: rng.pick(["email", "viewing_room", "fair", "phone", "gallery_visit"]) },
        });
      }
    }

    // Closing entries: the timeline ends where the work's row stands today.
    let at = BASE - DAY;
    const next = () => {
      at += 10 * MINUTE;
      return at;
    };
    if (state.location !== finalLocation) become(next(), { location: finalLocation });
    if (state.price !== art.price) become(next(), { price: art.price! });
    if (state.availability !== art.availability) become(next(), { availability: art.availability });
    if (state.ownership !== finalOwnership) become(next(), { ownership: finalOwnership, consignor: null });
  });
}
