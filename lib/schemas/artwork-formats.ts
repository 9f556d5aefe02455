import { z } from "@hono/zod-openapi";
import { idString, MAX_SAFE } from "../params";
import {
  ArtworkFormat,
  availabilityStates,
  currency,
  dimensionUnits,
  formatTexts,
  metadata,
} from "./artworks";
import { described } from "./describe";

/** A work holds at most this many formats, so its formats list is always one page. */
export const MAX_FORMATS_PER_ARTWORK = 100;

const cm = z.number().min(0).max(100_000).nullable();

/** Fields a caller may write, shared by create and update: the format's own texts, but for the write's price. */
const writableFields = {
  ...described(
    {
      label: z.string().trim().min(1).max(200),
      height_cm: cm,
      width_cm: cm,
      depth_cm: cm,
      dimension_unit: z.enum(dimensionUnits),
      medium: z.string().max(200).nullable(),
      edition_size: z.number().int().min(1).max(1_000_000).nullable(),
      stock_quantity: z.number().int().min(0).max(1_000_000_000),
      availability_state: z.enum(availabilityStates),
      price_cents: z.number().int().min(0).max(MAX_SAFE).nullable(),
      currency,
    },
    {
      ...formatTexts,
      price_cents:
        "The format's price in minor units (cents) of `currency`; null for a format without a price.",
    },
  ),
  position: z.number().int().min(0).max(1_000_000).openapi({
    description:
      "0-based place among the work's formats. The others shift to keep positions 0 to n-1; a position at or past the end puts the format last.",
  }),
  metadata,
};

export const ArtworkFormatCreate = z
  .strictObject(writableFields)
  .partial()
  .required({ label: true })
  .refine((v) => v.price_cents == null || v.currency !== undefined, {
    message: "is required with price_cents",
    path: ["currency"],
  })
  .openapi("ArtworkFormatCreate", {
    description:
      "Omitted fields take their defaults: stock_quantity 0, availability `available`, dimension_unit `in`, currency `USD` (required when price_cents is given), position after the last format.",
  });

export const ArtworkFormatUpdate = z.strictObject(writableFields).partial().openapi("ArtworkFormatUpdate");

export type ArtworkFormatCreateInput = z.infer<typeof ArtworkFormatCreate>;
export type ArtworkFormatUpdateInput = z.infer<typeof ArtworkFormatUpdate>;

/** The fields a format write changes: also the fields a published work's draft holds pending for a format. */
export const formatWritableFields = Object.keys(writableFields) as (keyof typeof writableFields)[];

export const ArtworkFormatParams = z.strictObject({
  id: idString("art").openapi({ param: { name: "id", in: "path" } }),
  formatId: idString("fmt").openapi({ param: { name: "formatId", in: "path" } }),
});

export const ArtworkFormatList = z
  .object({
    data: z.array(ArtworkFormat),
    next_cursor: z.null().openapi({
      description: "Always null: a work's formats (at most 100) come in one page.",
    }),
  })
  .openapi("ArtworkFormatList");
