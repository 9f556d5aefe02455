import { beforeAll, describe, expect, it } from "vitest";
import { compareKeys } from "../helpers/pages";
import { type Fixture, fixtures, id, ids, type Name, names, seedCatalogue } from "./catalogue";

/** GET /gallery/artworks over the catalogue (test/artworks/catalogue.ts): every sort, both directions. */

beforeAll(seedCatalogue);

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
