import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/gallery";
import { getPage } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { minutesAfterEpoch } from "../helpers/seed";
import {
  g,
  id,
  ids,
  malevich,
  monet,
  names,
  newestFirst,
  other,
  otherArtwork,
  seedCatalogue,
} from "./catalogue";
import { listedIds } from "./helpers";

/** GET /gallery/artworks over the catalogue (test/artworks/catalogue.ts): defaults, tenancy and invalid parameters. */

beforeAll(seedCatalogue);

describe("GET /gallery/artworks: defaults and tenancy", () => {
  it("lists the gallery's works newest first and nothing from another gallery", async () => {
    const page = await getPage<{ id: string; title: string }>(g.key, "/gallery/artworks");
    expect(page.data.map((a) => a.id)).toEqual(newestFirst(...names));
    expect(page.next_cursor).toBeNull();
    expect(page.data.map((a) => a.title)).toEqual([
      "Ancient Vase",
      "snakeXcase",
      "snake_case",
      "100 Cotton Study",
      "100% Cotton",
      "Red Square",
      "Blue Horizon",
    ]);
  });

  it("shows the other gallery only its own work", async () => {
    expect(await listedIds(other.key, "")).toEqual([otherArtwork]);
    expect(await listedIds(other.key, `ids=${id.A},${otherArtwork}`)).toEqual([otherArtwork]);
  });

  it("serves each work's committed fields, artists and tags-independent shape", async () => {
    const page = await getPage<Record<string, unknown>>(g.key, "/gallery/artworks", `ids=${id.B}`);
    expect(page.data).toHaveLength(1);
    const b = page.data[0]!;
    expect(b).toMatchObject({
      id: id.B,
      title: "Red Square",
      artist_name: "Kazimir Malevich",
      medium: "oil on canvas",
      price_cents: 250000,
      year: 1915,
      height_cm: 100,
      width_cm: 100,
      availability_state: "sold",
      ownership_status: "consigned",
      condition_status: "good",
      market: "secondary",
      published_at: null,
      created_at: minutesAfterEpoch(2),
      updated_at: minutesAfterEpoch(20),
    });
    expect(b.artists).toEqual([
      { artist_id: malevich, role: "primary", position: 0, artist_name: "Kazimir Malevich" },
      { artist_id: monet, role: "collaborator", position: 1, artist_name: "Claude Monet" },
    ]);
    // Internal judged columns are not part of the representation.
    expect(b).not.toHaveProperty("readiness");
    expect(b).not.toHaveProperty("disclosure_required");
    expect(b).not.toHaveProperty("search_text");
    expect(b).not.toHaveProperty("gallery_id");
  });

  it("requires both artworks:read and artists:read", async () => {
    const onlyArtworks = await g.keyWith(["artworks:read"]);
    const res = await call("GET", "/gallery/artworks", { key: onlyArtworks });
    const body = await expectProblem(res, 403, "forbidden");
    expect(body.details).toMatchObject({ missing_scopes: ["artists:read"] });
    const both = await g.keyWith(["artworks:read", "artists:read"]);
    expect(await listedIds(both, "")).toEqual(newestFirst(...names));
  });
});

describe("GET /gallery/artworks: invalid parameters", () => {
  const cases: [query: string, field: string][] = [
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["limit=1e1", "limit"],
    ["limit=-1", "limit"],
    ["limit=", "limit"],
    ["limit=%2010", "limit"],
    ["limit=010", "limit"],
    ["price_min=-1", "price_min"],
    ["price_min=9007199254740992", "price_min"],
    ["price_max=1e3", "price_max"],
    ["price_min=12.5", "price_min"],
    ["year_min=-9007199254740992", "year_min"],
    ["year_max=9007199254740992", "year_max"],
    ["year_min=abc", "year_min"],
    ["height_min=-1", "height_min"],
    ["height_min=NaN", "height_min"],
    ["height_max=Infinity", "height_max"],
    ["width_min=1e2", "width_min"],
    ["width_max=0x10", "width_max"],
    ["availability=bogus", "availability.0"],
    ["availability=sold&availability=bogus", "availability.1"],
    ["ownership=stolen", "ownership.0"],
    ["condition=mint", "condition.0"],
    ["market=tertiary", "market.0"],
    [`q=${"a".repeat(201)}`, "q"],
    [`medium=${"m".repeat(201)}`, "medium.0"],
    ["foo=1", "foo"],
    ["q=a&q=b", "q"],
    ["artist_id=a&artist_id=b", "artist_id"],
    ["price_min=10&price_max=9", "price_max"],
    ["year_min=0&year_max=-1", "year_max"],
    ["height_min=10.5&height_max=10", "height_max"],
    ["width_min=3&width_max=2", "width_max"],
    ["sort=title", "sort"],
    ["sort=price&sort=year", "sort"],
    ["dir=up", "dir"],
    ["order=asc", "order"],
    ["limit=5&limit=6", "limit"],
  ];

  it.each(cases)("%s → 400 invalid_request naming %s", async (query, field) => {
    const res = await call("GET", `/gallery/artworks?${query}`, { key: g.key });
    const body = await expectProblem(res, 400, "invalid_request", { field });
    expect(body.retry).toBe("permanent");
    expect(body.instance).toBe("/v1/gallery/artworks");
  });

  it("accepts the limits' own boundaries", async () => {
    expect(await ids(`q=${"a".repeat(200)}`)).toEqual([]);
    expect(await ids(`medium=${"m".repeat(200)}`)).toEqual([]);
    expect((await getPage(g.key, "/gallery/artworks", "limit=1")).data).toHaveLength(1);
    expect((await getPage(g.key, "/gallery/artworks", "limit=100")).data).toHaveLength(7);
    expect(await ids("price_min=5&price_max=5")).toEqual([id.G]);
  });

  it("a non-repeatable parameter given twice is reported as a type error, not as missing", async () => {
    const res = await call("GET", "/gallery/artworks?q=a&q=b", { key: g.key });
    const body = await expectProblem(res, 400, "invalid_request");
    expect(body.details).toEqual([
      { location: "query", field: "q", message: "Invalid input: expected string, received array" },
    ]);
  });

  it("an unknown parameter is named as such", async () => {
    const res = await call("GET", "/gallery/artworks?foo=1&bar=2", { key: g.key });
    const body = await expectProblem(res, 400, "invalid_request");
    expect(body.details).toEqual(
      expect.arrayContaining([
        { location: "query", field: "foo", message: "is not a known parameter" },
        { location: "query", field: "bar", message: "is not a known parameter" },
      ]),
    );
  });
});
