import { customStatusResource, findCatalogueRow, updateCatalogueRow } from "../../db/queries/catalogue";
import { previousAttributes } from "../../lib/json";
import { CustomStatus, type CustomStatusUpdateInput } from "../../lib/schemas/catalogue";
import type { ServiceContext } from "../context";
import { guarded, updatePlan, writeExisting } from "../write";

/**
 * Changes only the fields sent. Records `custom_status.updated` with `previous_attributes`; a patch that changes
 * nothing writes nothing and records nothing.
 */
export async function updateCustomStatus(ctx: ServiceContext, id: string, input: CustomStatusUpdateInput) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findCatalogueRow(db, customStatusResource, galleryId, id);
  return writeExisting(ctx, current, `No custom status ${id} in this gallery.`, (found, at) =>
    updatePlan({
      schema: CustomStatus,
      type: "custom_status.updated",
      resourceType: "custom_status",
      id,
      object: customStatusResource.jsonById(galleryId, id, {}),
      previous: previousAttributes(found.body, input),
      statements: [
        guarded(
          updateCatalogueRow(
            db,
            customStatusResource,
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
