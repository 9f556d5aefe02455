import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { ContactRecap } from "../../lib/schemas/contact-recap";
import { ContactIdParams } from "../../lib/schemas/contacts";
import { getContactRecap } from "../../services/contact-recap/read";

const route = operation({
  operationId: "getContactRecap",
  method: "get",
  path: "/gallery/contacts/{id}/recap",
  tags: ["Contacts"],
  summary: "Recap a contact",
  description:
    "A read-only snapshot of the contact in one query instead of paging its interactions, tasks and sales: spend (completed sales, in the gallery's default currency), first and last interaction, how many, the 5 newest, open tasks and the one due next, the lists it belongs to (static memberships and the dynamic lists it matches now) and whether it is a VIP collector. An archived contact is still recapped.",
  auth: { scopes: ["contacts:read", "sales:read"] },
  pathIds: { id: "con" },
  request: { params: ContactIdParams },
  responses: {
    200: { description: "The contact's recap.", content: { "application/json": { schema: ContactRecap } } },
  },
});

export function registerContactRecapGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getContactRecap(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof ContactRecap>, 200>(c, text, 200);
  });
}
