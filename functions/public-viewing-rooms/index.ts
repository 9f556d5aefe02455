import { createRouter, type RouterOptions } from "../../http/app";
import { registerPublicViewingRoomsEngagements } from "./engagements";
import { registerPublicViewingRoomsGet } from "./get";
import { registerPublicViewingRoomsList } from "./list";

/**
 * The browser surface of viewing rooms, under /public/viewing-rooms: publishable tokens only, CORS-open (see
 * http/cors.ts), visitor-safe fields only.
 */
export function publicViewingRoomsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerPublicViewingRoomsList(app);
  registerPublicViewingRoomsGet(app);
  registerPublicViewingRoomsEngagements(app);
  return app;
}
