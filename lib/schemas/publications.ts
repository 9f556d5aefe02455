import { z } from "@hono/zod-openapi";
import { describeRefFields } from "../openapi-references";
import { idString, MAX_SAFE } from "../params";
import { TimestampOut } from "../time";
import { currency } from "./artworks";
import { ImageContentType, STORAGE_PATH_SHAPE } from "./uploads";

/**
 * Publications: catalogues, articles, press releases and the like, with their works, an optional cover image
 * (uploaded through a one-time signed URL) and an optional price, kept in a gated sibling record.
 */

/**
 * `catalogue` (an exhibition or collection catalogue), `monograph` (a book on one artist), `article`, `essay`,
 * `interview`, `press_release`, `newsletter`.
 */
export const publicationKinds = [
  "catalogue",
  "monograph",
  "article",
  "essay",
  "interview",
  "press_release",
  "newsletter",
] as const;

/** `public` (may be listed anywhere), `unlisted` (reachable by its link only), `private` (the gallery's own). */
export const publicationVisibilities = ["public", "unlisted", "private"] as const;

/**
 * Who sees the price: `public` (every caller, read-only keys too), `members` (members of the gallery, whatever
 * their role, and keys holding a write scope), `private` (only callers with write access: editors and keys
 * holding a write scope).
 */
export const priceVisibilities = ["public", "members", "private"] as const;

/** The most works one publication lists. */
export const MAX_ARTWORKS_PER_PUBLICATION = 200;
/** The largest cover image an upload accepts (20 MiB). */
export const MAX_PUBLICATION_COVER_BYTES = 20 * 1024 * 1024;

/** A slug: lower-case letters and digits in words joined by single hyphens. */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_SLUG_LENGTH = 100;

/** What each publication field means, shared by the publication and its create and update bodies. */
const publicationTexts = {
  title: "The publication's title as printed or posted.",
  kind: "What it is: `catalogue` (an exhibition or collection catalogue), `monograph` (a book on one artist), `article`, `essay`, `interview`, `press_release` or `newsletter`.",
  body: "Its text; null when none is kept.",
  published: "Whether it is published; `published_at` is set exactly while it is.",
  visibility:
    "Where the gallery means it to be seen: `public` (may be listed anywhere), `unlisted` (reachable by its link only) or `private` (the gallery's own). The API's own reads return it whatever its visibility.",
  price:
    "The price, when the publication is sold (a gated record beside it: who sees the amount follows `price_visibility`); null when it is not.",
  price_cents: "The price in minor units (cents) of `currency`.",
  currency: "ISO 4217 code of `price_cents` (`USD`).",
  price_visibility:
    "Who sees `price_cents`: `public` (every caller, read-only keys too), `members` (members of the gallery, whatever their role, and keys holding a write scope) or `private` (editors and keys holding a write scope).",
};

export const PublicationPrice = z
  .object({
    price_cents: z.number().int().nullable().openapi({
      description:
        "Membership-gated: null for a caller `price_visibility` does not admit (a read-only key unless `public`; a viewer unless `public` or `members`).",
    }),
    currency: z.string().openapi({ description: publicationTexts.currency }),
    price_visibility: z.enum(priceVisibilities).openapi({ description: publicationTexts.price_visibility }),
  })
  .openapi("PublicationPrice", {
    description: "A publication's price: the gated record kept beside it, with who may see the amount.",
  });

