import {
  type ContactRelations,
  contactReferenceChecks,
  contactRelationStatements,
  refuseDuplicateEmail,
  updateContactStatement,
} from "../../db/queries/contact-writes";
import { type ContactState, contactJson, findContact } from "../../db/queries/contacts";
import { canonicalJson, previousAttributes } from "../../lib/json";
import { Contact, type ContactUpdateInput } from "../../lib/schemas/contacts";
import type { ServiceContext } from "../context";
import { guarded, updatePlan, writeExisting } from "../write";
import { withExistingEmail } from "./create";

type Profile = Record<string, unknown> | null;

/** Whether merging `sent` into the stored profile changes it (a profile that does not exist yet is created). */
function profileChanges(stored: Profile, sent: Profile | undefined): boolean {
  if (sent === undefined) return false;
  if (sent === null || stored === null) return sent !== stored;
  return Object.entries(sent).some(([field, value]) => canonicalJson(stored[field]) !== canonicalJson(value));
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v) => b.includes(v));
}

/**
 * The former values of what this patch changes. Assignees are an ordered list; tags a set (the same tags in
 * another order are no change); a profile changes when a sent field differs, when it is created, or removed.
 */
function contactChanges(before: ContactState, input: ContactUpdateInput) {
  const { assignee_ids, tag_ids, collector_profile, institution_profile, ...scalars } = input;
  const changed = previousAttributes({ ...before.body, ...before.unshown }, scalars);
  if (assignee_ids && canonicalJson(assignee_ids) !== canonicalJson(before.body.assignee_ids)) {
    changed.assignee_ids = before.body.assignee_ids;
  }
  if (tag_ids && !sameSet(tag_ids, before.unshown.tag_ids)) changed.tag_ids = before.unshown.tag_ids;
  if (profileChanges(before.body.collector_profile as Profile, collector_profile)) {
    changed.collector_profile = before.body.collector_profile;
  }
  if (profileChanges(before.body.institution_profile as Profile, institution_profile)) {
    changed.institution_profile = before.body.institution_profile;
  }
  return changed;
}

/**
 * `previous_attributes` names the Contact's own fields only, like its `data.object`. A change to what the Contact
 * does not show (tags, email consent: GET …/segmentation) is named by the former `updated_at`, which it moved.
 */
function contactPreviousAttributes(before: ContactState, changed: Record<string, unknown>) {
  const previous = Object.fromEntries(
    Object.entries(changed).filter(([field]) => !(field in before.unshown)),
  );
  if (Object.keys(changed).some((field) => field in before.unshown))
    previous.updated_at = before.body.updated_at;
  return previous;
}

/**
 * Changes only the fields sent; `assignee_ids` and `tag_ids` replace their sets, a profile object is merged into
 * the stored profile (created when absent) and null removes it. A new email must be free among the gallery's
 * unarchived contacts (an archived contact's email is checked when it is restored). Records `contact.updated`
 * with `previous_attributes`; a patch that changes nothing writes nothing and records nothing.
 */
export async function updateContact(ctx: ServiceContext, id: string, input: ContactUpdateInput) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findContact(db, galleryId, id);
  try {
    return await writeExisting(ctx, current, `No contact ${id} in this gallery.`, (found, at) => {
      const changed = contactChanges(found, input);
      const relations: ContactRelations = {};
      for (const field of ["assignee_ids", "tag_ids", "collector_profile", "institution_profile"] as const) {
        if (field in changed) Object.assign(relations, { [field]: input[field] });
      }
      const claimsEmail = "email" in changed && input.email && found.body.archived_at === null;
      return updatePlan({
        schema: Contact,
        type: "contact.updated",
        resourceType: "contact",
        id,
        object: contactJson(galleryId, id),
        previous: contactPreviousAttributes(found, changed),
        statements: [
          ...contactReferenceChecks(galleryId, relations),
          ...(claimsEmail ? [refuseDuplicateEmail(galleryId, input.email as string, id)] : []),
          guarded(updateContactStatement(db, galleryId, id, input, found.updatedAt, at)),
          ...contactRelationStatements(db, galleryId, id, relations, at, true),
        ],
      });
    });
  } catch (error) {
    throw await withExistingEmail(ctx, input.email ?? null, error);
  }
}
