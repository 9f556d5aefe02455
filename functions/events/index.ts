import { createRouter } from "../../lib/http/app";
import { registerEventsGet } from "./get";
import { registerEventsList } from "./list";
import { registerEventTypesList } from "./types";

export function eventsRouter() {
  const app = createRouter();
  registerEventsList(app);
  registerEventsGet(app);
  registerEventTypesList(app);
  return app;
}
