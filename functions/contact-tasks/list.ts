import { z } from "@hono/zod-openapi";
import { taskList } from "../../db/queries/tasks";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { boolParam } from "../../lib/params";
import { ContactIdParams } from "../../lib/schemas/contacts";
import { Task } from "../../lib/schemas/tasks";
import { listTasks } from "../../services/contact-tasks/read";

const TaskList = listResponse(Task, "TaskList");

const route = operation({
  operationId: "listContactTasks",
  method: "get",
  path: "/gallery/contacts/{id}/tasks",
  tags: ["Contacts"],
  summary: "List a contact's tasks",
  description:
    "The contact's tasks, newest first by default. `sort=due` orders by `due_at` (then id); tasks without a due date come last in either direction, so `sort=due&dir=asc` lists the next one due first. `done=false` keeps the open tasks, `done=true` the done ones. A contact of another gallery is 404.",
  auth: { scopes: ["contacts:read"] },
  pathIds: { id: "con" },
  list: taskList,
  request: {
    params: ContactIdParams,
    query: z.strictObject({
      ...paginationQuery(taskList),
      done: boolParam("true: only done tasks; false: only open ones.").optional(),
    }),
  },
  responses: {
    200: { description: "A page of tasks.", content: { "application/json": { schema: TaskList } } },
  },
});

export function registerContactTasksList(app: Router): void {
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c);
    const { id } = c.req.valid("param");
    const { limit, cursor, sort, dir, ...filters } = c.req.valid("query");
    return listPage<z.infer<typeof TaskList>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listTasks(ctx, id, filters, page),
    );
  });
}
