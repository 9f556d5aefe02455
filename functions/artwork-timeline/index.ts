import { createRouter, type RouterOptions } from "../../http/app";
import { registerArtworkTimelineList } from "./list";
import { registerArtworkTimelineRecordInterest } from "./record-interest";

/** An artwork's activity timeline, under /gallery/artworks/{id}/events. */
export function artworkTimelineRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerArtworkTimelineList(app);
  registerArtworkTimelineRecordInterest(app);
  return app;
}
