import { describe, expect, it } from "vitest";
import { Artwork } from "../../lib/schemas/artworks";
import { call, createGallery, readJson } from "../helpers/gallery";
import { compareKeys, getPage, walkPages } from "../helpers/pages";
import { expectedOrder, idsOf, type Key, type Listed, NULL_PRICE, seedCatalogue } from "./pagination-helpers";

/** Cursor pagination of GET /gallery/artworks while the collection changes between pages (keyset, not snapshot). */

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
        body: { title: `New ${index}`, price_cents: 123 + index, currency: "USD" },
      });
      expect(created.status).toBe(201);
      inserted.push((await readJson(Artwork, created)).id);
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
        inserted.push(await readJson(Artwork, created));
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
          body: { title: `New ${index}`, price_cents: price, currency: "USD" },
        });
        expect(created.status).toBe(201);
        const id = (await readJson(Artwork, created)).id;
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
