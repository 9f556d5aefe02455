import { deleteAsRead } from "../../db/queries/rows";
import { findTask } from "../../db/queries/tasks";
import { tasks } from "../../db/schema";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, guarded, writeExisting } from "../write";

/** Deletes a task of the contact; `task.deleted` carries its last state. */
export async function deleteTask(ctx: ServiceContext, contactId: string, id: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findTask(db, galleryId, contactId, id);
  const notFound = `No task ${id} on contact ${contactId} in this gallery.`;
  return writeExisting(ctx, current, notFound, (found) => ({
    schema: DeleteResult,
    statements: [guarded(deleteAsRead(tasks, galleryId, id, found.updatedAt))],
    events: [changeEvent("task.deleted", "task", id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
}
