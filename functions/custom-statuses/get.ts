import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { CustomStatus, CustomStatusIdParams } from "../../lib/schemas/catalogue";
import { getCustomStatus } from "../../services/custom-statuses/read";

const route = operation({
  operationId: "getCustomStatus",
  method: "get",
  path: "/gallery/custom-statuses/{id}",
  tags: ["Custom statuses"],
  summary: "Retrieve a custom status",
  description: "The status's name, colour and position.",
  auth: { scopes: ["custom_statuses:read"] },
  pathIds: { id: "cst" },
  request: { params: CustomStatusIdParams },
  responses: {
    200: { description: "The custom status.", content: { "application/json": { schema: CustomStatus } } },
  },
});

export function registerCustomStatusesGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getCustomStatus(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof CustomStatus>, 200>(c, text, 200);
  });
}
