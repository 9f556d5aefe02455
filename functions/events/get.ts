import { z } from "@hono/zod-openapi";
import { httpDb } from "../../db/client";
import { findEvent } from "../../db/queries/events";
import type { Router } from "../../lib/http/app";
import { operation } from "../../lib/http/operation";
import { idString } from "../../lib/params";
import { ApiError } from "../../lib/problem";
import { DomainEvent } from "../../lib/schemas/events";

const route = operation({
  operationId: "getEvent",
  method: "get",
  path: "/gallery/events/{id}",
  tags: ["Events"],
  summary: "Retrieve an event",
  description:
    "One domain event by id. Every webhook delivery carries its event id in `webhook-id`, so a receiver that missed or doubts a delivery can reconcile here.",
  auth: { scopes: ["events:read"] },
  pathIds: { id: "evt" },
  request: { params: z.strictObject({ id: idString("evt").openapi({ param: { name: "id", in: "path" } }) }) },
  responses: {
    200: { description: "The event.", content: { "application/json": { schema: DomainEvent } } },
  },
});

export function registerEventsGet(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const event = await findEvent(httpDb(c.env), c.get("principal").galleryId, id);
    if (!event) throw new ApiError("not_found", `No event ${id} in this gallery.`);
    return c.json(event as z.infer<typeof DomainEvent>, 200);
  });
}
