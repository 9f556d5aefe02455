import { createRouter, type RouterOptions } from "../../http/app";
import { registerFairRunsCreate } from "./create";
import { registerFairRunsGet } from "./get";
import { registerFairRunsList } from "./list";
import { registerFairRunsUpdate } from "./update";

/** The gallery's fair-submission runs, under /gallery/fair-runs. */
export function fairRunsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerFairRunsList(app);
  registerFairRunsCreate(app);
  registerFairRunsGet(app);
  registerFairRunsUpdate(app);
  return app;
}
