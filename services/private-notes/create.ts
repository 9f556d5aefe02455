import type { z } from "zod";
import {
  findContactExists,
  insertPrivateNote,
  privateNoteReferenceJson,
  privateNoteResource,
} from "../../db/queries/private-notes";
import { nextTimestamp } from "../../db/queries/rows";
import { newId } from "../../lib/ids";
import { PrivateNote, type PrivateNoteCreateInput } from "../../lib/schemas/private-notes";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, guarded, notFoundUnlessReplay } from "../write";

/**
 * Adds a private note to the contact, written by the calling member (none for an API key). Records
 * `private_note.created` without the body: events are readable with `events:read` and delivered to webhooks,
 * and the note is confidential.
 */
export async function createPrivateNote(
  ctx: ServiceContext,
  contactId: string,
  input: PrivateNoteCreateInput,
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  if (!(await findContactExists(db, galleryId, contactId))) {
    return notFoundUnlessReplay<z.output<typeof PrivateNote>, 201>(
      ctx,
      `No contact ${contactId} in this gallery.`,
    );
  }
  const id = newId("note");
  const at = nextTimestamp();
  return executeWrite(ctx, {
    schema: PrivateNote,
    statements: [
      guarded(
        insertPrivateNote(galleryId, contactId, { id, body: input.body, authorId: principal.memberId, at }),
      ),
    ],
    events: [
      changeEvent("private_note.created", "private_note", id, privateNoteReferenceJson(galleryId, id)),
    ],
    status: 201,
    body: privateNoteResource.jsonById(galleryId, id, {}),
  });
}
