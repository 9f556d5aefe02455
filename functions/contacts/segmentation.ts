import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { ContactIdParams, ContactSegmentation } from "../../lib/schemas/contacts";
import { getContactSegmentation } from "../../services/contacts/read";

const route = operation({
  operationId: "getContactSegmentation",
  method: "get",
  path: "/gallery/contacts/{id}/segmentation",
  tags: ["Contacts"],
  summary: "What the roster's filters match a contact on",
  description:
    "The values the contacts list's filters and dynamic lists match beyond the Contact's own fields: its tags (`tag_id`), email consent (`email_consent`), spend (`min_total_spend_cents`, `min_works_acquired`) with its price band (`price_band`) and currency, and its last engagement (`engaged_since`). Tags and email consent are written by the contact's create and update; the rest is kept from its sales and engagement events. An archived contact is still answered.",
  auth: { scopes: ["contacts:read", "sales:read"] },
  pathIds: { id: "con" },
  request: { params: ContactIdParams },
  responses: {
    200: {
      description: "The contact's segmentation values.",
      content: { "application/json": { schema: ContactSegmentation } },
    },
  },
});

export function registerContactsSegmentation(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getContactSegmentation(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof ContactSegmentation>, 200>(c, text, 200);
  });
}
