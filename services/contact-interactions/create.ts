import type { z } from "zod";
import { activityInsert } from "../../db/queries/artwork-writes";
import { findContactName, insertInteraction, interactionResource } from "../../db/queries/interactions";
import { expectReferences, nextTimestamp } from "../../db/queries/rows";
import { artworks } from "../../db/schema";
import { newId } from "../../lib/ids";
import { Interaction, type InteractionCreateInput } from "../../lib/schemas/interactions";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, guarded, notFoundUnlessReplay } from "../write";

/** The longest excerpt of an interaction's summary that its artwork timeline entry quotes. */
const EXCERPT_CHARS = 200;

const typeLabels: Record<string, string> = {
  note: "Note",
  call: "Call",
  email: "Email",
  meeting: "Meeting",
  visit: "Visit",
  message: "Message",
  viewing: "Viewing",
  event: "Event",
  other: "Interaction",
};

/** One line for the work's timeline: `Call with Ada Lovelace (outbound): Asked for the price`. */
export function interactionSentence(
  type: string,
  direction: string | null,
  contactName: string,
  summary: string,
) {
  const excerpt = summary.length > EXCERPT_CHARS ? `${summary.slice(0, EXCERPT_CHARS - 1)}…` : summary;
  const way = direction ? ` (${direction})` : "";
  return `${typeLabels[type] ?? "Interaction"} with ${contactName}${way}: ${excerpt}`;
}

/**
 * Records an interaction with a contact (an archived one too: the shelf hides it from the roster, not from its
 * history). The contact's last_interaction_at/_type follow in the same transaction (a trigger); an interaction
 * about a work appends an `interaction` entry to that work's timeline. Records `interaction.created`.
 */
export async function createInteraction(
  ctx: ServiceContext,
  contactId: string,
  input: InteractionCreateInput,
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const contactName = await findContactName(db, galleryId, contactId);
  if (contactName === null) {
    return notFoundUnlessReplay<z.output<typeof Interaction>, 201>(
      ctx,
      `No contact ${contactId} in this gallery.`,
    );
  }
  const id = newId("int");
  const at = nextTimestamp();
  const type = input.type ?? "note";
  const direction = input.direction ?? null;
  const artworkId = input.artwork_id ?? null;
  const occurredAt = input.occurred_at ?? at;
  const object = interactionResource.jsonById(galleryId, id, {});
  return executeWrite(ctx, {
    schema: Interaction,
    statements: [
      ...(artworkId ? [expectReferences(artworks, galleryId, [artworkId], "artwork_id")] : []),
      guarded(
        insertInteraction(
          galleryId,
          contactId,
          id,
          {
            type,
            direction,
            summary: input.summary,
            occurredAt,
            artworkId,
            memberId: principal.memberId,
            metadata: input.metadata ?? {},
          },
          at,
        ),
      ),
      ...(artworkId
        ? [
            activityInsert(db, galleryId, artworkId, principal.credentialId, at, {
              eventType: "interaction",
              summary: interactionSentence(type, direction, contactName, input.summary),
              metadata: { interaction: { id, type, direction } },
              contactId,
              refTable: "interactions",
              refId: id,
              occurredAt,
            }),
          ]
        : []),
    ],
    events: [changeEvent("interaction.created", "interaction", id, object)],
    status: 201,
    body: object,
  });
}
