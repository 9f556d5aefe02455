import { beforeAll, describe, expect, it } from "vitest";
import { Artwork } from "../../lib/schemas/artworks";
import { readScopes } from "../../lib/scopes";
import { call, readJson } from "../helpers/gallery";
import { getPage, pageOf } from "../helpers/pages";
import { g, id, seedCatalogue } from "./catalogue";
import { seedFormat } from "./helpers";

/** Format prices in GET /gallery/artworks and GET /gallery/artworks/{id}: membership-gated for read-only keys. */

beforeAll(seedCatalogue);

describe("GET /gallery/artworks: format prices for read-only keys", () => {
  let readOnly: string;
  let hiddenFormat: string;
  let publicFormat: string;

  beforeAll(async () => {
    readOnly = await g.keyWith(readScopes);
    hiddenFormat = await seedFormat(g.id, id.A, { label: "Print", price_cents: 5000, position: 0 });
    publicFormat = await seedFormat(g.id, id.E, { label: "Cast", price_cents: 9000, position: 0 });
  });

  async function formatPrices(key: string, path: string, query: string) {
    const res = await call("GET", `${path}?${query}`, { key });
    expect(res.status).toBe(200);
    const works =
      path === "/gallery/artworks"
        ? (await readJson(pageOf(Artwork), res)).data
        : [await readJson(Artwork, res)];
    return works.flatMap((w) => w.formats.map((f) => [f.id, f.price_cents]));
  }

  it("hides a format's price from a read-only key unless the work is public-priced", async () => {
    expect(await formatPrices(readOnly, "/gallery/artworks", `ids=${id.A},${id.E}`)).toEqual([
      [publicFormat, 9000],
      [hiddenFormat, null],
    ]);
    expect(await formatPrices(readOnly, `/gallery/artworks/${id.A}`, "")).toEqual([[hiddenFormat, null]]);
    expect(await formatPrices(readOnly, `/gallery/artworks/${id.E}`, "")).toEqual([[publicFormat, 9000]]);
  });

  it("shows every format price to a key that can write", async () => {
    expect(await formatPrices(g.key, "/gallery/artworks", `ids=${id.A},${id.E}`)).toEqual([
      [publicFormat, 9000],
      [hiddenFormat, 5000],
    ]);
    const readPlusWrite = await g.keyWith(["artworks:read", "artists:read", "artworks:update"]);
    expect(await formatPrices(readPlusWrite, `/gallery/artworks/${id.A}`, "")).toEqual([
      [hiddenFormat, 5000],
    ]);
  });

  it("a format is served with its full shape", async () => {
    const page = await getPage<{ formats: Record<string, unknown>[] }>(
      g.key,
      "/gallery/artworks",
      `ids=${id.A}`,
    );
    expect(page.data[0]!.formats).toEqual([
      {
        id: hiddenFormat,
        artwork_id: id.A,
        label: "Print",
        height_cm: null,
        width_cm: null,
        depth_cm: null,
        dimension_unit: "in",
        medium: null,
        edition_size: null,
        stock_quantity: 0,
        availability_state: "available",
        price_cents: 5000,
        currency: "USD",
        position: 0,
        metadata: {},
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
    ]);
  });
});
