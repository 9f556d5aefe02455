import { createRouter, type RouterOptions } from "../../lib/http/app";
import { registerArtworksCreate } from "./create";
import { registerArtworksDelete } from "./delete";
import { registerArtworksGet } from "./get";
import { registerArtworksList } from "./list";
import { registerArtworksUpdate } from "./update";

export function artworksRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerArtworksList(app);
  registerArtworksCreate(app);
  registerArtworksGet(app);
  registerArtworksUpdate(app);
  registerArtworksDelete(app);
  return app;
}
