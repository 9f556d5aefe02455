import { createRouter, type RouterOptions } from "../../http/app";
import { registerInvoicesArchive } from "./archive";
import { registerInvoicesBilling } from "./billing";
import { registerInvoicesCreate } from "./create";
import { registerInvoicesGet } from "./get";
import { registerInvoicesList } from "./list";
import { registerInvoicePaymentReversals } from "./payment-reversals";
import { registerInvoicesRestore } from "./restore";
import { registerInvoicesUpdate } from "./update";

/**
 * The gallery's invoices and their payment reversals, under /gallery/invoices. No DELETE: an issued number never
 * disappears (void instead).
 */
export function invoicesRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerInvoicesList(app);
  registerInvoicesCreate(app);
  registerInvoicesGet(app);
  registerInvoicesUpdate(app);
  registerInvoicesArchive(app);
  registerInvoicesRestore(app);
  registerInvoicePaymentReversals(app);
  registerInvoicesBilling(app);
  return app;
}
