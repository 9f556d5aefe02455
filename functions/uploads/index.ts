import { createRouter, type RouterOptions } from "../../http/app";
import { registerAssetsGet } from "./asset";
import { registerUploadsPut } from "./put";

export function uploadsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerUploadsPut(app);
  registerAssetsGet(app);
  return app;
}
