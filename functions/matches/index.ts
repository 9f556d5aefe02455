import { createRouter, type RouterOptions } from "../../http/app";
import { registerMatchesFeedback } from "./feedback";
import { registerMatchesGet } from "./get";
import { registerMatchesList } from "./list";

/** A contact's recommendation matches, under /gallery/contacts/{id}/matches. */
export function matchesRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerMatchesList(app);
  registerMatchesGet(app);
  registerMatchesFeedback(app);
  return app;
}
