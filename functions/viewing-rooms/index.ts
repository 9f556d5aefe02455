import { createRouter, type RouterOptions } from "../../http/app";
import { registerViewingRoomsCreate } from "./create";
import { registerViewingRoomsDelete } from "./delete";
import { registerViewingRoomsGet } from "./get";
import { registerViewingRoomsList } from "./list";
import { registerViewingRoomsUpdate } from "./update";

/** The gallery's viewing rooms, managed under /gallery/viewing-rooms. */
export function viewingRoomsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerViewingRoomsList(app);
  registerViewingRoomsCreate(app);
  registerViewingRoomsGet(app);
  registerViewingRoomsUpdate(app);
  registerViewingRoomsDelete(app);
  return app;
}
