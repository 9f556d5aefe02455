import { createRouter, type RouterOptions } from "../../http/app";
import { registerArtworkFormatsCreate } from "./create";
import { registerArtworkFormatsDelete } from "./delete";
import { registerArtworkFormatsList } from "./list";
import { registerArtworkFormatsUpdate } from "./update";

export function artworkFormatsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerArtworkFormatsList(app);
  registerArtworkFormatsCreate(app);
  registerArtworkFormatsUpdate(app);
  registerArtworkFormatsDelete(app);
  return app;
}
