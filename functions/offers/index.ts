import { createRouter, type RouterOptions } from "../../http/app";
import { registerOffersCreate } from "./create";
import { registerOffersDelete } from "./delete";
import { registerOffersGet } from "./get";
import { registerOffersReplaceItems } from "./items";
import { registerOffersList } from "./list";
import { registerOfferRecipients } from "./recipients";
import { registerOffersRecommendedRecipients } from "./recommended-recipients";
import { registerOffersUpdate } from "./update";

/** The gallery's offers, their items, recipients and recommended recipients, under /gallery/offers. */
export function offersRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerOffersList(app);
  registerOffersCreate(app);
  registerOffersGet(app);
  registerOffersUpdate(app);
  registerOffersDelete(app);
  registerOffersReplaceItems(app);
  registerOfferRecipients(app);
  registerOffersRecommendedRecipients(app);
  return app;
}
