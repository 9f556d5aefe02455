import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Location, LocationIdParams, LocationUpdate } from "../../lib/schemas/catalogue";
import { updateLocation } from "../../services/locations/update";

const route = operation({
  operationId: "updateLocation",
  method: "patch",
  path: "/gallery/locations/{id}",
  tags: ["Locations"],
  summary: "Update a location",
  description:
    "Changes only the fields sent; `address: null` clears it. Emits `location.updated` with `previous_attributes`; a request that changes nothing emits nothing.",
  auth: { scopes: ["locations:update"] },
  idempotent: true,
  pathIds: { id: "loc" },
  exampleBody: { address: "220 Ferris Street, Brooklyn, NY 11231" },
  request: {
    params: LocationIdParams,
    body: { required: true, content: { "application/json": { schema: LocationUpdate } } },
  },
  responses: {
    200: { description: "The updated location.", content: { "application/json": { schema: Location } } },
  },
});

export function registerLocationsUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await updateLocation(serviceContext(c), id, c.req.valid("json")));
  });
}
