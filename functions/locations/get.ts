import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { Location, LocationIdParams } from "../../lib/schemas/catalogue";
import { getLocation } from "../../services/locations/read";

const route = operation({
  operationId: "getLocation",
  method: "get",
  path: "/gallery/locations/{id}",
  tags: ["Locations"],
  summary: "Retrieve a location",
  description: "The location's name, kind and address.",
  auth: { scopes: ["locations:read"] },
  pathIds: { id: "loc" },
  request: { params: LocationIdParams },
  responses: {
    200: { description: "The location.", content: { "application/json": { schema: Location } } },
  },
});

export function registerLocationsGet(app: Router): void {
  app.openapi(route, async (c) => {
    const text = await getLocation(serviceContext(c), c.req.valid("param").id);
    return sendJson<z.infer<typeof Location>, 200>(c, text, 200);
  });
}
