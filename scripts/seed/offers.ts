/** Offers with their items and recipients, as the offers API writes them. */
import * as schema from "../../db/schema";
import type { OfferStatus, offerRecipientStatuses } from "../../lib/schemas/offers";
import { BASE, DAY, DEFAULT_CURRENCY, FX_TO_DEFAULT, HOUR, iso } from "./common";
import type { Art, Person, SeedContext } from "./context";

export interface OfferSummary {
  offerId: string;
  status: OfferStatus;
  /** The offer's works in item order. */
  artIds: string[];
  recipientIds: Set<string>;
  /** The demo's draft offer whose recommended recipients show every rule (see ./matches). */
  showcase: boolean;
}

/**
 * When the scheduled offer goes out: a fixed date years after the seed's clock, so the offer reads scheduled for
 * a time ahead whenever the demo runs (the API accepts only a future time when an offer is scheduled).
 */
export const SCHEDULED_SEND_AT = Date.UTC(2030, 2, 4, 9);

interface OfferSpec {
  title: string;
  status: OfferStatus;
  message: string | null;
  /** Which works the offer shows. */
  pool: "all" | "lindqvist" | "photography" | "small";
  /** Who it is for. */
  audience: "collectors" | "institutions";
  showcase?: boolean;
}

/**
 * One offer in each status. The newer draft (the first `GET /gallery/offers?status=draft` answers) is the one whose
 * recommended recipients show every rule.
 */
const OFFERS: readonly OfferSpec[] = [
  {
    title: "Winter collectors preview",
    status: "sent",
    message: "A first look at the works for the winter viewing room.",
    pool: "all",
    audience: "collectors",
  },
  {
    title: "New paintings by Mara Lindqvist",
    status: "scheduled",
    message: "Ahead of the opening, a few works we think you'll love.",
    pool: "lindqvist",
    audience: "collectors",
  },
  {
    title: "Museum acquisition proposals",
    status: "draft",
    message: "Proposed works for the committee's spring meeting.",
    pool: "all",
    audience: "institutions",
  },
  {
    title: "Photography under $10,000",
    status: "draft",
    message: null,
    pool: "photography",
    audience: "collectors",
    showcase: true,
  },
  {
    title: "Small works for the holidays",
    status: "cancelled",
    message: "Postponed: these works go into the winter viewing room instead.",
    pool: "small",
    audience: "collectors",
  },
];

/** The recipient statuses a sent offer's first recipients take, one each. */
const SENT_STATUSES = ["opened", "sent", "replied", "bounced"] as const;

/** A price in the gallery's default currency, for the pools' price bands. */
const inDefault = (art: Art) => (art.price ?? 0) * (FX_TO_DEFAULT[art.currency] ?? 1);

/**
 * Offers in every status, each with 3 to 6 works and 4 to 10 recipients who have an email. Item positions run
 * 0..n-1; each item shows the work's own price in its currency (the offer's currency is the gallery's). A sent
 * offer has `sent_at` and recipients past `pending` (sent, opened, replied, bounced: the gallery's record of the
 * mailing); a draft, scheduled or cancelled offer was never sent, so its recipients are all `pending`. A scheduled
 * offer has its send time ahead; a draft has none.
 */
export function seedOffers(ctx: SeedContext, people: Person[], publishedArts: Art[]): OfferSummary[] {
  const { rng, newId, G, rows, editorId } = ctx;
  const active = people.filter((p) => !p.archived);
  const audiences = {
    collectors: active.filter((p) => p.type === "collector" && p.email !== null),
    institutions: active.filter((p) => p.type === "institution" && p.email !== null),
  };
  const offerable = publishedArts.filter((a) => a.availability === "available" && a.price !== null);
  const pools = {
    all: offerable,
    lindqvist: offerable.filter((a) => a.artist.name === "Mara Lindqvist"),
    photography: offerable.filter((a) => a.artist.practice === "photography" && inDefault(a) < 1_000_000),
    small: offerable.filter((a) => inDefault(a) < 500_000),
  };
  return OFFERS.map((spec, i) => {
    const createdMs = BASE - (40 - i * 9) * DAY;
    const updatedMs = createdMs + 2 * DAY;
    const id = newId("offer", createdMs);
    rows(schema.offers).push({
      id,
      ...G,
      title: spec.title,
      message: spec.message,
      status: spec.status,
      scheduledAt: spec.status === "scheduled" ? iso(SCHEDULED_SEND_AT) : null,
      sentAt: spec.status === "sent" ? iso(updatedMs) : null,
      currency: DEFAULT_CURRENCY,
      createdBy: editorId,
      createdAt: iso(createdMs),
      updatedAt: iso(updatedMs),
    });
    const pool = pools[spec.pool];
    const items = rng.sample(pool.length >= 3 ? pool : offerable, rng.int(3, 6));
    items.forEach((art, position) => {
      rows(schema.offerItems).push({
        ...G,
        offerId: id,
        artworkId: art.id,
        captionOverride: position === 0 && rng.chance(0.5) ? `${art.title}: a highlight of the season` : null,
        position,
        priceShownCents: art.price,
        currency: art.currency,
        priceVisible: rng.chance(0.8),
        createdAt: iso(createdMs),
      });
    });
    const recipients = rng.sample(audiences[spec.audience], rng.int(4, 10));
    recipients.forEach((person, r) => {
      // After a mailing each status past pending shows at least once, then as mailings go.
      const status: (typeof offerRecipientStatuses)[number] =
        spec.status !== "sent"
          ? "pending"
          : (SENT_STATUSES[r] ?? rng.weighted({ sent: 40, opened: 35, replied: 20, bounced: 5 }));
      rows(schema.offerRecipients).push({
        ...G,
        offerId: id,
        contactId: person.id,
        status,
        addedAt: iso(createdMs + HOUR),
      });
    });
    return {
      offerId: id,
      status: spec.status,
      artIds: items.map((a) => a.id),
      recipientIds: new Set(recipients.map((p) => p.id)),
      showcase: spec.showcase ?? false,
    };
  });
}
