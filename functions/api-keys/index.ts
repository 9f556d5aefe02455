import { createRouter, type RouterOptions } from "../../http/app";
import { registerApiKeysCreate } from "./create";
import { registerApiKeysDelete } from "./delete";
import { registerApiKeysGet } from "./get";
import { registerApiKeysList } from "./list";

export function apiKeysRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerApiKeysList(app);
  registerApiKeysCreate(app);
  registerApiKeysGet(app);
  registerApiKeysDelete(app);
  return app;
}
