import { createRouter, type RouterOptions } from "../../http/app";
import { registerContactsArchive } from "./archive";
import { registerContactsCreate } from "./create";
import { registerContactsDelete } from "./delete";
import { registerContactsGet } from "./get";
import { registerContactsList } from "./list";
import { registerContactsRestore } from "./restore";
import { registerContactsSegmentation } from "./segmentation";
import { registerContactsUpdate } from "./update";

export function contactsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerContactsList(app);
  registerContactsCreate(app);
  registerContactsGet(app);
  registerContactsUpdate(app);
  registerContactsDelete(app);
  registerContactsArchive(app);
  registerContactsRestore(app);
  registerContactsSegmentation(app);
  return app;
}
