import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { Artwork } from "../../lib/schemas/artworks";
import { DomainEvent } from "../../lib/schemas/events";
import { readScopes } from "../../lib/scopes";
import { create } from "../artworks/helpers";
import { call, callJson, createGallery, db, readJson, type TestGallery } from "../helpers/gallery";
import { pageOf } from "../helpers/pages";
import { outboxEvents } from "../helpers/seed";
import { addFormat, formatsPath, listFormats, markPublished, patchFormat } from "./api";

/**
 * A format's price is membership-gated: a read-only key (every scope `:read`) sees it only when the work is
 * public-priced. Every read path that shows formats is checked, with a read-only key and a full one.
 */

let g: TestGallery;
let readOnly: string;
/** A private-priced work and a public-priced one, each with one priced format. */
const work = { private: "", public: "" };
const format = { private: "", public: "" };

beforeAll(async () => {
  g = await createGallery();
  readOnly = await g.keyWith(readScopes);
  work.private = (await create(g, { title: "Private", price_cents: 100, currency: "USD" })).id;
  work.public = (await create(g, { title: "Public", show_price_publicly: true })).id;
  format.private = (await addFormat(g, work.private, { label: "P", price_cents: 5000, currency: "USD" })).id;
  format.public = (await addFormat(g, work.public, { label: "Q", price_cents: 9000, currency: "USD" })).id;
});

type Prices = Record<string, number | null>;

function pricesOf(formats: { id: string; price_cents: number | null }[]): Prices {
  return Object.fromEntries(formats.map((f) => [f.id, f.price_cents]));
}

async function artworksList(key: string): Promise<Prices> {
  const res = await call("GET", `/gallery/artworks?ids=${work.private},${work.public}`, { key });
  expect(res.status).toBe(200);
  return pricesOf((await readJson(pageOf(Artwork), res)).data.flatMap((w) => w.formats));
}

async function artworkReads(key: string, query = ""): Promise<Prices> {
  const prices: Prices = {};
  for (const id of [work.private, work.public]) {
    const { status, body } = await callJson(Artwork, "GET", `/gallery/artworks/${id}${query}`, { key });
    expect(status).toBe(200);
    Object.assign(prices, pricesOf(body.formats));
  }
  return prices;
}

async function formatLists(key: string, query = ""): Promise<Prices> {
  return {
    ...pricesOf(await listFormats(key, work.private, query)),
    ...pricesOf(await listFormats(key, work.public, query)),
  };
}

describe("format prices on every read path", () => {
  it("a read-only key sees the price only on the public-priced work", async () => {
    const expected = { [format.private]: null, [format.public]: 9000 };
    expect(await artworksList(readOnly)).toEqual(expected);
    expect(await artworkReads(readOnly)).toEqual(expected);
    expect(await artworkReads(readOnly, "?draft=true")).toEqual(expected);
    expect(await formatLists(readOnly)).toEqual(expected);
    expect(await formatLists(readOnly, "?draft=true")).toEqual(expected);
  });

  it("a key with any write scope sees every price", async () => {
    const expected = { [format.private]: 5000, [format.public]: 9000 };
    expect(await artworksList(g.key)).toEqual(expected);
    expect(await artworkReads(g.key)).toEqual(expected);
    expect(await formatLists(g.key)).toEqual(expected);
    const readPlusUpdate = await g.keyWith(["artworks:read", "artists:read", "artworks:update"]);
    expect(await formatLists(readPlusUpdate)).toEqual(expected);
    expect(await artworksList(readPlusUpdate)).toEqual(expected);
  });

  it("write responses show the price: writing takes a write scope", async () => {
    const creator = await g.keyWith(["artworks:create"]);
    const res = await call("POST", formatsPath(work.private), {
      key: creator,
      body: { label: "Created", price_cents: 1234, currency: "USD" },
    });
    expect(res.status).toBe(201);
    expect((await res.json()) as { price_cents: number }).toMatchObject({ price_cents: 1234 });
    const patched = await patchFormat(g, work.private, format.private, { stock_quantity: 3 });
    expect(patched.price_cents).toBe(5000);
  });

  it("a draft's show_price_publicly decides what a read-only key sees in the working copy", async () => {
    const w = await create(g, { title: "Going public", show_price_publicly: false });
    const f = await addFormat(g, w.id, { label: "F", price_cents: 300, currency: "USD" });
    await markPublished(w.id);
    await db().execute(sql`insert into artwork_drafts (artwork_id, gallery_id, patch)
      values (${w.id}, ${g.id}, '{"show_price_publicly": true}'::jsonb)`);
    expect(pricesOf(await listFormats(readOnly, w.id))).toEqual({ [f.id]: null });
    expect(pricesOf(await listFormats(readOnly, w.id, "?draft=true"))).toEqual({ [f.id]: 300 });
  });
});

describe("format prices in events", () => {
  async function eventPrices(key: string): Promise<Prices> {
    const { status, body } = await callJson(
      pageOf(DomainEvent),
      "GET",
      "/gallery/events?type=artwork_format.created&limit=100",
      { key },
    );
    expect(status).toBe(200);
    const prices: Prices = {};
    for (const event of body.data) {
      const object = (event.data as { object: { id: string; price_cents: number | null } }).object;
      if (object.id === format.private || object.id === format.public) prices[object.id] = object.price_cents;
    }
    return prices;
  }

  it("a read-only key sees format events without their price, public-priced or not", async () => {
    expect(await eventPrices(readOnly)).toEqual({ [format.private]: null, [format.public]: null });
    const created = (await outboxEvents(g.id)).find(
      (e) => e.type === "artwork_format.created" && e.resource_id === format.public,
    )!;
    const { status, body } = await callJson(DomainEvent, "GET", `/gallery/events/${created.id}`, {
      key: readOnly,
    });
    expect(status).toBe(200);
    expect((body.data as { object: { price_cents: unknown } }).object.price_cents).toBeNull();
  });

  it("a full key sees them, and the recorded payload (what webhooks carry) holds them", async () => {
    expect(await eventPrices(g.key)).toEqual({ [format.private]: 5000, [format.public]: 9000 });
    const recorded = (await outboxEvents(g.id)).filter((e) => e.type === "artwork_format.created");
    const stored = Object.fromEntries(
      recorded.map((e) => {
        const object = e.data.object as { id: string; price_cents: number };
        return [object.id, object.price_cents];
      }),
    );
    expect(stored).toMatchObject({ [format.private]: 5000, [format.public]: 9000 });
  });

  it("the artwork's own events gate its formats as the artwork's reads do", async () => {
    await call("PATCH", `/gallery/artworks/${work.public}`, {
      key: g.key,
      body: { title: "Public, renamed" },
    });
    await call("PATCH", `/gallery/artworks/${work.private}`, {
      key: g.key,
      body: { title: "Private, renamed" },
    });
    const { body } = await callJson(pageOf(DomainEvent), "GET", "/gallery/events?type=artwork.updated", {
      key: readOnly,
    });
    const prices: Prices = {};
    for (const event of body.data) {
      const object = (event.data as { object: { formats: { id: string; price_cents: number | null }[] } })
        .object;
      Object.assign(prices, pricesOf(object.formats.filter((f) => Object.values(format).includes(f.id))));
    }
    expect(prices).toEqual({ [format.private]: null, [format.public]: 9000 });
  });
});
