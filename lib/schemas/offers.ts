import { z } from "@hono/zod-openapi";
import { idString, MAX_SAFE } from "../params";
import { TimestampOut, UtcTimestamp } from "../time";
import { currency } from "./artworks";

/**
 * Offers: a curated selection of the gallery's works (items) composed for some of its contacts (recipients).
 * The API does not email anyone: `sent` records that the gallery sent the offer, by whatever means it uses.
 */

/**
 * The complete status set. `draft` (being composed), `scheduled` (to be sent at `scheduled_at`), `sent` (the
 * gallery sent it: final), `cancelled` (dropped before sending: final). Moves: draft → scheduled (needs a future
 * `scheduled_at`), scheduled → draft (unschedule: `scheduled_at` cleared), draft or scheduled → sent (`sent_at`
 * set) or → cancelled. Items and recipients change only in draft or scheduled.
 */
export const offerStatuses = ["draft", "scheduled", "sent", "cancelled"] as const;
export type OfferStatus = (typeof offerStatuses)[number];

/** The statuses in which an offer is still being composed: items, recipients and fields can change. */
export const openOfferStatuses: readonly OfferStatus[] = ["draft", "scheduled"];

/** How a recipient stands: `pending` until the offer is sent, then `sent` (the others are for delivery tracking). */
export const offerRecipientStatuses = ["pending", "sent", "opened", "replied", "bounced"] as const;

export const MAX_OFFER_ITEMS = 100;
/** Recipients added in one request. */
export const MAX_RECIPIENTS_ADDED = 100;
/** The visible floor of a match: recommended recipients have a match on one of the offer's works at least this. */
export const RECOMMENDATION_FLOOR = 0.6;
export const MAX_RECOMMENDED = 50;

