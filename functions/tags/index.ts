import { createRouter, type RouterOptions } from "../../http/app";
import { registerTagsCreate } from "./create";
import { registerTagsDelete } from "./delete";
import { registerTagsGet } from "./get";
import { registerTagsList } from "./list";
import { registerTagsUpdate } from "./update";

export function tagsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerTagsList(app);
  registerTagsCreate(app);
  registerTagsGet(app);
  registerTagsUpdate(app);
  registerTagsDelete(app);
  return app;
}
