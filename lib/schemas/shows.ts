import { z } from "@hono/zod-openapi";
import { idString } from "../params";
import { CalendarDate, TimestampOut } from "../time";
import { statusColors } from "./catalogue";
import { described } from "./describe";

/**
 * Shows (exhibitions): a title, dates, a venue and the works on view, with tags of their own (GET/POST
 * /gallery/shows/{showId}/tags). A show's tags live in `show_tags`, apart from the catalogue's tags.
 */

/**
 * `planned` (announced or being prepared), `open` (on view), `closed` (ended), `cancelled` (will not take
 * place). Any status may follow any other: the gallery says where a show stands, the dates do not move it.
 */
export const showStatuses = ["planned", "open", "closed", "cancelled"] as const;

/** The colours a show tag takes: the named palette of custom statuses, without hex values. */
export const showTagColors = statusColors;

/**
 * What aspect of the show a tag describes: the works' `medium` or `material`, the `technique`, the `subject` or
 * `theme`, the `style`, `movement` or `period`, the `region`, or the show's `format` (solo, group, fair booth).
 */
export const showTagFacets = [
  "medium",
  "material",
  "technique",
  "subject",
  "theme",
  "style",
  "movement",
  "period",
  "region",
  "format",
] as const;

const showTagFacetText =
  "What aspect of the show the tag describes: the works' `medium` or `material`, the `technique`, the `subject` or `theme`, the `style`, `movement` or `period`, the `region`, or the show's `format` (solo, group, fair booth).";

/** `manual`: a person added it; `ai_suggested`: the engine suggested it (recorded through a key). */
export const showTagOrigins = ["manual", "ai_suggested"] as const;

/** The most tags one show holds: its tag list is one response. */
export const MAX_TAGS_PER_SHOW = 200;
/** The most works one show lists. */
export const MAX_ARTWORKS_PER_SHOW = 200;

const DateOut = z.string().openapi({ format: "date", example: "2025-03-06" });

/** What each show field means, shared by the show and its create and update bodies. */
const showTexts = {
  title: "The show's title as the gallery announces it.",
  description: "The gallery's text about the show; null when none is written.",
  status:
    "Where the show stands: `planned` (announced or being prepared), `open` (on view), `closed` (ended) or `cancelled` (will not take place). Set by the gallery: the dates do not move it.",
  venue: "Where the show takes place (`Main gallery`, `Art Basel, booth C12`); null when not given.",
};

