import { createRouter, type RouterOptions } from "../../http/app";
import { registerShowsCreate } from "./create";
import { registerShowsDelete } from "./delete";
import { registerShowsGet } from "./get";
import { registerShowsList } from "./list";
import { registerShowsUpdate } from "./update";

/** The gallery's shows, under /gallery/shows. */
export function showsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerShowsList(app);
  registerShowsCreate(app);
  registerShowsGet(app);
  registerShowsUpdate(app);
  registerShowsDelete(app);
  return app;
}
