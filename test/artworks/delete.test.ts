import { describe, expect, it } from "vitest";
import { call, createGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { countRows, outboxEvents } from "../helpers/seed";
import { activity, create, getArtwork, listedIds, patch } from "./helpers";

/** DELETE /gallery/artworks/{id}. */

describe("DELETE /gallery/artworks/{id}", () => {
  it("deletes, answers {id, deleted: true}, emits artwork.deleted with the last state, and takes the timeline along", async () => {
    const g = await createGallery();
    const work = await create(g, { title: "Doomed", price_cents: 10, currency: "USD" });
    await patch(g, work.id, { price_cents: 20 });
    const last = await getArtwork(g, work.id);
    expect((await activity(work.id)).length).toBe(2);

    const res = await call("DELETE", `/gallery/artworks/${work.id}`, { key: g.key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: work.id, deleted: true });

    await expectProblem(await call("GET", `/gallery/artworks/${work.id}`, { key: g.key }), 404, "not_found");
    await expectProblem(
      await call("DELETE", `/gallery/artworks/${work.id}`, { key: g.key }),
      404,
      "not_found",
    );
    expect(await listedIds(g.key, "")).toEqual([]);
    expect(await countRows("artworks", g.id)).toBe(0);
    expect(await activity(work.id)).toEqual([]);

    const events = await outboxEvents(g.id);
    expect(events.map((e) => e.type).filter((t) => t === "artwork.deleted")).toHaveLength(1);
    const deleted = events.find((e) => e.type === "artwork.deleted")!;
    expect(deleted.resource_id).toBe(work.id);
    expect(deleted.data).toEqual({ object: last });
  });
});
