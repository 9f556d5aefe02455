import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { InboxConnection, InboxConnectionIdParams, InboxConnectionUpdate } from "../../lib/schemas/inbox";
import { updateConnection } from "../../services/inbox/connections";
import { MEMBER_PRIVATE } from "../../services/inbox/member";

const route = operation({
  operationId: "updateInboxConnection",
  method: "patch",
  path: "/gallery/inbox/connections/{id}",
  tags: ["Inbox"],
  summary: "Update a connection's provider or secrets",
  description:
    "Changes one of the signed-in member's connections: its `provider`, or its provider secrets, which its connector checks every delivery with (`app_secret` and `verify_token` for WhatsApp, `auth_token` for Twilio; an email connection takes none). Secrets sent replace theirs, the others stay; they are stored sealed and never shown again (the connection lists their names in `secrets`). A secret of another channel is a 400 naming it. Another member's connection is 404, as is an unknown one. Emits `inbox_connection.updated` when something changed, with the former provider or secret names in `previous_attributes` (never a value).",
  auth: { scopes: ["inbox:update"], credentials: ["session"], credentialsReason: MEMBER_PRIVATE },
  idempotent: true,
  pathIds: { id: "conn" },
  exampleBody: { provider: "meta" },
  request: {
    params: InboxConnectionIdParams,
    body: { required: true, content: { "application/json": { schema: InboxConnectionUpdate } } },
  },
  responses: {
    200: { description: "The connection.", content: { "application/json": { schema: InboxConnection } } },
  },
});

export function registerInboxConnectionsUpdate(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await updateConnection(serviceContext(c), c.req.valid("param").id, c.req.valid("json"))),
  );
}
