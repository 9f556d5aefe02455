import type { z } from "zod";
import { findContactExists } from "../../db/queries/interactions";
import { expectReferences, nextTimestamp } from "../../db/queries/rows";
import { insertTask, taskResource } from "../../db/queries/tasks";
import { members } from "../../db/schema";
import { newId } from "../../lib/ids";
import { Task, type TaskCreateInput } from "../../lib/schemas/tasks";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, guarded, notFoundUnlessReplay } from "../write";

/**
 * Adds a follow-up task to a contact; `assignee_id` must be a member of the gallery. `created_by` is the member
 * of a session, null for an API key. Records `task.created`.
 */
export async function createTask(ctx: ServiceContext, contactId: string, input: TaskCreateInput) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  if (!(await findContactExists(db, galleryId, contactId))) {
    return notFoundUnlessReplay<z.output<typeof Task>, 201>(ctx, `No contact ${contactId} in this gallery.`);
  }
  const id = newId("task");
  const at = nextTimestamp();
  const object = taskResource.jsonById(galleryId, id, {});
  return executeWrite(ctx, {
    schema: Task,
    statements: [
      ...(input.assignee_id
        ? [expectReferences(members, galleryId, [input.assignee_id], "assignee_id")]
        : []),
      guarded(insertTask(galleryId, contactId, id, input, principal.memberId, at)),
    ],
    events: [changeEvent("task.created", "task", id, object)],
    status: 201,
    body: object,
  });
}
