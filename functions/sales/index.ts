import { createRouter, type RouterOptions } from "../../http/app";
import { registerSalesCreate } from "./create";
import { registerSalesDelete } from "./delete";
import { registerSalesGet } from "./get";
import { registerSalesList } from "./list";
import { registerSalesUpdate } from "./update";

/** The gallery's sales, under /gallery/sales. */
export function salesRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerSalesList(app);
  registerSalesCreate(app);
  registerSalesGet(app);
  registerSalesUpdate(app);
  registerSalesDelete(app);
  return app;
}
