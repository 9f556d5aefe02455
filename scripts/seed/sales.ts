/** Sales of the catalogue's works to the gallery's buyers: one work or several, in three currencies. */
import * as schema from "../../db/schema";
import { BASE, DAY, FX_TO_DEFAULT, iso, priceCents } from "./common";
import type { Art, Person, Sale, SeedContext } from "./context";

/**
 * Sales of sold (completed, a few refunded), reserved (pending) and a few available (cancelled) works. Some
 * sold works go together in one sale (works of the same currency); a handful of regular buyers account for
 * a good share of the sales and three major collectors for the works of $100,000 and more, so works acquired,
 * spend and the price band range from none to many, low to high. Spend itself is not
 * computed here: the database's trigger on `sales` keeps it on the contact.
 */
export function seedSales(ctx: SeedContext, arts: Art[], buyers: Person[]): Sale[] {
  const { rng, newId, G, rows } = ctx;
  const sales: Sale[] = [];
  const [majors, regulars] = ((picked) => [picked.slice(0, 3), picked.slice(3)])(rng.sample(buyers, 11));
  const sold = new Set<Art>();
  let majorSales = 0;
  const addSale = (group: Art[], status: string) => {
    const prices = group.map((art) =>
      art.price === null
        ? priceCents(rng, ...art.artist.priceRange)
        : Math.round((art.price * (rng.chance(0.6) ? 1 : 0.9)) / 10_000) * 10_000,
    );
    const amount = prices.reduce((sum, p) => sum + p, 0);
    const currency = group[0]!.currency;
    const baseAmount = Math.round(amount * FX_TO_DEFAULT[currency]!);
    // Works of $100,000 and more go to the major collectors in turn, whose average lands over $100,000.
    const buyer =
      baseAmount / group.length >= 10_000_000
        ? majors[majorSales++ % majors.length]!
        : rng.chance(0.3)
          ? rng.pick(regulars)
          : rng.pick(buyers);
    const from = Math.max(buyer.createdMs, ...group.map((a) => a.createdMs)) + DAY;
    const soldMs = rng.between(from, BASE - DAY);
    const id = newId("sale", soldMs);
    for (const art of group) sold.add(art);
    sales.push({ id, arts: group, prices, buyer, amount, currency, baseAmount, soldMs, status });
    buyer.saleIds.push(id);
    rows(schema.sales).push({
      id,
      ...G,
      contactId: buyer.id,
      amountCents: amount,
      currency,
      baseAmountCents: baseAmount,
      worksCount: group.length,
      soldAt: iso(soldMs),
      status,
      metadata: { channel: rng.pick(["gallery", "fair", "online", "viewing_room"]) },
      createdAt: iso(soldMs),
      updatedAt: iso(soldMs),
    });
    group.forEach((art, position) => {
      rows(schema.saleArtworks).push({ ...G, saleId: id, artworkId: art.id, position });
      if (status === "completed") {
        ctx.activity(art, soldMs, {
          eventType: "ownership_changed",
          summary: `Sold to ${buyer.name}`,
          contactId: buyer.id,
          refTable: "sales",
          refId: id,
          metadata: { amount_cents: prices[position]!, currency },
        });
      }
    });
  };
  arts.forEach((art, i) => {
    if (sold.has(art)) return;
    if (art.availability === "sold") {
      // One sale in eight takes one or two more sold works of the same currency along.
      const group = [art];
      if (rng.chance(0.125)) {
        const more = arts
          .slice(i + 1)
          .filter((a) => a.availability === "sold" && a.currency === art.currency && !sold.has(a));
        group.push(...rng.sample(more, rng.int(1, 2)));
      }
      addSale(group, rng.chance(0.96) ? "completed" : "refunded");
    } else if (art.availability === "reserved" && rng.chance(0.5)) addSale([art], "pending");
    else if (art.availability === "available" && rng.chance(0.03)) addSale([art], "cancelled");
  });
  return sales;
}
