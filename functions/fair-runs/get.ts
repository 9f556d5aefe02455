import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { FairRun, FairRunIdParams } from "../../lib/schemas/fair-runs";
import { getFairRun } from "../../services/fair-runs/read";

const route = operation({
  operationId: "getFairRun",
  method: "get",
  path: "/gallery/fair-runs/{id}",
  tags: ["Fair runs"],
  summary: "Retrieve a fair-submission run",
  description:
    "The run with its status, step count, error and whole action log (oldest first; a gated action shows whether it is approved). Any member of the gallery may read any run.",
  auth: { scopes: ["artworks:read"] },
  pathIds: { id: "fair" },
  request: { params: FairRunIdParams },
  responses: {
    200: { description: "The fair run.", content: { "application/json": { schema: FairRun } } },
  },
});

export function registerFairRunsGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getFairRun(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof FairRun>, 200>(c, text, 200);
  });
}
