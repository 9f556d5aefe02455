import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Contact, ContactIdParams } from "../../lib/schemas/contacts";
import { archiveContact } from "../../services/contacts/archive";

const route = operation({
  operationId: "archiveContact",
  method: "post",
  path: "/gallery/contacts/{id}/archive",
  tags: ["Contacts"],
  summary: "Archive a contact",
  description:
    "Puts the contact on the reversible archive shelf: `archived_at` is set, the contact leaves the default roster and every dynamic list, and its email is free for another contact; it is still read by id, listed with `archived=include` or `archived=only`, and kept on static lists. Answers the contact. Archiving an archived contact changes nothing, emits nothing and answers the contact. Emits `contact.archived`.",
  auth: { scopes: ["contacts:update"] },
  idempotent: true,
  pathIds: { id: "con" },
  request: { params: ContactIdParams },
  responses: {
    200: { description: "The archived contact.", content: { "application/json": { schema: Contact } } },
  },
});

export function registerContactsArchive(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await archiveContact(serviceContext(c), c.req.valid("param").id)),
  );
}
