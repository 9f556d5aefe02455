import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DeleteResult } from "../../lib/schemas/artworks";
import { CustomStatusIdParams } from "../../lib/schemas/catalogue";
import { deleteCustomStatus } from "../../services/custom-statuses/delete";

const route = operation({
  operationId: "deleteCustomStatus",
  method: "delete",
  path: "/gallery/custom-statuses/{id}",
  tags: ["Custom statuses"],
  summary: "Delete a custom status",
  description:
    "Deletes a custom status no work carries. While any work has it as `custom_status_id`, as published or in a pending draft, the answer is 409 `conflict` with `details.artwork_count`: give those works another status first. Emits `custom_status.deleted` whose `data.object` is the status's last state.",
  auth: { scopes: ["custom_statuses:delete"] },
  idempotent: true,
  pathIds: { id: "cst" },
  request: { params: CustomStatusIdParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerCustomStatusesDelete(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await deleteCustomStatus(serviceContext(c), c.req.valid("param").id)),
  );
}
