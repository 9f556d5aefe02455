import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../lib/ids";
import {
  compareKeys,
  expectProblem,
  getPage,
  minutesAfterEpoch,
  type Page,
  seedArtwork,
  seedEvent,
  walkPages,
} from "./helpers/artworks";
import { call, createGallery, type TestGallery } from "./helpers/gallery";

/**
 * Cursor pagination of GET /gallery/artworks (and the cursor's binding to its list, sort and dir). Keyset order
 * is (sort key, id) in the requested direction, with unpriced/undated works mapped below every real value.
 */

type Sort = "created" | "updated" | "price" | "year";
type Dir = "asc" | "desc";
type Key = readonly [number | string, string];

interface Seeded {
  id: string;
  created: number;
  updated: number;
  price: number | null;
  year: number | null;
}

const NULL_PRICE = -1;
const NULL_YEAR = -2147483648;

function keyOf(row: Seeded, sort: Sort): Key {
  switch (sort) {
    case "created":
      return [row.created, row.id];
    case "updated":
      return [row.updated, row.id];
    case "price":
      return [row.price ?? NULL_PRICE, row.id];
    case "year":
      return [row.year ?? NULL_YEAR, row.id];
  }
}

function expectedOrder(rows: Seeded[], sort: Sort, dir: Dir): string[] {
  const asc = [...rows].sort((a, b) => compareKeys(keyOf(a, sort), keyOf(b, sort))).map((r) => r.id);
  return dir === "asc" ? asc : asc.reverse();
}

/** Seeds `n` works with distinct created/updated times and prices/years that tie and are sometimes missing. */
async function seedCatalogue(galleryId: string, n: number): Promise<Seeded[]> {
  const rows: Seeded[] = [];
  for (let i = 0; i < n; i++) {
    const row: Seeded = {
      id: newId("art"),
      created: i + 1,
      // A permutation of the creation order, so sort=updated differs from sort=created.
      updated: ((i * 7) % n) + 1000,
      price: i % 5 === 0 ? null : (i % 4) * 1000,
      year: i % 6 === 0 ? null : i % 2 === 0 ? 1900 + (i % 3) * 50 : -2500 + (i % 3),
    };
    await seedArtwork(galleryId, {
      id: row.id,
      title: `Work ${i}`,
      price_cents: row.price,
      year: row.year,
      created_at: minutesAfterEpoch(row.created),
      updated_at: minutesAfterEpoch(row.updated),
    });
    rows.push(row);
  }
  return rows;
}

type Listed = { id: string; price_cents: number | null; year: number | null };

