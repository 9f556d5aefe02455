import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DeleteResult } from "../../lib/schemas/artworks";
import { ContactIdParams } from "../../lib/schemas/contacts";
import { deleteContact } from "../../services/contacts/delete";

const route = operation({
  operationId: "deleteContact",
  method: "delete",
  path: "/gallery/contacts/{id}",
  tags: ["Contacts"],
  summary: "Delete a contact",
  description:
    "Erases the contact for good, with what was recorded about the person: interactions, engagement, tasks, private notes, profiles, assignments, tags, list memberships and judgments. Sales stay, as the gallery's financial record, with `contact_id` null. To take a contact off the roster reversibly, archive it instead. Emits `contact.deleted` whose `data.object` is the contact's last state.",
  auth: { scopes: ["contacts:delete"] },
  idempotent: true,
  pathIds: { id: "con" },
  request: { params: ContactIdParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerContactsDelete(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await deleteContact(serviceContext(c), c.req.valid("param").id)),
  );
}
