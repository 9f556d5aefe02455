import { z } from "@hono/zod-openapi";
import { idString, MAX_SAFE } from "../params";
import { TimestampOut, UtcTimestamp } from "../time";
import { currency } from "./artworks";
import { described } from "./describe";

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

/** What each offer field means, shared by the offer and its create and update bodies. */
const offerTexts = {
  title: "The offer's title, as the gallery names it (`New paintings by Ines Marchetti`).",
  message: "The note that goes with the works; null for none.",
  currency: "The offer's currency, the default of its items' prices.",
} as const;

export const Offer = z
  .object(
    described(
      {
        id: z.string().openapi({ example: "offer_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
        title: z.string(),
        message: z.string().nullable(),
        status: z.enum(offerStatuses).openapi({
          description:
            "`draft` (being composed), `scheduled` (sent by the API at `scheduled_at`), `sent` (the gallery sent it: final) or `cancelled` (dropped before sending: final). Items and recipients change only in draft or scheduled.",
        }),
        scheduled_at: TimestampOut.nullable().openapi({
          description:
            "When a scheduled offer is to be sent; null for a draft. Kept once the offer is sent or cancelled.",
        }),
        sent_at: TimestampOut.nullable().openapi({
          description: "When the gallery sent it (status `sent`); null before.",
        }),
        currency: z.string(),
        item_count: z.number().int().openapi({ description: "How many works the offer holds." }),
        recipient_count: z.number().int().openapi({ description: "How many contacts the offer is for." }),
        created_by: z.string().nullable().openapi({
          description: "The member who created it (a session); null when made with a secret key.",
        }),
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      offerTexts,
    ),
  )
  .openapi("Offer");
export type OfferBody = z.infer<typeof Offer>;

const title = z.string().trim().min(1).max(200);
const message = z.string().max(10_000).nullable();

export const OfferCreate = z
  .strictObject(
    described(
      {
        title,
        message: message.optional(),
        currency: currency.optional().openapi({
          description:
            "The offer's currency, the default of its items' prices; the gallery's default currency when omitted.",
        }),
      },
      { title: offerTexts.title, message: offerTexts.message },
    ),
  )
  .openapi("OfferCreate");
export type OfferCreateInput = z.infer<typeof OfferCreate>;

export const OfferUpdate = z
  .strictObject({
    ...described({ title, message }, offerTexts),
    currency: currency.openapi({
      description:
        "The offer's currency, the default of the prices of items given later; the items it holds keep theirs.",
    }),
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

/** What an item's display fields mean, in the item and in the items a PATCH gives. */
const itemTexts = {
  caption_override: "Shown in place of the work's own caption; null shows the work's.",
  price_visible: "Whether recipients see the price.",
} as const;

/** The spec's Offer item. */
export const OfferItem = z
  .object({
    offer_id: z.string(),
    artwork_id: z.string(),
    caption_override: z.string().nullable().openapi({ description: itemTexts.caption_override }),
    position: z.number().int().openapi({ description: "0-based place in the offer." }),
    price_shown_cents: z.number().int().nullable().openapi({
      description:
        "The price this offer shows for the work, in minor units (cents) of `currency`; null for none.",
    }),
    currency: z.string().openapi({
      description: "The currency of `price_shown_cents`: the offer's currency unless the item named its own.",
    }),
    price_visible: z.boolean().openapi({ description: itemTexts.price_visible }),
    created_at: TimestampOut.openapi({ description: "When the work joined the offer." }),
  })
  .openapi("OfferItem");

export const OfferItemList = z.object({ data: z.array(OfferItem) }).openapi("OfferItemList");

const OfferItemInput = z.strictObject({
  artwork_id: idString("art").openapi({ description: "One of the gallery's works." }),
  caption_override: z
    .string()
    .max(2000)
    .nullable()
    .optional()
    .openapi({ description: `${itemTexts.caption_override} Null by default.` }),
  price_shown_cents: z.number().int().min(0).max(MAX_SAFE).nullable().optional().openapi({
    description:
      "The price shown for the work, in minor units (cents) of `currency`; null (the default) for none.",
  }),
  currency: currency.optional().openapi({ description: "The offer's currency by default." }),
  price_visible: z.boolean().optional().openapi({ default: true, description: itemTexts.price_visible }),
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

/** What a contact's name and email mean where an offer names the contact. */
const recipientTexts = {
  name: "The contact's name, as it is now.",
  email: "The contact's email, as it is now; null when they have none.",
} as const;

/** One contact an offer is for. */
export const OfferRecipient = z
  .object({
    offer_id: z.string(),
    contact_id: z.string(),
    name: z.string().openapi({ description: recipientTexts.name }),
    email: z.string().nullable().openapi({ description: recipientTexts.email }),
    status: z.enum(offerRecipientStatuses).openapi({
      description:
        "`pending` until the offer is sent, then `sent`. `opened`, `replied` and `bounced` are for delivery tracking: the API itself sets only `pending` and `sent`.",
    }),
    added_at: TimestampOut.openapi({
      description: "When the contact was added to the offer (UTC, milliseconds).",
    }),
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
  .object({
    offer: Offer.openapi({ description: "The offer after the change." }),
    artwork_ids: z.array(z.string()),
  })
  .openapi("OfferItemsChange");

/** `data.object` of the recipient events: the offer after the change and the contacts it concerned. */
export const OfferRecipientsChange = z
  .object({
    offer: Offer.openapi({ description: "The offer after the change." }),
    contact_ids: z.array(z.string()),
  })
  .openapi("OfferRecipientsChange");

/** The effect of deleting an offer, as a dry run reports it. */
export const OfferDeleteEffect = z
  .object({
    offer: z
      .object({
        id: z.string().openapi({ description: "The offer's id (`offer_…`)." }),
        title: z.string().openapi({ description: "The offer's title." }),
        status: z
          .enum(offerStatuses)
          .openapi({ description: "The offer's status: an offer in any status can be deleted." }),
      })
      .openapi({ description: "The offer that would be deleted." }),
    items: z.number().int().openapi({ description: "Items that would go with it." }),
    recipients: z.number().int().openapi({ description: "Recipients that would go with it." }),
  })
  .openapi("OfferDeleteEffect");

/** The spec's Recommended recipient. */
export const RecommendedRecipient = z
  .object({
    contact_id: z.string(),
    name: z.string().openapi({ description: recipientTexts.name }),
    email: z.string().nullable().openapi({ description: recipientTexts.email }),
    top_reason: z.string().nullable().openapi({
      description: "The label of the strongest evidence of the contact's best match; null when it has none.",
    }),
    probability: z.number().openapi({ description: "The contact's best match on one of the offer's works." }),
    artworks: z
      .array(
        z.object({
          artwork_id: z.string(),
          title: z.string().openapi({ description: "The work's title." }),
          probability: z.number().openapi({
            description:
              "The contact's match on this work: the calibrated chance, 0 to 1, that they want it.",
          }),
        }),
      )
      .openapi({ description: "The offer's works matched above the floor, best first." }),
  })
  .openapi("RecommendedRecipient");

export const RecommendedRecipientList = z
  .object({ data: z.array(RecommendedRecipient) })
  .openapi("RecommendedRecipientList");
