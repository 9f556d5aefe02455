import { z } from "@hono/zod-openapi";
import { idString, intParam, MAX_SAFE, repeatable } from "../params";
import { UtcTimestamp } from "../time";
import { contactTypes, emailConsents, engagementKinds, leadStatuses, priceBands } from "./contacts";

/**
 * The contact filters, described once. `GET /gallery/contacts` reads them from the query string and a dynamic
 * list stores them as its `dynamic_query` (JSON): each filter has one rule and two spellings of its value
 * (a query-string parser and a JSON schema), and db/queries/contact-filters.ts turns either into the same SQL.
 */

interface FilterField<Q extends z.ZodType, J extends z.ZodType> {
  query: Q;
  json: J;
}

function same<T extends z.ZodType>(schema: T): FilterField<T, T> {
  return { query: schema, json: schema };
}

const spend = (description: string) => ({
  query: intParam({ min: 0, max: MAX_SAFE, description }),
  json: z.number().int().min(0).max(MAX_SAFE).openapi({ description }),
});

/** The filters a list query and a dynamic list share. */
export const sharedContactFilters = {
  q: same(
    z.string().max(200).openapi({ description: "Substring (case-insensitive) of name, email or company." }),
  ),
  type: same(z.enum(contactTypes).openapi({ description: "Contacts of this kind (`contact_type`)." })),
  assigned_to: same(idString("mem").openapi({ description: "Contacts this member is an assignee of." })),
  lead_status: same(
    z
      .enum(leadStatuses)
      .openapi({ description: "Contacts at this stage of the sales relationship (`lead_status`)." }),
  ),
  tag_id: {
    query: repeatable(idString("tag"), { max: 10, description: "Repeatable, 1 to 10; contacts with any." }),
    json: z
      .union([idString("tag"), z.array(idString("tag")).min(1).max(10)])
      .transform((v) => (Array.isArray(v) ? v : [v]))
      .openapi({ description: "A tag id or 1 to 10 of them; contacts with any." }),
  },
  has_interaction_since: same(
    UtcTimestamp.openapi({ description: "last_interaction_at at or after this instant (UTC, ends in Z)." }),
  ),
  min_total_spend_cents: spend(
    "Contacts whose completed sales sum to at least this (`total_spend_cents`, in minor units of the gallery's default currency).",
  ),
  min_works_acquired: spend(
    "Contacts who bought at least this many works in completed sales (`works_acquired`).",
  ),
  price_band: same(
    z.enum(priceBands).openapi({
      description:
        "Contacts whose average purchase (completed sales) falls in this band: under_5k, 5k_25k, 25k_100k or over_100k, in the currency's major units.",
    }),
  ),
  engaged_event: same(
    z.enum(engagementKinds).openapi({
      description: "Contacts with an engagement event of this kind (since `engaged_since`, when given).",
    }),
  ),
  engaged_since: same(
    UtcTimestamp.openapi({
      description:
        "Contacts engaged at or after this instant (UTC, ends in Z): of the `engaged_event` kind when given, else of any kind.",
    }),
  ),
} as const;

export type SharedFilterName = keyof typeof sharedContactFilters;

type QueryShape = { [K in SharedFilterName]: z.ZodOptional<(typeof sharedContactFilters)[K]["query"]> };
type JsonShape = { [K in SharedFilterName]: z.ZodOptional<(typeof sharedContactFilters)[K]["json"]> };

function shape<S extends "query" | "json">(spelling: S) {
  return Object.fromEntries(
    Object.entries(sharedContactFilters).map(([name, field]) => [
      name,
      (field as FilterField<z.ZodType, z.ZodType>)[spelling].optional(),
    ]),
  );
}

/** The shared filters as query-string parameters (the contacts list adds its own). */
export const contactFilterQueryShape = shape("query") as QueryShape;

/**
 * A dynamic list's saved filter: the shared filters as JSON, plus two that only a segment has.
 * `described_as`: a description the judging engine evaluates; the list keeps the contacts it judged true at or
 * above the visible floor (0.6) under the rubric key `segment:<list id>`.
 */
export const ContactListQuery = z
  .strictObject({
    ...(shape("json") as JsonShape),
    email_consent: z
      .enum(emailConsents)
      .optional()
      .openapi({ description: "Contacts whose consent to marketing email is in this state." }),
    described_as: z.string().trim().min(1).max(1000).optional().openapi({
      description:
        "The contacts the segment is for, in plain words (`collectors of post-war abstraction who bought this year`): the judging engine evaluates each contact against it, and the list keeps those it judged true at or above the visible floor (0.6), under the rubric key `segment:<list id>`.",
    }),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "needs at least one filter" })
  .openapi("ContactListQuery");
export type ContactListQueryInput = z.infer<typeof ContactListQuery>;

/** The shared filters' values, parsed (the same shape from either spelling). */
export type SharedContactFilters = {
  [K in SharedFilterName]?: z.output<(typeof sharedContactFilters)[K]["query"]>;
};
