import {
  findCatalogueRow,
  refuseDuplicateTag,
  tagResource,
  updateCatalogueRow,
} from "../../db/queries/catalogue";
import { previousAttributes } from "../../lib/json";
import { Tag, type TagUpdateInput } from "../../lib/schemas/catalogue";
import type { ServiceContext } from "../context";
import { guarded, updatePlan, writeExisting } from "../write";

/**
 * Renames a tag; a name another tag of its scope has, ignoring case, is 409 `conflict` naming that tag. Records
 * `tag.updated` with `previous_attributes`; a patch that changes nothing writes nothing and records nothing.
 */
export async function updateTag(ctx: ServiceContext, id: string, input: TagUpdateInput) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findCatalogueRow(db, tagResource, galleryId, id);
  return writeExisting(ctx, current, `No tag ${id} in this gallery.`, (found, at) => {
    const checks =
      input.name === undefined
        ? []
        : [refuseDuplicateTag(galleryId, found.body.scope as string, input.name, id)];
    return updatePlan({
      schema: Tag,
      type: "tag.updated",
      resourceType: "tag",
      id,
      object: tagResource.jsonById(galleryId, id, {}),
      previous: previousAttributes(found.body, input),
      statements: [
        ...checks,
        guarded(
          updateCatalogueRow(db, tagResource, galleryId, id, { ...input, updated_at: at }, found.updatedAt),
        ),
      ],
    });
  });
}
