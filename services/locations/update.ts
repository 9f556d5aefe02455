import { findCatalogueRow, locationResource, updateCatalogueRow } from "../../db/queries/catalogue";
import { previousAttributes } from "../../lib/json";
import { Location, type LocationUpdateInput } from "../../lib/schemas/catalogue";
import type { ServiceContext } from "../context";
import { guarded, updatePlan, writeExisting } from "../write";

/**
 * Changes only the fields sent. Records `location.updated` with `previous_attributes`; a patch that changes
 * nothing writes nothing and records nothing.
 */
export async function updateLocation(ctx: ServiceContext, id: string, input: LocationUpdateInput) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findCatalogueRow(db, locationResource, galleryId, id);
  return writeExisting(ctx, current, `No location ${id} in this gallery.`, (found, at) =>
    updatePlan({
      schema: Location,
      type: "location.updated",
      resourceType: "location",
      id,
      object: locationResource.jsonById(galleryId, id, {}),
      previous: previousAttributes(found.body, input),
      statements: [
        guarded(
          updateCatalogueRow(
            db,
            locationResource,
            galleryId,
            id,
            { ...input, updated_at: at },
            found.updatedAt,
          ),
        ),
      ],
    }),
  );
}
