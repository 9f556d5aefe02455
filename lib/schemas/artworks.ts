import { z } from "@hono/zod-openapi";
import { idString } from "../params";
import { TimestampOut } from "../time";
import { described } from "./describe";

/** The complete value sets this API uses where the spec shows one representative value. */
export const availabilityStates = [
  "available",
  "on_hold",
  "reserved",
  "sold",
  "not_for_sale",
  "on_loan",
] as const;
export const ownershipStatuses = ["owned", "consigned", "co_owned", "artist_property"] as const;
export const conditionStatuses = ["excellent", "very_good", "good", "fair", "poor"] as const;
export const markets = ["primary", "secondary"] as const;
export const datePrecisions = ["exact", "month", "year", "circa", "decade", "century"] as const;
export const dimensionUnits = ["in", "cm"] as const;
export const editionTypes = ["numbered", "open", "artist_proof", "printers_proof", "hors_commerce"] as const;
export const coaStatuses = ["not_required", "pending", "issued", "received"] as const;
export const saveStates = ["new", "draft", "published"] as const;
export const readinessValues = ["ready", "thin", "empty"] as const;
export const artistRoles = ["primary", "collaborator", "after", "attributed", "studio"] as const;
/**
 * What an edition may show through from its parent work: each field here that the edition's `edition_overrides`
 * does not name reads the parent's value (`artists` stands for the credits and the primary artist_id/artist_name).
 */
export const inheritableFields = [
  "title",
  "artists",
  "medium",
  "year",
  "end_year",
  "date_precision",
  "date_display",
  "description",
  "dimension_unit",
  "height_cm",
  "width_cm",
  "depth_cm",
  "dimensions_text",
  "edition_size",
  "edition_type",
  "literature",
  "catalogue_raisonne",
] as const;
export type InheritableField = (typeof inheritableFields)[number];

export const currency = z
  .string()
  .regex(/^[A-Z]{3}$/, { message: "must be an ISO 4217 code in upper case, e.g. USD" })
  .openapi({ example: "USD" });
/** `map of string to string`: at most 50 keys of 1 to 40 characters, each value at most 500 characters. */
export const metadata = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .refine((m) => Object.keys(m).length <= 50, { message: "holds at most 50 keys" })
  .openapi({
    description:
      "String keys (1 to 40 characters) to string values (at most 500 characters); at most 50 keys.",
  });
