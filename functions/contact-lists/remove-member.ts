import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ContactList, ContactListMemberParams } from "../../lib/schemas/contact-lists";
import { removeContactListMember } from "../../services/contact-lists/members";

const route = operation({
  operationId: "removeContactListMember",
  method: "delete",
  path: "/gallery/contact-lists/{id}/members/{contactId}",
  tags: ["Contact lists"],
  summary: "Take a contact off a static list",
  description:
    "Removes the contact from a static list; the contact itself is unchanged. A contact of the gallery that is not a member leaves the list as it is (200, no event); a contact of another gallery is 404. On a dynamic list it is 409 `conflict` with `details.is_dynamic`. Emits `contact_list.member_removed`.",
  auth: { scopes: ["contacts:update"] },
  idempotent: true,
  pathIds: { id: "list", contactId: "con" },
  request: { params: ContactListMemberParams },
  responses: {
    200: {
      description: "The list after the change.",
      content: { "application/json": { schema: ContactList } },
    },
  },
});

export function registerContactListsRemoveMember(app: Router): void {
  app.openapi(route, async (c) => {
    const { id, contactId } = c.req.valid("param");
    return respond(c, await removeContactListMember(serviceContext(c), id, contactId));
  });
}
