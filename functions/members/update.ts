import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Member, MemberIdParams, MemberUpdate } from "../../lib/schemas/members";
import { updateMember } from "../../services/members/update";

const route = operation({
  operationId: "updateMember",
  method: "patch",
  path: "/gallery/members/{id}",
  tags: ["Members"],
  summary: "Update a member",
  description:
    "Changes a member's `role` or disables it (`disabled: true`), taking effect on the member's very next request: the response is sent only after every cached credential of the member is purged. Disabling revokes all its sessions and refuses its sign-ins; `disabled: false` lets it sign in again. Emits `member.updated` with `previous_attributes`; a request that changes nothing emits nothing.",
  auth: { scopes: ["members:update"] },
  idempotent: true,
  pathIds: { id: "mem" },
  exampleBody: { role: "viewer" },
  request: {
    params: MemberIdParams,
    body: { required: true, content: { "application/json": { schema: MemberUpdate } } },
  },
  responses: {
    200: { description: "The updated member.", content: { "application/json": { schema: Member } } },
  },
});

export function registerMembersUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await updateMember(serviceContext(c), id, c.req.valid("json")));
  });
}
