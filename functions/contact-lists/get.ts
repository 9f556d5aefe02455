import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { ContactList, ContactListIdParams } from "../../lib/schemas/contact-lists";
import { getContactList } from "../../services/contact-lists/read";

const route = operation({
  operationId: "getContactList",
  method: "get",
  path: "/gallery/contact-lists/{id}",
  tags: ["Contact lists"],
  summary: "Retrieve a contact list",
  description: "One list. Its members are `GET /gallery/contacts?list_id=<id>`.",
  auth: { scopes: ["contacts:read"] },
  pathIds: { id: "list" },
  request: { params: ContactListIdParams },
  responses: {
    200: { description: "The list.", content: { "application/json": { schema: ContactList } } },
  },
});

export function registerContactListsGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getContactList(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof ContactList>, 200>(c, text, 200);
  });
}
