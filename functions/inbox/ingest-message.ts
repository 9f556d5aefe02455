import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { InboxConnectionIdParams, InboxMessage, InboxMessageIngest } from "../../lib/schemas/inbox";
import { ingestMessage } from "../../services/inbox/ingest";

const route = operation({
  operationId: "ingestInboxMessage",
  method: "post",
  path: "/gallery/inbox/connections/{id}/messages",
  tags: ["Inbox"],
  summary: "Deliver a message to an inbox",
  description:
    "How connectors fill the inbox: a message arrived (`direction: inbound`) or was sent (`outbound`) on the connection's account. A secret key may deliver to any connection of the gallery; a member session only to its own (another member's connection is 404).\n\nAddresses are normalised for the connection's channel as connections' are (an email lower-cased, a phone number in E.164); one that is not an address of the channel is a 400 naming it (`from.address`, `to.0`, …). The counterpart is the sender of an inbound message and the first recipient of an outbound one.\n\nA `provider_thread_id` not yet seen on the connection starts a thread, owned by the connection's member, on its channel; later messages with it join that thread. Without one, the message starts a thread of its own. A new thread's contact is matched in the same transaction by the counterpart's address: contacts' email, or their phone in E.164, unarchived contacts first, then the newest; a thread still without a contact is matched again with each message. `contact_name` is the contact's name, else the sender's display name.\n\nThe thread's `last_from`, `last_snippet` and `last_message_at` follow the newest message by `sent_at`; an inbound message adds one to `unread_count`, an outbound one does not (it is the member's own). The thread keeps its first subject and its state.\n\nA `provider_message_id` already stored (on that provider thread, or without `provider_thread_id` on any thread of the connection) answers 200 with the stored message: nothing changes and nothing is emitted. Otherwise 201 with the message, and `inbox_message.received` (inbound) or `inbox_message.sent` (outbound), whose object carries no content. A delivery of the same provider message id that completes while this one runs makes this one a 409; its retry answers 200.",
  auth: { scopes: ["inbox:create"], credentials: ["secret", "session"] },
  idempotent: true,
  pathIds: { id: "conn" },
  exampleBody: {
    body: "Is the large canvas from the fair still available?",
    direction: "inbound",
    subject: "The large canvas",
    from: { address: "collector@example.com", name: "Ada Collector" },
    to: ["desk@gallery.example"],
    sent_at: "2025-03-04T09:30:00Z",
  },
  request: {
    params: InboxConnectionIdParams,
    body: { required: true, content: { "application/json": { schema: InboxMessageIngest } } },
  },
  responses: {
    200: {
      description: "The message was already stored under its provider_message_id: the stored message.",
      content: { "application/json": { schema: InboxMessage } },
    },
    201: { description: "The stored message.", content: { "application/json": { schema: InboxMessage } } },
  },
});

export function registerInboxMessagesIngest(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await ingestMessage(serviceContext(c), id, c.req.valid("json")));
  });
}
