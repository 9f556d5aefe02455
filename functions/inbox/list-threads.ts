import { z } from "@hono/zod-openapi";
import { threadList } from "../../db/queries/inbox";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { DEFAULT_LIMIT, listResponse, paginationQuery } from "../../lib/pagination";
import { boolParam, idString } from "../../lib/params";
import { InboxThread, inboxChannels, threadStates } from "../../lib/schemas/inbox";
import { MEMBER_PRIVATE } from "../../services/inbox/member";
import { listThreads, listThreadsByPriority } from "../../services/inbox/threads";

const InboxThreadList = listResponse(InboxThread, "InboxThreadList");

/** Parameters that order or continue a sorted list: none of them goes with priority=true. */
const SORTED_ONLY = ["cursor", "sort", "dir"] as const;

const query = z
  .strictObject({
    ...paginationQuery(threadList),
    state: z.enum(threadStates).optional().openapi({
      description:
        "`open` includes snoozed threads whose snooze_until has passed; `snoozed` only those still snoozed.",
    }),
    channel: z
      .enum(inboxChannels)
      .optional()
      .openapi({ description: "Threads of this channel only: email, WhatsApp or SMS." }),
    assigned_to: idString("mem").optional().openapi({ description: "Threads assigned to this member." }),
    contact_id: idString("con").optional().openapi({ description: "Threads with this contact." }),
    unread: boolParam("true: threads with unread messages; false: threads without.").optional(),
    q: z.string().min(1).max(200).optional().openapi({
      description:
        "1 to 200 characters: a case-insensitive substring of the subject, contact_name, last_from or last_snippet.",
    }),
    priority: boolParam(
      "true: order by triage priority instead of `sort`, in one page of `limit` threads and no cursor.",
    ).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.priority !== true) return;
    for (const name of SORTED_ONLY) {
      if (q[name] !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: "cannot be combined with priority=true, which returns one page in triage order",
        });
      }
    }
  });

const route = operation({
  operationId: "listInboxThreads",
  method: "get",
  path: "/gallery/inbox/threads",
  tags: ["Inbox"],
  summary: "List your inbox threads",
  description:
    "The signed-in member's own threads, most recent activity first by default (`sort=last_message`); `sort=created` orders by when they started. Other members' threads are never listed. Filters combine: `state` (a snoozed thread whose snooze_until has passed is `open`), `channel`, `assigned_to`, `contact_id`, `unread` and `q` (1 to 200 characters, case-insensitive, within one of subject, contact_name, last_from or last_snippet).\n\n`priority=true` orders by triage instead: the highest `expects_reply` first, then `urgency` (now, today, this_week, later), then `intent_probability`, then the most recent activity; untriaged values come after triaged ones. It answers one page of `limit` threads with `next_cursor` null; `cursor`, `sort` or `dir` with it is a 400 naming the parameter. A secret key is refused with 403.",
  auth: { scopes: ["inbox:read"], credentials: ["session"], credentialsReason: MEMBER_PRIVATE },
  list: threadList,
  request: { query },
  responses: {
    200: {
      description: "A page of threads.",
      content: { "application/json": { schema: InboxThreadList } },
    },
  },
});

export function registerInboxThreadsList(app: Router): void {
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c);
    const { limit, cursor, sort, dir, priority, ...filters } = c.req.valid("query");
    if (priority === true) {
      const text = await listThreadsByPriority(ctx, filters, limit ?? DEFAULT_LIMIT);
      return sendJson<z.infer<typeof InboxThreadList>, 200>(c, text, 200);
    }
    return listPage<z.infer<typeof InboxThreadList>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listThreads(ctx, filters, page),
    );
  });
}
