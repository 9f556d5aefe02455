import { createRouter, type RouterOptions } from "../../http/app";
import { registerEventsGet } from "./get";
import { registerEventsList } from "./list";
import { registerEventTypesList } from "./types";

export function eventsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerEventsList(app);
  registerEventsGet(app);
  registerEventTypesList(app);
  return app;
}
