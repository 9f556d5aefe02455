import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { Tag, TagIdParams } from "../../lib/schemas/catalogue";
import { getTag } from "../../services/tags/read";

const route = operation({
  operationId: "getTag",
  method: "get",
  path: "/gallery/tags/{id}",
  tags: ["Tags"],
  summary: "Retrieve a tag",
  description: "The tag's name and scope.",
  auth: { scopes: ["tags:read"] },
  pathIds: { id: "tag" },
  request: { params: TagIdParams },
  responses: {
    200: { description: "The tag.", content: { "application/json": { schema: Tag } } },
  },
});

export function registerTagsGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getTag(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof Tag>, 200>(c, text, 200);
  });
}
