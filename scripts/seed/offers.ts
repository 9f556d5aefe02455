/** Offers with their items and recipients. */
import * as schema from "../../db/schema";
import { BASE, DAY, HOUR, iso } from "./common";
import type { Art, Person, SeedContext } from "./context";

export interface OfferSummary {
  offerId: string;
  artIds: Set<string>;
  recipientIds: Set<string>;
}

/** Offers with their items and recipients. */
export function seedOffers(ctx: SeedContext, people: Person[], publishedArts: Art[]): OfferSummary[] {
  const { rng, newId, G, rows, editorId } = ctx;
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
    const id = newId("ofr", createdMs);
    rows(schema.offers).push({
      id,
      ...G,
      title,
      message,
      status,
      scheduledAt: status === "scheduled" ? iso(BASE + 5 * DAY) : null,
      sentAt: status === "sent" ? iso(createdMs + 2 * DAY) : null,
      currency: "USD",
      createdBy: editorId,
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs + 2 * DAY),
    });
    const pool =
      i === 1
        ? offerable.filter((a) => a.artist.name === "Mara Lindqvist")
        : i === 2
          ? offerable.filter((a) => a.artist.practice === "photography" && (a.price ?? 0) < 1_000_000)
          : offerable;
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
    const recipients = rng.sample(
      (i === 3 ? active.filter((p) => p.type === "institution") : collectors).filter((p) => p.email !== null),
      rng.int(4, 10),
    );
    for (const person of recipients) {
      rows(schema.offerRecipients).push({
        ...G,
        offerId: id,
        contactId: person.id,
        status:
          status === "sent" ? rng.weighted({ sent: 40, opened: 35, replied: 20, bounced: 5 }) : "pending",
        addedAt: iso(createdMs + HOUR),
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
