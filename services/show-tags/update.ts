import {
  findShowTag,
  refuseDuplicateShowTag,
  showTagResource,
  updateShowTagStatement,
} from "../../db/queries/show-tags";
import { previousAttributes } from "../../lib/json";
import { ShowTag, type ShowTagUpdateInput } from "../../lib/schemas/shows";
import type { ServiceContext } from "../context";
import { guarded, updatePlan, writeExisting } from "../write";

/**
 * Changes a tag's name, colour, facet or origin. A new name the show already has (ignoring case) is 409 naming
 * the existing tag. A change of name, colour or facet that does not say `origin` makes an `ai_suggested` tag
 * `manual`: a person has made it theirs. Records `show_tag.updated` with `previous_attributes`; a patch that
 * changes nothing writes nothing.
 */
export async function updateShowTag(
  ctx: ServiceContext,
  showId: string,
  id: string,
  input: ShowTagUpdateInput,
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findShowTag(db, galleryId, showId, id);
  return writeExisting(ctx, current, `No tag ${id} on show ${showId} in this gallery.`, (found, at) => {
    const edited = Object.keys(previousAttributes(found.body, input)).length > 0;
    const change =
      edited && input.origin === undefined && found.body.origin !== "manual"
        ? { ...input, origin: "manual" as const }
        : input;
    const previous = previousAttributes(found.body, change);
    return updatePlan({
      schema: ShowTag,
      type: "show_tag.updated",
      resourceType: "show_tag",
      id,
      object: showTagResource.jsonById(galleryId, id, {}),
      previous,
      data: { show_id: showId },
      statements: [
        ...(change.name !== undefined && "name" in previous
          ? [refuseDuplicateShowTag(showId, change.name, id)]
          : []),
        guarded(updateShowTagStatement(galleryId, showId, id, change, found.updatedAt, at)),
      ],
    });
  });
}
