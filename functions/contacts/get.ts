import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { Contact, ContactIdParams } from "../../lib/schemas/contacts";
import { getContact } from "../../services/contacts/read";

const route = operation({
  operationId: "getContact",
  method: "get",
  path: "/gallery/contacts/{id}",
  tags: ["Contacts"],
  summary: "Retrieve a contact",
  description:
    "The contact with its assignees and profiles. An archived contact is still returned (its `archived_at` is set).",
  auth: { scopes: ["contacts:read", "sales:read"] },
  pathIds: { id: "con" },
  request: { params: ContactIdParams },
  responses: {
    200: { description: "The contact.", content: { "application/json": { schema: Contact } } },
  },
});

export function registerContactsGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getContact(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof Contact>, 200>(c, text, 200);
  });
}
