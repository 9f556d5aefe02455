import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { Offer, OfferIdParams, OfferUpdate } from "../../lib/schemas/offers";
import { updateOffer } from "../../services/offers/update";

const route = operation({
  operationId: "updateOffer",
  method: "patch",
  path: "/gallery/offers/{id}",
  tags: ["Offers"],
  summary: "Update an offer",
  description:
    'Changes the title, message, currency or status. The moves: `draft` → `scheduled` needs `scheduled_at` in the future (400 naming it when missing or past; giving a new `scheduled_at` to a scheduled offer reschedules it, under the same rule); `scheduled` → `draft` unschedules and clears `scheduled_at`; `draft` or `scheduled` → `sent` records that the gallery sent the offer now (`sent_at`; pending recipients become `sent`; the API emails no one); `draft` or `scheduled` → `cancelled`. A scheduled offer is sent by the platform once its `scheduled_at` has come (within a minute of it), exactly as this PATCH with `status: "sent"` would send it, events included; one rescheduled, unscheduled or cancelled before then is not. `scheduled_at` is refused (400) for an offer that is not or does not become scheduled. Sent and cancelled offers are final: any change is 409 `conflict` with `details.status`. Emits `offer.updated` with `previous_attributes`, then `offer.scheduled`, `offer.sent` or `offer.cancelled` when the status moved there; a request that changes nothing emits nothing.',
  auth: { scopes: ["offers:update"] },
  idempotent: true,
  pathIds: { id: "offer" },
  exampleBody: { title: "Spring selection" },
  request: {
    params: OfferIdParams,
    body: { required: true, content: { "application/json": { schema: OfferUpdate } } },
  },
  responses: {
    200: { description: "The updated offer.", content: { "application/json": { schema: Offer } } },
  },
});

export function registerOffersUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await updateOffer(serviceContext(c), id, c.req.valid("json")));
  });
}
