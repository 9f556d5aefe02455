import { type SQL, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { discardFormatStatements, publishFormatStatements } from "../../db/queries/artwork-formats";
import { Artwork } from "../../lib/schemas/artworks";
import { create, getArtwork } from "../artworks/helpers";
import { call, callJson, createGallery, db, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { outboxEvents } from "../helpers/seed";
import {
  addFormat,
  deleteFormat,
  type FormatBody,
  formatRows,
  formatsPath,
  listFormats,
  markPublished,
  order,
  patchFormat,
} from "./api";

/**
 * A published work's formats change through its draft: the live reads stay as published while `draft=true`
 * shows the working copy, until the draft is published or discarded.
 */

let g: TestGallery;
beforeAll(async () => {
  g = await createGallery();
});

async function draftArtwork(id: string) {
  const { status, body } = await callJson(Artwork, "GET", `/gallery/artworks/${id}?draft=true`, {
    key: g.key,
  });
  expect(status).toBe(200);
  return body;
}

async function runBatch(statements: SQL[]): Promise<void> {
  const d = db();
  await d.batch(statements.map((s) => d.execute(s)) as [ReturnType<typeof d.execute>]);
}

/** A published work with formats A (priced) and B, made before it was published. */
async function publishedWork(): Promise<{ id: string; a: FormatBody; b: FormatBody; live: FormatBody[] }> {
  const work = await create(g, { title: "Published" });
  const a = await addFormat(g, work.id, { label: "A", price_cents: 1000, currency: "USD" });
  const b = await addFormat(g, work.id, { label: "B" });
  await markPublished(work.id);
  return { id: work.id, a, b, live: await listFormats(g.key, work.id) };
}

/** Changes every kind: C created, A changed, C moved first, B removed, D created then removed. */
async function editDraft(w: Awaited<ReturnType<typeof publishedWork>>) {
  const c = await addFormat(g, w.id, { label: "C", stock_quantity: 4 });
  await patchFormat(g, w.id, w.a.id, { label: "A2", price_cents: 2000 });
  await patchFormat(g, w.id, c.id, { position: 0 });
  await deleteFormat(g, w.id, w.b.id);
  const d = await addFormat(g, w.id, { label: "D" });
  await deleteFormat(g, w.id, d.id);
  return { c, d };
}

describe("format writes on a published work", () => {
  it("leave the live work as published and show in the working copy", async () => {
    const w = await publishedWork();
    const liveArtwork = await getArtwork(g, w.id);

    const c = await addFormat(g, w.id, { label: "C", stock_quantity: 4 });
    expect(c).toMatchObject({ label: "C", position: 2, stock_quantity: 4, artwork_id: w.id });
    expect(await listFormats(g.key, w.id)).toEqual(w.live);
    expect(await order(g.key, w.id, "?draft=true")).toEqual([
      ["A", 0],
      ["B", 1],
      ["C", 2],
    ]);

    const a2 = await patchFormat(g, w.id, w.a.id, { label: "A2", price_cents: 2000 });
    expect(a2).toMatchObject({ label: "A2", price_cents: 2000, updated_at: w.a.updated_at });
    expect(await listFormats(g.key, w.id)).toEqual(w.live);

    await patchFormat(g, w.id, c.id, { position: 0 });
    await deleteFormat(g, w.id, w.b.id);
    expect(await listFormats(g.key, w.id)).toEqual(w.live);
    expect((await getArtwork(g, w.id)).formats).toEqual(w.live);
    const working = await listFormats(g.key, w.id, "?draft=true");
    expect(working.map((f) => [f.label, f.position, f.price_cents])).toEqual([
      ["C", 0, null],
      ["A2", 1, 2000],
    ]);
    expect((await draftArtwork(w.id)).formats).toEqual(working);

    // The work itself: its draft is open, its live fields untouched.
    const after = await getArtwork(g, w.id);
    expect(after).toMatchObject({ title: liveArtwork.title, save_state: "draft", formats: w.live });
    const drafts = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from artwork_drafts where artwork_id = ${w.id}`,
    );
    expect(drafts.rows[0]!.n).toBe(1);

    // As stored: C is pending creation, B pending removal, A's changes pending; the columns are the live values.
    const rows = await formatRows(w.id);
    expect(rows.map((r) => [r.label, r.position, r.pending_action, r.pending])).toEqual([
      ["A", 0, null, { label: "A2", price_cents: 2000, position: 1 }],
      // Moved back by C's move before it was removed: publishing deletes it, discarding drops the move.
      ["B", 1, "delete", { position: 2 }],
      ["C", 2, "create", { position: 0 }],
    ]);
  });

  it("deletes outright a format the draft created, and 404s one the draft removed", async () => {
    const w = await publishedWork();
    const d = await addFormat(g, w.id, { label: "D" });
    await deleteFormat(g, w.id, d.id);
    expect((await formatRows(w.id)).map((r) => r.id)).not.toContain(d.id);
    await deleteFormat(g, w.id, w.b.id);
    for (const method of ["PATCH", "DELETE"]) {
      const res = await call(method, formatsPath(w.id, w.b.id), {
        key: g.key,
        body: method === "PATCH" ? { label: "X" } : undefined,
      });
      await expectProblem(res, 404, "not_found");
    }
    expect(await listFormats(g.key, w.id)).toEqual(w.live);
  });

  it("record events whose object is the working copy", async () => {
    const w = await publishedWork();
    const a2 = await patchFormat(g, w.id, w.a.id, { price_cents: 2500 });
    const event = (await outboxEvents(g.id)).filter((e) => e.resource_id === w.a.id).at(-1)!;
    expect(event.type).toBe("artwork_format.updated");
    expect(event.data).toEqual({ object: a2, previous_attributes: { price_cents: 1000 } });
  });
});

describe("publishFormatStatements", () => {
  it("makes the working copy live: removals deleted, pending values applied, nothing pending", async () => {
    const w = await publishedWork();
    const { c } = await editDraft(w);
    const working = await listFormats(g.key, w.id, "?draft=true");
    const at = new Date(Date.now() + 1000).toISOString();
    await runBatch(publishFormatStatements(g.id, w.id, at));

    const rows = await formatRows(w.id);
    expect(rows.map((r) => [r.id, r.label, r.position, r.price_cents, r.pending, r.pending_action])).toEqual([
      [c.id, "C", 0, null, null, null],
      [w.a.id, "A2", 1, 2000, null, null],
    ]);
    const live = await listFormats(g.key, w.id);
    expect(live).toEqual(working.map((f) => ({ ...f, updated_at: at })));
    expect(await listFormats(g.key, w.id, "?draft=true")).toEqual(live);
  });
});

describe("discardFormatStatements", () => {
  it("drops the draft's formats and changes: the working copy is the live work again", async () => {
    const w = await publishedWork();
    await editDraft(w);
    await runBatch(discardFormatStatements(g.id, w.id));

    const rows = await formatRows(w.id);
    expect(rows.map((r) => [r.id, r.label, r.position, r.pending, r.pending_action])).toEqual([
      [w.a.id, "A", 0, null, null],
      [w.b.id, "B", 1, null, null],
    ]);
    expect(await listFormats(g.key, w.id)).toEqual(w.live);
    expect(await listFormats(g.key, w.id, "?draft=true")).toEqual(w.live);
  });
});
