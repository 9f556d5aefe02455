import { z } from "@hono/zod-openapi";
import { connectionList } from "../../db/queries/inbox";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { InboxConnection } from "../../lib/schemas/inbox";
import { listConnections } from "../../services/inbox/connections";
import { MEMBER_PRIVATE } from "../../services/inbox/member";

const InboxConnectionList = listResponse(InboxConnection, "InboxConnectionList");

const route = operation({
  operationId: "listInboxConnections",
  method: "get",
  path: "/gallery/inbox/connections",
  tags: ["Inbox"],
  summary: "List your inbox connections",
  description:
    "The signed-in member's connected accounts (email, WhatsApp, SMS), newest first by default. Other members' connections are never listed. A secret key is refused with 403.",
  auth: { scopes: ["inbox:read"], credentials: ["session"], credentialsReason: MEMBER_PRIVATE },
  list: connectionList,
  request: { query: z.strictObject({ ...paginationQuery(connectionList) }) },
  responses: {
    200: {
      description: "A page of connections.",
      content: { "application/json": { schema: InboxConnectionList } },
    },
  },
});

export function registerInboxConnectionsList(app: Router): void {
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof InboxConnectionList>>(c, route, c.req.valid("query"), (page) =>
      listConnections(ctx, page),
    );
  });
}
