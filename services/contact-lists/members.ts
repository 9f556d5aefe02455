import type { SQLWrapper } from "drizzle-orm";
import type { z } from "zod";
import {
  type ContactListState,
  contactListJson,
  deleteMembership,
  findMembersToAdd,
  findMemberToRemove,
  insertMemberships,
  membershipChangeJson,
  updateContactList,
} from "../../db/queries/contact-lists";
import { expectReferences, nextTimestamp } from "../../db/queries/rows";
import { contacts } from "../../db/schema";
import { ApiError } from "../../lib/problem";
import { ContactList, type ContactListMembersAddInput } from "../../lib/schemas/contact-lists";
import type { ServiceContext } from "../context";
import {
  changeEvent,
  executeWrite,
  guarded,
  notFoundUnlessReplay,
  type WritePlan,
  type Written,
} from "../write";

/** Members are edited on a static list only: a dynamic list's members are whoever matches its query. */
function refuseDynamic(list: ContactListState): void {
  if (list.body.is_dynamic) {
    throw new ApiError(
      "conflict",
      `Contact list ${list.body.id} is dynamic: its members are the contacts matching its dynamic_query, which a PATCH changes.`,
      { is_dynamic: true },
    );
  }
}

/**
 * A membership change: the list's updated_at moves (guarded by the value read, so concurrent changes of one list
 * serialise), then `change` runs, and the event carries the list after it with the contacts concerned.
 */
function membershipPlan(
  ctx: ServiceContext,
  list: ContactListState,
  change: {
    statements: SQLWrapper[];
    type: "contact_list.members_added" | "contact_list.member_removed";
    contactIds: string[];
  },
): WritePlan<typeof ContactList, 200> {
  const galleryId = ctx.principal.galleryId;
  const id = list.body.id;
  const at = nextTimestamp(list.updatedAt);
  return {
    schema: ContactList,
    statements: [
      guarded(updateContactList(ctx.db, galleryId, id, { updated_at: at }, list.updatedAt)),
      ...change.statements,
    ],
    events: [
      changeEvent(change.type, "contact_list", id, membershipChangeJson(galleryId, id, change.contactIds)),
    ],
    status: 200,
    body: contactListJson(galleryId, id),
  };
}

/** Nothing to change: the list as it is, with no event (the idempotency claim is still made). */
function unchanged(ctx: ServiceContext, id: string): Promise<Written<z.output<typeof ContactList>, 200>> {
  const body = contactListJson(ctx.principal.galleryId, id);
  return executeWrite(ctx, { schema: ContactList, statements: [], events: [], status: 200, body });
}

/**
 * Adds contacts to a static list. Each must be one of the gallery's contacts (else 400 naming its index in
 * `contact_ids`); those already members stay where they are. Records `contact_list.members_added` with the
 * contacts that joined, or nothing when none did. Answers the list.
 */
export async function addContactListMembers(
  ctx: ServiceContext,
  listId: string,
  input: ContactListMembersAddInput,
) {
  const galleryId = ctx.principal.galleryId;
  const found = await findMembersToAdd(ctx.db, galleryId, listId, input.contact_ids);
  if (!found) {
    return notFoundUnlessReplay<z.output<typeof ContactList>, 200>(
      ctx,
      `No contact list ${listId} in this gallery.`,
    );
  }
  refuseDynamic(found);
  if (found.unknownAt !== null) {
    const field = `contact_ids.${found.unknownAt}`;
    const message = "names a resource that does not exist in this gallery";
    throw new ApiError("invalid_request", `Body field \`${field}\` ${message}.`, [
      { location: "body", field, message },
    ]);
  }
  if (found.newMembers.length === 0) return unchanged(ctx, listId);
  return executeWrite(
    ctx,
    membershipPlan(ctx, found, {
      // A contact deleted since the read aborts the write with the same 400, naming the field.
      statements: [
        expectReferences(contacts, galleryId, found.newMembers, "contact_ids"),
        insertMemberships(galleryId, listId, found.newMembers),
      ],
      type: "contact_list.members_added",
      contactIds: found.newMembers,
    }),
  );
}

/**
 * Takes a contact off a static list. A contact that is not a member leaves the list unchanged (200, no event);
 * one that is not the gallery's is 404. Records `contact_list.member_removed`. Answers the list.
 */
export async function removeContactListMember(ctx: ServiceContext, listId: string, contactId: string) {
  const galleryId = ctx.principal.galleryId;
  const found = await findMemberToRemove(ctx.db, galleryId, listId, contactId);
  if (!found) {
    return notFoundUnlessReplay<z.output<typeof ContactList>, 200>(
      ctx,
      `No contact list ${listId} in this gallery.`,
    );
  }
  if (!found.contactExists) {
    return notFoundUnlessReplay<z.output<typeof ContactList>, 200>(
      ctx,
      `No contact ${contactId} in this gallery.`,
    );
  }
  refuseDynamic(found);
  if (!found.isMember) return unchanged(ctx, listId);
  return executeWrite(
    ctx,
    membershipPlan(ctx, found, {
      statements: [deleteMembership(galleryId, listId, contactId)],
      type: "contact_list.member_removed",
      contactIds: [contactId],
    }),
  );
}
