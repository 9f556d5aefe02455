/** Sales of the catalogue's works to the gallery's buyers: one work or several, in three currencies. */
import * as schema from "../../db/schema";
import { BASE, DAY, FX_TO_DEFAULT, iso, priceCents } from "./common";
import type { Art, Person, Sale, SeedContext } from "./context";
import { appeal } from "./tastes";

/**
 * Sales of sold (completed, a few refunded), reserved (pending) and a few available (cancelled) works, each to a
 * buyer drawn by how much the work appeals to its taste (./tastes: a favourite artist far ahead of the circle,
 * then the practice, within the buyer's price band), at a time the buyer buys (a lapsed buyer before 2024, a new
 * one in the last year); one sale in twelve goes to a buyer drawn at random, as some sales surprise. Some sold
 * works go together in one sale: works of the same currency the same buyer likes. Spend itself is not computed
 * here: the database's trigger on `sales` keeps it on the contact.
 */
export function seedSales(ctx: SeedContext, arts: Art[], buyers: Person[]): Sale[] {
  const { rng, newId, G, rows } = ctx;
  const sales: Sale[] = [];
  const sold = new Set<Art>();
  /** Buyers who could buy a work made available at `fromMs`, each with its window. */
  const eligible = (fromMs: number) =>
    buyers.filter((b) => b.taste !== null && Math.min(b.taste.window[1], BASE - DAY) > fromMs + DAY);
  const chooseBuyer = (art: Art): Person | null => {
    const open = eligible(art.createdMs);
    if (open.length === 0) return null;
    if (rng.chance(1 / 12)) return rng.pick(open);
    // The longer a buyer's window overlaps the work's time on the market, the likelier it bought it.
    const weights = open.map((b) => {
      const t = b.taste!;
      const from = Math.max(t.window[0], art.createdMs);
      const years = Math.max(0.1, (Math.min(t.window[1], BASE) - from) / (365 * DAY));
      return appeal(t, art) * t.appetite * Math.min(1, years);
    });
    const total = weights.reduce((sum, w) => sum + w, 0);
    let r = rng.next() * total;
    for (let i = 0; i < open.length; i++) {
      r -= weights[i]!;
      if (r < 0) return open[i]!;
    }
    return open[open.length - 1]!;
  };
  const addSale = (group: Art[], status: string, buyer: Person) => {
    const prices = group.map((art) =>
      art.price === null
        ? priceCents(rng, ...art.artist.priceRange)
        : Math.round((art.price * (rng.chance(0.6) ? 1 : 0.9)) / 10_000) * 10_000,
    );
    const amount = prices.reduce((sum, p) => sum + p, 0);
    const currency = group[0]!.currency;
    const baseAmount = Math.round(amount * FX_TO_DEFAULT[currency]!);
    const window = buyer.taste?.window ?? [buyer.createdMs, BASE - DAY];
    const from = Math.max(buyer.createdMs, window[0], ...group.map((a) => a.createdMs)) + DAY;
    // Most works sell within months of coming in (an exponential wait, four months on average), never after the
    // buyer's window closes.
    const until = Math.max(from, Math.min(window[1], BASE - DAY));
    const wait = -Math.log(1 - rng.next()) * 120 * DAY;
    const soldMs = from + wait < until ? Math.floor((from + wait) / 1000) * 1000 : rng.between(from, until);
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
    const status =
      art.availability === "sold"
        ? rng.chance(0.96)
          ? "completed"
          : "refunded"
        : art.availability === "reserved" && rng.chance(0.5)
          ? "pending"
          : art.availability === "available" && rng.chance(0.03)
            ? "cancelled"
            : null;
    if (status === null) return;
    const buyer = chooseBuyer(art);
    if (buyer === null) return;
    const group = [art];
    // One sale in six takes one or two more sold works of the same currency the buyer likes along.
    if (art.availability === "sold" && rng.chance(1 / 6)) {
      const more = arts
        .slice(i + 1)
        .filter(
          (a) =>
            a.availability === "sold" &&
            a.currency === art.currency &&
            !sold.has(a) &&
            a.createdMs <= (buyer.taste?.window[1] ?? BASE) - 2 * DAY &&
            appeal(buyer.taste!, a) >= 2,
        );
      group.push(...rng.sample(more, rng.int(1, 2)));
    }
    addSale(group, status, buyer);
  });
  return sales;
}
