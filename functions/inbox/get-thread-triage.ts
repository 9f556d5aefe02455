import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { InboxThreadIdParams } from "../../lib/schemas/inbox";
import { ThreadTriage } from "../../lib/schemas/judgments";
import { MEMBER_PRIVATE } from "../../services/inbox/member";
import { getThreadTriage } from "../../services/judgments/read";

const route = operation({
  operationId: "getInboxThreadTriage",
  method: "get",
  path: "/gallery/inbox/threads/{id}/triage",
  tags: ["Inbox"],
  summary: "Explain one of your threads' triage",
  description:
    "Why the thread is triaged as it is: the message that was judged, the intent and urgency with the belief in every value, whether the sender expects a reply and whether the thread is escalating, the phrases of that message that decided it (with character offsets into its body) and the facts of the thread that were weighed. `triage` is null until the engine has triaged the thread; `corrected_intent` is the intent you set instead, which the engine never overwrites. Another member's thread is 404, as is an unknown one. A secret key is refused with 403.",
  auth: { scopes: ["inbox:read"], credentials: ["session"], credentialsReason: MEMBER_PRIVATE },
  pathIds: { id: "thr" },
  request: { params: InboxThreadIdParams },
  responses: {
    200: {
      description: "The thread's triage and what it rests on.",
      content: { "application/json": { schema: ThreadTriage } },
    },
  },
});

export function registerInboxThreadTriageGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getThreadTriage(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof ThreadTriage>, 200>(c, text, 200);
  });
}
