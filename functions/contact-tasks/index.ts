import { createRouter, type RouterOptions } from "../../http/app";
import { registerContactTasksCreate } from "./create";
import { registerContactTasksDelete } from "./delete";
import { registerContactTasksList } from "./list";
import { registerContactTasksUpdate } from "./update";

/** A contact's tasks, under /gallery/contacts/{id}/tasks. */
export function contactTasksRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerContactTasksList(app);
  registerContactTasksCreate(app);
  registerContactTasksUpdate(app);
  registerContactTasksDelete(app);
  return app;
}
