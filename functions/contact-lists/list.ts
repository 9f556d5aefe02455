import { z } from "@hono/zod-openapi";
import { contactListList } from "../../db/queries/contact-lists";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { ContactList, contactListFilters } from "../../lib/schemas/contact-lists";
import { listContactLists } from "../../services/contact-lists/read";

const ContactListList = listResponse(ContactList, "ContactListList");

const route = operation({
  operationId: "listContactLists",
  method: "get",
  path: "/gallery/contact-lists",
  tags: ["Contact lists"],
  summary: "List contact lists",
  description:
    "The gallery's lists (pipelines, segments, mailings), newest first. `kind` keeps one kind; `is_dynamic` keeps dynamic or static lists. A list's members are `GET /gallery/contacts?list_id=<id>`.",
  auth: { scopes: ["contacts:read"] },
  list: contactListList,
  request: { query: z.strictObject({ ...paginationQuery(contactListList), ...contactListFilters }) },
  responses: {
    200: { description: "A page of lists.", content: { "application/json": { schema: ContactListList } } },
  },
});

export function registerContactListsList(app: Router): void {
  app.openapi(route, async (c) => {
    const { limit, cursor, sort, dir, ...filters } = c.req.valid("query");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof ContactListList>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listContactLists(ctx, filters, page),
    );
  });
}
