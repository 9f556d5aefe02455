import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ContactList, ContactListIdParams, ContactListMembersAdd } from "../../lib/schemas/contact-lists";
import { addContactListMembers } from "../../services/contact-lists/members";

const route = operation({
  operationId: "addContactListMembers",
  method: "post",
  path: "/gallery/contact-lists/{id}/members",
  tags: ["Contact lists"],
  summary: "Add contacts to a static list",
  description:
    "Adds 1 to 100 of the gallery's contacts to a static list; an id that is not one of them is 400 naming `contact_ids.<index>`, and contacts already on the list stay as they are. On a dynamic list it is 409 `conflict` with `details.is_dynamic`. Emits `contact_list.members_added` with the contacts that joined (nothing when none did).",
  auth: { scopes: ["contacts:update"] },
  idempotent: true,
  pathIds: { id: "list" },
  exampleBody: { contact_ids: ["con_01jd4xk9v2c7h8m3n5p6q7r8s9"] },
  request: {
    params: ContactListIdParams,
    body: { required: true, content: { "application/json": { schema: ContactListMembersAdd } } },
  },
  responses: {
    200: {
      description: "The list after the change.",
      content: { "application/json": { schema: ContactList } },
    },
  },
});

export function registerContactListsAddMembers(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await addContactListMembers(serviceContext(c), id, c.req.valid("json")));
  });
}
