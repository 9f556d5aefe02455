import { createRouter } from "../../lib/http/app";
import { registerApiKeysCreate } from "./create";
import { registerApiKeysDelete } from "./delete";
import { registerApiKeysGet } from "./get";
import { registerApiKeysList } from "./list";

export function apiKeysRouter() {
  const app = createRouter();
  registerApiKeysList(app);
  registerApiKeysCreate(app);
  registerApiKeysGet(app);
  registerApiKeysDelete(app);
  return app;
}
