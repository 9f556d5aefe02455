import { createRouter, type RouterOptions } from "../../http/app";
import { registerContactListsAddMembers } from "./add-members";
import { registerContactListsCreate } from "./create";
import { registerContactListsDelete } from "./delete";
import { registerContactListsGet } from "./get";
import { registerContactListsJudgments } from "./judgments";
import { registerContactListsList } from "./list";
import { registerContactListsRemoveMember } from "./remove-member";
import { registerContactListsUpdate } from "./update";

export function contactListsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerContactListsList(app);
  registerContactListsCreate(app);
  registerContactListsGet(app);
  registerContactListsUpdate(app);
  registerContactListsDelete(app);
  registerContactListsAddMembers(app);
  registerContactListsRemoveMember(app);
  registerContactListsJudgments(app);
  return app;
}