export const Offer = z
  .object({
    id: z.string().openapi({ example: "offer_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    title: z.string(),
    message: z.string().nullable().openapi({ description: "The note that goes with the works." }),
    status: z.enum(offerStatuses),
    scheduled_at: TimestampOut.nullable().openapi({
      description:
        "When a scheduled offer is to be sent; null for a draft. Kept once the offer is sent or cancelled.",
    }),
    sent_at: TimestampOut.nullable().openapi({
      description: "When the gallery sent it (status `sent`); null before.",
    }),
    currency: z.string().openapi({ description: "The offer's currency, the default of its items' prices." }),
    item_count: z.number().int(),
    recipient_count: z.number().int(),
    created_by: z.string().nullable().openapi({
      description: "The member who created it (a session); null when made with a secret key.",
    }),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("Offer");
export type OfferBody = z.infer<typeof Offer>;

const title = z.string().trim().min(1).max(200);
const message = z.string().max(10_000).nullable();

export const OfferCreate = z
  .strictObject({
    title,
    message: message.optional(),
    currency: currency.optional().openapi({ description: "The gallery's default currency by default." }),
  })
  .openapi("OfferCreate");
export type OfferCreateInput = z.infer<typeof OfferCreate>;

export const OfferUpdate = z
  .strictObject({
    title,
    message,
    currency,
    status: z.enum(offerStatuses).openapi({
      description:
        "`scheduled` (from draft, or again to move the time) needs `scheduled_at` in the future; `draft` unschedules; `sent` records that the gallery sent it now; `cancelled` drops it. Sent and cancelled offers are final.",
    }),
    scheduled_at: UtcTimestamp.openapi({
      description:
        "When to send it (UTC, ends in Z; in the future). Only for an offer that is or becomes `scheduled`.",
    }),
  })
  .partial()
  .openapi("OfferUpdate");
export type OfferUpdateInput = z.infer<typeof OfferUpdate>;

export const OfferIdParams = z.strictObject({
  id: idString("offer").openapi({ param: { name: "id", in: "path" } }),
});

export const OfferRecipientParams = z.strictObject({
  id: idString("offer").openapi({ param: { name: "id", in: "path" } }),
  contactId: idString("con").openapi({ param: { name: "contactId", in: "path" } }),
});

/** The spec's Offer item. */
export const OfferItem = z
  .object({
    offer_id: z.string(),
    artwork_id: z.string(),
    caption_override: z.string().nullable().openapi({
      description: "Shown in place of the work's own caption; null to show the work's.",
    }),
    position: z.number().int().openapi({ description: "0-based place in the offer." }),
    price_shown_cents: z.number().int().nullable().openapi({
      description: "The price this offer shows for the work, in `currency`; null for none.",
    }),
    currency: z.string(),
    price_visible: z.boolean().openapi({ description: "Whether recipients see the price." }),
    created_at: TimestampOut.openapi({ description: "When the work joined the offer." }),
  })
  .openapi("OfferItem");

export const OfferItemList = z.object({ data: z.array(OfferItem) }).openapi("OfferItemList");

const OfferItemInput = z.strictObject({
  artwork_id: idString("art").openapi({ description: "One of the gallery's works." }),
  caption_override: z.string().max(2000).nullable().optional(),
  price_shown_cents: z.number().int().min(0).max(MAX_SAFE).nullable().optional().openapi({
    description: "The price shown for the work; null (the default) for none.",
  }),
  currency: currency.optional().openapi({ description: "The offer's currency by default." }),
  price_visible: z.boolean().optional().openapi({ default: true }),
});

export const OfferItemsReplace = z
  .strictObject({
    items: z
      .array(OfferItemInput)
      .max(MAX_OFFER_ITEMS)
      .superRefine((items, ctx) => {
        const seen = new Set<string>();
        items.forEach((item, i) => {
          if (seen.has(item.artwork_id)) {
            ctx.addIssue({ code: "custom", path: [i, "artwork_id"], message: "lists an artwork twice" });
          }
          seen.add(item.artwork_id);
        });
      })
      .openapi({
        description: `0 to ${MAX_OFFER_ITEMS} distinct works of the gallery, in order: the position of each is its index. Replaces the whole set.`,
      }),
  })
  .openapi("OfferItemsReplace");
export type OfferItemsReplaceInput = z.infer<typeof OfferItemsReplace>;

/** One contact an offer is for. */
export const OfferRecipient = z
  .object({
    offer_id: z.string(),
    contact_id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    status: z.enum(offerRecipientStatuses),
    added_at: TimestampOut,
  })
  .openapi("OfferRecipient");

export const OfferRecipientsAdd = z
  .strictObject({
    contact_ids: z
      .array(idString("con"))
      .min(1)
      .max(MAX_RECIPIENTS_ADDED)
      .refine((ids) => new Set(ids).size === ids.length, { message: "lists a contact twice" })
      .openapi({
        description: `1 to ${MAX_RECIPIENTS_ADDED} of the gallery's contacts; those already recipients stay as they are.`,
      }),
  })
  .openapi("OfferRecipientsAdd");
export type OfferRecipientsAddInput = z.infer<typeof OfferRecipientsAdd>;

/** `data.object` of `offer.items_replaced`: the offer after the change and its works in order (no prices). */
export const OfferItemsChange = z
  .object({ offer: Offer, artwork_ids: z.array(z.string()) })
  .openapi("OfferItemsChange");

/** `data.object` of the recipient events: the offer after the change and the contacts it concerned. */
export const OfferRecipientsChange = z
  .object({ offer: Offer, contact_ids: z.array(z.string()) })
  .openapi("OfferRecipientsChange");

/** The effect of deleting an offer, as a dry run reports it. */
export const OfferDeleteEffect = z
  .object({
    offer: z.object({ id: z.string(), title: z.string(), status: z.enum(offerStatuses) }),
    items: z.number().int().openapi({ description: "Items that would go with it." }),
    recipients: z.number().int().openapi({ description: "Recipients that would go with it." }),
  })
  .openapi("OfferDeleteEffect");

/** The spec's Recommended recipient. */
export const RecommendedRecipient = z
  .object({
    contact_id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    top_reason: z.string().nullable().openapi({
      description: "The label of the strongest evidence of the contact's best match; null when it has none.",
    }),
    probability: z.number().openapi({ description: "The contact's best match on one of the offer's works." }),
    artworks: z
      .array(z.object({ artwork_id: z.string(), title: z.string(), probability: z.number() }))
      .openapi({ description: "The offer's works matched above the floor, best first." }),
  })
  .openapi("RecommendedRecipient");

export const RecommendedRecipientList = z
  .object({ data: z.array(RecommendedRecipient) })
  .openapi("RecommendedRecipientList");
