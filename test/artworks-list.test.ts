import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../lib/ids";
import { readScopes } from "../lib/scopes";
import {
  compareKeys,
  creditArtist,
  expectProblem,
  getPage,
  listedIds,
  minutesAfterEpoch,
  seedArtist,
  seedArtwork,
  seedDraft,
  seedFormat,
  seedTag,
  tagArtwork,
} from "./helpers/artworks";
import { call, createGallery, type TestGallery } from "./helpers/gallery";

/**
 * GET /gallery/artworks against a fixed catalogue of seven works (A–G) whose every filterable column is known,
 * plus a second gallery holding look-alike works that must never leak into the first gallery's results.
 */

type Name = "A" | "B" | "C" | "D" | "E" | "F" | "G";

interface Fixture {
  created: number;
  updated: number;
  price: number | null;
  year: number | null;
  columns: Record<string, unknown>;
}

const PUBLISHED = "2024-06-01T12:00:00.000Z";

const fixtures: Record<Name, Fixture> = {
  A: {
    created: 1,
    updated: 100,
    price: 100000,
    year: 1900,
    columns: {
      title: "Blue Horizon",
      artist_name: "Claude Monet",
      medium: "Oil on canvas",
      height_cm: 50,
      width_cm: 70,
      availability_state: "available",
      ownership_status: "owned",
      condition_status: "excellent",
      market: "primary",
      published_at: PUBLISHED,
      image_count: 1,
      thumbnail_url: "https://img.test/a.jpg",
      readiness: "ready",
      disclosure_required: false,
      show_price_publicly: false,
    },
  },
  B: {
    created: 2,
    updated: 20,
    price: 250000,
    year: 1915,
    columns: {
      title: "Red Square",
      artist_name: "Kazimir Malevich",
      medium: "oil on canvas",
      height_cm: 100,
      width_cm: 100,
      availability_state: "sold",
      ownership_status: "consigned",
      condition_status: "good",
      market: "secondary",
      readiness: "thin",
      disclosure_required: true,
    },
  },
  C: {
    created: 3,
    updated: 70,
    price: null,
    year: null,
    columns: {
      title: "100% Cotton",
      medium: "Textile",
      availability_state: "on_hold",
      ownership_status: "co_owned",
      condition_status: "fair",
      market: "primary",
      readiness: "empty",
    },
  },
  D: {
    created: 4,
    updated: 10,
    price: 0,
    year: -500,
    columns: {
      title: "100 Cotton Study",
      medium: "Textile",
      height_cm: 20.5,
      width_cm: 30,
      availability_state: "reserved",
      ownership_status: "artist_property",
      condition_status: "poor",
      market: "secondary",
    },
  },
  E: {
    created: 5,
    updated: 50,
    price: 250000,
    year: 1915,
    columns: {
      title: "snake_case",
      medium: "Bronze",
      height_cm: 200,
      width_cm: 10,
      availability_state: "not_for_sale",
      ownership_status: "owned",
      condition_status: "very_good",
      market: "primary",
      published_at: PUBLISHED,
      image_count: 2,
      thumbnail_url: "https://img.test/e.jpg",
      readiness: "ready",
      disclosure_required: true,
      show_price_publicly: true,
    },
  },
  F: {
    created: 6,
    updated: 30,
    price: null,
    year: 2020,
    columns: {
      title: "snakeXcase",
      medium: "BRONZE",
      height_cm: 0,
      width_cm: 0,
      availability_state: "on_loan",
      ownership_status: "owned",
      market: "primary",
      readiness: "thin",
      disclosure_required: false,
    },
  },
  G: {
    created: 7,
    updated: 60,
    price: 5,
    year: -3000,
    columns: {
      title: "Ancient Vase",
      medium: "Terracotta",
      date_display: "c. 3000 BC",
      inventory_number: "INV-777",
      height_cm: 40,
      width_cm: 25,
      availability_state: "available",
      ownership_status: "consigned",
      condition_status: "excellent",
      market: "primary",
    },
  },
};

const names = Object.keys(fixtures) as Name[];
const F_DRAFT = { title: "Draft Title", price_cents: 777, medium: "Draft medium" };

