import type { z } from "zod";
import { artworkActivityResource, findInterestSubjects } from "../../db/queries/artwork-timeline";
import { activityInsert } from "../../db/queries/artwork-writes";
import { expectArtworkStill } from "../../db/queries/auction-records";
import { expectReferences, nextTimestamp } from "../../db/queries/rows";
import { contacts } from "../../db/schema";
import { ApiError } from "../../lib/problem";
import { ArtworkActivityEvent, type ArtworkInterestCreateInput } from "../../lib/schemas/artwork-timeline";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, notFoundUnlessReplay } from "../write";

/** How far ahead of the server's clock a caller's `occurred_at` may be (its clock may run fast). */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Records a contact's interest in a work as an `interest` entry of its timeline; emits
 * `artwork.interest_recorded` with the entry. The contact, when named, must be one of the gallery's.
 */
export async function recordInterest(
  ctx: ServiceContext,
  artworkId: string,
  input: ArtworkInterestCreateInput,
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const contactId = input.contact_id ?? null;
  const at = nextTimestamp();
  if (input.occurred_at && Date.parse(input.occurred_at) > Date.parse(at) + CLOCK_SKEW_MS) {
    const issue = { location: "body" as const, field: "occurred_at", message: "must not be in the future" };
    throw new ApiError("invalid_request", "Body field `occurred_at` must not be in the future.", [issue]);
  }
  const subjects = await findInterestSubjects(db, galleryId, artworkId, contactId);
  if (!subjects.artwork) {
    return notFoundUnlessReplay<z.output<typeof ArtworkActivityEvent>, 201>(
      ctx,
      `No artwork ${artworkId} in this gallery.`,
    );
  }
  if (contactId !== null && subjects.contactName === null) {
    const message = "names a resource that does not exist in this gallery";
    throw new ApiError("invalid_request", `Body field \`contact_id\` ${message}.`, [
      { location: "body", field: "contact_id", message },
    ]);
  }
  const id = crypto.randomUUID();
  const object = artworkActivityResource.jsonById(galleryId, id, {});
  return executeWrite(ctx, {
    schema: ArtworkActivityEvent,
    statements: [
      // Checked again inside the write: either may have been deleted since it was read.
      expectArtworkStill(galleryId, artworkId),
      ...(contactId ? [expectReferences(contacts, galleryId, [contactId], "contact_id")] : []),
      activityInsert(db, galleryId, artworkId, principal.credentialId, at, {
        id,
        eventType: "interest",
        summary:
          input.summary ??
          (subjects.contactName ? `Interest from ${subjects.contactName}` : "Interest recorded"),
        metadata: input.metadata ?? {},
        contactId,
        // Postgres reads the timestamp (any fraction, rounded to the column's milliseconds).
        ...(input.occurred_at ? { occurredAt: input.occurred_at } : {}),
      }),
    ],
    events: [changeEvent("artwork.interest_recorded", "artwork_activity_event", id, object)],
    status: 201,
    body: object,
  });
}
