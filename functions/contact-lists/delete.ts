import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DeleteResult } from "../../lib/schemas/artworks";
import { ContactListIdParams } from "../../lib/schemas/contact-lists";
import { deleteContactList } from "../../services/contact-lists/delete";

const route = operation({
  operationId: "deleteContactList",
  method: "delete",
  path: "/gallery/contact-lists/{id}",
  tags: ["Contact lists"],
  summary: "Delete a contact list",
  description:
    "Deletes the list with its memberships and its segment judgments; no contact changes. Emits `contact_list.deleted` whose `data.object` is the list's last state.",
  auth: { scopes: ["contacts:delete"] },
  idempotent: true,
  pathIds: { id: "list" },
  request: { params: ContactListIdParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerContactListsDelete(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await deleteContactList(serviceContext(c), c.req.valid("param").id)),
  );
}