let g: TestGallery;
let other: TestGallery;
const id = {} as Record<Name, string>;
let monet: string;
let malevich: string;
let t1: string;
let t2: string;
let otherArtwork: string;
let otherArtist: string;
let otherTag: string;

/** Ids of the named works in newest-first (created desc) order, as every filter test expects by default. */
function newestFirst(...subset: Name[]): string[] {
  return [...subset].sort((a, b) => fixtures[b].created - fixtures[a].created).map((n) => id[n]);
}

async function ids(query: string): Promise<string[]> {
  return listedIds(g.key, query);
}

beforeAll(async () => {
  g = await createGallery();
  other = await createGallery();
  monet = await seedArtist(g.id, "Claude Monet");
  malevich = await seedArtist(g.id, "Kazimir Malevich");
  t1 = await seedTag(g.id, "Landscape");
  t2 = await seedTag(g.id, "Abstract");
  for (const name of names) {
    const f = fixtures[name];
    id[name] = await seedArtwork(g.id, {
      ...f.columns,
      price_cents: f.price,
      year: f.year,
      created_at: minutesAfterEpoch(f.created),
      updated_at: minutesAfterEpoch(f.updated),
    });
  }
  await creditArtist(g.id, id.A, monet, "primary", 0);
  await creditArtist(g.id, id.B, malevich, "primary", 0);
  await creditArtist(g.id, id.B, monet, "collaborator", 1);
  await tagArtwork(g.id, id.A, t1);
  await tagArtwork(g.id, id.B, t2);
  await tagArtwork(g.id, id.C, t1);
  await tagArtwork(g.id, id.C, t2);
  await seedDraft(g.id, id.F, F_DRAFT);

  // A look-alike of A in another gallery: it matches most filters below and must never appear.
  otherArtist = await seedArtist(other.id, "Claude Monet");
  otherTag = await seedTag(other.id, "Landscape");
  otherArtwork = await seedArtwork(other.id, {
    ...fixtures.A.columns,
    price_cents: 100000,
    year: 1900,
    created_at: minutesAfterEpoch(8),
    updated_at: minutesAfterEpoch(8),
  });
  await creditArtist(other.id, otherArtwork, otherArtist);
  await tagArtwork(other.id, otherArtwork, otherTag);
});

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

