import { z } from "@hono/zod-openapi";
import { idString } from "../params";
import { TimestampOut } from "../time";

/**
 * The catalogue's reference data: artists, tags, custom statuses and locations. Artworks point at them
 * (`artists[].artist_id`, `tag_ids`, `custom_status_id`, `location_id`) and the artworks list filters by them.
 */

/** Which resource family a tag labels; set at creation. */
export const tagScopes = ["artwork", "contact", "show"] as const;

/** Where a work can be: the gallery's own rooms and stores, the trades that hold works for a while, elsewhere. */
export const locationKinds = [
  "gallery",
  "storage",
  "framer",
  "conservator",
  "loan",
  "fair",
  "exhibition",
  "client",
  "transit",
  "other",
] as const;

/** The named colours a custom status can take, beside any `#rrggbb` hex colour. */
export const statusColors = [
  "slate",
  "gray",
  "red",
  "orange",
  "amber",
  "yellow",
  "lime",
  "green",
  "emerald",
  "teal",
  "cyan",
  "sky",
  "blue",
  "indigo",
  "violet",
  "purple",
  "fuchsia",
  "pink",
  "rose",
] as const;

const STATUS_COLOR = new RegExp(`^(${statusColors.join("|")}|#[0-9a-fA-F]{6})$`);

/**
 * Control characters are refused: a name is a label to show, and under `sort=name` it travels in the cursor,
 * which stays under the 1024-character `cursor` limit only while each character takes at most 3 bytes.
 */
const name = z
  .string()
  .trim()
  .min(1)
  .max(200)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range of control characters is what is refused.
  .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, { message: "must not contain control characters" });
const year = z.number().int().min(-100_000).max(10_000);

export const Artist = z
  .object({
    id: z.string().openapi({ example: "artist_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    name: z
      .string()
      .openapi({ description: "The artist's name as the catalogue and the works' credits show it." }),
    birth_year: z.number().int().nullable().openapi({ description: "The year of birth; negative for BCE." }),
    death_year: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The year of death, not before `birth_year`; null when living or not known." }),
    nationality: z
      .string()
      .nullable()
      .openapi({ description: "The artist's nationality as labels show it." }),
    bio: z.string().nullable().openapi({ description: "The gallery's biography of the artist." }),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("Artist");

const artistFields = {
  name,
  birth_year: year.nullable().openapi({ description: "Negative for BCE." }),
  death_year: year.nullable().openapi({ description: "Not before birth_year; negative for BCE." }),
  nationality: z.string().trim().max(100).nullable(),
  bio: z.string().max(20_000).nullable(),
};

const withLifespan = <T extends z.ZodType<{ birth_year?: number | null; death_year?: number | null }>>(
  schema: T,
) =>
  schema.refine((v) => v.birth_year == null || v.death_year == null || v.death_year >= v.birth_year, {
    message: "must not be before birth_year",
    path: ["death_year"],
  });

export const ArtistCreate = withLifespan(
  z.strictObject(artistFields).partial().required({ name: true }),
).openapi("ArtistCreate");
export const ArtistUpdate = withLifespan(z.strictObject(artistFields).partial()).openapi("ArtistUpdate");
export type ArtistCreateInput = z.infer<typeof ArtistCreate>;
export type ArtistUpdateInput = z.infer<typeof ArtistUpdate>;

export const Tag = z
  .object({
    id: z.string().openapi({ example: "tag_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    name: z.string(),
    scope: z.enum(tagScopes),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("Tag");

export const TagCreate = z
  .strictObject({
    name: name.openapi({ description: "Unique within the scope, ignoring case." }),
    scope: z.enum(tagScopes).optional().openapi({
      default: "artwork",
      description: "What the tag labels: artworks, contacts or shows. Cannot be changed later.",
    }),
  })
  .openapi("TagCreate");
export const TagUpdate = z
  .strictObject({ name: name.openapi({ description: "Unique within the scope, ignoring case." }) })
  .partial()
  .openapi("TagUpdate");
export type TagCreateInput = z.infer<typeof TagCreate>;
export type TagUpdateInput = z.infer<typeof TagUpdate>;

export const CustomStatus = z
  .object({
    id: z.string().openapi({ example: "cst_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    name: z.string(),
    color: z.string(),
    position: z.number().int(),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("CustomStatus");

const customStatusFields = {
  name,
  color: z
    .string()
    .regex(STATUS_COLOR, {
      message: `must be one of ${statusColors.join(", ")} or a #rrggbb hex colour`,
    })
    .toLowerCase()
    .openapi({
      description: `One of ${statusColors.join(", ")}, or a \`#rrggbb\` hex colour (stored in lower case).`,
      example: "amber",
    }),
  position: z.number().int().min(0).max(1_000_000).openapi({ description: "Order in pickers, ascending." }),
};

export const CustomStatusCreate = z
  .strictObject(customStatusFields)
  .partial()
  .required({ name: true })
  .openapi("CustomStatusCreate", {
    description: "`color` defaults to `slate`; `position` to one after the gallery's last status.",
  });
export const CustomStatusUpdate = z.strictObject(customStatusFields).partial().openapi("CustomStatusUpdate");
export type CustomStatusCreateInput = z.infer<typeof CustomStatusCreate>;
export type CustomStatusUpdateInput = z.infer<typeof CustomStatusUpdate>;

export const Location = z
  .object({
    id: z.string().openapi({ example: "loc_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    name: z.string(),
    kind: z.enum(locationKinds),
    address: z.string().nullable(),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("Location");

const locationFields = {
  name,
  kind: z.enum(locationKinds),
  address: z.string().trim().max(1000).nullable(),
};

export const LocationCreate = z
  .strictObject(locationFields)
  .partial()
  .required({ name: true })
  .openapi("LocationCreate", { description: "`kind` defaults to `storage`." });
export const LocationUpdate = z.strictObject(locationFields).partial().openapi("LocationUpdate");
export type LocationCreateInput = z.infer<typeof LocationCreate>;
export type LocationUpdateInput = z.infer<typeof LocationUpdate>;

const pathId = (prefix: string) =>
  z.strictObject({ id: idString(prefix).openapi({ param: { name: "id", in: "path" } }) });

export const ArtistIdParams = pathId("artist");
export const TagIdParams = pathId("tag");
export const CustomStatusIdParams = pathId("cst");
export const LocationIdParams = pathId("loc");
