import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { InboxConnection, InboxConnectionCreate } from "../../lib/schemas/inbox";
import { createConnection } from "../../services/inbox/connections";
import { MEMBER_PRIVATE } from "../../services/inbox/member";

const route = operation({
  operationId: "createInboxConnection",
  method: "post",
  path: "/gallery/inbox/connections",
  tags: ["Inbox"],
  summary: "Connect an account to your inbox",
  description:
    "Connects an email account, WhatsApp number or SMS number to the signed-in member's inbox; its connector then delivers messages through POST /gallery/inbox/connections/{id}/messages. `address` is normalised for the `channel`: an email is trimmed and lower-cased, a phone number is stored in E.164 (a leading `+` or `00`, then the digits; spaces, dots, hyphens, slashes and parentheses are dropped, and so is a trunk zero written `(0)`). 400 naming `address` when it is not an address of its channel; 409 when you already connected that address on that channel (`details.connection_id` names it). The connection is `active` and its id a UUID. Emits `inbox_connection.created` (without the address).",
  auth: { scopes: ["inbox:create"], credentials: ["session"], credentialsReason: MEMBER_PRIVATE },
  idempotent: true,
  exampleBody: { provider: "google", channel: "email", address: "Desk@Gallery.example" },
  request: {
    body: { required: true, content: { "application/json": { schema: InboxConnectionCreate } } },
  },
  responses: {
    201: { description: "The connection.", content: { "application/json": { schema: InboxConnection } } },
  },
});

export function registerInboxConnectionsCreate(app: Router): void {
  app.openapi(route, async (c) => respond(c, await createConnection(serviceContext(c), c.req.valid("json"))));
}
