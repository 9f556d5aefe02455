import { createRouter } from "../../lib/http/app";
import { registerAuthCreateSession } from "./create-session";
import { registerAuthDeleteSession } from "./delete-session";
import { registerAuthGetSession } from "./get-session";

export function authRouter() {
  const app = createRouter();
  registerAuthCreateSession(app);
  registerAuthGetSession(app);
  registerAuthDeleteSession(app);
  return app;
}
