import { createRouter, type RouterOptions } from "../../http/app";
import { registerContactRecapGet } from "./get";

export function contactRecapRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerContactRecapGet(app);
  return app;
}
