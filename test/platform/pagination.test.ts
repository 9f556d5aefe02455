import { beforeAll, describe, expect, it } from "vitest";
import { call, createGallery, type TestGallery } from "../helpers/gallery";
import { getPage, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { minutesAfterEpoch, seedEvent } from "../helpers/seed";
import { expectedOrder, idsOf, type Listed, type Seeded, seedCatalogue } from "./pagination-helpers";

/** Cursor pagination of GET /gallery/artworks: walking every page, and the cursor bound to its list, sort and dir. */

describe("walking every page", () => {
  let g: TestGallery;
  let rows: Seeded[];

  beforeAll(async () => {
    g = await createGallery();
    rows = await seedCatalogue(g.id, 30);
  });

  for (const sort of ["created", "updated", "price", "year"] as const) {
    for (const dir of ["desc", "asc"] as const) {
      it(`sort=${sort}&dir=${dir}, limit 7: every work exactly once, in keyset order`, async () => {
        const pages = await walkPages<Listed>(g.key, "/gallery/artworks", { sort, dir, limit: "7" });
        expect(pages.map((p) => p.data.length)).toEqual([7, 7, 7, 7, 2]);
        expect(pages.slice(0, -1).every((p) => typeof p.next_cursor === "string")).toBe(true);
        expect(pages.at(-1)!.next_cursor).toBeNull();
        const seen = idsOf(pages);
        expect(new Set(seen).size).toBe(30);
        expect(seen).toEqual(expectedOrder(rows, sort, dir));
      });
    }
  }

  it("unpriced works come last under sort=price desc and first under asc, across page boundaries", async () => {
    const unpriced = rows.filter((r) => r.price === null).map((r) => r.id);
    expect(unpriced).toHaveLength(6);
    const desc = idsOf(await walkPages<Listed>(g.key, "/gallery/artworks", { sort: "price", limit: "7" }));
    expect(new Set(desc.slice(-6))).toEqual(new Set(unpriced));
    const asc = idsOf(
      await walkPages<Listed>(g.key, "/gallery/artworks", { sort: "price", dir: "asc", limit: "4" }),
    );
    expect(new Set(asc.slice(0, 6))).toEqual(new Set(unpriced));
  });

  it("undated works come last under sort=year desc and first under asc", async () => {
    const undated = rows.filter((r) => r.year === null).map((r) => r.id);
    expect(undated).toHaveLength(5);
    const desc = idsOf(await walkPages<Listed>(g.key, "/gallery/artworks", { sort: "year", limit: "3" }));
    expect(new Set(desc.slice(-5))).toEqual(new Set(undated));
    const asc = idsOf(
      await walkPages<Listed>(g.key, "/gallery/artworks", { sort: "year", dir: "asc", limit: "3" }),
    );
    expect(new Set(asc.slice(0, 5))).toEqual(new Set(undated));
  });

  it("a collection that is an exact multiple of the limit ends with next_cursor null, not an empty page", async () => {
    const pages = await walkPages<Listed>(g.key, "/gallery/artworks", { limit: "10" });
    expect(pages.map((p) => p.data.length)).toEqual([10, 10, 10]);
    expect(pages[2]!.next_cursor).toBeNull();
    const single = await getPage(g.key, "/gallery/artworks", "limit=100");
    expect(single.data).toHaveLength(30);
    expect(single.next_cursor).toBeNull();
  });

  it("the default page size is 20", async () => {
    const first = await getPage<Listed>(g.key, "/gallery/artworks");
    expect(first.data.map((a) => a.id)).toEqual(expectedOrder(rows, "created", "desc").slice(0, 20));
    expect(typeof first.next_cursor).toBe("string");
    const second = await getPage<Listed>(g.key, "/gallery/artworks", `cursor=${first.next_cursor}`);
    expect(second.data.map((a) => a.id)).toEqual(expectedOrder(rows, "created", "desc").slice(20));
    expect(second.next_cursor).toBeNull();
  });

  it("the limit may change between pages; the cursor keeps its place", async () => {
    const first = await getPage<Listed>(g.key, "/gallery/artworks", "sort=price&limit=3");
    const second = await getPage<Listed>(
      g.key,
      "/gallery/artworks",
      `sort=price&limit=12&cursor=${first.next_cursor}`,
    );
    expect([...first.data, ...second.data].map((a) => a.id)).toEqual(
      expectedOrder(rows, "price", "desc").slice(0, 15),
    );
  });

  it("filters narrow the walk and the cursor continues within them", async () => {
    const priced = rows.filter((r) => r.price !== null);
    const pages = await walkPages<Listed>(g.key, "/gallery/artworks", {
      sort: "price",
      dir: "asc",
      limit: "5",
      unpriced: "false",
    });
    expect(idsOf(pages)).toEqual(expectedOrder(priced, "price", "asc"));
  });
});

describe("cursor binding and integrity", () => {
  let g: TestGallery;
  let cursor: string;

  beforeAll(async () => {
    g = await createGallery();
    await seedCatalogue(g.id, 6);
    const page = await getPage(g.key, "/gallery/artworks", "sort=price&dir=desc&limit=2");
    cursor = page.next_cursor!;
    expect(typeof cursor).toBe("string");
  });

  async function expectCursorRejected(path: string) {
    const body = await expectProblem(await call("GET", path, { key: g.key }), 400, "invalid_request", {
      field: "cursor",
    });
    expect(body.retry).toBe("permanent");
    return body;
  }

  it("is accepted with the sort and dir it was minted for", async () => {
    const next = await getPage(g.key, "/gallery/artworks", `sort=price&dir=desc&limit=2&cursor=${cursor}`);
    expect(next.data).toHaveLength(2);
  });

  it("is rejected with another sort", async () => {
    for (const sort of ["created", "updated", "year"]) {
      const body = await expectCursorRejected(`/gallery/artworks?sort=${sort}&dir=desc&cursor=${cursor}`);
      expect(body.detail).toContain(`sort=${sort}`);
    }
    // Omitting sort means the default (created), which is another sort too.
    await expectCursorRejected(`/gallery/artworks?dir=desc&cursor=${cursor}`);
  });

  it("is rejected with another dir", async () => {
    await expectCursorRejected(`/gallery/artworks?sort=price&dir=asc&cursor=${cursor}`);
  });

  it("is rejected when any character is altered", async () => {
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    for (const at of [0, 1, 10, Math.floor(cursor.length / 2), cursor.length - 2, cursor.length - 1]) {
      const tampered = flip(cursor, at);
      expect(tampered).not.toBe(cursor);
      await expectCursorRejected(
        `/gallery/artworks?sort=price&dir=desc&cursor=${encodeURIComponent(tampered)}`,
      );
    }
    // Cut short or extended by whole bytes: still rejected.
    await expectCursorRejected(`/gallery/artworks?sort=price&dir=desc&cursor=${cursor.slice(0, -4)}`);
    await expectCursorRejected(`/gallery/artworks?sort=price&dir=desc&cursor=${cursor}AAAA`);
  });

  it("reveals neither the last row's id nor its sort value, and stays within the parameter's 1024", async () => {
    const page = await getPage<Listed>(g.key, "/gallery/artworks", "sort=price&dir=desc&limit=2");
    const last = page.data.at(-1)!;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor.length).toBeLessThanOrEqual(1024);
    const decoded = atob(
      cursor
        .replaceAll("-", "+")
        .replaceAll("_", "/")
        .padEnd(Math.ceil(cursor.length / 4) * 4, "="),
    );
    for (const text of [cursor, decoded]) {
      expect(text).not.toContain(last.id);
      expect(text).not.toContain(last.id.slice(4));
      expect(String(last.price_cents).length).toBeGreaterThan(2);
      expect(text).not.toContain(String(last.price_cents));
      expect(text).not.toContain("price");
      expect(text).not.toContain("desc");
    }
    // Nothing of the payload's JSON survives in the bytes.
    for (const fragment of ['"k":', '"s":', '"r":', "listArtworks", '","'])
      expect(decoded).not.toContain(fragment);
    // Two cursors for the same position differ (a fresh IV each time).
    const again = await getPage(g.key, "/gallery/artworks", "sort=price&dir=desc&limit=2");
    expect(again.next_cursor).not.toBe(cursor);
  });

  it("is rejected when malformed", async () => {
    for (const junk of [
      "abc",
      "abc.def",
      "a.b.c",
      ".",
      `${cursor}.x`,
      "%%%",
      "A".repeat(60),
      cursor.slice(0, 20),
    ]) {
      await expectCursorRejected(`/gallery/artworks?sort=price&dir=desc&cursor=${encodeURIComponent(junk)}`);
    }
    await expectProblem(
      await call("GET", `/gallery/artworks?cursor=${"a".repeat(1025)}`, { key: g.key }),
      400,
      "invalid_request",
      { field: "cursor" },
    );
  });

  it("does not travel between lists: an events cursor on artworks and an artworks cursor on events", async () => {
    for (let i = 0; i < 3; i++) await seedEvent(g.id, { created_at: minutesAfterEpoch(i) });
    const events = await getPage(g.key, "/gallery/events", "limit=1");
    expect(typeof events.next_cursor).toBe("string");
    const body = await expectCursorRejected(`/gallery/artworks?cursor=${events.next_cursor}`);
    expect(body.detail).toBe("The cursor belongs to another list.");

    const artworks = await getPage(g.key, "/gallery/artworks", "limit=1");
    await expectProblem(
      await call("GET", `/gallery/events?cursor=${artworks.next_cursor}`, { key: g.key }),
      400,
      "invalid_request",
      { field: "cursor" },
    );
  });

  it("is bound to its gallery: another gallery's cursor is a 400 for the same list, sort and dir", async () => {
    const other = await createGallery();
    await seedCatalogue(other.id, 4);
    const body = await expectProblem(
      await call("GET", `/gallery/artworks?sort=price&dir=desc&cursor=${cursor}`, { key: other.key }),
      400,
      "invalid_request",
      { field: "cursor" },
    );
    expect(body.detail).toContain("another gallery");
    const theirs = await getPage(other.key, "/gallery/artworks", "sort=price&dir=desc&limit=2");
    await expectCursorRejected(`/gallery/artworks?sort=price&dir=desc&cursor=${theirs.next_cursor}`);
  });
});

/**
 * What keyset pagination guarantees while the collection changes: the cursor is a position (the last returned
 * row's sort key and id), not a snapshot. Therefore
 *  - a row that existed before the walk and whose sort key does not change is returned exactly once, in order,
 *    whatever else is inserted, updated or deleted meanwhile;
 *  - a row inserted during the walk is returned (once) exactly when its key lies beyond the cursor at the time
 *    of insertion, and never otherwise;
 *  - a row whose sort key changes mid-walk is seen where its key is at each page read: it can be returned again
 *    (moved beyond the cursor) or not at all (moved behind it). No keyset scheme can avoid this; the spec's
 *    "neither skipped nor duplicated" holds for every row whose sort key is stable during the walk.
 */
