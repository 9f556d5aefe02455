import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { InboxThread, InboxThreadIdParams, InboxThreadRead } from "../../lib/schemas/inbox";
import { markThread } from "../../services/inbox/mark-read";
import { MEMBER_PRIVATE } from "../../services/inbox/member";

const route = operation({
  operationId: "markInboxThreadRead",
  method: "post",
  path: "/gallery/inbox/threads/{id}/read",
  tags: ["Inbox"],
  summary: "Mark one of your threads read or unread",
  description:
    '`{"read": true}`, or no body at all, marks the thread read: every inbound message not yet read gets `read_at` now. `{"read": false}` marks it unread: every inbound message\'s `read_at` is cleared. `unread_count` is counted again from the messages in the same transaction. Answers the thread. Another member\'s thread is 404. Emits `inbox_thread.marked_read` or `inbox_thread.marked_unread`; a call that changes nothing emits nothing.',
  auth: { scopes: ["inbox:create"], credentials: ["session"], credentialsReason: MEMBER_PRIVATE },
  idempotent: true,
  pathIds: { id: "thr" },
  exampleBody: { read: true },
  request: {
    params: InboxThreadIdParams,
    body: { required: false, content: { "application/json": { schema: InboxThreadRead } } },
  },
  responses: {
    200: { description: "The thread.", content: { "application/json": { schema: InboxThread } } },
  },
});

export function registerInboxThreadsMarkRead(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await markThread(serviceContext(c), id, c.req.valid("json").read ?? true));
  });
}
