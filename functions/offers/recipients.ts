import { z } from "@hono/zod-openapi";
import { offerRecipientList } from "../../db/queries/offers";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import {
  MAX_RECIPIENTS_ADDED,
  Offer,
  OfferIdParams,
  OfferRecipient,
  OfferRecipientParams,
  OfferRecipientsAdd,
} from "../../lib/schemas/offers";
import { listOfferRecipients } from "../../services/offers/read";
import { addOfferRecipients, removeOfferRecipient } from "../../services/offers/recipients";

const OfferRecipientPage = listResponse(OfferRecipient, "OfferRecipientList");

const list = operation({
  operationId: "listOfferRecipients",
  method: "get",
  path: "/gallery/offers/{id}/recipients",
  tags: ["Offers"],
  summary: "List an offer's recipients",
  description:
    "The contacts the offer is for, with their name, email and `status` (`pending` until the offer is sent), newest added first by default. Needs `contacts:read` beside `offers:read`: the list shows contacts' names and emails.",
  auth: { scopes: ["offers:read", "contacts:read"] },
  list: offerRecipientList,
  pathIds: { id: "offer" },
  request: { params: OfferIdParams, query: z.strictObject(paginationQuery(offerRecipientList)) },
  responses: {
    200: {
      description: "A page of recipients.",
      content: { "application/json": { schema: OfferRecipientPage } },
    },
  },
});

const add = operation({
  operationId: "addOfferRecipients",
  method: "post",
  path: "/gallery/offers/{id}/recipients",
  tags: ["Offers"],
  summary: "Add recipients to an offer",
  description: `Adds 1 to ${MAX_RECIPIENTS_ADDED} of the gallery's contacts to a \`draft\` or \`scheduled\` offer as \`pending\` recipients; an id that is not one of them is 400 naming \`contact_ids.<index>\`, and contacts already on the offer stay as they are. On a sent or cancelled offer it is 409 \`conflict\` with \`details.status\`. Any contact of the gallery can be added (recommended recipients leave out archived and do-not-email contacts; an explicit choice is the gallery's). Emits \`offer.recipients_added\` with the contacts that joined (nothing when none did). Answers the offer.`,
  auth: { scopes: ["offers:update"] },
  idempotent: true,
  pathIds: { id: "offer" },
  exampleBody: { contact_ids: ["con_01jd4xk9v2c7h8m3n5p6q7r8s9"] },
  request: {
    params: OfferIdParams,
    body: { required: true, content: { "application/json": { schema: OfferRecipientsAdd } } },
  },
  responses: {
    200: { description: "The offer after the change.", content: { "application/json": { schema: Offer } } },
  },
});

const remove = operation({
  operationId: "removeOfferRecipient",
  method: "delete",
  path: "/gallery/offers/{id}/recipients/{contactId}",
  tags: ["Offers"],
  summary: "Take a recipient off an offer",
  description:
    "Removes the contact from a `draft` or `scheduled` offer's recipients; the contact itself is unchanged. A contact of the gallery that is not a recipient leaves the offer as it is (200, no event); a contact of another gallery is 404. On a sent or cancelled offer it is 409 `conflict` with `details.status`. Emits `offer.recipient_removed`. Answers the offer.",
  auth: { scopes: ["offers:update"] },
  idempotent: true,
  pathIds: { id: "offer", contactId: "con" },
  request: { params: OfferRecipientParams },
  responses: {
    200: { description: "The offer after the change.", content: { "application/json": { schema: Offer } } },
  },
});

export function registerOfferRecipients(app: Router): void {
  app.openapi(list, async (c) => {
    const { id } = c.req.valid("param");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof OfferRecipientPage>>(c, list, c.req.valid("query"), (page) =>
      listOfferRecipients(ctx, id, page),
    );
  });
  app.openapi(add, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await addOfferRecipients(serviceContext(c), id, c.req.valid("json")));
  });
  app.openapi(remove, async (c) => {
    const { id, contactId } = c.req.valid("param");
    return respond(c, await removeOfferRecipient(serviceContext(c), id, contactId));
  });
}
