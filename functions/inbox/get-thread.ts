import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { InboxThread, InboxThreadIdParams } from "../../lib/schemas/inbox";
import { MEMBER_PRIVATE } from "../../services/inbox/member";
import { getThread } from "../../services/inbox/threads";

const route = operation({
  operationId: "getInboxThread",
  method: "get",
  path: "/gallery/inbox/threads/{id}",
  tags: ["Inbox"],
  summary: "Retrieve one of your threads",
  description:
    "One of the signed-in member's threads, with its triage. Another member's thread is 404, as is an unknown one. A secret key is refused with 403.",
  auth: { scopes: ["inbox:read"], credentials: ["session"], credentialsReason: MEMBER_PRIVATE },
  pathIds: { id: "thr" },
  request: { params: InboxThreadIdParams },
  responses: {
    200: { description: "The thread.", content: { "application/json": { schema: InboxThread } } },
  },
});

export function registerInboxThreadsGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getThread(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof InboxThread>, 200>(c, text, 200);
  });
}
