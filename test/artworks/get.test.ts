import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import { call, createGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { outboxEvents } from "../helpers/seed";
import { create, creditArtist, getArtwork, listedIds, patch, seedArtist } from "./helpers";

/** GET /gallery/artworks/{id}, and artist credits across galleries. */

describe("GET /gallery/artworks/{id}", () => {
  it("404 for an unknown id and for another gallery's id, alike", async () => {
    const g = await createGallery();
    const other = await createGallery();
    const theirs = await create(other, { title: "Theirs" });
    const unknown = await expectProblem(
      await call("GET", `/gallery/artworks/${newId("art")}`, { key: g.key }),
      404,
      "not_found",
    );
    const foreign = await expectProblem(
      await call("GET", `/gallery/artworks/${theirs.id}`, { key: g.key }),
      404,
      "not_found",
    );
    expect(foreign.title).toBe(unknown.title);
    expect(foreign.detail).toBe(`No artwork ${theirs.id} in this gallery.`);
    // Nor can it be changed or deleted from the wrong gallery.
    await expectProblem(await patch(g, theirs.id, { title: "Mine" }), 404, "not_found");
    await expectProblem(
      await call("DELETE", `/gallery/artworks/${theirs.id}`, { key: g.key }),
      404,
      "not_found",
    );
    expect(await getArtwork(other, theirs.id)).toEqual(theirs);
    expect(await outboxEvents(g.id)).toEqual([]);
  });

  it("400 for a malformed id", async () => {
    const g = await createGallery();
    await expectProblem(
      await call("GET", "/gallery/artworks/not-an-id", { key: g.key }),
      400,
      "invalid_request",
      {
        field: "id",
        location: "path",
      },
    );
  });
});

describe("artist credits in another gallery's artwork", () => {
  it("an artist credited only in another gallery does not match artist_id here", async () => {
    const g = await createGallery();
    const other = await createGallery();
    const artist = await seedArtist(other.id, "Elsewhere");
    const theirs = await create(other, { title: "Theirs", artists: [{ artist_id: artist }] });
    await creditArtist(other.id, theirs.id, await seedArtist(other.id, "Second"), "studio", 1);
    expect(await listedIds(g.key, `artist_id=${artist}`)).toEqual([]);
    expect(await listedIds(other.key, `artist_id=${artist}`)).toEqual([theirs.id]);
  });
});
