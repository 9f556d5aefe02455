import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ContactIdParams } from "../../lib/schemas/contacts";
import { Task, TaskCreate } from "../../lib/schemas/tasks";
import { createTask } from "../../services/contact-tasks/create";

const route = operation({
  operationId: "createContactTask",
  method: "post",
  path: "/gallery/contacts/{id}/tasks",
  tags: ["Contacts"],
  summary: "Add a task to a contact",
  description:
    "Adds a follow-up: `title`, optional `notes`, `due_at` and `assignee_id` (a member of this gallery, else 400 naming it); `done: true` records it as already done. `created_by` is the member of a session, null for an API key. Emits `task.created`.",
  auth: { scopes: ["contacts:create"] },
  idempotent: true,
  pathIds: { id: "con" },
  exampleBody: { title: "Send the catalogue", due_at: "2030-03-01T09:00:00Z" },
  request: {
    params: ContactIdParams,
    body: { required: true, content: { "application/json": { schema: TaskCreate } } },
  },
  responses: {
    201: { description: "The created task.", content: { "application/json": { schema: Task } } },
  },
});

export function registerContactTasksCreate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await createTask(serviceContext(c), id, c.req.valid("json")));
  });
}
