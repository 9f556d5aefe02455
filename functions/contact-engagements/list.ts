import { z } from "@hono/zod-openapi";
import { engagementList } from "../../db/queries/engagements";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { ContactIdParams, engagementKinds } from "../../lib/schemas/contacts";
import { EngagementEvent } from "../../lib/schemas/engagements";
import { listEngagements } from "../../services/contact-engagements/read";

const EngagementEventList = listResponse(EngagementEvent, "EngagementEventList");

const route = operation({
  operationId: "listContactEngagements",
  method: "get",
  path: "/gallery/contacts/{id}/engagements",
  tags: ["Contacts"],
  summary: "List a contact's engagement events",
  description:
    "The contact's engagement events, newest first by `occurred_at` (then id); `kind` keeps one kind. A contact of another gallery is 404; a contact without events answers an empty page.",
  auth: { scopes: ["contacts:read"] },
  pathIds: { id: "con" },
  list: engagementList,
  request: {
    params: ContactIdParams,
    query: z.strictObject({
      ...paginationQuery(engagementList),
      kind: z.enum(engagementKinds).optional().openapi({ description: "Keeps the events of this kind." }),
    }),
  },
  responses: {
    200: {
      description: "A page of engagement events.",
      content: { "application/json": { schema: EngagementEventList } },
    },
  },
});

export function registerContactEngagementsList(app: Router): void {
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c);
    const { id } = c.req.valid("param");
    const { limit, cursor, sort, dir, ...filters } = c.req.valid("query");
    return listPage<z.infer<typeof EngagementEventList>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listEngagements(ctx, id, filters, page),
    );
  });
}
