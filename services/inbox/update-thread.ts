import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { recordTriageCorrection } from "../../db/queries/engine-corrections";
import { findThread, threadEventResource, threadResource } from "../../db/queries/inbox";
import { type ThreadColumns, updateThreadStatement } from "../../db/queries/inbox-writes";
import { expectReferences } from "../../db/queries/rows";
import { members } from "../../db/schema";
import { ApiError, type FieldIssue } from "../../lib/problem";
import { engineTriageKeys, InboxThread, type InboxThreadUpdateInput } from "../../lib/schemas/inbox";
import { toStoredMs } from "../../lib/time";
import type { ServiceContext } from "../context";
import { changeEvent, guarded, refuseUnlessReplay, type WritePlan, writeExisting } from "../write";
import { inboxOwner } from "./member";

type ThreadBody = z.infer<typeof InboxThread>;
type Triage = ThreadBody["triage"];
type TriageField = keyof Omit<Triage, "triaged_at">;

function snoozeProblem(message: string): ApiError {
  const issue: FieldIssue = { location: "body", field: "snooze_until", message };
  return new ApiError("invalid_request", `Body field \`snooze_until\` ${message}.`, [issue]);
}

/** Rules of the request alone, checked before the thread is read. */
function checkRequest(patch: InboxThreadUpdateInput): void {
  if (patch.state === "snoozed" && patch.snooze_until === undefined) {
    throw snoozeProblem("is required when state is snoozed");
  }
  if (patch.snooze_until !== undefined && patch.state !== undefined && patch.state !== "snoozed") {
    throw snoozeProblem(`is only sent with state snoozed, not ${patch.state}`);
  }
}

/**
 * Rules of a snooze_until against the thread as read: only a snoozed thread's snooze moves without `state`, and
 * the time must lie ahead. Null when both hold.
 */
function snoozeRefusal(
  thread: ThreadBody,
  patch: InboxThreadUpdateInput,
  snoozeUntil: string,
): ApiError | null {
  if (patch.state === undefined && thread.state !== "snoozed") {
    return snoozeProblem(`is only sent with state snoozed: the thread is ${thread.state}, not snoozed`);
  }
  if (Date.parse(snoozeUntil) <= Date.now()) return snoozeProblem("must be in the future");
  return null;
}

const triageColumns: Record<TriageField, keyof ThreadColumns> = {
  intent: "triage_intent",
  intent_probability: "triage_intent_probability",
  urgency: "triage_urgency",
  urgency_probability: "triage_urgency_probability",
  expects_reply: "triage_expects_reply",
  escalating: "triage_escalating",
  corrected_intent: "triage_corrected_intent",
};

function triageValue(value: unknown): SQL {
  return typeof value === "number" ? sql`${value}::double precision` : sql`${value as string | null}::text`;
}

/**
 * Changes a thread of the signed-in member: its state (`snoozed` with a snooze_until in the future; `open` and
 * `done` clear it), its assignee (a member of the gallery, or null), its triage (only the fields sent; a change
 * to an engine field sets triaged_at, corrected_intent changes only when sent, and a new one is recorded in
 * judgment_corrections with the judged message, as a labelled example). Records `inbox_thread.updated`
 * with `previous_attributes` (triage: the sub-fields that changed); a request that changes nothing records
 * nothing.
 */
export async function updateThread(ctx: ServiceContext, id: string, patch: InboxThreadUpdateInput) {
  checkRequest(patch);
  const galleryId = ctx.principal.galleryId;
  const current = await findThread(ctx.db, galleryId, inboxOwner(ctx), id);
  const snoozeUntil = patch.snooze_until === undefined ? undefined : toStoredMs(patch.snooze_until);
  // Refused against the thread as read, unless this is the retry of a request that already succeeded.
  const refusal =
    current && snoozeUntil !== undefined ? snoozeRefusal(current.body, patch, snoozeUntil) : null;
  if (refusal) return refuseUnlessReplay<ThreadBody, 200>(ctx, refusal);
  return writeExisting(ctx, current, `No inbox thread ${id} of yours.`, (found, at) => {
    const before = found.body;
    const previous: Record<string, unknown> = {};
    const columns: ThreadColumns = {};
    const statements: SQL[] = [];

    const state = patch.state ?? before.state;
    const snooze = state === "snoozed" ? (snoozeUntil ?? before.snooze_until) : null;
    if (state !== before.state) previous.state = before.state;
    if (snooze !== before.snooze_until) previous.snooze_until = before.snooze_until;
    if ("state" in previous || "snooze_until" in previous) {
      columns.state = sql`${state}::text`;
      columns.snooze_until = sql`${snooze}::timestamptz`;
    }

    if (patch.assigned_to !== undefined && patch.assigned_to !== before.assigned_to) {
      previous.assigned_to = before.assigned_to;
      columns.assigned_to = sql`${patch.assigned_to}::text`;
      if (patch.assigned_to !== null) {
        statements.push(expectReferences(members, galleryId, [patch.assigned_to], "assigned_to"));
      }
    }

    const triage: Partial<Triage> = {};
    for (const [field, value] of Object.entries(patch.triage ?? {}) as [TriageField, unknown][]) {
      if (value === before.triage[field]) continue;
      triage[field] = before.triage[field] as never;
      columns[triageColumns[field]] = triageValue(value);
    }
    // A member's correction is kept as a labelled example: the engine's intent, theirs, the judged message.
    if ("corrected_intent" in triage && patch.triage?.corrected_intent) {
      statements.push(
        recordTriageCorrection(
          galleryId,
          id,
          patch.triage.intent ?? before.triage.intent,
          patch.triage.corrected_intent,
          ctx.principal.memberId,
        ),
      );
    }
    if (engineTriageKeys.some((field) => field in triage)) {
      triage.triaged_at = before.triage.triaged_at;
      columns.triaged_at = sql`${at}::timestamptz`;
    }
    if (Object.keys(triage).length > 0) previous.triage = triage;

    const body = threadResource.jsonById(galleryId, id, {});
    const plan: WritePlan<typeof InboxThread, 200> = {
      schema: InboxThread,
      statements: [],
      events: [],
      status: 200,
      body,
    };
    if (Object.keys(previous).length === 0) return plan;
    return {
      ...plan,
      statements: [
        ...statements,
        guarded(updateThreadStatement(galleryId, id, columns, found.updatedAt, at)),
      ],
      events: [
        changeEvent(
          "inbox_thread.updated",
          "inbox_thread",
          id,
          threadEventResource.jsonById(galleryId, id, {}),
          previous,
        ),
      ],
    };
  });
}
