import { z } from "@hono/zod-openapi";
import { idString } from "../params";
import { TimestampOut } from "../time";
import { described } from "./describe";

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

/** What each artist field means, shared by the artist and its create and update bodies. */
const artistTexts = {
  name: "The artist's name as the catalogue and the works' credits show it.",
  birth_year: "The year of birth; negative for BCE. Null when not known.",
  death_year: "The year of death, not before `birth_year`; negative for BCE. Null when living or not known.",
  nationality: "The artist's nationality as labels show it (`French`); null when not given.",
  bio: "The gallery's biography of the artist; null when none is written.",
};

export const Artist = z
  .object(
    described(
      {
        id: z.string().openapi({ example: "artist_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
        name: z.string(),
        birth_year: z.number().int().nullable(),
        death_year: z.number().int().nullable(),
        nationality: z.string().nullable(),
        bio: z.string().nullable(),
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      artistTexts,
    ),
  )
  .openapi("Artist");

const artistFields = described(
  {
    name,
    birth_year: year.nullable(),
    death_year: year.nullable(),
    nationality: z.string().trim().max(100).nullable(),
    bio: z.string().max(20_000).nullable(),
  },
  artistTexts,
);

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

/** What each tag field means, shared by the tag and its create and update bodies. */
const tagTexts = {
  name: "The tag's label (`Works on paper`); unique within its scope, ignoring case.",
  scope:
    "What the tag labels: `artwork` (artworks' `tag_ids`), `contact` (contacts' `tag_ids`) or `show`. Set at creation; it cannot be changed.",
};

export const Tag = z
  .object(
    described(
      {
        id: z.string().openapi({ example: "tag_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
        name: z.string(),
        scope: z.enum(tagScopes),
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      tagTexts,
    ),
  )
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

/** What each custom status field means, shared by the status and its create and update bodies. */
const customStatusTexts = {
  name: "The status as the gallery names it (`Awaiting photography`), shown beside a work's availability.",
  color: `The colour the status is shown in: one of ${statusColors.join(", ")}, or a \`#rrggbb\` hex colour (in lower case).`,
  position: "Its place in pickers and lists of statuses, ascending from 0.",
};

export const CustomStatus = z
  .object(
    described(
      {
        id: z.string().openapi({ example: "cst_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
        name: z.string(),
        color: z.string(),
        position: z.number().int(),
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      customStatusTexts,
    ),
  )
  .openapi("CustomStatus");

const customStatusFields = {
  name: name.openapi({ description: customStatusTexts.name }),
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

/** What each location field means, shared by the location and its create and update bodies. */
const locationTexts = {
  name: "The place as the gallery names it (`Main gallery`, `Basel booth`).",
  kind: "What sort of place it is: `gallery` (the gallery's own rooms), `storage`, `framer`, `conservator`, `loan` (out on loan), `fair`, `exhibition`, `client` (at a client's), `transit` (on the move) or `other`.",
  address: "The postal address, as free text; null when not given.",
};

export const Location = z
  .object(
    described(
      {
        id: z.string().openapi({ example: "loc_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
        name: z.string(),
        kind: z.enum(locationKinds),
        address: z.string().nullable(),
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      locationTexts,
    ),
  )
  .openapi("Location");

const locationFields = described(
  {
    name,
    kind: z.enum(locationKinds),
    address: z.string().trim().max(1000).nullable(),
  },
  locationTexts,
);

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
