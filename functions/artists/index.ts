import { createRouter, type RouterOptions } from "../../http/app";
import { registerArtistsCreate } from "./create";
import { registerArtistsDelete } from "./delete";
import { registerArtistsGet } from "./get";
import { registerArtistsList } from "./list";
import { registerArtistsUpdate } from "./update";

export function artistsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerArtistsList(app);
  registerArtistsCreate(app);
  registerArtistsGet(app);
  registerArtistsUpdate(app);
  registerArtistsDelete(app);
  return app;
}
