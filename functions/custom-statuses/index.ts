import { createRouter, type RouterOptions } from "../../http/app";
import { registerCustomStatusesCreate } from "./create";
import { registerCustomStatusesDelete } from "./delete";
import { registerCustomStatusesGet } from "./get";
import { registerCustomStatusesList } from "./list";
import { registerCustomStatusesUpdate } from "./update";

export function customStatusesRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerCustomStatusesList(app);
  registerCustomStatusesCreate(app);
  registerCustomStatusesGet(app);
  registerCustomStatusesUpdate(app);
  registerCustomStatusesDelete(app);
  return app;
}
