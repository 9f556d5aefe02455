import { z } from "@hono/zod-openapi";
import { interactionList } from "../../db/queries/interactions";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import { ContactIdParams, interactionTypes } from "../../lib/schemas/contacts";
import { Interaction } from "../../lib/schemas/interactions";
import { listInteractions } from "../../services/contact-interactions/read";

const InteractionList = listResponse(Interaction, "InteractionList");

const route = operation({
  operationId: "listContactInteractions",
  method: "get",
  path: "/gallery/contacts/{id}/interactions",
  tags: ["Contacts"],
  summary: "List a contact's interactions",
  description:
    "The contact's interactions, newest first by `occurred_at` (then id); `type` keeps one kind. A contact of another gallery is 404; a contact without interactions answers an empty page.",
  auth: { scopes: ["contacts:read"] },
  pathIds: { id: "con" },
  list: interactionList,
  request: {
    params: ContactIdParams,
    query: z.strictObject({
      ...paginationQuery(interactionList),
      type: z
        .enum(interactionTypes)
        .optional()
        .openapi({ description: "Keeps the interactions of this type." }),
    }),
  },
  responses: {
    200: {
      description: "A page of interactions.",
      content: { "application/json": { schema: InteractionList } },
    },
  },
});

export function registerContactInteractionsList(app: Router): void {
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c);
    const { id } = c.req.valid("param");
    const { limit, cursor, sort, dir, ...filters } = c.req.valid("query");
    return listPage<z.infer<typeof InteractionList>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listInteractions(ctx, id, filters, page),
    );
  });
}
