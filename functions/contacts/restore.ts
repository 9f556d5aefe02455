import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Contact, ContactIdParams } from "../../lib/schemas/contacts";
import { restoreContact } from "../../services/contacts/archive";

const route = operation({
  operationId: "restoreContact",
  method: "post",
  path: "/gallery/contacts/{id}/restore",
  tags: ["Contacts"],
  summary: "Restore an archived contact",
  description:
    "Takes the contact off the archive shelf: `archived_at` is null again and the contact is back on the default roster and in the dynamic lists it matches. Its email must still be free: when an unarchived contact took it meanwhile, 409 `conflict` whose `details.existing_id` names that contact. Answers the contact. Restoring a contact that is not archived changes nothing, emits nothing and answers the contact. Emits `contact.restored`.",
  auth: { scopes: ["contacts:update"] },
  idempotent: true,
  pathIds: { id: "con" },
  request: { params: ContactIdParams },
  responses: {
    200: { description: "The restored contact.", content: { "application/json": { schema: Contact } } },
  },
});

export function registerContactsRestore(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await restoreContact(serviceContext(c), c.req.valid("param").id)),
  );
}
