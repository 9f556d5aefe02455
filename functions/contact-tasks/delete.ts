import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DeleteResult } from "../../lib/schemas/artworks";
import { TaskParams } from "../../lib/schemas/tasks";
import { deleteTask } from "../../services/contact-tasks/delete";

const route = operation({
  operationId: "deleteContactTask",
  method: "delete",
  path: "/gallery/contacts/{id}/tasks/{taskId}",
  tags: ["Contacts"],
  summary: "Delete a task",
  description:
    "Deletes the task. A task of another contact is 404. Emits `task.deleted` whose `data.object` is the task's last state.",
  auth: { scopes: ["contacts:delete"] },
  idempotent: true,
  pathIds: { id: "con", taskId: "task" },
  request: { params: TaskParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerContactTasksDelete(app: Router): void {
  app.openapi(route, async (c) => {
    const { id, taskId } = c.req.valid("param");
    return respond(c, await deleteTask(serviceContext(c), id, taskId));
  });
}
