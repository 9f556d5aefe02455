import { createRouter, type RouterOptions } from "../../http/app";
import { registerContactEngagementsCreate } from "./create";
import { registerContactEngagementsList } from "./list";

/** A contact's engagement events, under /gallery/contacts/{id}/engagements. */
export function contactEngagementsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerContactEngagementsList(app);
  registerContactEngagementsCreate(app);
  return app;
}
