import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { call } from "../helpers/gallery";
import { getPage } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import {
  g,
  id,
  ids,
  malevich,
  monet,
  names,
  newestFirst,
  otherArtist,
  otherArtwork,
  otherTag,
  seedCatalogue,
  t1,
  t2,
} from "./catalogue";

/** GET /gallery/artworks over the catalogue (test/artworks/catalogue.ts): every filter. */

beforeAll(seedCatalogue);

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
