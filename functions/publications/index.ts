import { createRouter, type RouterOptions } from "../../http/app";
import { registerPublicationsCoverUpload } from "./cover-upload";
import { registerPublicationsCreate } from "./create";
import { registerPublicationsDelete } from "./delete";
import { registerPublicationsGet } from "./get";
import { registerPublicationsList } from "./list";
import { registerPublicationsUnpublish } from "./unpublish";
import { registerPublicationsUpdate } from "./update";

/** The gallery's publications, under /gallery/publications. */
export function publicationsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerPublicationsList(app);
  registerPublicationsCreate(app);
  registerPublicationsGet(app);
  registerPublicationsUpdate(app);
  registerPublicationsUnpublish(app);
  registerPublicationsCoverUpload(app);
  registerPublicationsDelete(app);
  return app;
}
