import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { Publication, PublicationIdParams } from "../../lib/schemas/publications";
import { getPublication } from "../../services/publications/read";

const route = operation({
  operationId: "getPublication",
  method: "get",
  path: "/gallery/publications/{id}",
  tags: ["Publications"],
  summary: "Retrieve a publication",
  description:
    "The publication with its works, cover and price. `price.price_cents` is membership-gated: a read-only key sees it only when `price_visibility` is `public`, a read-only member (viewer) when it is `public` or `members`; other callers always see it.",
  auth: { scopes: ["publications:read"] },
  pathIds: { id: "pub" },
  gatedPrices: ["price.price_cents"],
  request: { params: PublicationIdParams },
  responses: {
    200: { description: "The publication.", content: { "application/json": { schema: Publication } } },
  },
});

export function registerPublicationsGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getPublication(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof Publication>, 200>(c, text, 200);
  });
}
