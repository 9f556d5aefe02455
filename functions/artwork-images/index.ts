import { createRouter, type RouterOptions } from "../../http/app";
import { registerArtworkImagesCreate } from "./create";
import { registerArtworkImagesCreateUpload } from "./create-upload";
import { registerArtworkImagesDelete } from "./delete";
import { registerArtworkImagesList } from "./list";
import { registerArtworkImagesUpdate } from "./update";

export function artworkImagesRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerArtworkImagesList(app);
  registerArtworkImagesCreate(app);
  registerArtworkImagesCreateUpload(app);
  registerArtworkImagesUpdate(app);
  registerArtworkImagesDelete(app);
  return app;
}
