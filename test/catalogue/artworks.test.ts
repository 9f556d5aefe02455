import { describe, expect, it } from "vitest";
import { Artist, CustomStatus, Location, Tag } from "../../lib/schemas/catalogue";
import { createGallery } from "../helpers/gallery";
import { created, createdArtwork, listedIds } from "./helpers";

/** Reference data built through the API is what artworks point at and the artworks list filters by. */

describe("the catalogue behind artworks", () => {
  it("credits an artist and applies a tag made through the API; the artworks list finds the work by each", async () => {
    const g = await createGallery();
    const artist = await created(Artist, g, "/gallery/artists", { name: "Agnes Martin", birth_year: 1912 });
    const tag = await created(Tag, g, "/gallery/tags", { name: "Grid" });
    const status = await created(CustomStatus, g, "/gallery/custom-statuses", { name: "Ready for fair" });
    const location = await created(Location, g, "/gallery/locations", {
      name: "Viewing room",
      kind: "gallery",
    });
    const work = await createdArtwork(g, {
      title: "Untitled #5",
      artists: [{ artist_id: artist.id, role: "primary" }],
      tag_ids: [tag.id],
      custom_status_id: status.id,
      location_id: location.id,
    });
    expect(work).toMatchObject({
      artist_id: artist.id,
      artist_name: "Agnes Martin",
      artists: [{ artist_id: artist.id, role: "primary", position: 0, artist_name: "Agnes Martin" }],
      custom_status_id: status.id,
      location_id: location.id,
    });
    await createdArtwork(g, { title: "Unrelated" });

    expect(await listedIds(g, `/gallery/artworks?artist_id=${artist.id}`)).toEqual([work.id]);
    expect(await listedIds(g, `/gallery/artworks?tag_id=${tag.id}`)).toEqual([work.id]);
  });
});
