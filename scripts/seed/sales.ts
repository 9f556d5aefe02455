/** Sales of the catalogue's works to the gallery's buyers. */
import * as schema from "../../db/schema";
import { BASE, DAY, iso, priceCents } from "./common";
import type { Art, Person, Sale, SeedContext } from "./context";

/** Sales of sold (completed), reserved (pending) and a few available (cancelled) works. */
export function seedSales(ctx: SeedContext, arts: Art[], buyers: Person[]): Sale[] {
  const { rng, newId, G, rows } = ctx;
  const sales: Sale[] = [];
  const addSale = (art: Art, status: string) => {
    const buyer = rng.pick(buyers);
    const soldMs = rng.between(Math.max(art.createdMs, buyer.createdMs) + DAY, BASE - DAY);
    const amount =
      art.price === null
        ? priceCents(rng, ...art.artist.priceRange)
        : Math.round((art.price * (rng.chance(0.6) ? 1 : 0.9)) / 10_000) * 10_000;
    const id = newId("sale", soldMs);
    sales.push({ id, art, buyer, amount, currency: art.currency, soldMs, status });
    buyer.saleIds.push(id);
    rows(schema.sales).push({
      id,
      ...G,
      contactId: buyer.id,
      artworkId: art.id,
      amountCents: amount,
      currency: art.currency,
      soldAt: iso(soldMs),
      status,
      metadata: { channel: rng.pick(["gallery", "fair", "online", "viewing_room"]) },
      createdAt: iso(soldMs),
      updatedAt: iso(soldMs),
    });
    if (status === "completed") {
      ctx.activity(art, soldMs, {
        eventType: "ownership_changed",
        summary: `Sold to ${buyer.name}`,
        contactId: buyer.id,
        refTable: "sales",
        refId: id,
        metadata: { amount_cents: amount, currency: art.currency },
      });
    }
  };
  for (const art of arts) {
    if (art.availability === "sold") addSale(art, rng.chance(0.96) ? "completed" : "refunded");
    else if (art.availability === "reserved" && rng.chance(0.5)) addSale(art, "pending");
    else if (art.availability === "available" && rng.chance(0.03)) addSale(art, "cancelled");
  }
  return sales;
}
