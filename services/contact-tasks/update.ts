import { expectReferences } from "../../db/queries/rows";
import { findTask, taskResource, updateTaskStatement } from "../../db/queries/tasks";
import { members } from "../../db/schema";
import { previousAttributes } from "../../lib/json";
import { Task, type TaskUpdateInput } from "../../lib/schemas/tasks";
import { toStoredMs } from "../../lib/time";
import type { ServiceContext } from "../context";
import { guarded, updatePlan, writeExisting } from "../write";

/**
 * Changes a task; `done` marks it done or reopens it (`completed_at` follows, and is among the
 * `previous_attributes` of `task.updated` when it changes). A patch that changes nothing writes nothing.
 */
export async function updateTask(ctx: ServiceContext, contactId: string, id: string, patch: TaskUpdateInput) {
  const { db, principal } = ctx;
  // Compared with the stored due date as the API prints it, so another spelling of the same instant is no change.
  const input = patch.due_at ? { ...patch, due_at: toStoredMs(patch.due_at) } : patch;
  const galleryId = principal.galleryId;
  const current = await findTask(db, galleryId, contactId, id);
  const notFound = `No task ${id} on contact ${contactId} in this gallery.`;
  return writeExisting(ctx, current, notFound, (found, at) => {
    const previous = previousAttributes(found.body, input);
    if ("done" in previous) previous.completed_at = found.body.completed_at;
    return updatePlan({
      schema: Task,
      type: "task.updated",
      resourceType: "task",
      id,
      object: taskResource.jsonById(galleryId, id, {}),
      previous,
      statements: [
        ...(input.assignee_id
          ? [expectReferences(members, galleryId, [input.assignee_id], "assignee_id")]
          : []),
        guarded(updateTaskStatement(db, galleryId, id, input, found.updatedAt, at)),
      ],
    });
  });
}
