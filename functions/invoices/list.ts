import { z } from "@hono/zod-openapi";
import { archivedValues } from "../../db/queries/contact-filters";
import { invoiceList } from "../../db/queries/invoices";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { boolParam, idString } from "../../lib/params";
import { Invoice, invoiceStatuses } from "../../lib/schemas/invoices";
import { CalendarDate } from "../../lib/time";
import { listInvoices } from "../../services/invoices/read";

const InvoicePage = listResponse(Invoice, "InvoicePage");

const route = operation({
  operationId: "listInvoices",
  method: "get",
  path: "/gallery/invoices",
  tags: ["Invoices"],
  summary: "List invoices",
  description:
    "The gallery's invoices, newest first by default; `sort=updated` orders by last change, `sort=issued` and `sort=due` by those dates, invoices without one last in either direction. Archived invoices are left out unless `archived` says otherwise. Filters combine with AND; the date ranges are inclusive (YYYY-MM-DD). Invoices are never deleted, so an issued number always stays listable (a cancelled invoice is `void`).",
  auth: { scopes: ["sales:read"] },
  list: invoiceList,
  request: {
    query: z.strictObject({
      ...paginationQuery(invoiceList),
      status: z.enum(invoiceStatuses).optional().openapi({ description: "Invoices in this status." }),
      contact_id: idString("con").optional().openapi({ description: "Invoices billed to this contact." }),
      sale_id: idString("sale").optional().openapi({ description: "Invoices of this sale." }),
      issued_from: CalendarDate.optional().openapi({ description: "issued_date on or after this date." }),
      issued_to: CalendarDate.optional().openapi({ description: "issued_date on or before this date." }),
      due_from: CalendarDate.optional().openapi({ description: "due_date on or after this date." }),
      due_to: CalendarDate.optional().openapi({ description: "due_date on or before this date." }),
      overdue: boolParam(
        "`true`: unpaid or partially paid invoices whose due_date is before today (UTC); `false`: every other invoice.",
      ).optional(),
      archived: z.enum(archivedValues).optional().openapi({
        default: "exclude",
        description:
          "Which invoices the archive shelf contributes: `exclude` (default) lists unarchived invoices only, `include` lists both, `only` lists archived invoices only. `false` means `exclude` and `true` means `only`.",
      }),
    }),
  },
  responses: {
    200: { description: "A page of invoices.", content: { "application/json": { schema: InvoicePage } } },
  },
});

export function registerInvoicesList(app: Router): void {
  app.openapi(route, async (c) => {
    const { limit, cursor, sort, dir, ...filters } = c.req.valid("query");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof InvoicePage>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listInvoices(ctx, filters, page),
    );
  });
}
