import { tagResource } from "../../db/queries/catalogue";
import { deleteCatalogueEntry } from "../catalogue-delete";
import type { ServiceContext } from "../context";

/**
 * Deletes a tag and takes it off every artwork and contact that carries it (foreign-key cascade): a tag is a
 * label, and no work's own fields change. `tag.deleted` carries its last state.
 */
export function deleteTag(ctx: ServiceContext, id: string) {
  return deleteCatalogueEntry(ctx, tagResource, {
    id,
    noun: "tag",
    resourceType: "tag",
    eventType: "tag.deleted",
    refusals: [],
  });
}