describe("GET /gallery/artworks: filters", () => {
  it("ids fetches an explicit set (other galleries' and unknown ids match nothing)", async () => {
    expect(await ids(`ids=${id.A},${id.C}`)).toEqual(newestFirst("A", "C"));
    expect(await ids(`ids=${id.G}`)).toEqual([id.G]);
    expect(await ids(`ids=${otherArtwork}`)).toEqual([]);
    expect(await ids(`ids=${newId("art")},${id.D}`)).toEqual([id.D]);
    const fifty = [id.E, ...Array.from({ length: 49 }, () => newId("art"))];
    expect(await ids(`ids=${fifty.join(",")}`)).toEqual([id.E]);
  });

  it("ids rejects more than 50 items, empty items and malformed ids", async () => {
    const fiftyOne = Array.from({ length: 51 }, () => newId("art"));
    await expectProblem(
      await call("GET", `/gallery/artworks?ids=${fiftyOne.join(",")}`, { key: g.key }),
      400,
      "invalid_request",
      {
        field: "ids",
      },
    );
    await expectProblem(
      await call("GET", `/gallery/artworks?ids=${id.A},,${id.B}`, { key: g.key }),
      400,
      "invalid_request",
      {
        field: "ids.1",
      },
    );
    await expectProblem(
      await call("GET", "/gallery/artworks?ids=con_01jd4xk9v2c7h8m3n5p6q7r8s9", { key: g.key }),
      400,
      "invalid_request",
      {
        field: "ids.0",
      },
    );
  });

  it("q: every word must appear (AND), case-insensitive, across title, artist, medium, inventory and date", async () => {
    expect(await ids("q=blue")).toEqual([id.A]);
    expect(await ids("q=BLUE%20horizon")).toEqual([id.A]);
    expect(await ids("q=horizon%20%20Blue")).toEqual([id.A]);
    expect(await ids("q=blue%20square")).toEqual([]);
    expect(await ids("q=monet")).toEqual([id.A]);
    expect(await ids("q=malevich%20square")).toEqual([id.B]);
    expect(await ids("q=oil")).toEqual(newestFirst("A", "B"));
    expect(await ids("q=textile")).toEqual(newestFirst("C", "D"));
    expect(await ids("q=inv-777")).toEqual([id.G]);
    expect(await ids("q=3000%20BC")).toEqual([id.G]);
    expect(await ids("q=nothing-like-this")).toEqual([]);
  });

  it("q treats % and _ literally", async () => {
    expect(await ids("q=100%25")).toEqual([id.C]);
    expect(await ids("q=%25")).toEqual([id.C]);
    expect(await ids("q=100")).toEqual(newestFirst("C", "D"));
    expect(await ids("q=snake_case")).toEqual([id.E]);
    expect(await ids("q=_")).toEqual([id.E]);
    expect(await ids("q=e_c")).toEqual([id.E]);
    expect(await ids("q=snake")).toEqual(newestFirst("E", "F"));
    expect(await ids("q=%5C")).toEqual([]);
  });

  it("availability, ownership, condition and market: one value or several (OR within, AND across)", async () => {
    expect(await ids("availability=available")).toEqual(newestFirst("A", "G"));
    expect(await ids("availability=sold&availability=on_hold")).toEqual(newestFirst("B", "C"));
    expect(await ids("availability=on_loan")).toEqual([id.F]);
    expect(await ids("ownership=owned")).toEqual(newestFirst("A", "E", "F"));
    expect(await ids("ownership=consigned&ownership=artist_property")).toEqual(newestFirst("B", "D", "G"));
    expect(await ids("ownership=co_owned")).toEqual([id.C]);
    expect(await ids("condition=excellent")).toEqual(newestFirst("A", "G"));
    expect(await ids("condition=good&condition=fair&condition=poor")).toEqual(newestFirst("B", "C", "D"));
    expect(await ids("condition=very_good")).toEqual([id.E]);
    expect(await ids("market=secondary")).toEqual(newestFirst("B", "D"));
    expect(await ids("market=primary")).toEqual(newestFirst("A", "C", "E", "F", "G"));
    expect(await ids("market=primary&market=secondary")).toEqual(newestFirst(...names));
    expect(await ids("market=primary&availability=available&condition=excellent")).toEqual(
      newestFirst("A", "G"),
    );
    expect(await ids("ownership=owned&availability=sold")).toEqual([]);
  });

  it("artist_id matches a work crediting the artist in any role", async () => {
    expect(await ids(`artist_id=${monet}`)).toEqual(newestFirst("A", "B"));
    expect(await ids(`artist_id=${malevich}`)).toEqual([id.B]);
    expect(await ids(`artist_id=${otherArtist}`)).toEqual([]);
    expect(await ids(`artist_id=${newId("artist")}`)).toEqual([]);
    await expectProblem(
      await call("GET", "/gallery/artworks?artist_id=monet", { key: g.key }),
      400,
      "invalid_request",
      {
        field: "artist_id",
      },
    );
  });

  it("medium is a case-insensitive exact match, repeatable", async () => {
    expect(await ids("medium=Oil%20on%20canvas")).toEqual(newestFirst("A", "B"));
    expect(await ids("medium=OIL%20ON%20CANVAS")).toEqual(newestFirst("A", "B"));
    expect(await ids("medium=bronze")).toEqual(newestFirst("E", "F"));
    expect(await ids("medium=bronze&medium=TEXTILE")).toEqual(newestFirst("C", "D", "E", "F"));
    expect(await ids("medium=oil")).toEqual([]);
    expect(await ids("medium=Oil%20on%20canvas%20")).toEqual([]);
  });

  it("price_min and price_max are inclusive and exclude unpriced works", async () => {
    expect(await ids("price_min=100000")).toEqual(newestFirst("A", "B", "E"));
    expect(await ids("price_min=100001")).toEqual(newestFirst("B", "E"));
    expect(await ids("price_max=100000")).toEqual(newestFirst("A", "D", "G"));
    expect(await ids("price_max=99999")).toEqual(newestFirst("D", "G"));
    expect(await ids("price_min=0&price_max=5")).toEqual(newestFirst("D", "G"));
    expect(await ids("price_min=0")).toEqual(newestFirst("A", "B", "D", "E", "G"));
    expect(await ids("price_min=250000&price_max=250000")).toEqual(newestFirst("B", "E"));
    expect(await ids("price_min=9007199254740991")).toEqual([]);
    expect(await ids("price_max=9007199254740991")).toEqual(newestFirst("A", "B", "D", "E", "G"));
  });

  it("year_min and year_max are inclusive, accept negative years and exclude undated works", async () => {
    expect(await ids("year_min=1915")).toEqual(newestFirst("B", "E", "F"));
    expect(await ids("year_max=-500")).toEqual(newestFirst("D", "G"));
    expect(await ids("year_min=-3000&year_max=-3000")).toEqual([id.G]);
    expect(await ids("year_min=-2999&year_max=1900")).toEqual(newestFirst("A", "D"));
    expect(await ids("year_min=-9007199254740991")).toEqual(newestFirst("A", "B", "D", "E", "F", "G"));
    expect(await ids("year_max=9007199254740991&year_min=2020")).toEqual([id.F]);
  });

  it("height and width bounds are inclusive, accept decimals and exclude works without the dimension", async () => {
    expect(await ids("height_min=50")).toEqual(newestFirst("A", "B", "E"));
    expect(await ids("height_max=20.5")).toEqual(newestFirst("D", "F"));
    expect(await ids("height_max=20.4")).toEqual([id.F]);
    expect(await ids("height_min=20.5&height_max=40")).toEqual(newestFirst("D", "G"));
    expect(await ids("height_min=0")).toEqual(newestFirst("A", "B", "D", "E", "F", "G"));
    expect(await ids("width_min=70")).toEqual(newestFirst("A", "B"));
    expect(await ids("width_max=0")).toEqual([id.F]);
    expect(await ids("width_min=10&width_max=10")).toEqual([id.E]);
    expect(await ids("height_min=100&width_max=50")).toEqual([id.E]);
  });

  it("unpriced=true keeps only works with no price; false only priced ones (a price of 0 is a price)", async () => {
    expect(await ids("unpriced=true")).toEqual(newestFirst("C", "F"));
    expect(await ids("unpriced=false")).toEqual(newestFirst("A", "B", "D", "E", "G"));
  });

  it("published true/false", async () => {
    expect(await ids("published=true")).toEqual(newestFirst("A", "E"));
    expect(await ids("published=false")).toEqual(newestFirst("B", "C", "D", "F", "G"));
  });

  it("has_image true/false", async () => {
    expect(await ids("has_image=true")).toEqual(newestFirst("A", "E"));
    expect(await ids("has_image=false")).toEqual(newestFirst("B", "C", "D", "F", "G"));
  });

  it("tag_id is repeatable (any of the tags), without duplicating a work that has several", async () => {
    expect(await ids(`tag_id=${t1}`)).toEqual(newestFirst("A", "C"));
    expect(await ids(`tag_id=${t2}`)).toEqual(newestFirst("B", "C"));
    expect(await ids(`tag_id=${t1}&tag_id=${t2}`)).toEqual(newestFirst("A", "B", "C"));
    expect(await ids(`tag_id=${otherTag}`)).toEqual([]);
    const ten = [t1, ...Array.from({ length: 9 }, () => newId("tag"))];
    expect(await ids(ten.map((t) => `tag_id=${t}`).join("&"))).toEqual(newestFirst("A", "C"));
  });

  it("tag_id rejects more than 10 values and malformed ids", async () => {
    const eleven = Array.from({ length: 11 }, () => `tag_id=${newId("tag")}`).join("&");
    await expectProblem(
      await call("GET", `/gallery/artworks?${eleven}`, { key: g.key }),
      400,
      "invalid_request",
      {
        field: "tag_id",
      },
    );
    await expectProblem(
      await call("GET", "/gallery/artworks?tag_id=landscape", { key: g.key }),
      400,
      "invalid_request",
      {
        field: "tag_id.0",
      },
    );
  });

  it("readiness is a comma-separated set; unjudged works match none", async () => {
    expect(await ids("readiness=ready")).toEqual(newestFirst("A", "E"));
    expect(await ids("readiness=thin")).toEqual(newestFirst("B", "F"));
    expect(await ids("readiness=empty")).toEqual([id.C]);
    expect(await ids("readiness=ready,thin")).toEqual(newestFirst("A", "B", "E", "F"));
    // D and G were never judged: even the full set leaves them out.
    expect(await ids("readiness=ready,thin,empty")).toEqual(newestFirst("A", "B", "C", "E", "F"));
    await expectProblem(
      await call("GET", "/gallery/artworks?readiness=ready,unjudged", { key: g.key }),
      400,
      "invalid_request",
      {
        field: "readiness.1",
      },
    );
  });

  it("disclosure true/false selects judged works; unjudged works match neither", async () => {
    expect(await ids("disclosure=true")).toEqual(newestFirst("B", "E"));
    expect(await ids("disclosure=false")).toEqual(newestFirst("A", "F"));
  });

  it("draft=false (the default) serves committed values; draft=true overlays the pending patch", async () => {
    const committed = await getPage<Record<string, unknown>>(
      g.key,
      "/gallery/artworks",
      `ids=${id.F},${id.E}`,
    );
    expect(committed.data.map((a) => [a.id, a.title, a.price_cents, a.medium])).toEqual([
      [id.F, "snakeXcase", null, "BRONZE"],
      [id.E, "snake_case", 250000, "Bronze"],
    ]);
    const explicit = await getPage<Record<string, unknown>>(
      g.key,
      "/gallery/artworks",
      `ids=${id.F}&draft=false`,
    );
    expect(explicit.data[0]).toEqual(committed.data[0]);

    const working = await getPage<Record<string, unknown>>(
      g.key,
      "/gallery/artworks",
      `ids=${id.F},${id.E}&draft=true`,
    );
    expect(working.data.map((a) => [a.id, a.title, a.price_cents, a.medium])).toEqual([
      [id.F, "Draft Title", 777, "Draft medium"],
      [id.E, "snake_case", 250000, "Bronze"],
    ]);
    // Only the patched fields differ.
    const { title: _t, price_cents: _p, medium: _m, ...restDraft } = working.data[0]!;
    const { title: _t2, price_cents: _p2, medium: _m2, ...restCommitted } = committed.data[0]!;
    expect(restDraft).toEqual(restCommitted);
    expect(working.data[1]).toEqual(committed.data[1]);

    // GET by id agrees with the list in both views.
    const single = await call("GET", `/gallery/artworks/${id.F}?draft=true`, { key: g.key });
    expect(await single.json()).toEqual(working.data[0]);
  });

  it("filters, search and sorting apply to the working copy under draft=true", async () => {
    expect(await ids("draft=true&unpriced=true")).toEqual([id.C]);
    expect(await ids("unpriced=true")).toEqual(newestFirst("C", "F"));
    expect(await ids("draft=true&q=draft%20title")).toEqual([id.F]);
    expect(await ids("q=draft")).toEqual([]);
    expect(await ids("draft=true&q=snakexcase")).toEqual([]);
    expect(await ids("draft=true&medium=bronze")).toEqual([id.E]);
    expect(await ids("draft=true&medium=draft%20medium")).toEqual([id.F]);
    expect(await ids("draft=true&price_min=700&price_max=800")).toEqual([id.F]);
    expect(await ids("price_min=700&price_max=800")).toEqual([]);
    const byPrice = await ids("draft=true&sort=price&dir=asc");
    expect(byPrice).toEqual([id.C, id.D, id.G, id.F, id.A, ...[id.B, id.E].sort()]);
  });

  it("boolean parameters accept only true and false", async () => {
    for (const param of ["unpriced", "published", "has_image", "disclosure", "draft"]) {
      for (const bad of ["1", "yes", "TRUE", ""]) {
        await expectProblem(
          await call("GET", `/gallery/artworks?${param}=${bad}`, { key: g.key }),
          400,
          "invalid_request",
          {
            field: param,
          },
        );
      }
    }
  });
});

