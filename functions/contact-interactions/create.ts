import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ContactIdParams } from "../../lib/schemas/contacts";
import { Interaction, InteractionCreate } from "../../lib/schemas/interactions";
import { createInteraction } from "../../services/contact-interactions/create";

const route = operation({
  operationId: "createContactInteraction",
  method: "post",
  path: "/gallery/contacts/{id}/interactions",
  tags: ["Contacts"],
  summary: "Record an interaction with a contact",
  description:
    "Adds a note, call, email, meeting, visit, … to the contact's history (`type`, `note` by default; `direction` inbound or outbound). `occurred_at` defaults to now and may not be more than 5 minutes ahead of the server clock. The contact's `last_interaction_at` and `last_interaction_type` follow in the same transaction when it is the newest. With `artwork_id` (an artwork of this gallery, else 400 naming it) the work's activity timeline gains an `interaction` entry whose `ref_id` is the interaction. `member_id` is the member of a session, null for an API key. Archived contacts take interactions too. Emits `interaction.created`.",
  auth: { scopes: ["contacts:create"] },
  idempotent: true,
  pathIds: { id: "con" },
  exampleBody: { type: "call", direction: "outbound", summary: "Discussed the spring show" },
  request: {
    params: ContactIdParams,
    body: { required: true, content: { "application/json": { schema: InteractionCreate } } },
  },
  responses: {
    201: {
      description: "The recorded interaction.",
      content: { "application/json": { schema: Interaction } },
    },
  },
});

export function registerContactInteractionsCreate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await createInteraction(serviceContext(c), id, c.req.valid("json")));
  });
}
