import {
  contactListJson,
  findContactList,
  forgetSegmentJudgments,
  updateContactList,
} from "../../db/queries/contact-lists";
import { previousAttributes } from "../../lib/json";
import { ApiError } from "../../lib/problem";
import { ContactList, type ContactListUpdateInput, storedListQuery } from "../../lib/schemas/contact-lists";
import type { ServiceContext } from "../context";
import { guarded, updatePlan, writeExisting } from "../write";

/**
 * Changes a list's title, kind or description, and a dynamic list's `dynamic_query` (replaced as a whole). A
 * `dynamic_query` for a static list is 409: a list is static or dynamic from its creation. A new `described_as`
 * drops the judgments made for the former one. Records `contact_list.updated` with `previous_attributes`; a
 * patch that changes nothing writes and records nothing.
 */
export async function updateContactListFields(
  ctx: ServiceContext,
  id: string,
  input: ContactListUpdateInput,
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findContactList(db, galleryId, id);
  const patch =
    input.dynamic_query === undefined
      ? input
      : { ...input, dynamic_query: storedListQuery(input.dynamic_query) };
  return writeExisting(ctx, current, `No contact list ${id} in this gallery.`, (found, at) => {
    if (patch.dynamic_query !== undefined && !found.body.is_dynamic) {
      throw new ApiError(
        "conflict",
        `Contact list ${id} is static: it has members, not a dynamic_query. Create a dynamic list instead.`,
        { is_dynamic: false },
      );
    }
    const previous = previousAttributes(found.body, patch);
    const describedAsChanged =
      patch.dynamic_query !== undefined &&
      (patch.dynamic_query.described_as ?? null) !== (found.body.dynamic_query?.described_as ?? null);
    return updatePlan({
      schema: ContactList,
      type: "contact_list.updated",
      resourceType: "contact_list",
      id,
      object: contactListJson(galleryId, id),
      previous,
      statements: [
        guarded(updateContactList(db, galleryId, id, { ...patch, updated_at: at }, found.updatedAt)),
        ...(describedAsChanged ? [forgetSegmentJudgments(galleryId, id)] : []),
      ],
    });
  });
}
