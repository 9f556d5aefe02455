import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ContactIdParams } from "../../lib/schemas/contacts";
import { EngagementEvent, EngagementEventCreate } from "../../lib/schemas/engagements";
import { recordEngagement } from "../../services/contact-engagements/record";

const route = operation({
  operationId: "createContactEngagement",
  method: "post",
  path: "/gallery/contacts/{id}/engagements",
  tags: ["Contacts"],
  summary: "Record a contact's engagement event",
  description:
    "Records a behavioural signal of one of the seventeen `kind`s the contact filter `engaged_event` names, when it happened (`occurred_at`, now by default, at most 5 minutes ahead of the server clock) and optionally the artwork and viewing room involved (each must be this gallery's, else 400 naming the field). The contact's `last_engaged_at` and its standing under `engaged_event`/`engaged_since` follow in the same transaction. The public viewing-room surface records visitors' events through the same code. Emits `engagement_event.recorded`.",
  auth: { scopes: ["contacts:create"] },
  idempotent: true,
  pathIds: { id: "con" },
  exampleBody: { kind: "room_opened" },
  request: {
    params: ContactIdParams,
    body: { required: true, content: { "application/json": { schema: EngagementEventCreate } } },
  },
  responses: {
    201: {
      description: "The recorded engagement event.",
      content: { "application/json": { schema: EngagementEvent } },
    },
  },
});

export function registerContactEngagementsCreate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await recordEngagement(serviceContext(c), id, c.req.valid("json")));
  });
}
