import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DeleteResult } from "../../lib/schemas/artworks";
import { InboxConnectionIdParams } from "../../lib/schemas/inbox";
import { deleteConnection } from "../../services/inbox/connections";
import { MEMBER_PRIVATE } from "../../services/inbox/member";

const route = operation({
  operationId: "deleteInboxConnection",
  method: "delete",
  path: "/gallery/inbox/connections/{id}",
  tags: ["Inbox"],
  summary: "Disconnect an account",
  description:
    "Deletes one of the signed-in member's connections. Its threads and their messages stay in the inbox, with `connection_id` null. Another member's connection is 404, as is an unknown one. Emits `inbox_connection.deleted` whose `data.object` is its last state (without the address).",
  auth: { scopes: ["inbox:delete"], credentials: ["session"], credentialsReason: MEMBER_PRIVATE },
  idempotent: true,
  // Connection ids are UUIDs; the fixture of this name makes one for the generated checks.
  pathIds: { id: "conn" },
  request: { params: InboxConnectionIdParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerInboxConnectionsDelete(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await deleteConnection(serviceContext(c), c.req.valid("param").id)),
  );
}
