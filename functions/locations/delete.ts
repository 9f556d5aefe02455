import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DeleteResult } from "../../lib/schemas/artworks";
import { LocationIdParams } from "../../lib/schemas/catalogue";
import { deleteLocation } from "../../services/locations/delete";

const route = operation({
  operationId: "deleteLocation",
  method: "delete",
  path: "/gallery/locations/{id}",
  tags: ["Locations"],
  summary: "Delete a location",
  description:
    "Deletes a location no work is at. While any work has it as `location_id`, as published or in a pending draft, the answer is 409 `conflict` with `details.artwork_count`: move those works first. Emits `location.deleted` whose `data.object` is the location's last state.",
  auth: { scopes: ["locations:delete"] },
  idempotent: true,
  pathIds: { id: "loc" },
  request: { params: LocationIdParams },
  responses: {
    200: { description: "The delete result.", content: { "application/json": { schema: DeleteResult } } },
  },
});

export function registerLocationsDelete(app: Router): void {
  app.openapi(route, async (c) =>
    respond(c, await deleteLocation(serviceContext(c), c.req.valid("param").id)),
  );
}