function idsOf(pages: Page<Listed>[]): string[] {
  return pages.flatMap((p) => p.data.map((a) => a.id));
}

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
    const [body, signature] = cursor.split(".") as [string, string];
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    for (const tampered of [
      flip(cursor, 0),
      `${flip(body, Math.floor(body.length / 2))}.${signature}`,
      `${body}.${flip(signature, 3)}`,
      `${body}.${flip(signature, 0)}`,
    ]) {
      expect(tampered).not.toBe(cursor);
      await expectCursorRejected(
        `/gallery/artworks?sort=price&dir=desc&cursor=${encodeURIComponent(tampered)}`,
      );
    }
  });

  it("is rejected when its payload is rewritten, even as well-formed JSON", async () => {
    const [body, signature] = cursor.split(".") as [string, string];
    const payload = JSON.parse(atob(body.replaceAll("-", "+").replaceAll("_", "/"))) as { k: unknown[] };
    expect(payload).toMatchObject({ s: "price", d: "desc" });
    payload.k = [999999999, payload.k[1]];
    const forged = btoa(JSON.stringify(payload)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
    const res = await call("GET", `/gallery/artworks?sort=price&dir=desc&cursor=${forged}.${signature}`, {
      key: g.key,
    });
    await expectProblem(res, 400, "invalid_request", { field: "cursor" });
  });

  it("is rejected when malformed", async () => {
    for (const junk of ["abc", "abc.def", "a.b.c", ".", `${cursor}.x`, "%%%", cursor.split(".")[0]!]) {
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

  it("carries nothing of another gallery: a cursor used by another gallery only positions within that gallery", async () => {
    const other = await createGallery();
    const otherRows = await seedCatalogue(other.id, 4);
    const page = await getPage<Listed>(
      other.key,
      "/gallery/artworks",
      `sort=price&dir=desc&cursor=${cursor}`,
    );
    for (const a of page.data) expect(otherRows.map((r) => r.id)).toContain(a.id);
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
describe("pagination while the collection changes", () => {
  it("sort=created desc: inserts and price updates between pages never skip or repeat a pre-existing row", async () => {
    const g = await createGallery();
    const rows = await seedCatalogue(g.id, 60);
    const expected = expectedOrder(rows, "created", "desc");
    const inserted: string[] = [];
    const pages = await walkPages<Listed>(g.key, "/gallery/artworks", { limit: "5" }, async (page, index) => {
      if (!page.next_cursor) return;
      const created = await call("POST", "/gallery/artworks", {
        key: g.key,
        body: { title: `New ${index}`, price_cents: 123 + index },
      });
      expect(created.status).toBe(201);
      inserted.push(((await created.json()) as { id: string }).id);
      // One already returned row and one not yet returned row change price (and so updated_at).
      for (const target of [expected[index * 5 + 1]!, expected[index * 5 + 13]].filter(Boolean)) {
        const patched = await call("PATCH", `/gallery/artworks/${target}`, {
          key: g.key,
          body: { price_cents: 777_000 + index },
        });
        expect(patched.status).toBe(200);
      }
    });
    const seen = idsOf(pages);
    expect(seen).toEqual(expected);
    // New works are newer than every position the cursor held: a descending walk never reaches them.
    for (const id of inserted) expect(seen).not.toContain(id);
    expect(inserted).toHaveLength(11);
  });

  it("sort=created asc: pre-existing rows exactly once, then the rows inserted meanwhile, each once", async () => {
    const g = await createGallery();
    const rows = await seedCatalogue(g.id, 60);
    const expected = expectedOrder(rows, "created", "asc");
    const inserted: { id: string; created_at: string }[] = [];
    const pages = await walkPages<Listed>(
      g.key,
      "/gallery/artworks",
      { limit: "5", dir: "asc" },
      async (page, index) => {
        if (!page.next_cursor || index >= 12) return;
        const created = await call("POST", "/gallery/artworks", {
          key: g.key,
          body: { title: `New ${index}` },
        });
        expect(created.status).toBe(201);
        inserted.push((await created.json()) as { id: string; created_at: string });
        const target = expected[(index * 7) % 60]!;
        const patched = await call("PATCH", `/gallery/artworks/${target}`, {
          key: g.key,
          body: { price_cents: 5 + index },
        });
        expect(patched.status).toBe(200);
      },
    );
    expect(inserted).toHaveLength(12);
    const newestLast = [...inserted]
      .sort((a, b) => compareKeys([a.created_at, a.id], [b.created_at, b.id]))
      .map((a) => a.id);
    expect(idsOf(pages)).toEqual([...expected, ...newestLast]);
  });

  it("sort=price desc: updates that keep the price and inserts anywhere never skip or repeat a pre-existing row", async () => {
    const g = await createGallery();
    const rows = await seedCatalogue(g.id, 60);
    const expected = expectedOrder(rows, "price", "desc");
    const insertedAt: { id: string; key: Key; cursorKey: Key }[] = [];
    const newPrices = [3000, 0, 1500, 2000, 500, 3001, 1000, 2999, 1, 4000, 999];
    const pages = await walkPages<Listed>(
      g.key,
      "/gallery/artworks",
      { sort: "price", limit: "5" },
      async (page, index) => {
        if (!page.next_cursor) return;
        const last = page.data.at(-1)!;
        const cursorKey: Key = [last.price_cents ?? NULL_PRICE, last.id];
        const price = newPrices[index % newPrices.length]!;
        const created = await call("POST", "/gallery/artworks", {
          key: g.key,
          body: { title: `New ${index}`, price_cents: price },
        });
        expect(created.status).toBe(201);
        const id = ((await created.json()) as { id: string }).id;
        insertedAt.push({ id, key: [price, id], cursorKey });
        // Edits that move updated_at but not the sort key, on a returned row and on a row still ahead.
        for (const target of [expected[index * 5]!, expected[index * 5 + 12]].filter(Boolean)) {
          const patched = await call("PATCH", `/gallery/artworks/${target}`, {
            key: g.key,
            body: { title: `Edited ${index}`, availability_state: "on_hold" },
          });
          expect(patched.status).toBe(200);
        }
      },
    );
    const seen = idsOf(pages);
    const preExisting = new Set(rows.map((r) => r.id));
    expect(seen.filter((id) => preExisting.has(id))).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);
    // Each inserted work shows up exactly when it landed beyond the cursor (below it, descending).
    for (const n of insertedAt) {
      const count = seen.filter((id) => id === n.id).length;
      expect(count, `${n.id} at price ${n.key[0]} vs cursor ${n.cursorKey[0]}`).toBe(
        compareKeys(n.key, n.cursorKey) < 0 ? 1 : 0,
      );
    }
    expect(insertedAt.some((n) => compareKeys(n.key, n.cursorKey) < 0)).toBe(true);
    expect(insertedAt.some((n) => compareKeys(n.key, n.cursorKey) > 0)).toBe(true);
    // The walk is monotonic in (price, id) as the rows stood when each page was read.
    const all = pages.flatMap((p) => p.data.map((a) => [a.price_cents ?? NULL_PRICE, a.id] as Key));
    for (let i = 1; i < all.length; i++) expect(compareKeys(all[i]!, all[i - 1]!)).toBeLessThan(0);
  });

  it("deleting the cursor's own row and a row still ahead: the walk continues, the rest exactly once", async () => {
    const g = await createGallery();
    const rows = await seedCatalogue(g.id, 20);
    const expected = expectedOrder(rows, "year", "desc");
    const deletedAhead: string[] = [];
    const pages = await walkPages<Listed>(
      g.key,
      "/gallery/artworks",
      { sort: "year", limit: "4" },
      async (page, index) => {
        if (!page.next_cursor || index > 2) return;
        const ahead = expected[index * 4 + 6]!;
        deletedAhead.push(ahead);
        for (const target of [page.data.at(-1)!.id, ahead]) {
          const res = await call("DELETE", `/gallery/artworks/${target}`, { key: g.key });
          expect(res.status).toBe(200);
        }
      },
    );
    expect(idsOf(pages)).toEqual(expected.filter((id) => !deletedAhead.includes(id)));
  });

  it("a row whose sort key moves mid-walk is seen where it stands at each read (keyset, not snapshot)", async () => {
    const g = await createGallery();
    const rows = await seedCatalogue(g.id, 20);
    const expected = expectedOrder(rows, "updated", "desc");
    const [returned, notYetReturned] = [expected[1]!, expected[15]!];
    const pages = await walkPages<Listed>(
      g.key,
      "/gallery/artworks",
      { sort: "updated", limit: "5" },
      async (_page, index) => {
        if (index !== 0) return;
        // Both edits make the rows the most recently updated: behind the descending cursor.
        for (const target of [returned, notYetReturned]) {
          const res = await call("PATCH", `/gallery/artworks/${target}`, {
            key: g.key,
            body: { title: "Moved" },
          });
          expect(res.status).toBe(200);
        }
      },
    );
    const seen = idsOf(pages);
    // Every row whose key stayed put: exactly once, in order.
    expect(seen.filter((id) => id !== returned && id !== notYetReturned)).toEqual(
      expected.filter((id) => id !== returned && id !== notYetReturned),
    );
    // The row returned before it moved is not repeated; the one that moved behind the cursor before being
    // reached is skipped by this walk (a fresh walk finds it first).
    expect(seen.filter((id) => id === returned)).toHaveLength(1);
    expect(seen).not.toContain(notYetReturned);
    const fresh = await getPage<Listed>(g.key, "/gallery/artworks", "sort=updated&limit=2");
    expect(new Set(fresh.data.map((a) => a.id))).toEqual(new Set([returned, notYetReturned]));
  });
});