export const Publication = z
  .object({
    id: z.string().openapi({ example: "pub_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    title: z.string().openapi({ description: publicationTexts.title }),
    slug: z.string().openapi({ description: "Unique in the gallery.", example: "tidewater-catalogue" }),
    kind: z.enum(publicationKinds).openapi({ description: publicationTexts.kind }),
    body: z.string().nullable().openapi({ description: publicationTexts.body }),
    cover_image_path: z.string().nullable().openapi({
      description: "The storage path of the cover image, set by PATCH after a signed upload.",
    }),
    cover_image_url: z.string().nullable().openapi({
      description: "Where the cover image is served (GET /v1/assets/…), publicly.",
    }),
    published: z.boolean().openapi({ description: publicationTexts.published }),
    published_at: TimestampOut.nullable().openapi({
      description: "When it was last published; null while unpublished.",
    }),
    visibility: z.enum(publicationVisibilities).openapi({ description: publicationTexts.visibility }),
    artwork_ids: z.array(z.string()).openapi({
      description: "The works it presents, in order; a work deleted since drops out.",
    }),
    price: PublicationPrice.nullable(),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("Publication");

// biome-ignore lint/suspicious/noControlCharactersInRegex: the range of control characters is what is refused.
const NO_CONTROL = /^[^\u0000-\u001f\u007f-\u009f]*$/;

export const PublicationPriceInput = z
  .strictObject({
    price_cents: z.number().int().min(0).max(MAX_SAFE).openapi({ description: publicationTexts.price_cents }),
    currency: currency.optional().openapi({
      description: "ISO 4217, upper case; the current price's, else the gallery's default currency.",
    }),
    price_visibility: z.enum(priceVisibilities).optional().openapi({
      description: "The current price's, else `private`.",
    }),
  })
  .openapi("PublicationPriceInput", {
    description:
      "A publication's price as a write gives it: the amount, and optionally its currency and visibility.",
  });
export type PublicationPriceInputValue = z.infer<typeof PublicationPriceInput>;

const publicationFields = {
  title: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .regex(NO_CONTROL, { message: "must not contain control characters" })
    .openapi({ description: publicationTexts.title }),
  slug: z
    .string()
    .max(MAX_SLUG_LENGTH)
    .regex(SLUG, { message: "must be lower-case letters and digits in words joined by single hyphens" })
    .openapi({
      description: `Unique in the gallery (a taken one is 409), at most ${MAX_SLUG_LENGTH} characters. On create, derived from the title when absent (with \`-2\`, \`-3\`… when taken).`,
    }),
  kind: z
    .enum(publicationKinds)
    .openapi({ description: `${publicationTexts.kind} \`catalogue\` by default.` }),
  body: z.string().max(200_000).nullable().openapi({ description: publicationTexts.body }),
  visibility: z
    .enum(publicationVisibilities)
    .openapi({ description: `${publicationTexts.visibility} \`private\` by default.` }),
  published: z.boolean().openapi({
    description:
      "true publishes it (sets published_at to now when it was unpublished); false unpublishes it (clears published_at).",
  }),
  artwork_ids: z
    .array(idString("art"))
    .max(MAX_ARTWORKS_PER_PUBLICATION)
    .refine((ids) => new Set(ids).size === ids.length, { message: "lists an artwork twice" })
    .openapi({
      description: `0 to ${MAX_ARTWORKS_PER_PUBLICATION} distinct works of this gallery, in order; on update, replaces the list.`,
    }),
  price: PublicationPriceInput.nullable(),
};

const priceWriteText =
  "The price, when the publication is sold: writes its gated pricing record in the same transaction; null removes it.";
describeRefFields("Publication", { price: publicationTexts.price });
describeRefFields("PublicationCreate", { price: priceWriteText });
describeRefFields("PublicationUpdate", { price: priceWriteText });

export const PublicationCreate = z
  .strictObject(publicationFields)
  .partial()
  .required({ title: true })
  .openapi("PublicationCreate");
export const PublicationUpdate = z
  .strictObject({
    ...publicationFields,
    cover_image_path: z
      .string()
      .max(300)
      .regex(STORAGE_PATH_SHAPE, { message: "is not a storage path minted by this API" })
      .nullable()
      .openapi({
        description:
          "The `storage_path` of a cover upload minted for this publication (POST …/cover-upload) whose PUT has completed (else 400 naming it); null removes the cover.",
      }),
  })
  .partial()
  .openapi("PublicationUpdate");
export type PublicationCreateInput = z.infer<typeof PublicationCreate>;
export type PublicationUpdateInput = z.infer<typeof PublicationUpdate>;

export const PublicationIdParams = z.strictObject({
  id: idString("pub").openapi({ param: { name: "id", in: "path" } }),
});

export const PublicationCoverUploadCreate = z
  .strictObject({
    content_type: ImageContentType,
    size_bytes: z
      .number()
      .int()
      .min(1)
      .max(MAX_PUBLICATION_COVER_BYTES)
      .optional()
      .openapi({
        description: `The file's size; the upload then accepts at most that many bytes. Default (and most): ${MAX_PUBLICATION_COVER_BYTES} bytes.`,
      }),
  })
  .openapi("PublicationCoverUploadCreate");
export type PublicationCoverUploadInput = z.infer<typeof PublicationCoverUploadCreate>;
