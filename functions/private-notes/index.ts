import { createRouter, type RouterOptions } from "../../http/app";
import { registerPrivateNotesCreate } from "./create";
import { registerPrivateNotesList } from "./list";

export function privateNotesRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerPrivateNotesList(app);
  registerPrivateNotesCreate(app);
  return app;
}
