import { z } from "@hono/zod-openapi";
import { idString } from "../params";
import { TimestampOut, UtcTimestamp } from "../time";

/**
 * Fair-submission runs: an automated run that fills in and submits a fair's application on its portal for a
 * member of the gallery. The runner reports its progress with PATCH: its status, a step count that only grows,
 * an error, and tool actions appended to the log. A gated action (one that commits the gallery, such as the final
 * submit) needs a member's approval before the run may succeed. A finished run is an audit trail: it never
 * changes again.
 */

/**
 * `running` (working through its steps), `awaiting_approval` (paused until a member approves a gated action),
 * `succeeded`, `failed` and `cancelled`. The first two are active and may follow each other; the last three are
 * finished, and a finished run never changes again.
 */
export const fairRunStatuses = ["running", "awaiting_approval", "succeeded", "failed", "cancelled"] as const;
export type FairRunStatus = (typeof fairRunStatuses)[number];
export const finishedFairRunStatuses = [
  "succeeded",
  "failed",
  "cancelled",
] as const satisfies FairRunStatus[];
export type FinishedFairRunStatus = (typeof finishedFairRunStatuses)[number];

export function isFinishedFairRunStatus(status: string): status is FinishedFairRunStatus {
  return (finishedFairRunStatuses as readonly string[]).includes(status);
}

/** How many actions a run's log holds at most: a longer run is split into several runs. */
export const MAX_FAIR_RUN_ACTIONS = 1000;
const MAX_STEP_COUNT = 2_147_483_647;

const statusDoc = `One of ${fairRunStatuses.map((s) => `\`${s}\``).join(", ")}. \`running\` and \`awaiting_approval\` are active and may follow each other; \`succeeded\`, \`failed\` and \`cancelled\` are finished: a finished run never changes again.`;

export const FairRunAction = z
  .object({
    tool: z
      .string()
      .openapi({ description: "The tool the run used (`open_portal`, `submit_application`, …)." }),
    gated: z.boolean().openapi({ description: "Whether the action needs a member's approval." }),
    approved: z.boolean().openapi({
      description:
        "Whether a member approved it. Only a gated action needs approval: a run may succeed only once every gated action is approved.",
    }),
    at: TimestampOut.openapi({ description: "When the run took (or proposed) the action." }),
  })
  .openapi("FairRunAction");

export const FairRun = z
  .object({
    id: z.string().openapi({ example: "fair_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    user_id: z.string().openapi({ description: "The member the run acts for." }),
    portal_domain: z.string().openapi({
      description: "The host name of the fair's submission portal, in lower case.",
      example: "apply.northsea-art-fair.com",
    }),
    fair_list_id: z.string().nullable().openapi({
      description:
        "The list of works the run submits, as the caller names it (the portal's or the gallery's own list id; opaque to the API); null when not given.",
    }),
    error: z.string().nullable().openapi({ description: "The run's last reported error; null when none." }),
    status: z.enum(fairRunStatuses).openapi({ description: statusDoc }),
    step_count: z.number().int().openapi({ description: "Steps the run has completed; never decreases." }),
    actions: z.array(FairRunAction).openapi({
      description:
        "The action log, oldest first: entries are only appended (and gated ones approved), never replaced or removed. At most 1000 entries.",
    }),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("FairRun");

/**
 * Dot-separated labels of 1 to 63 letters, digits and inner hyphens; the last (the top-level domain) begins with a
 * letter, as every top-level domain does, which also keeps out IP addresses.
 */
const HOST_NAME =
  /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;

const portalDomain = z
  .string()
  .max(253)
  .regex(HOST_NAME, {
    message:
      "must be a host name such as apply.example-fair.com: dot-separated labels of letters, digits and inner hyphens, without scheme, port, path or trailing dot",
  })
  .toLowerCase()
  .openapi({
    description:
      "The host name of the fair's submission portal (`apply.example-fair.com`): at least two labels, ASCII only (an internationalised name in its `xn--` form), no scheme, port or path. Stored in lower case.",
    example: "apply.northsea-art-fair.com",
  });

export const FairRunCreate = z
  .strictObject({
    portal_domain: portalDomain,
    fair_list_id: z.string().min(1).max(200).nullable().optional().openapi({
      description:
        "The list of works the run submits: an opaque reference of 1 to 200 characters (the portal's list id or the gallery's own), stored as given. Null or left out for none.",
    }),
    user_id: idString("mem").optional().openapi({
      description:
        "The member the run acts for: an active member of this gallery. Required with a secret key; with a member session it is the signed-in member (left out, or that member's own id).",
    }),
  })
  .openapi("FairRunCreate");
export type FairRunCreateInput = z.infer<typeof FairRunCreate>;

export const FairRunActionInput = z
  .strictObject({
    tool: z
      .string()
      .min(1)
      .max(100)
      .regex(/\S/, { message: "must not be blank" })
      .openapi({ description: "The tool used, 1 to 100 characters." }),
    gated: z.boolean().openapi({ description: "Whether the action needs a member's approval." }),
    approved: z.boolean().optional().openapi({
      description:
        "Whether it is already approved; false by default. A gated action left unapproved blocks `succeeded` until `approve` names it.",
    }),
    at: UtcTimestamp.optional().openapi({
      description: "When the run took the action (UTC, ends in Z); the time of the request by default.",
    }),
  })
  .openapi("FairRunActionInput");

export const FairRunUpdate = z
  .strictObject({
    status: z.enum(fairRunStatuses).openapi({ description: statusDoc }),
    step_count: z.number().int().min(0).max(MAX_STEP_COUNT).openapi({
      description:
        "Steps completed: at least the stored count (it never decreases; lower is 409 `conflict`).",
    }),
    error: z.string().min(1).max(2000).nullable().openapi({
      description: "The run's error (1 to 2000 characters), typically with `failed`; null clears it.",
    }),
    actions: z.array(FairRunActionInput).min(1).max(50).openapi({
      description:
        "1 to 50 actions appended to the log, in order, after the stored ones. The log is never replaced: it holds at most 1000 entries (beyond, 409 `conflict`).",
    }),
    approve: z
      .array(
        z
          .number()
          .int()
          .min(0)
          .max(MAX_FAIR_RUN_ACTIONS - 1),
      )
      .min(1)
      .max(100)
      .refine((positions) => new Set(positions).size === positions.length, {
        message: "lists a position twice",
      })
      .openapi({
        description:
          "0-based positions of gated actions already in the log (before this request's `actions`) to mark approved. A position beyond the log, or of an action that is not gated, is 400 naming `approve`; approving an approved action changes nothing.",
      }),
  })
  .partial()
  .openapi("FairRunUpdate");
export type FairRunUpdateInput = z.infer<typeof FairRunUpdate>;

export const FairRunIdParams = z.strictObject({
  id: idString("fair").openapi({ param: { name: "id", in: "path" } }),
});

/** What `fair_run.updated` carries beside `object` and `previous_attributes`. */
export const fairRunUpdatedData = {
  appended_actions: z
    .array(FairRunAction)
    .openapi({ description: "The actions this change appended to the log, as stored; empty when none." }),
  approved_positions: z.array(z.number().int()).openapi({
    description: "The log positions of the gated actions this change approved, ascending; empty when none.",
  }),
};
