import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { Invoice, InvoiceIdParams } from "../../lib/schemas/invoices";
import { getInvoice } from "../../services/invoices/read";

const route = operation({
  operationId: "getInvoice",
  method: "get",
  path: "/gallery/invoices/{id}",
  tags: ["Invoices"],
  summary: "Retrieve an invoice",
  description:
    "The invoice with its amounts (total_cents and base_amount_cents computed by the API), status and addresses; an archived invoice too. Its billed contact and balance: GET /gallery/invoices/{id}/billing. 404 for an id that is not one of this gallery's invoices.",
  auth: { scopes: ["sales:read"] },
  pathIds: { id: "inv" },
  request: { params: InvoiceIdParams },
  responses: {
    200: { description: "The invoice.", content: { "application/json": { schema: Invoice } } },
  },
});

export function registerInvoicesGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getInvoice(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof Invoice>, 200>(c, text, 200);
  });
}
