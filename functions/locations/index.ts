import { createRouter, type RouterOptions } from "../../http/app";
import { registerLocationsCreate } from "./create";
import { registerLocationsDelete } from "./delete";
import { registerLocationsGet } from "./get";
import { registerLocationsList } from "./list";
import { registerLocationsUpdate } from "./update";

export function locationsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerLocationsList(app);
  registerLocationsCreate(app);
  registerLocationsGet(app);
  registerLocationsUpdate(app);
  registerLocationsDelete(app);
  return app;
}
