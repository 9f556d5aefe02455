import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ContactList, ContactListIdParams, ContactListUpdate } from "../../lib/schemas/contact-lists";
import { updateContactListFields } from "../../services/contact-lists/update";

const route = operation({
  operationId: "updateContactList",
  method: "patch",
  path: "/gallery/contact-lists/{id}",
  tags: ["Contact lists"],
  summary: "Update a contact list",
  description:
    "Changes the title, kind or description, and a dynamic list's `dynamic_query` (replaced as a whole; a new `described_as` drops the judgments made for the former one). `is_dynamic` is not writable: a list is static or dynamic from its creation, and a `dynamic_query` for a static list is 409 `conflict` with `details.is_dynamic`. Emits `contact_list.updated` with `previous_attributes`; a request that changes nothing emits nothing.",
  auth: { scopes: ["contacts:update"] },
  idempotent: true,
  pathIds: { id: "list" },
  exampleBody: { title: "Spring opening, first wave" },
  request: {
    params: ContactListIdParams,
    body: { required: true, content: { "application/json": { schema: ContactListUpdate } } },
  },
  responses: {
    200: { description: "The updated list.", content: { "application/json": { schema: ContactList } } },
  },
});

export function registerContactListsUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await updateContactListFields(serviceContext(c), id, c.req.valid("json")));
  });
}
