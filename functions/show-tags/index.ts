import { createRouter, type RouterOptions } from "../../http/app";
import { registerShowTagsCreate } from "./create";
import { registerShowTagsDelete } from "./delete";
import { registerShowTagsList } from "./list";
import { registerShowTagsUpdate } from "./update";

/** A show's tags, under /gallery/shows/{showId}/tags. */
export function showTagsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerShowTagsList(app);
  registerShowTagsCreate(app);
  registerShowTagsUpdate(app);
  registerShowTagsDelete(app);
  return app;
}