/** What each artwork field means, shared by the artwork, its create and update bodies and its formats. */
const artworkTexts = {
  title: "The work's title as the gallery shows it (`Untitled (Blue)`).",
  artist_id:
    "The primary artist's id (`artist_…`): the first credit with role `primary`; null when none is credited.",
  artist_name: "The primary artist's name, as the catalogue has it now.",
  thumbnail_url:
    "The picture shown for the work: its first image (position 0); null until an image is attached.",
  inventory_number: "The gallery's own stock number for the work.",
  artists: "The credited artists in order, each with a role; the first `primary` one is `artist_id`.",
  dimensions: "Measured components (overall, frame, plinth, …) with their sizes in centimetres.",
  ownership_status:
    "Who owns the work: the gallery (`owned`), a consignor (`consigned`), shared (`co_owned`) or the artist.",
  availability_state:
    "Whether the work can be sold now: `available`, held for a buyer (`on_hold`, `reserved`), `sold`, `not_for_sale` or `on_loan`.",
  medium: "Materials and technique (`Oil on canvas`).",
  year: "The year the work was made (its first year when it spans several).",
  end_year: "The last year of a work made over several years; never before `year`.",
  date_precision:
    "How exactly `year` is known: an exact date, a month, a year, circa, a decade or a century.",
  date_display: "The date as a label shows it (`c. 1962`, `1960s`); null shows `year`.",
  description: "The gallery's text about the work.",
  dimension_unit:
    "The unit sizes are shown in (`in` or `cm`); they are always stored and sent in centimetres.",
  height_cm: "Height of the work unframed, in centimetres.",
  width_cm: "Width of the work unframed, in centimetres.",
  depth_cm: "Depth of the work unframed, in centimetres.",
  framed_height_cm: "Height with its frame, in centimetres.",
  framed_width_cm: "Width with its frame, in centimetres.",
  framed_depth_cm: "Depth with its frame, in centimetres.",
  dimensions_text: "The size as a label shows it (`120 × 90 cm`).",
  location_id: "Where the work is (`loc_…`: a storage, the gallery, a fair, a lender).",
  price_cents:
    "The asking price in cents of `currency`; null when unpriced. Membership-gated for read-only keys unless `show_price_publicly`.",
  currency: "ISO 4217 code of `price_cents` (`USD`).",
  is_edition: "Whether the work is one of an edition (a print, a cast, a photograph).",
  edition_number: "This copy's number within the edition (3 of 10); never more than `edition_size`.",
  edition_size: "How many copies the edition has.",
  edition_type: "What kind of copy: numbered, open, artist's proof, printer's proof or hors commerce.",
  edition_overrides: `For an edition with a parent: the inheritable fields (${inheritableFields.map((f) => `\`${f}\``).join(", ")}) it keeps its own value for; every other one shows the parent's value.`,
  parent_artwork_id:
    "The edition's parent work (`art_…`), whose values it shows through unless it overrides them.",
  coa_status: "The certificate of authenticity: not required, pending, issued or received.",
  coa_tracking_number: "The certificate's number or its shipment's tracking number.",
  condition_status: "The work's condition grade, from `excellent` to `poor`; null when not assessed.",
  condition_notes: "What a condition report says (a judged disclosure reads it: `?disclosure=true`).",
  provenance: "The work's ownership history.",
  exhibition_history: "Where the work has been shown.",
  literature: "Where the work has been published or written about.",
  catalogue_raisonne: "The work's number in the artist's catalogue raisonné.",
  market: "`primary` (first sale, from the artist) or `secondary` (resale).",
  custom_status_id: "The gallery's own status for the work (`cst_…`), beside `availability_state`.",
  show_price_publicly:
    "Whether the price is shown to everyone (read-only keys, the public surface), not only to members.",
  published_at: "When the live version was last published; null for a work never published.",
  published_version: "The live version's number (1, 2, …); null for a work never published.",
  save_state: "`new` (never published), `draft` (a working copy is pending) or `published`.",
  source_system: "The system a work was imported from (`spreadsheet`), with `source_external_id`.",
  source_external_id: "The work's id in `source_system`: an import upserts by the pair.",
  formats: "The sellable formats of the work (sizes, media, prices), by position.",
  metadata:
    "Your own string keys (1 to 40 characters) and values (at most 500), at most 50 keys: stored and returned as given, never read by the API.",
  tag_ids: "The work's artwork tags (`tag_…`); replaces the list on update.",
} as const;

const cm = z.number().min(0).max(100_000);
const year = z.number().int().min(-100_000).max(10_000);
const text = (max: number) => z.string().max(max);

export const ArtworkArtist = z.object(
  described(
    {
      artist_id: z.string(),
      role: z.enum(artistRoles),
      position: z.number().int(),
      artist_name: z.string(),
    },
    {
      artist_id: "The credited artist (`artist_…`).",
      role: "How the artist is credited: `primary`, `collaborator`, `after`, `attributed` or `studio`.",
      position: "The credit's place in the list, from 0.",
      artist_name: "The artist's name as the catalogue has it now.",
    },
  ),
);

/** What an artist credit of a write means: who is credited, and how. */
const creditWriteTexts = {
  role: "How the artist is credited: `primary` (the default; at most one per work), `collaborator`, `after`, `attributed` or `studio`.",
};

const dimensionTexts = {
  component: "What is measured: `overall`, a frame, a plinth, a panel of a diptych, …",
  label: "How the measurement is labelled (`Framed`).",
  height_cm: "Height in centimetres.",
  width_cm: "Width in centimetres.",
  depth_cm: "Depth in centimetres.",
  position: "The measurement's place in the list, from 0.",
  note: "A remark about the measurement.",
};

export const ArtworkDimension = z.object(
  described(
    {
      component: z.string(),
      label: z.string().nullable(),
      height_cm: z.number().nullable(),
      width_cm: z.number().nullable(),
      depth_cm: z.number().nullable(),
      position: z.number().int(),
      note: z.string().nullable(),
    },
    dimensionTexts,
  ),
);

/** What a measured component of a write means; positions follow the list's order. */
const dimensionWriteTexts = {
  ...dimensionTexts,
  component: "What is measured: `overall` (the default), a frame, a plinth, a panel of a diptych, …",
  label: "How the measurement is labelled (`Framed`); null by default.",
  note: "A remark about the measurement; null by default.",
};

