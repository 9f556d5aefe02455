import { createRouter } from "../../lib/http/app";
import { registerMembersList } from "./list";
import { registerMembersUpdate } from "./update";

export function membersRouter() {
  const app = createRouter();
  registerMembersList(app);
  registerMembersUpdate(app);
  return app;
}
