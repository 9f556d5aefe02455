import { z } from "@hono/zod-openapi";
import { messageList } from "../../db/queries/inbox";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { InboxMessage, InboxThreadIdParams } from "../../lib/schemas/inbox";
import { MEMBER_PRIVATE } from "../../services/inbox/member";
import { listThreadMessages } from "../../services/inbox/threads";

const InboxMessageList = listResponse(InboxMessage, "InboxMessageList");

const route = operation({
  operationId: "listInboxThreadMessages",
  method: "get",
  path: "/gallery/inbox/threads/{id}/messages",
  tags: ["Inbox"],
  summary: "List a thread's messages",
  description:
    "The messages of one of the signed-in member's threads, the most recently sent first by default (`sort=sent`, `dir=asc` for the conversation in order). Another member's thread is 404. A secret key is refused with 403.",
  auth: { scopes: ["inbox:read"], credentials: ["session"], credentialsReason: MEMBER_PRIVATE },
  pathIds: { id: "thr" },
  list: messageList,
  request: { params: InboxThreadIdParams, query: z.strictObject({ ...paginationQuery(messageList) }) },
  responses: {
    200: {
      description: "A page of messages.",
      content: { "application/json": { schema: InboxMessageList } },
    },
  },
});

export function registerInboxThreadMessagesList(app: Router): void {
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c);
    const { id } = c.req.valid("param");
    return listPage<z.infer<typeof InboxMessageList>>(c, route, c.req.valid("query"), (page) =>
      listThreadMessages(ctx, id, page),
    );
  });
}
