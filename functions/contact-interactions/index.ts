import { createRouter, type RouterOptions } from "../../http/app";
import { registerContactInteractionsCreate } from "./create";
import { registerContactInteractionsList } from "./list";

/** A contact's interactions, under /gallery/contacts/{id}/interactions. */
export function contactInteractionsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerContactInteractionsList(app);
  registerContactInteractionsCreate(app);
  return app;
}
