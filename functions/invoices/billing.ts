import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { InvoiceBilling, InvoiceIdParams } from "../../lib/schemas/invoices";
import { getInvoiceBilling } from "../../services/invoices/read";

const route = operation({
  operationId: "getInvoiceBilling",
  method: "get",
  path: "/gallery/invoices/{id}/billing",
  tags: ["Invoices"],
  summary: "Who an invoice bills and what is still owed",
  description:
    "The billed contact (`contact_id`, written by the invoice's create and update; the list filters on it) and the balance (`amount_due_cents` = total_cents − amount_paid_cents, 0 for a void invoice) in the invoice's currency: what the Invoice itself does not show. An archived invoice too.",
  auth: { scopes: ["sales:read"] },
  pathIds: { id: "inv" },
  request: { params: InvoiceIdParams },
  responses: {
    200: {
      description: "The invoice's billing.",
      content: { "application/json": { schema: InvoiceBilling } },
    },
  },
});

export function registerInvoicesBilling(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getInvoiceBilling(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof InvoiceBilling>, 200>(c, text, 200);
  });
}
