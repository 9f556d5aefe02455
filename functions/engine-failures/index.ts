import { createRouter, type RouterOptions } from "../../http/app";
import { registerDeadLettersList } from "./dead-letters";
import { registerEngineFailuresList } from "./list";

/** The operator's reads of the engine loop: GET /v1/gallery/engine/failures and /dead-letters (admin:read). */
export function engineFailuresRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerEngineFailuresList(app);
  registerDeadLettersList(app);
  return app;
}
