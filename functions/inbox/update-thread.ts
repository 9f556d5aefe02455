import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { InboxThread, InboxThreadIdParams, InboxThreadUpdate } from "../../lib/schemas/inbox";
import { MEMBER_PRIVATE } from "../../services/inbox/member";
import { updateThread } from "../../services/inbox/update-thread";

const route = operation({
  operationId: "updateInboxThread",
  method: "patch",
  path: "/gallery/inbox/threads/{id}",
  tags: ["Inbox"],
  summary: "Update one of your threads",
  description:
    "Changes a thread of the signed-in member.\n\n`state`: `open`, `done`, or `snoozed` with a `snooze_until` in the future (400 naming `snooze_until` when it is missing or not ahead); `open` and `done` clear the snooze. A snoozed thread reads `open` once its snooze_until has passed, with no further call. `snooze_until` alone moves the snooze of a thread that is snoozed; sent with another state, or alone to a thread that is not snoozed, it is a 400 naming it.\n\n`assigned_to`: a member of this gallery (400 naming it otherwise), or null to unassign.\n\n`triage`: only the fields sent change. A change to an engine field (`intent`, `intent_probability`, `urgency`, `urgency_probability`, `expects_reply`, `escalating`; probabilities 0 to 1) sets `triaged_at`; `corrected_intent`, a member's correction, is kept as it is unless sent (null clears it).\n\nUnknown fields are a 400. Another member's thread is 404. Emits `inbox_thread.updated` with `previous_attributes` (for triage, the sub-fields that changed); a request that changes nothing emits nothing.",
  auth: { scopes: ["inbox:update"], credentials: ["session"], credentialsReason: MEMBER_PRIVATE },
  idempotent: true,
  pathIds: { id: "thr" },
  exampleBody: { state: "done" },
  request: {
    params: InboxThreadIdParams,
    body: { required: true, content: { "application/json": { schema: InboxThreadUpdate } } },
  },
  responses: {
    200: { description: "The updated thread.", content: { "application/json": { schema: InboxThread } } },
  },
});

export function registerInboxThreadsUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await updateThread(serviceContext(c), id, c.req.valid("json")));
  });
}
