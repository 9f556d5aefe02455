import { createRouter, type RouterOptions } from "../../http/app";
import { registerMembersList } from "./list";
import { registerMembersUpdate } from "./update";

export function membersRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerMembersList(app);
  registerMembersUpdate(app);
  return app;
}
