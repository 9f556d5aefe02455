import { createRouter, type RouterOptions } from "../../http/app";
import { registerArtworksCreate } from "./create";
import { registerArtworksDelete } from "./delete";
import { registerArtworksDiscardDraft } from "./discard-draft";
import { registerArtworksGet } from "./get";
import { registerArtworksJudgments } from "./judgments";
import { registerArtworksList } from "./list";
import { registerArtworksPublish } from "./publish";
import { registerArtworksUpdate } from "./update";

export function artworksRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerArtworksList(app);
  registerArtworksCreate(app);
  registerArtworksGet(app);
  registerArtworksUpdate(app);
  registerArtworksDelete(app);
  registerArtworksPublish(app);
  registerArtworksDiscardDraft(app);
  registerArtworksJudgments(app);
  return app;
}