describe("GET /gallery/artworks: sorting", () => {
  const sortKey: Record<string, (f: Fixture) => number> = {
    created: (f) => f.created,
    updated: (f) => f.updated,
    price: (f) => f.price ?? -1,
    year: (f) => f.year ?? -2147483648,
  };

  function expected(sort: string, dir: "asc" | "desc"): string[] {
    const asc = names
      .map((n) => [sortKey[sort]!(fixtures[n]), id[n]] as const)
      .sort(compareKeys)
      .map(([, artworkId]) => artworkId);
    return dir === "asc" ? asc : asc.reverse();
  }

  for (const sort of ["created", "updated", "price", "year"]) {
    for (const dir of ["asc", "desc"] as const) {
      it(`sort=${sort}&dir=${dir}`, async () => {
        expect(await ids(`sort=${sort}&dir=${dir}`)).toEqual(expected(sort, dir));
      });
    }
  }

  it("created and updated orders are the explicit timelines", async () => {
    expect(await ids("sort=created")).toEqual(["G", "F", "E", "D", "C", "B", "A"].map((n) => id[n as Name]));
    expect(await ids("sort=created&dir=asc")).toEqual(
      ["A", "B", "C", "D", "E", "F", "G"].map((n) => id[n as Name]),
    );
    expect(await ids("sort=updated")).toEqual(["A", "C", "G", "E", "F", "B", "D"].map((n) => id[n as Name]));
    expect(await ids("dir=asc")).toEqual(["A", "B", "C", "D", "E", "F", "G"].map((n) => id[n as Name]));
  });

  it("sort=price puts unpriced works below every priced one: last when descending, first when ascending", async () => {
    const desc = await ids("sort=price&dir=desc");
    expect(desc.slice(0, 5)).toEqual([...[id.B, id.E].sort().reverse(), id.A, id.G, id.D]);
    expect(new Set(desc.slice(5))).toEqual(new Set([id.C, id.F]));
    const asc = await ids("sort=price&dir=asc");
    expect(new Set(asc.slice(0, 2))).toEqual(new Set([id.C, id.F]));
    expect(asc.slice(2)).toEqual([id.D, id.G, id.A, ...[id.B, id.E].sort()]);
    // A price of 0 is a price: D sorts above the unpriced works.
    expect(desc.indexOf(id.D)).toBeLessThan(desc.indexOf(id.C));
  });

  it("sort=year puts undated works below every dated one, negative years included", async () => {
    const desc = await ids("sort=year");
    expect(desc).toEqual([id.F, ...[id.B, id.E].sort().reverse(), id.A, id.D, id.G, id.C]);
    const asc = await ids("sort=year&dir=asc");
    expect(asc).toEqual([id.C, id.G, id.D, id.A, ...[id.B, id.E].sort(), id.F]);
  });

  it("sorting combines with filters", async () => {
    expect(await ids("sort=price&dir=asc&market=primary")).toEqual([
      ...[id.C, id.F].sort(),
      id.G,
      id.A,
      id.E,
    ]);
    expect(await ids("sort=year&dir=desc&q=cotton")).toEqual([id.D, id.C]);
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

describe("GET /gallery/artworks: format prices for read-only keys", () => {
  let readOnly: string;
  let hiddenFormat: string;
  let publicFormat: string;

  beforeAll(async () => {
    readOnly = await g.keyWith(readScopes);
    hiddenFormat = await seedFormat(g.id, id.A, { label: "Print", price_cents: 5000, position: 0 });
    publicFormat = await seedFormat(g.id, id.E, { label: "Cast", price_cents: 9000, position: 0 });
  });

  type Fmt = { id: string; price_cents: number | null };
  async function formatPrices(key: string, path: string, query: string) {
    const res = await call("GET", `${path}?${query}`, { key });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data?: { formats: Fmt[] }[]; formats?: Fmt[] };
    const works = body.data ?? [body as { formats: Fmt[] }];
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
