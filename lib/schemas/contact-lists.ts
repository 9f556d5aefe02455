import { z } from "@hono/zod-openapi";
import { boolParam, idString } from "../params";
import { TimestampOut, toFilterMs } from "../time";
import { ContactListQuery, type ContactListQueryInput } from "./contact-filters";
import { contactListKinds } from "./contacts";
import { described } from "./describe";

/**
 * Contact lists: pipelines, segments and mailings. A static list holds the contacts added to it; a dynamic list
 * holds whoever matches its `dynamic_query` now (the contact filters, validated by the one ContactListQuery
 * schema), never an archived contact. A list is static or dynamic from its creation.
 */

/** What each contact list field means, shared by the list and its create and update bodies. */
const listTexts = {
  title: "The list's name as members see it (`Spring fair prospects`).",
  description: "What the list is for, in the gallery's words; null for none.",
  kind: "What the list is used for: `pipeline` (contacts being worked towards a sale), `segment` (a group to target) or `mailing` (the recipients of a mailing). A label to filter lists by; no rule reads it.",
} as const;

export const ContactList = z
  .object(
    described(
      {
        id: z.string().openapi({
          example: "list_01jd4xk9v2c7h8m3n5p6q7r8s9",
          description: "The contact list's id (`list_…`): prefixed and time-ordered; unique, never reused.",
        }),
        title: z.string(),
        description: z.string().nullable(),
        kind: z.enum(contactListKinds),
        is_dynamic: z.boolean().openapi({
          description:
            "Whether the list is dynamic (its members are whoever matches `dynamic_query` now, never an archived contact) or static (the contacts added to it); fixed at creation.",
        }),
        dynamic_query: ContactListQuery.nullable().openapi({
          description:
            "The saved filter of a dynamic list, as written (a `tag_id` always as an array); null for a static list.",
        }),
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      listTexts,
    ),
  )
  .openapi("ContactList");

const title = z.string().trim().min(1).max(200);
const description = z.string().max(2000).nullable();

export const ContactListCreate = z
  .strictObject(
    described(
      {
        title,
        description: description.optional(),
        kind: z.enum(contactListKinds).optional().openapi({ default: "pipeline" }),
        is_dynamic: z.boolean().optional().openapi({
          description:
            "Whether the list is evaluated from `dynamic_query`. Defaults to whether `dynamic_query` is sent; cannot change later.",
        }),
        dynamic_query: ContactListQuery.optional().openapi({
          description:
            "Required for a dynamic list, refused for a static one: the contact filters, at least one.",
        }),
      },
      listTexts,
    ),
  )
  .superRefine((v, ctx) => {
    if (v.is_dynamic === true && v.dynamic_query === undefined) {
      ctx.addIssue({ code: "custom", path: ["dynamic_query"], message: "is required for a dynamic list" });
    }
    if (v.is_dynamic === false && v.dynamic_query !== undefined) {
      ctx.addIssue({ code: "custom", path: ["dynamic_query"], message: "is only for a dynamic list" });
    }
  })
  .openapi("ContactListCreate");
export type ContactListCreateInput = z.infer<typeof ContactListCreate>;

export const ContactListUpdate = z
  .strictObject(
    described(
      {
        title,
        description,
        kind: z.enum(contactListKinds),
        dynamic_query: ContactListQuery.openapi({
          description:
            "Replaces a dynamic list's saved filter as a whole (a new `described_as` drops the judgments made for the former one); on a static list it is 409 `conflict`.",
        }),
      },
      listTexts,
    ),
  )
  .partial()
  .openapi("ContactListUpdate");
export type ContactListUpdateInput = z.infer<typeof ContactListUpdate>;

export const ContactListMembersAdd = z
  .strictObject({
    contact_ids: z
      .array(idString("con"))
      .min(1)
      .max(100)
      .refine((ids) => new Set(ids).size === ids.length, { message: "lists a contact twice" })
      .openapi({
        description: "1 to 100 of the gallery's contacts; those already members stay as they are.",
      }),
  })
  .openapi("ContactListMembersAdd");
export type ContactListMembersAddInput = z.infer<typeof ContactListMembersAdd>;

/** `data.object` of the membership events: the list after the change and the contacts the change added or removed. */
export const ContactListMembershipChange = z
  .object({
    list: ContactList.openapi({ description: "The list after the change." }),
    contact_ids: z.array(z.string()),
  })
  .openapi("ContactListMembershipChange");

export const ContactListIdParams = z.strictObject({
  id: idString("list").openapi({ param: { name: "id", in: "path" } }),
});

export const ContactListMemberParams = z.strictObject({
  id: idString("list").openapi({ param: { name: "id", in: "path" } }),
  contactId: idString("con").openapi({ param: { name: "contactId", in: "path" } }),
});

export const contactListFilters = {
  kind: z.enum(contactListKinds).optional().openapi({ description: "Keeps the lists of this kind." }),
  is_dynamic: boolParam("true: dynamic lists only; false: static lists only.").optional(),
};

/** A dynamic_query as stored and shown: as written, its timestamps in the API's output form. */
export function storedListQuery(query: ContactListQueryInput): ContactListQueryInput {
  const out = { ...query };
  if (out.has_interaction_since !== undefined)
    out.has_interaction_since = toFilterMs(out.has_interaction_since);
  if (out.engaged_since !== undefined) out.engaged_since = toFilterMs(out.engaged_since);
  return out;
}
