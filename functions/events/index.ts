import { createRouter } from "../../lib/app";
import { registerEventsList } from "./list";

export function eventsRouter() {
  const app = createRouter();
  registerEventsList(app);
  return app;
}
