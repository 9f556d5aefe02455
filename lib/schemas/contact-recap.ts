import { z } from "@hono/zod-openapi";
import { TimestampOut } from "../time";
import {
  contactListKinds,
  contactTypes,
  interactionDirections,
  interactionTypes,
  leadStatuses,
} from "./contacts";

/** How many of the newest interactions a recap shows; the rest are a page of the contact's interactions away. */
export const RECAP_RECENT_INTERACTIONS = 5;

export const ContactRecap = z
  .object({
    contact_id: z.string().openapi({ example: "con_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    name: z.string(),
    company: z.string().nullable(),
    contact_type: z.enum(contactTypes),
    lead_status: z.enum(leadStatuses),
    vip: z
      .boolean()
      .openapi({ description: "The collector profile's `vip`; false without a collector profile." }),
    spend: z
      .object({
        total_spend_cents: z.number().int(),
        works_acquired: z.number().int(),
        avg_acquisition_cents: z.number().int().nullable().openapi({
          description:
            "total_spend_cents / works_acquired, rounded half away from zero; null without purchases.",
        }),
      })
      .openapi({
        description:
          "Completed sales, in the gallery's default currency (named by `currency` of GET /gallery/contacts/{id}/segmentation).",
      }),
    first_interaction_at: TimestampOut.nullable(),
    last_interaction_at: TimestampOut.nullable(),
    interaction_count: z.number().int(),
    recent_interactions: z
      .array(
        z.object({
          occurred_at: TimestampOut,
          type: z.enum(interactionTypes),
          direction: z.enum(interactionDirections).nullable(),
          summary: z.string(),
          artwork_id: z.string().nullable(),
        }),
      )
      .openapi({
        description: `The ${RECAP_RECENT_INTERACTIONS} newest interactions, newest first (by occurred_at, then id).`,
      }),
    open_task_count: z.number().int(),
    next_task: z
      .object({ id: z.string(), title: z.string(), due_at: TimestampOut.nullable() })
      .nullable()
      .openapi({
        description:
          "The open task due soonest; open tasks without a due date come after dated ones, oldest first. Null without open tasks.",
      }),
    list_memberships: z
      .array(z.object({ list_id: z.string(), list_name: z.string(), kind: z.enum(contactListKinds) }))
      .openapi({
        description:
          "The static lists the contact is a member of and the dynamic lists it matches now (never for an archived contact), newest list first. `list_name` is the list's title.",
      }),
  })
  .openapi("ContactRecap");
