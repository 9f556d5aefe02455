import {
  findMember,
  memberResource,
  revokeMemberSessionsStatement,
  updateMemberStatement,
} from "../../db/queries/members";
import { purgeCredential } from "../../lib/credentials";
import { previousAttributes } from "../../lib/json";
import { Member, type MemberUpdateInput } from "../../lib/schemas/members";
import type { ServiceContext } from "../context";
import { guarded, updatePlan, writeExisting } from "../write";

/**
 * Changes a member's role or disables (re-enables) it. Either change holds for the member's very next request:
 * disabling revokes every live session in the same transaction, and after the commit the credential cache entry of
 * every session the member had is purged before this call answers (a session looked up again reads the new role,
 * or finds no live session). Records `member.updated` with `previous_attributes`; a patch that changes nothing
 * writes nothing and records nothing.
 */
export async function updateMember(ctx: ServiceContext, id: string, input: MemberUpdateInput) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findMember(db, galleryId, id);
  const written = await writeExisting(ctx, current, `No member ${id} in this gallery.`, (found, at) => {
    const previous = previousAttributes(found.body, input);
    if ("disabled" in previous) previous.disabled_at = found.body.disabled_at;
    const disabling = "disabled" in previous && input.disabled === true;
    return updatePlan({
      schema: Member,
      type: "member.updated",
      resourceType: "member",
      id,
      object: memberResource.jsonById(galleryId, id, {}),
      previous,
      statements: [
        guarded(updateMemberStatement(db, galleryId, id, input, found.updatedAt, at)),
        ...(disabling ? [revokeMemberSessionsStatement(galleryId, id)] : []),
      ],
    });
  });
  // After the commit (purged earlier, a concurrent lookup could re-cache the row as it was), and awaited, not
  // waitUntil: the change must hold for the very next request. A no-op or a replay purges too, which completes
  // a change whose purge failed after its commit.
  if (current) await Promise.all(current.sessionHashes.map((hash) => purgeCredential(ctx.env, hash)));
  return written;
}
