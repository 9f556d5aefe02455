import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { CustomStatus, CustomStatusCreate } from "../../lib/schemas/catalogue";
import { createCustomStatus } from "../../services/custom-statuses/create";

const route = operation({
  operationId: "createCustomStatus",
  method: "post",
  path: "/gallery/custom-statuses",
  tags: ["Custom statuses"],
  summary: "Create a custom status",
  description:
    "Creates a workflow label works carry in `custom_status_id`. `color` is a named colour (slate, gray, red, orange, amber, yellow, lime, green, emerald, teal, cyan, sky, blue, indigo, violet, purple, fuchsia, pink, rose; default slate) or a `#rrggbb` hex colour; `position` defaults to one after the gallery's last status. Emits `custom_status.created`.",
  auth: { scopes: ["custom_statuses:create"] },
  idempotent: true,
  exampleBody: { name: "Needs photography", color: "amber" },
  request: {
    body: { required: true, content: { "application/json": { schema: CustomStatusCreate } } },
  },
  responses: {
    201: {
      description: "The created custom status.",
      content: { "application/json": { schema: CustomStatus } },
    },
  },
});

export function registerCustomStatusesCreate(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await createCustomStatus(serviceContext(c), c.req.valid("json"))),
  );
}
