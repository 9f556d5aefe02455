import { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { idString } from "../../lib/params";
import { EVENT_RETENTION_DAYS } from "../../lib/retention";
import { DomainEvent } from "../../lib/schemas/events";
import { getEvent } from "../../services/events/read";
import { eventReadScopes } from "./read-scopes";

const route = operation({
  operationId: "getEvent",
  method: "get",
  path: "/gallery/events/{id}",
  tags: ["Events"],
  summary: "Retrieve an event",
  description: `One domain event by id. Every webhook delivery carries its event id in \`webhook-id\`, so a receiver that missed or doubts a delivery can reconcile here: an event is retrievable by id for ${EVENT_RETENTION_DAYS} days after it was recorded (and while a webhook delivery of it is still pending, until that delivery settles); then it is purged, with its deliveries and their attempts, and answers 404. Only events the caller could read the object of are shown: each type's \`read_scopes\` (GET /v1/event-types) besides \`events:read\`. Gated values (format prices, publication prices) are shown as the resource's own read shows them, in \`data.object\` and in \`data.previous_attributes\`. An event of a type the caller may not read is 404, like another gallery's.`,
  auth: { scopes: ["events:read"] },
  gatedPrices: ["data.object.formats[].price_cents", "data.object.price.price_cents"],
  pathIds: { id: "evt" },
  request: { params: z.strictObject({ id: idString("evt").openapi({ param: { name: "id", in: "path" } }) }) },
  responses: {
    200: { description: "The event.", content: { "application/json": { schema: DomainEvent } } },
  },
});

export function registerEventsGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getEvent(serviceContext(c), c.req.valid("param").id, eventReadScopes());
    return sendJson<z.infer<typeof DomainEvent>, 200>(c, text, 200);
  });
}
