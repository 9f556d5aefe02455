import { z } from "@hono/zod-openapi";
import { idString } from "../params";
import { CalendarDate, TimestampOut } from "../time";
import { described } from "./describe";

/**
 * How a lot ended, a complete set: `sold` (hammered down to a buyer), `sold_after_sale` (sold by private treaty
 * after failing under the hammer), `bought_in` (failed to reach its reserve and went back to the consignor; what
 * houses also call passed or unsold), `withdrawn` (taken out of the sale before it was offered) and `postponed`
 * (offered at a later sale).
 */
export const auctionResults = ["sold", "sold_after_sale", "bought_in", "withdrawn", "postponed"] as const;

/** Results of a lot that never came under the hammer, so it has no hammer price. */
const neverHammered: readonly string[] = ["withdrawn", "postponed"];

/** What each auction record field means, shared by the record and its create body. */
const auctionRecordTexts = {
  id: "The auction record's id (`auc_…`): prefixed and time-ordered; unique, never reused.",
  auction_house: "The house that held the sale (`Christie's New York`).",
  lot_number: "The work's lot number in that sale (`142A`); null when not known.",
  notes: "The gallery's remarks on the record (estimate, buyer's premium, source); null for none.",
  sale_date: "The day of the sale (YYYY-MM-DD).",
  hammer_price_cents:
    "The price the lot was knocked down at, before the buyer's premium, in minor units (cents) of `currency`; for `bought_in`, the last bid. Null when not given, and always null for `withdrawn` or `postponed`.",
  result:
    "How the lot ended: `sold` (hammered down to a buyer), `sold_after_sale` (sold by private treaty after failing under the hammer), `bought_in` (failed to reach its reserve), `withdrawn` (taken out before it was offered) or `postponed` (offered at a later sale).",
};

export const AuctionRecord = z
  .object(
    described(
      {
        id: z.string().openapi({ example: "auc_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
        artwork_id: z.string(),
        auction_house: z.string(),
        lot_number: z.string().nullable(),
        notes: z.string().nullable(),
        sale_date: z.string().openapi({ format: "date", example: "2024-02-29" }),
        hammer_price_cents: z.number().int().nullable(),
        currency: z
          .string()
          .nullable()
          .openapi({ description: "The hammer price's currency; null when neither was given." }),
        result: z.enum(auctionResults),
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      auctionRecordTexts,
    ),
  )
  .openapi("AuctionRecord");

export const AuctionRecordCreate = z
  .strictObject(
    described(
      {
        auction_house: z.string().trim().min(1).max(200),
        lot_number: z.string().trim().min(1).max(50).nullable().optional(),
        sale_date: CalendarDate,
        hammer_price_cents: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
        currency: z
          .string()
          .regex(/^[A-Z]{3}$/, { message: "must be an ISO 4217 code in upper case, e.g. USD" })
          .nullable()
          .optional()
          .openapi({ example: "USD", description: "Required with hammer_price_cents." }),
        result: z.enum(auctionResults),
        notes: z.string().max(5000).nullable().optional(),
      },
      {
        ...auctionRecordTexts,
        sale_date: "The day of the sale (YYYY-MM-DD, a real calendar date).",
        hammer_price_cents: `${auctionRecordTexts.hammer_price_cents} Requires \`currency\`.`,
      },
    ),
  )
  .superRefine((v, ctx) => {
    if (v.hammer_price_cents != null && v.currency == null) {
      ctx.addIssue({ code: "custom", path: ["currency"], message: "is required with hammer_price_cents" });
    }
    if (v.hammer_price_cents != null && neverHammered.includes(v.result)) {
      ctx.addIssue({
        code: "custom",
        path: ["hammer_price_cents"],
        message: `must be null for a lot that was ${v.result}`,
      });
    }
  })
  .openapi("AuctionRecordCreate");

export type AuctionRecordCreateInput = z.infer<typeof AuctionRecordCreate>;

export const AuctionRecordParams = z.strictObject({
  id: idString("art").openapi({ param: { name: "id", in: "path" } }),
  recordId: idString("auc").openapi({ param: { name: "recordId", in: "path" } }),
});
