import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { artworkDocumentSource, artworkResource, documentView } from "../../db/queries/artworks";
import { call, createGallery, db, type TestGallery } from "../helpers/gallery";
import { create, patch, seedArtwork } from "./helpers";

/**
 * The stored artwork documents (migration 0023, docs/decisions.md "PostgreSQL time per request"): what the lists
 * and the single read send for a holder of a write scope is built by `artwork_document()`, the description's own
 * builder rendered into the database, and rebuilt by the triggers at every commit that changes what it shows.
 */

/** The works of the gallery whose stored document is missing or differs from the builder's JSON, by id. */
async function staleDocuments(galleryId: string): Promise<Record<string, string | null>> {
  const result = await db().execute<{ id: string; stored: string | null }>(
    sql`select a.id, d.body::text as stored from artworks a left join artwork_documents d on d.artwork_id = a.id
      where a.gallery_id = ${galleryId}
        and d.body::text is distinct from (${artworkResource.json(documentView)})::text`,
  );
  return Object.fromEntries(result.rows.map((r) => [r.id, r.stored]));
}

async function ok(res: Response, status = 200): Promise<Record<string, unknown>> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as Record<string, unknown>;
}

async function addArtist(g: TestGallery, name: string): Promise<string> {
  return (await ok(await call("POST", "/gallery/artists", { key: g.key, body: { name } }), 201)).id as string;
}

describe("artwork documents", () => {
  it("artwork_document() is the resource description's builder (a changed description needs a migration)", async () => {
    const result = await db().execute<{ src: string }>(
      sql`select prosrc as src from pg_proc where proname = 'artwork_document'`,
    );
    // When this fails: a new migration with `tsx scripts/artwork-document.ts` and a rebuild of the documents.
    expect(result.rows.map((r) => r.src)).toEqual([artworkDocumentSource()]);
  });

  it("is rebuilt by every change of what it shows, and is what the reads send", async () => {
    const g = await createGallery();
    const painter = await addArtist(g, "Ada Painter");
    const sculptor = await addArtist(g, "Ben Sculptor");
    const rich = await create(g, {
      title: "Rich",
      price_cents: 120_000,
      currency: "USD",
      artists: [{ artist_id: painter, role: "primary" }],
      dimensions: [{ height_cm: 40, width_cm: 30 }],
    });
    const plain = await create(g, { title: "Plain" });
    // A row written straight to the table (as the suites seed them) gets its document at its commit too.
    const seeded = await seedArtwork(g.id, { title: "Seeded" });
    expect(await staleDocuments(g.id)).toEqual({});

    // The work's own columns, its credits and dimensions replaced.
    await ok(
      await patch(g, rich.id, {
        title: "Rich, retitled",
        artists: [
          { artist_id: sculptor, role: "primary" },
          { artist_id: painter, role: "collaborator" },
        ],
        dimensions: [],
      }),
    );
    // Formats: added, changed, removed.
    const format = await ok(
      await call("POST", `/gallery/artworks/${plain.id}/formats`, {
        key: g.key,
        body: { label: "Print", price_cents: 9_000, currency: "USD" },
      }),
      201,
    );
    await ok(
      await call("PATCH", `/gallery/artworks/${plain.id}/formats/${format.id}`, {
        key: g.key,
        body: { label: "Large print" },
      }),
    );
    expect(await staleDocuments(g.id)).toEqual({});
    // A credited artist renamed: every work crediting them.
    await ok(await call("PATCH", `/gallery/artists/${painter}`, { key: g.key, body: { name: "Ada P." } }));
    await ok(await call("DELETE", `/gallery/artworks/${plain.id}/formats/${format.id}`, { key: g.key }));
    // Published, then edited in its draft: the committed work (the document) moves only on publish.
    await ok(await call("POST", `/gallery/artworks/${rich.id}/publish`, { key: g.key }));
    await ok(await patch(g, rich.id, { title: "Draft title" }));
    expect(await staleDocuments(g.id)).toEqual({});

    // The reads send the document as stored, byte for byte.
    const stored = await db().execute<{ id: string; body: string }>(
      sql`select d.artwork_id as id, d.body::text as body from artwork_documents d
        join artworks a on a.id = d.artwork_id where a.gallery_id = ${g.id}`,
    );
    const bodies = Object.fromEntries(stored.rows.map((r) => [r.id, r.body]));
    expect(Object.keys(bodies).sort()).toEqual([rich.id, plain.id, seeded].sort());
    const single = await call("GET", `/gallery/artworks/${rich.id}`, { key: g.key });
    expect(await single.text()).toBe(bodies[rich.id]);
    const listed = await (await call("GET", "/gallery/artworks", { key: g.key })).text();
    for (const id of [rich.id, plain.id, seeded]) expect(listed).toContain(bodies[id]);

    // A deleted work takes its document along.
    await ok(await call("DELETE", `/gallery/artworks/${plain.id}`, { key: g.key }));
    const left = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from artwork_documents where artwork_id = ${plain.id}`,
    );
    expect(left.rows[0]!.n).toBe(0);
  });
});
