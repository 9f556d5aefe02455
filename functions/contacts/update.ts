import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Contact, ContactIdParams, ContactUpdate } from "../../lib/schemas/contacts";
import { updateContact } from "../../services/contacts/update";

const route = operation({
  operationId: "updateContact",
  method: "patch",
  path: "/gallery/contacts/{id}",
  tags: ["Contacts"],
  summary: "Update a contact",
  description:
    "Changes only the fields sent. `assignee_ids` and `tag_ids` replace their sets; `custom_fields` and `metadata` replace their maps; `collector_profile` and `institution_profile` are merged into the stored profile (created when absent), and null removes one. A new `email` another unarchived contact has is 409 `conflict` with `details.existing_id`. Emits `contact.updated` with `previous_attributes`; a request that changes nothing emits nothing.",
  auth: { scopes: ["contacts:update"] },
  idempotent: true,
  pathIds: { id: "con" },
  exampleBody: { lead_status: "active" },
  request: {
    params: ContactIdParams,
    body: { required: true, content: { "application/json": { schema: ContactUpdate } } },
  },
  responses: {
    200: { description: "The updated contact.", content: { "application/json": { schema: Contact } } },
  },
});

export function registerContactsUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await updateContact(serviceContext(c), id, c.req.valid("json")));
  });
}
