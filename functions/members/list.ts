import { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { byCreated, listResponse, paginationQuery } from "../../lib/pagination";
import { Member } from "../../lib/schemas/members";
import { listMembers } from "../../services/members/read";

const MemberList = listResponse(Member, "MemberList");

const route = operation({
  operationId: "listMembers",
  method: "get",
  path: "/gallery/members",
  tags: ["Members"],
  summary: "List members",
  description:
    "The people who sign in to the gallery's tools, disabled ones included, newest first. Never a password.",
  auth: { scopes: ["members:read"] },
  list: byCreated,
  request: { query: z.strictObject(paginationQuery(byCreated)) },
  responses: {
    200: {
      description: "A page of members.",
      content: { "application/json": { schema: MemberList } },
    },
  },
});

export function registerMembersList(app: Router): void {
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof MemberList>>(c, route, c.req.valid("query"), (page) =>
      listMembers(ctx, page),
    );
  });
}