export const Show = z
  .object({
    id: z.string().openapi({ example: "show_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    title: z.string().openapi({ description: showTexts.title }),
    description: z.string().nullable().openapi({ description: showTexts.description }),
    starts_on: DateOut.nullable().openapi({ description: "The opening day (YYYY-MM-DD), when known." }),
    ends_on: DateOut.nullable().openapi({ description: "The last day (YYYY-MM-DD); on or after starts_on." }),
    status: z.enum(showStatuses).openapi({ description: showTexts.status }),
    venue: z.string().nullable().openapi({ description: showTexts.venue }),
    artwork_ids: z.array(z.string()).openapi({
      description: "The works on view, in the gallery's order; a work deleted since drops out.",
    }),
    tag_count: z.number().int().openapi({
      description: "How many tags the show has (GET /gallery/shows/{id}/tags lists them).",
    }),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("Show");

// biome-ignore lint/suspicious/noControlCharactersInRegex: the range of control characters is what is refused.
const NO_CONTROL = /^[^\u0000-\u001f\u007f-\u009f]*$/;
const label = (max: number) =>
  z.string().trim().min(1).max(max).regex(NO_CONTROL, { message: "must not contain control characters" });

const artworkIds = z
  .array(idString("art"))
  .max(MAX_ARTWORKS_PER_SHOW)
  .refine((ids) => new Set(ids).size === ids.length, { message: "lists an artwork twice" })
  .openapi({
    description: `0 to ${MAX_ARTWORKS_PER_SHOW} distinct works of this gallery, in order; on update, replaces the list.`,
  });

const day = CalendarDate.nullable();

const showFields = {
  ...described({ title: label(300), description: z.string().max(20_000).nullable() }, showTexts),
  starts_on: day.openapi({ description: "YYYY-MM-DD, a real calendar date." }),
  ends_on: day.openapi({
    description: "YYYY-MM-DD, on or after starts_on (else 400 naming ends_on).",
  }),
  status: z.enum(showStatuses).openapi({ description: `${showTexts.status} \`planned\` by default.` }),
  venue: label(300).nullable().openapi({ description: showTexts.venue }),
  artwork_ids: artworkIds,
};

export const ShowCreate = z
  .strictObject(showFields)
  .partial()
  .required({ title: true })
  .openapi("ShowCreate");
export const ShowUpdate = z.strictObject(showFields).partial().openapi("ShowUpdate");
export type ShowCreateInput = z.infer<typeof ShowCreate>;
export type ShowUpdateInput = z.infer<typeof ShowUpdate>;

export const ShowIdParams = z.strictObject({
  id: idString("show").openapi({ param: { name: "id", in: "path" } }),
});

export const ShowTag = z
  .object({
    id: z.string().openapi({
      example: "stag_01jd4xk9v2c7h8m3n5p6q7r8s9",
      description: "The show tag's id (`stag_…`): prefixed and time-ordered; unique, never reused.",
    }),
    name: z
      .string()
      .openapi({ description: "The tag's label (`Abstraction`); unique on the show, ignoring case." }),
    color: z.enum(showTagColors).openapi({
      example: "slate",
      description: "The colour the tag is shown in, from the named palette of custom statuses.",
    }),
    facet: z.enum(showTagFacets).openapi({ example: "medium", description: showTagFacetText }),
    origin: z.enum(showTagOrigins).openapi({
      description: "`manual` (a person added or last edited it) or `ai_suggested` (the engine suggested it).",
    }),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("ShowTag", {
    description:
      "Exactly the specification's fields: the show a tag is on is the `{showId}` of its path (and `data.show_id` of its events).",
  });

/** What the show_tag.* events carry beside `data.object`: the show, which the tag itself does not name. */
export const showTagEventData = {
  show_id: z.string().openapi({ description: "The show the tag is (or was) on." }),
};

export const ShowTagList = z
  .object({
    data: z.array(ShowTag).openapi({
      description: `Every tag of the show (at most ${MAX_TAGS_PER_SHOW}), by name ignoring case.`,
    }),
  })
  .openapi("ShowTagList");

const tagFields = {
  name: label(60).openapi({ description: "1 to 60 characters; unique on the show, ignoring case." }),
  color: z.enum(showTagColors).openapi({ description: "`slate` by default." }),
  facet: z.enum(showTagFacets).openapi({ description: showTagFacetText }),
  origin: z.enum(showTagOrigins).openapi({
    description:
      "`manual` by default; `ai_suggested` records an engine's suggestion. On update, a change of name, colour or facet without `origin` makes the tag `manual`.",
  }),
};

export const ShowTagCreate = z
  .strictObject(tagFields)
  .partial()
  .required({ name: true, facet: true })
  .openapi("ShowTagCreate");
export const ShowTagUpdate = z.strictObject(tagFields).partial().openapi("ShowTagUpdate");
export type ShowTagCreateInput = z.infer<typeof ShowTagCreate>;
export type ShowTagUpdateInput = z.infer<typeof ShowTagUpdate>;

export const ShowTagsParams = z.strictObject({
  showId: idString("show").openapi({ param: { name: "showId", in: "path" } }),
});

export const ShowTagParams = z.strictObject({
  showId: idString("show").openapi({ param: { name: "showId", in: "path" } }),
  tagId: idString("stag").openapi({ param: { name: "tagId", in: "path" } }),
});
