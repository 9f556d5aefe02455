import { sql } from "drizzle-orm";
import { engagementResource, engagementStatements } from "../../db/queries/engagements";
import { nextTimestamp } from "../../db/queries/rows";
import { expectArtworkInRoom, findEngagementTarget } from "../../db/queries/viewing-rooms";
import { ApiError } from "../../lib/problem";
import { PublicEngagementAccepted, type PublicEngagementCreateInput } from "../../lib/schemas/viewing-rooms";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite } from "../write";
import { noPublicRoom } from "./read";

/** Where a visitor's engagement came from, in the recorded event's metadata. */
const VISITOR_METADATA = { source: "public_viewing_room" };

/**
 * A visitor's engagement in a room they may read (public or unlisted, open now; else the same 404 as the read).
 * A named work must be one of the room's (400 naming `artwork_id`). When `email` is the email of one of the
 * gallery's unarchived contacts, the engagement is recorded on that contact (`engagement_event.recorded`, with
 * the room) through the one engagement writer; otherwise nothing is stored. The answer is `202 {accepted: true}`
 * either way, so the surface does not tell a token holder which emails are the gallery's contacts; both paths
 * make the same two round trips (the read, then the write batch, which holds the idempotency claim when a key is
 * sent).
 */
export async function recordVisitorEngagement(
  ctx: ServiceContext,
  slug: string,
  input: PublicEngagementCreateInput,
) {
  const galleryId = ctx.principal.galleryId;
  const artworkId = input.artwork_id ?? null;
  const target = await findEngagementTarget(ctx.db, galleryId, slug, artworkId, input.email ?? null);
  if (!target) throw noPublicRoom(slug);
  if (!target.artworkInRoom) {
    throw new ApiError("invalid_request", "Body field `artwork_id` is not one of this room's works.", [
      { location: "body", field: "artwork_id", message: "is not one of this room's works" },
    ]);
  }
  const accepted = sql`json_build_object('accepted', true)`;
  if (target.contactId === null) {
    return executeWrite(ctx, {
      schema: PublicEngagementAccepted,
      statements: [],
      events: [],
      status: 202,
      body: accepted,
    });
  }
  const at = nextTimestamp();
  const { id, statements } = engagementStatements(
    galleryId,
    target.contactId,
    {
      kind: input.kind,
      artwork_id: artworkId,
      viewing_room_id: target.roomId,
      metadata: VISITOR_METADATA,
      ...(input.occurred_at ? { occurred_at: input.occurred_at } : {}),
    },
    at,
  );
  return executeWrite(ctx, {
    schema: PublicEngagementAccepted,
    statements: [...(artworkId ? [expectArtworkInRoom(target.roomId, artworkId)] : []), ...statements],
    events: [
      changeEvent(
        "engagement_event.recorded",
        "engagement_event",
        id,
        engagementResource.jsonById(galleryId, id, {}),
      ),
    ],
    status: 202,
    body: accepted,
  });
}
