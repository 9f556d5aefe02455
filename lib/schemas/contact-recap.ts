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
    name: z.string().openapi({ description: "The contact's name as the gallery addresses them." }),
    company: z
      .string()
      .nullable()
      .openapi({ description: "The company or institution the contact is with; null for none." }),
    contact_type: z.enum(contactTypes).openapi({
      description:
        "What kind of contact: collector, institution, consignor, lender, advisor, press or other.",
    }),
    lead_status: z.enum(leadStatuses).openapi({
      description: "The stage of the sales relationship: `new`, `active`, `engaged`, `dormant` or `closed`.",
    }),
    vip: z
      .boolean()
      .openapi({ description: "The collector profile's `vip`; false without a collector profile." }),
    spend: z
      .object({
        total_spend_cents: z.number().int().openapi({
          description:
            "What the contact spent in completed sales, in minor units (cents) of the gallery's default currency.",
        }),
        works_acquired: z
          .number()
          .int()
          .openapi({ description: "How many works the contact acquired in completed sales." }),
        avg_acquisition_cents: z.number().int().nullable().openapi({
          description:
            "total_spend_cents / works_acquired, rounded half away from zero; null without purchases.",
        }),
      })
      .openapi({
        description:
          "Completed sales, in the gallery's default currency (named by `currency` of GET /gallery/contacts/{id}/segmentation).",
      }),
    first_interaction_at: TimestampOut.nullable().openapi({
      description: "When the oldest recorded interaction with the contact took place (UTC); null before any.",
    }),
    last_interaction_at: TimestampOut.nullable().openapi({
      description: "When the newest recorded interaction with the contact took place (UTC); null before any.",
    }),
    interaction_count: z
      .number()
      .int()
      .openapi({ description: "How many interactions are recorded with the contact, of every type." }),
    recent_interactions: z
      .array(
        z.object({
          occurred_at: TimestampOut.openapi({ description: "When the interaction took place (UTC)." }),
          type: z.enum(interactionTypes).openapi({
            description:
              "What kind of interaction: note, call, email, meeting, visit, message, viewing, event or other.",
          }),
          direction: z.enum(interactionDirections).nullable().openapi({
            description:
              "`inbound` (the contact reached the gallery) or `outbound` (the gallery reached the contact); null when it has none, as for a note.",
          }),
          summary: z.string().openapi({ description: "What happened, as recorded." }),
          artwork_id: z.string().nullable(),
        }),
      )
      .openapi({
        description: `The ${RECAP_RECENT_INTERACTIONS} newest interactions, newest first (by occurred_at, then id).`,
      }),
    open_task_count: z
      .number()
      .int()
      .openapi({ description: "How many of the contact's tasks are not completed yet." }),
    next_task: z
      .object({
        id: z.string().openapi({ description: "The task's id (`task_…`)." }),
        title: z.string().openapi({ description: "What is to be done." }),
        due_at: TimestampOut.nullable().openapi({
          description: "When it is due (UTC); null for no due date.",
        }),
      })
      .nullable()
      .openapi({
        description:
          "The open task due soonest; open tasks without a due date come after dated ones, oldest first. Null without open tasks.",
      }),
    list_memberships: z
      .array(
        z.object({
          list_id: z.string().openapi({ description: "The list's id (`list_…`)." }),
          list_name: z.string().openapi({ description: "The list's title." }),
          kind: z.enum(contactListKinds).openapi({
            description: "What the list is for: `pipeline`, `segment` or `mailing`.",
          }),
        }),
      )
      .openapi({
        description:
          "The static lists the contact is a member of and the dynamic lists it matches now (never for an archived contact), newest list first. `list_name` is the list's title.",
      }),
  })
  .openapi("ContactRecap");
