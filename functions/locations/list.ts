import { z } from "@hono/zod-openapi";
import { byCreatedOrName } from "../../db/queries/catalogue";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { Location } from "../../lib/schemas/catalogue";
import { listLocations } from "../../services/locations/read";

const LocationList = listResponse(Location, "LocationList");

const route = operation({
  operationId: "listLocations",
  method: "get",
  path: "/gallery/locations",
  tags: ["Locations"],
  summary: "List locations",
  description:
    "The gallery's locations, newest first by default; `sort=name` orders by name (`dir=asc` for A to Z).",
  auth: { scopes: ["locations:read"] },
  list: byCreatedOrName,
  request: {
    query: z.strictObject({
      ...paginationQuery(byCreatedOrName),
    }),
  },
  responses: {
    200: {
      description: "A page of locations.",
      content: { "application/json": { schema: LocationList } },
    },
  },
});

export function registerLocationsList(app: Router): void {
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof LocationList>>(c, route, c.req.valid("query"), (page) =>
      listLocations(ctx, page),
    );
  });
}
