import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Task, TaskParams, TaskUpdate } from "../../lib/schemas/tasks";
import { updateTask } from "../../services/contact-tasks/update";

const route = operation({
  operationId: "updateContactTask",
  method: "patch",
  path: "/gallery/contacts/{id}/tasks/{taskId}",
  tags: ["Contacts"],
  summary: "Update a task",
  description:
    "Changes the task's title, notes, due date or assignee, or marks it done (`done: true`; a task already done keeps its `completed_at`) or open again (`done: false`). A task of another contact is 404. Emits `task.updated` with `previous_attributes` (with `completed_at` when `done` changes); a request that changes nothing emits nothing.",
  auth: { scopes: ["contacts:update"] },
  idempotent: true,
  pathIds: { id: "con", taskId: "task" },
  exampleBody: { done: true },
  request: {
    params: TaskParams,
    body: { required: true, content: { "application/json": { schema: TaskUpdate } } },
  },
  responses: {
    200: { description: "The updated task.", content: { "application/json": { schema: Task } } },
  },
});

export function registerContactTasksUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id, taskId } = c.req.valid("param");
    return respond(c, await updateTask(serviceContext(c), id, taskId, c.req.valid("json")));
  });
}
