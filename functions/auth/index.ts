import { createRouter, type RouterOptions } from "../../http/app";
import { registerAuthCreateSession } from "./create-session";
import { registerAuthDeleteSession } from "./delete-session";
import { registerAuthGetSession } from "./get-session";

export function authRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerAuthCreateSession(app);
  registerAuthGetSession(app);
  registerAuthDeleteSession(app);
  return app;
}
