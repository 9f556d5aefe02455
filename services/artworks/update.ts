import type { SQLWrapper } from "drizzle-orm";
import {
  activityInsert,
  artworkReferenceChecks,
  updateArtworkRelations,
  updateArtworkStatement,
} from "../../db/queries/artwork-writes";
import { artworkResource, findArtwork } from "../../db/queries/artworks";
import { previousAttributes } from "../../lib/json";
import { ApiError } from "../../lib/problem";
import { Artwork, type ArtworkUpdateInput } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, guarded, updatePlan, writeExisting } from "../write";

/**
 * The former values of the fields this patch changes. `artists`, `dimensions` and `tag_ids` are written as
 * whole lists in another shape than they are read, so sending one counts as a change (tags are not part of
 * the Artwork: their former value is null).
 */
function artworkPreviousAttributes(before: Record<string, unknown>, input: ArtworkUpdateInput) {
  const { artists, dimensions, tag_ids, ...scalars } = input;
  return {
    ...previousAttributes(before, scalars),
    ...(artists ? { artists: before.artists } : {}),
    ...(dimensions ? { dimensions: before.dimensions } : {}),
    ...(tag_ids ? { tag_ids: null } : {}),
  };
}

/**
 * Changes only the fields sent. Records `artwork.updated` with `previous_attributes`, and
 * `artwork.price_changed` plus a timeline entry when the price or currency changes; a move of location is a
 * timeline entry too. A patch that changes nothing writes nothing and records nothing.
 */
export async function updateArtwork(ctx: ServiceContext, id: string, input: ArtworkUpdateInput) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const view = { draft: false, gatePrices: principal.readOnly };
  const current = await findArtwork(db, galleryId, id, view);
  return writeExisting(ctx, current, `No artwork ${id} in this gallery.`, (found, at) => {
    const before = found.body;
    const merged = {
      year: before.year as number | null,
      end_year: before.end_year as number | null,
      ...input,
    };
    if (merged.year != null && merged.end_year != null && merged.end_year < merged.year) {
      throw new ApiError("invalid_request", "Body field `end_year` must not be before year.", [
        { location: "body", field: "end_year", message: "must not be before year" },
      ]);
    }
    const previous = artworkPreviousAttributes(before, input);
    const object = artworkResource.jsonById(galleryId, id, view);
    const events = [];
    const activity: SQLWrapper[] = [];
    if ("price_cents" in previous || "currency" in previous) {
      const priceBefore = { price_cents: before.price_cents, currency: before.currency };
      events.push(changeEvent("artwork.price_changed", "artwork", id, object, priceBefore));
      const to = {
        price_cents: input.price_cents ?? before.price_cents,
        currency: input.currency ?? before.currency,
      };
      activity.push(
        activityInsert(db, galleryId, id, principal.credentialId, at, {
          eventType: "price_changed",
          summary: "Price changed",
          metadata: { from: priceBefore, to },
        }),
      );
    }
    if ("location_id" in previous) {
      activity.push(
        activityInsert(db, galleryId, id, principal.credentialId, at, {
          eventType: "moved",
          summary: "Location changed",
          metadata: { from: before.location_id, to: input.location_id },
        }),
      );
    }
    return updatePlan({
      schema: Artwork,
      type: "artwork.updated",
      resourceType: "artwork",
      id,
      object,
      previous,
      statements: [
        ...artworkReferenceChecks(galleryId, input),
        guarded(updateArtworkStatement(db, galleryId, id, input, found.updatedAt, at)),
        ...updateArtworkRelations(db, galleryId, id, input),
        ...activity,
      ],
      events,
    });
  });
}
