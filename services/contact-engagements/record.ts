import type { z } from "zod";
import { engagementResource, engagementStatements } from "../../db/queries/engagements";
import { findContactExists } from "../../db/queries/interactions";
import { nextTimestamp } from "../../db/queries/rows";
import { EngagementEvent, type EngagementEventCreateInput } from "../../lib/schemas/engagements";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, notFoundUnlessReplay } from "../write";

/**
 * Records a contact's engagement event and `engagement_event.recorded`: the one path for every surface that
 * observes engagement (the gallery's API and the public viewing rooms). A contact not in the caller's gallery is
 * 404; the contact's `engaged_event`/`engaged_since` standing and `last_engaged_at` follow in the same
 * transaction.
 */
export async function recordEngagement(
  ctx: ServiceContext,
  contactId: string,
  input: EngagementEventCreateInput,
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  if (!(await findContactExists(db, galleryId, contactId))) {
    return notFoundUnlessReplay<z.output<typeof EngagementEvent>, 201>(
      ctx,
      `No contact ${contactId} in this gallery.`,
    );
  }
  const at = nextTimestamp();
  const { id, statements } = engagementStatements(galleryId, contactId, input, at);
  const object = engagementResource.jsonById(galleryId, id, {});
  return executeWrite(ctx, {
    schema: EngagementEvent,
    statements,
    events: [changeEvent("engagement_event.recorded", "engagement_event", id, object)],
    status: 201,
    body: object,
  });
}
