import {
  artistResource,
  findCatalogueRow,
  renameArtistOnArtworks,
  updateCatalogueRow,
} from "../../db/queries/catalogue";
import { previousAttributes } from "../../lib/json";
import { ApiError } from "../../lib/problem";
import { Artist, type ArtistUpdateInput } from "../../lib/schemas/catalogue";
import type { ServiceContext } from "../context";
import { guarded, updatePlan, writeExisting } from "../write";

/** A death year before the birth year, once the patch is applied to the stored artist: the field sent is named. */
function checkLifespan(before: Record<string, unknown>, input: ArtistUpdateInput): void {
  const birth = input.birth_year !== undefined ? input.birth_year : (before.birth_year as number | null);
  const death = input.death_year !== undefined ? input.death_year : (before.death_year as number | null);
  if (birth === null || death === null || death >= birth) return;
  const issue =
    input.death_year !== undefined
      ? { location: "body" as const, field: "death_year", message: "must not be before birth_year" }
      : { location: "body" as const, field: "birth_year", message: "must not be after death_year" };
  throw new ApiError(
    "invalid_request",
    `Body field \`${issue.field}\` ${issue.message} (${death} < ${birth}).`,
    [issue],
  );
}

/**
 * Changes only the fields sent. A new name is also written onto the works whose primary artist this is (their
 * denormalised `artist_name`, which lists and search read). Records `artist.updated` with
 * `previous_attributes`; a patch that changes nothing writes nothing and records nothing.
 */
export async function updateArtist(ctx: ServiceContext, id: string, input: ArtistUpdateInput) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findCatalogueRow(db, artistResource, galleryId, id);
  return writeExisting(ctx, current, `No artist ${id} in this gallery.`, (found, at) => {
    checkLifespan(found.body, input);
    const previous = previousAttributes(found.body, input);
    const statements = [
      guarded(
        updateCatalogueRow(db, artistResource, galleryId, id, { ...input, updated_at: at }, found.updatedAt),
      ),
    ];
    if ("name" in previous && input.name !== undefined) {
      statements.push(renameArtistOnArtworks(galleryId, id, input.name));
    }
    return updatePlan({
      schema: Artist,
      type: "artist.updated",
      resourceType: "artist",
      id,
      object: artistResource.jsonById(galleryId, id, {}),
      previous,
      statements,
    });
  });
}
