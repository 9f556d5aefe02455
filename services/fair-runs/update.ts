import {
  expectApprovablePositions,
  type FairRunChange,
  fairRunChangeRules,
  fairRunResource,
  fairRunUpdatedEvent,
  findFairRun,
  updateFairRunStatement,
} from "../../db/queries/fair-runs";
import type { EventType } from "../../lib/event-types";
import { previousAttributes } from "../../lib/json";
import {
  FairRun,
  type FairRunUpdateInput,
  type FinishedFairRunStatus,
  isFinishedFairRunStatus,
} from "../../lib/schemas/fair-runs";
import { toStoredMs } from "../../lib/time";
import type { ServiceContext } from "../context";
import { changeEvent, guarded, writeExisting } from "../write";

const finishedEvents: Record<FinishedFairRunStatus, EventType> = {
  succeeded: "fair_run.succeeded",
  failed: "fair_run.failed",
  cancelled: "fair_run.cancelled",
};

/** The request as the log stores it: appended actions complete, approvals in ascending order. */
function normalise(input: FairRunUpdateInput, at: string): FairRunChange {
  return {
    ...(input.status !== undefined ? { status: input.status } : {}),
    ...(input.step_count !== undefined ? { step_count: input.step_count } : {}),
    ...(input.error !== undefined ? { error: input.error } : {}),
    actions: (input.actions ?? []).map((action) => ({
      tool: action.tool,
      gated: action.gated,
      approved: action.approved ?? false,
      at: action.at === undefined ? at : toStoredMs(action.at),
    })),
    approve: [...(input.approve ?? [])].sort((a, b) => a - b),
  };
}

/**
 * Records a run's progress: status, step count, error, actions appended to the log and approvals of gated
 * actions. Every rule that depends on the stored run is checked inside the write's transaction: `approve` must
 * name gated actions of the log (400), and a change must leave a finished run alone, never lower the step count,
 * fit the log, succeed only with every gated action approved and await approval only with one left (409). A
 * request that changes nothing (the same terminal status again, approvals already given) records nothing.
 * Records `fair_run.updated`, then `fair_run.<status>` when the run finishes.
 */
export async function updateFairRun(ctx: ServiceContext, id: string, input: FairRunUpdateInput) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findFairRun(db, galleryId, id);
  return writeExisting(ctx, current, `No fair run ${id} in this gallery.`, (found, at) => {
    const change = normalise(input, at);
    const fields: Record<string, unknown> = {};
    if (change.status !== undefined) fields.status = change.status;
    if (change.step_count !== undefined) fields.step_count = change.step_count;
    if (change.error !== undefined) fields.error = change.error;
    const previous = previousAttributes(found.body, fields);
    const log = found.body.actions;
    const approved = change.approve.filter((p) => log[p]?.gated === true && !log[p].approved);
    const object = fairRunResource.jsonById(galleryId, id, {});
    const checks =
      change.approve.length > 0 ? [expectApprovablePositions(galleryId, id, change.approve)] : [];
    const changes = Object.keys(previous).length > 0 || change.actions.length > 0 || approved.length > 0;
    if (!changes) return { schema: FairRun, statements: checks, events: [], status: 200, body: object };
    const finished =
      "status" in previous && change.status && isFinishedFairRunStatus(change.status)
        ? [changeEvent(finishedEvents[change.status], "fair_run", id, object)]
        : [];
    return {
      schema: FairRun,
      statements: [
        ...checks,
        ...fairRunChangeRules(galleryId, id, change),
        guarded(updateFairRunStatement(galleryId, id, change, found.updatedAt, at)),
      ],
      events: [fairRunUpdatedEvent(id, object, previous, change.actions, approved), ...finished],
      status: 200,
      body: object,
    };
  });
}
