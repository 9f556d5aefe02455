import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { CustomStatus, CustomStatusIdParams, CustomStatusUpdate } from "../../lib/schemas/catalogue";
import { updateCustomStatus } from "../../services/custom-statuses/update";

const route = operation({
  operationId: "updateCustomStatus",
  method: "patch",
  path: "/gallery/custom-statuses/{id}",
  tags: ["Custom statuses"],
  summary: "Update a custom status",
  description:
    "Changes only the fields sent. Emits `custom_status.updated` with `previous_attributes`; a request that changes nothing emits nothing.",
  auth: { scopes: ["custom_statuses:update"] },
  idempotent: true,
  pathIds: { id: "cst" },
  exampleBody: { name: "Awaiting photography" },
  request: {
    params: CustomStatusIdParams,
    body: { required: true, content: { "application/json": { schema: CustomStatusUpdate } } },
  },
  responses: {
    200: {
      description: "The updated custom status.",
      content: { "application/json": { schema: CustomStatus } },
    },
  },
});

export function registerCustomStatusesUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await updateCustomStatus(serviceContext(c), id, c.req.valid("json")));
  });
}
