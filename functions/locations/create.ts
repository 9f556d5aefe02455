import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Location, LocationCreate } from "../../lib/schemas/catalogue";
import { createLocation } from "../../services/locations/create";

const route = operation({
  operationId: "createLocation",
  method: "post",
  path: "/gallery/locations",
  tags: ["Locations"],
  summary: "Create a location",
  description:
    "Creates a place works can be (`location_id`): `kind` is one of gallery, storage, framer, conservator, loan, fair, exhibition, client, transit, other (default storage). Emits `location.created`.",
  auth: { scopes: ["locations:create"] },
  idempotent: true,
  exampleBody: { name: "Red Hook Storage, Bay 4", kind: "storage" },
  request: {
    body: { required: true, content: { "application/json": { schema: LocationCreate } } },
  },
  responses: {
    201: { description: "The created location.", content: { "application/json": { schema: Location } } },
  },
});

export function registerLocationsCreate(app: Router): void {
  app.openapi(route, async (c) => respond(c, await createLocation(serviceContext(c), c.req.valid("json"))));
}