/** What each format field means, shared by the format and its create and update bodies. */
export const formatTexts = {
  id: "The format's id (`fmt_…`): prefixed and time-ordered; unique, never reused.",
  label: "The format's name (`Large, framed`).",
  height_cm: "Height of this format in centimetres.",
  width_cm: "Width of this format in centimetres.",
  depth_cm: "Depth of this format in centimetres.",
  dimension_unit: "The unit its sizes are shown in (`in` or `cm`); sent in centimetres.",
  medium: "This format's materials (`Archival pigment print`).",
  edition_size: "How many copies of this format the edition has.",
  stock_quantity: "Copies of this format in stock.",
  availability_state: "Whether this format can be sold now.",
  price_cents:
    "Its price in cents of `currency`. Membership-gated: null for read-only keys unless the work is public-priced.",
  currency: "ISO 4217 code of `price_cents`.",
  position: "Its place among the work's formats, from 0.",
  metadata: artworkTexts.metadata,
};

export const ArtworkFormat = z
  .object(
    described(
      {
        id: z.string(),
        artwork_id: z.string(),
        label: z.string(),
        height_cm: z.number().nullable(),
        width_cm: z.number().nullable(),
        depth_cm: z.number().nullable(),
        dimension_unit: z.enum(dimensionUnits),
        medium: z.string().nullable(),
        edition_size: z.number().int().nullable(),
        stock_quantity: z.number().int(),
        availability_state: z.enum(availabilityStates),
        price_cents: z.number().int().nullable(),
        currency: z.string(),
        position: z.number().int(),
        metadata: z.record(z.string(), z.string()),
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      formatTexts,
    ),
  )
  .openapi("ArtworkFormat");

export const Artwork = z
  .object(
    described(
      {
        id: z.string().openapi({ example: "art_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
        title: z.string(),
        artist_id: z.string().nullable(),
        artist_name: z.string().nullable(),
        thumbnail_url: z.string().nullable(),
        inventory_number: z.string().nullable(),
        artists: z.array(ArtworkArtist),
        dimensions: z.array(ArtworkDimension),
        ownership_status: z.enum(ownershipStatuses),
        availability_state: z.enum(availabilityStates),
        medium: z.string().nullable(),
        year: z.number().int().nullable(),
        end_year: z.number().int().nullable(),
        date_precision: z.enum(datePrecisions),
        date_display: z.string().nullable(),
        description: z.string().nullable(),
        dimension_unit: z.enum(dimensionUnits),
        height_cm: z.number().nullable(),
        width_cm: z.number().nullable(),
        depth_cm: z.number().nullable(),
        framed_height_cm: z.number().nullable(),
        framed_width_cm: z.number().nullable(),
        framed_depth_cm: z.number().nullable(),
        dimensions_text: z.string().nullable(),
        location_id: z.string().nullable(),
        price_cents: z.number().int().nullable(),
        currency: z.string(),
        is_edition: z.boolean(),
        edition_number: z.number().int().nullable(),
        edition_size: z.number().int().nullable(),
        edition_type: z.enum(editionTypes).nullable(),
        edition_overrides: z.array(z.string()),
        parent_artwork_id: z.string().nullable(),
        coa_status: z.enum(coaStatuses),
        coa_tracking_number: z.string().nullable(),
        condition_status: z.enum(conditionStatuses).nullable(),
        condition_notes: z.string().nullable(),
        provenance: z.string().nullable(),
        exhibition_history: z.string().nullable(),
        literature: z.string().nullable(),
        catalogue_raisonne: z.string().nullable(),
        market: z.enum(markets),
        custom_status_id: z.string().nullable(),
        show_price_publicly: z.boolean(),
        published_at: TimestampOut.nullable(),
        published_version: z.number().int().nullable(),
        save_state: z.enum(saveStates),
        source_system: z.string().nullable(),
        source_external_id: z.string().nullable(),
        formats: z.array(ArtworkFormat),
        metadata: z.record(z.string(), z.string()),
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      artworkTexts,
    ),
  )
  .openapi("Artwork");

/** Fields a caller may write, shared by create and update. */
const writableFields = described(
  {
    title: z.string().trim().min(1).max(500),
    inventory_number: text(100).nullable(),
    ownership_status: z.enum(ownershipStatuses),
    availability_state: z.enum(availabilityStates),
    medium: text(200).nullable(),
    year: year.nullable(),
    end_year: year.nullable(),
    date_precision: z.enum(datePrecisions),
    date_display: text(200).nullable(),
    description: text(20_000).nullable(),
    dimension_unit: z.enum(dimensionUnits),
    height_cm: cm.nullable(),
    width_cm: cm.nullable(),
    depth_cm: cm.nullable(),
    framed_height_cm: cm.nullable(),
    framed_width_cm: cm.nullable(),
    framed_depth_cm: cm.nullable(),
    dimensions_text: text(500).nullable(),
    location_id: idString("loc").nullable(),
    price_cents: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
    currency,
    is_edition: z.boolean(),
    edition_number: z.number().int().min(1).max(1_000_000).nullable(),
    edition_size: z.number().int().min(1).max(1_000_000).nullable(),
    edition_type: z.enum(editionTypes).nullable(),
    edition_overrides: z
      .array(z.enum(inheritableFields))
      .max(inheritableFields.length)
      .refine((list) => new Set(list).size === list.length, { message: "lists a field twice" }),
    parent_artwork_id: idString("art").nullable(),
    coa_status: z.enum(coaStatuses),
    coa_tracking_number: text(200).nullable(),
    condition_status: z.enum(conditionStatuses).nullable(),
    condition_notes: text(20_000).nullable(),
    provenance: text(20_000).nullable(),
    exhibition_history: text(20_000).nullable(),
    literature: text(20_000).nullable(),
    catalogue_raisonne: text(500).nullable(),
    market: z.enum(markets),
    custom_status_id: idString("cst").nullable(),
    show_price_publicly: z.boolean(),
    metadata,
    /** Credited artists in order; the first `primary` one becomes artist_id/artist_name. */
    artists: z
      .array(
        z.strictObject(
          described(
            { artist_id: idString("artist"), role: z.enum(artistRoles).default("primary") },
            creditWriteTexts,
          ),
        ),
      )
      .max(20)
      .refine((list) => new Set(list.map((a) => `${a.artist_id}:${a.role}`)).size === list.length, {
        message: "lists the same artist and role twice",
      })
      .refine((list) => list.filter((a) => a.role === "primary").length <= 1, {
        message: "credits at most one primary artist",
      }),
    dimensions: z
      .array(
        z.strictObject(
          described(
            {
              component: text(100).default("overall"),
              label: text(200).nullable().default(null),
              height_cm: cm.nullable().default(null),
              width_cm: cm.nullable().default(null),
              depth_cm: cm.nullable().default(null),
              note: text(500).nullable().default(null),
            },
            dimensionWriteTexts,
          ),
        ),
      )
      .max(20),
    tag_ids: z
      .array(idString("tag"))
      .max(50)
      .refine((ids) => new Set(ids).size === ids.length, { message: "lists a tag twice" }),
  },
  {
    ...artworkTexts,
    edition_overrides:
      "For an edition with a parent: the fields it keeps its own value for. Every other inheritable field reads the parent's value. Writing an inheritable field of such an edition adds it here, unless the same request sends `edition_overrides`.",
  },
);

interface Ranged {
  year?: number | null;
  end_year?: number | null;
  edition_number?: number | null;
  edition_size?: number | null;
}

/**
 * The rules between fields of one request. The same rules hold between a request and the stored work (an update
 * that sends only `end_year`): services/artworks/rules.ts checks that merged state.
 */
const withRanges = <T extends z.ZodType<Ranged>>(schema: T) =>
  schema
    .refine((v) => v.year == null || v.end_year == null || v.end_year >= v.year, {
      message: "must not be before year",
      path: ["end_year"],
    })
    .refine((v) => v.edition_number == null || v.edition_size == null || v.edition_number <= v.edition_size, {
      message: "must not be greater than edition_size",
      path: ["edition_number"],
    });

export const ArtworkCreate = withRanges(
  z
    .strictObject({
      ...writableFields,
      ...described(
        { source_system: text(100).nullable(), source_external_id: text(200).nullable() },
        artworkTexts,
      ),
    })
    .partial()
    .required({ title: true })
    .refine((v) => v.price_cents == null || v.currency !== undefined, {
      message: "is required with price_cents",
      path: ["currency"],
    }),
).openapi("ArtworkCreate");

export const ArtworkUpdate = withRanges(z.strictObject(writableFields).partial()).openapi("ArtworkUpdate");

export type ArtworkCreateInput = z.infer<typeof ArtworkCreate>;
export type ArtworkUpdateInput = z.infer<typeof ArtworkUpdate>;

export const ArtworkIdParams = z.strictObject({
  id: idString("art").openapi({ param: { name: "id", in: "path" } }),
});

export const DeleteResult = z
  .object(
    described(
      { id: z.string(), deleted: z.literal(true) },
      {
        id: "The id of the resource that was deleted.",
        deleted: "Always true: the resource is gone, and reading it now answers 404.",
      },
    ),
  )
  .openapi("DeleteResult");
