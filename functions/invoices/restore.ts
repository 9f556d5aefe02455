import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Invoice, InvoiceIdParams } from "../../lib/schemas/invoices";
import { restoreInvoice } from "../../services/invoices/archive";

const route = operation({
  operationId: "restoreInvoice",
  method: "post",
  path: "/gallery/invoices/{id}/restore",
  tags: ["Invoices"],
  summary: "Restore an archived invoice",
  description:
    "Takes the invoice off the archive shelf: `archived_at` is null again and the invoice is back in the default list. Answers the invoice. Restoring an invoice that is not archived changes nothing, emits nothing and answers the invoice. Emits `invoice.restored`.",
  auth: { scopes: ["sales:update"] },
  idempotent: true,
  pathIds: { id: "inv" },
  request: { params: InvoiceIdParams },
  responses: {
    200: { description: "The restored invoice.", content: { "application/json": { schema: Invoice } } },
  },
});

export function registerInvoicesRestore(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await restoreInvoice(serviceContext(c), c.req.valid("param").id)),
  );
}
