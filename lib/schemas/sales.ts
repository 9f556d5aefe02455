import { z } from "@hono/zod-openapi";
import { idString, MAX_SAFE } from "../params";
import { TimestampOut, UtcTimestamp } from "../time";
import { currency, metadata } from "./artworks";

/**
 * Sales: a contact acquired works. Completed sales make the contact's spend (`total_spend_cents`,
 * `works_acquired`, `avg_acquisition_cents`, `price_band`), counted by `base_amount_cents` (the amount in the
 * gallery's default currency) and `works_count`; a trigger keeps those on the contact in the sale's own
 * transaction.
 */

/**
 * `pending` (agreed, not yet settled), `completed` (settled: counts towards the buyer's spend), `cancelled` (fell
 * through before settling), `refunded` (settled, then reversed). Only `completed` counts; any status may follow
 * any other.
 */
export const saleStatuses = ["pending", "completed", "cancelled", "refunded"] as const;

const cents = z.number().int().min(0).max(MAX_SAFE);

export const Sale = z
  .object({
    id: z.string().openapi({ example: "sale_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    contact_id: z.string().nullable().openapi({
      description: "The buyer, a contact of this gallery; null only after that contact was deleted.",
    }),
    artwork_ids: z.array(z.string()).openapi({
      description: "The works sold, in the order given; a work deleted since drops out (works_count stays).",
    }),
    works_count: z.number().int().openapi({ description: "How many works the sale transferred." }),
    amount_cents: z
      .number()
      .int()
      .openapi({ description: "The price, in minor units (cents) of `currency`." }),
    currency: z.string().openapi({
      description: "The ISO 4217 code of amount_cents: as given, else the gallery's default currency.",
    }),
    base_amount_cents: z.number().int().openapi({
      description:
        "The amount in the gallery's default currency (`base_currency`), which spend figures add up.",
    }),
    base_currency: z.string().openapi({ description: "The gallery's default currency." }),
    sold_at: TimestampOut.openapi({
      description: "When the sale was made (UTC): as given, else when it was recorded.",
    }),
    status: z.enum(saleStatuses).openapi({
      description:
        "`pending` (agreed, not yet settled), `completed` (settled: counts towards the buyer's spend), `cancelled` (fell through before settling) or `refunded` (settled, then reversed). Only `completed` counts; any status may follow any other.",
    }),
    metadata: z.record(z.string(), z.string()).openapi({
      description:
        "The gallery's own key-value strings, stored and returned as given; the API never reads them.",
    }),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("Sale");

const artworkIds = z
  .array(idString("art"))
  .min(1)
  .max(50)
  .refine((ids) => new Set(ids).size === ids.length, { message: "lists an artwork twice" })
  .openapi({ description: "1 to 50 distinct artworks of this gallery, in order; replaces the set." });

const saleFields = {
  contact_id: idString("con").openapi({ description: "The buyer: a contact of this gallery." }),
  artwork_ids: artworkIds,
  amount_cents: cents.openapi({ description: "The price, in `currency`." }),
  currency: currency.openapi({
    description: "ISO 4217, upper case; the gallery's default currency by default.",
  }),
  base_amount_cents: cents.openapi({
    description:
      "The amount in the gallery's default currency. Required when `currency` is another currency (on update: whenever amount_cents or currency changes); when `currency` is the default it must equal amount_cents, and may be left out.",
  }),
  sold_at: UtcTimestamp.openapi({
    description: "When the sale was made (UTC, ends in Z); now by default.",
  }),
  status: z.enum(saleStatuses).openapi({ description: "`completed` by default." }),
  metadata,
};

export const SaleCreate = z
  .strictObject(saleFields)
  .partial()
  .required({ contact_id: true, artwork_ids: true, amount_cents: true })
  .openapi("SaleCreate");
export const SaleUpdate = z.strictObject(saleFields).partial().openapi("SaleUpdate");
export type SaleCreateInput = z.infer<typeof SaleCreate>;
export type SaleUpdateInput = z.infer<typeof SaleUpdate>;

export const SaleIdParams = z.strictObject({
  id: idString("sale").openapi({ param: { name: "id", in: "path" } }),
});
