import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Contact, ContactCreate } from "../../lib/schemas/contacts";
import { createContact } from "../../services/contacts/create";

const route = operation({
  operationId: "createContact",
  method: "post",
  path: "/gallery/contacts",
  tags: ["Contacts"],
  summary: "Create a contact",
  description:
    "Adds a contact to the roster. `email` is trimmed and lower-cased, and belongs to at most one unarchived contact of the gallery: an email another one has is 409 `conflict` whose `details.existing_id` names it. `assignee_ids` must be members of the gallery and `tag_ids` tags of scope `contact` (400 naming `assignee_ids[]` or `tag_ids[]` otherwise). Spend fields start at zero and follow the contact's completed sales. Emits `contact.created`.",
  auth: { scopes: ["contacts:create"] },
  idempotent: true,
  exampleBody: { name: "Ada Collector", contact_type: "collector" },
  request: {
    body: { required: true, content: { "application/json": { schema: ContactCreate } } },
  },
  responses: {
    201: { description: "The created contact.", content: { "application/json": { schema: Contact } } },
  },
});

export function registerContactsCreate(app: Router): void {
  app.openapi(route, async (c) => respond(c, await createContact(serviceContext(c), c.req.valid("json"))));
}
