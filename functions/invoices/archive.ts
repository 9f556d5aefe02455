import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Invoice, InvoiceIdParams } from "../../lib/schemas/invoices";
import { archiveInvoice } from "../../services/invoices/archive";

const route = operation({
  operationId: "archiveInvoice",
  method: "post",
  path: "/gallery/invoices/{id}/archive",
  tags: ["Invoices"],
  summary: "Archive an invoice",
  description:
    "Puts the invoice on the reversible archive shelf: `archived_at` is set and the invoice leaves the default list; it is still read by id and listed with `archived=include` or `archived=only`. Any status may be archived (a void one included) and nothing else changes: the number stays taken. Answers the invoice. Archiving an archived invoice changes nothing, emits nothing and answers the invoice. Emits `invoice.archived`.",
  auth: { scopes: ["sales:update"] },
  idempotent: true,
  pathIds: { id: "inv" },
  request: { params: InvoiceIdParams },
  responses: {
    200: { description: "The archived invoice.", content: { "application/json": { schema: Invoice } } },
  },
});

export function registerInvoicesArchive(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await archiveInvoice(serviceContext(c), c.req.valid("param").id)),
  );
}
