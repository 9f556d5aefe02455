import { createRouter, type RouterOptions } from "../../http/app";
import { registerAuctionRecordsCreate } from "./create";
import { registerAuctionRecordsDelete } from "./delete";
import { registerAuctionRecordsList } from "./list";

/** An artwork's auction records, under /gallery/artworks/{id}/auction-records. */
export function auctionRecordsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerAuctionRecordsList(app);
  registerAuctionRecordsCreate(app);
  registerAuctionRecordsDelete(app);
  return app;
}
