import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { z } from "zod";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import {
  FairRun,
  type FairRunStatus,
  finishedFairRunStatuses,
  MAX_FAIR_RUN_ACTIONS,
} from "../../lib/schemas/fair-runs";
import type { Db } from "../client";
import { isoMs, resource } from "../resource";
import { type FairRunAction, fairRuns } from "../schema";
import { type KeysetQuery, keysetPage } from "./keyset";
import type { DomainEventInput } from "./outbox";

/** The API representation of a fair run (alias `fr`). */
export const fairRunResource = resource({
  schema: FairRun,
  table: fairRuns,
  alias: "fr",
  name: "fair_run",
  computed: {
    // jsonb keeps an object's keys in its own order (shortest first); the log is printed in the documented order.
    actions: () => sql`(select coalesce(json_agg(json_build_object('tool', e->'tool', 'gated', e->'gated',
        'approved', e->'approved', 'at', e->'at') order by n), '[]'::json)
      from jsonb_array_elements(fr.actions) with ordinality as x(e, n))`,
  },
});

/** Newest first by default; `updated` orders by the last change (the runs that moved most recently). */
export const fairRunList = listSpec({ sorts: ["created", "updated"], defaultSort: "created" });
type FairRunSort = (typeof fairRunList.sorts)[number];

const sortKeys: Record<FairRunSort, Pick<KeysetQuery, "sortKey" | "cast">> = {
  created: { sortKey: sql`fr.created_at`, cast: "timestamptz" },
  updated: { sortKey: sql`fr.updated_at`, cast: "timestamptz" },
};

export interface FairRunFilters {
  status?: FairRunStatus;
  user_id?: string;
}

/** One page (limit + 1 rows) of the gallery's fair runs matching the filters. One round trip. */
export function listFairRuns(
  db: Db,
  galleryId: string,
  f: FairRunFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  const where = [sql`fr.gallery_id = ${galleryId}`];
  if (f.status !== undefined) where.push(sql`fr.status = ${f.status}`);
  if (f.user_id !== undefined) where.push(sql`fr.user_id = ${f.user_id}`);
  return keysetPage(
    db,
    {
      body: fairRunResource.json({}),
      from: sql`fair_runs fr`,
      where,
      ...sortKeys[page.sort as FairRunSort],
      id: sql`fr.id`,
    },
    page,
  );
}

export interface FairRunState {
  body: z.infer<typeof FairRun>;
  updatedAt: string;
}

/** One fair run of the gallery, with what a guarded write needs, or null. One round trip. */
export async function findFairRun(db: Db, galleryId: string, id: string): Promise<FairRunState | null> {
  const result = await db.execute<{ body: z.infer<typeof FairRun>; updated_at: string }>(
    sql`select ${fairRunResource.json({})} as body, ${isoMs(sql`fr.updated_at`)} as updated_at
      from fair_runs fr where fr.gallery_id = ${galleryId} and fr.id = ${id}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at } : null;
}

/**
 * Statements that write fair runs. They are composed into one transaction by services/write.ts; none of them runs
 * on its own. Every rule that depends on the stored run reads it inside that transaction.
 */

/** The member a run acts for must be an active member of the gallery, or the transaction aborts with a 400. */
export function expectRunMember(galleryId: string, memberId: string): SQL {
  return sql`select expect_valid(exists (select 1 from members m
      where m.gallery_id = ${galleryId} and m.id = ${memberId} and m.disabled_at is null),
    'user_id', 'must be an active member of this gallery')`;
}

/** A new run: running, at step 0, with an empty log. */
export function insertFairRun(
  galleryId: string,
  id: string,
  values: { userId: string; portalDomain: string; fairListId: string | null },
  at: string,
): SQL {
  return sql`insert into fair_runs (id, gallery_id, user_id, portal_domain, fair_list_id, status, step_count, actions,
      error, created_at, updated_at)
    values (${id}, ${galleryId}, ${values.userId}, ${values.portalDomain}, ${values.fairListId}, 'running', 0,
      '[]'::jsonb, null, ${at}::timestamptz, ${at}::timestamptz)`;
}

/** What a PATCH asks of a run, normalised: appended actions complete (approved and at filled in). */
export interface FairRunChange {
  status?: FairRunStatus;
  step_count?: number;
  error?: string | null;
  actions: FairRunAction[];
  /** Positions in the stored log to approve. */
  approve: number[];
}

const finished = sql.raw(finishedFairRunStatuses.map((s) => `'${s}'`).join(", "));

function intArray(values: readonly number[]): SQL {
  return sql`${sql.param([...values])}::int[]`;
}

/** `from` the stored run, for the checks that read it. */
function stored(galleryId: string, id: string): SQL {
  return sql`fair_runs r where r.gallery_id = ${galleryId} and r.id = ${id}`;
}

/**
 * `approve` names gated actions of the stored log: the first position beyond it, or of an action that is not
 * gated, aborts the transaction with a 400 naming `approve`.
 */
export function expectApprovablePositions(galleryId: string, id: string, positions: readonly number[]): SQL {
  return sql`select expect_valid(bad.p is null, 'approve',
      case when jsonb_array_length(r.actions) = 0
        then format('position %s is beyond the log, which is empty', bad.p)
      when bad.p >= jsonb_array_length(r.actions)
        then format('position %s is beyond the log, which holds %s', bad.p,
          case when jsonb_array_length(r.actions) = 1 then '1 action (position 0)'
            else format('%s actions (positions 0 to %s)', jsonb_array_length(r.actions),
              jsonb_array_length(r.actions) - 1) end)
        else format('position %s is not a gated action: only gated actions are approved', bad.p) end)
    from fair_runs r
    left join lateral (select p from unnest(${intArray(positions)}) p
      where p >= jsonb_array_length(r.actions) or (r.actions->p->>'gated')::boolean is not true
      order by p limit 1) bad on true
    where r.gallery_id = ${galleryId} and r.id = ${id}`;
}

/**
 * The positions of the gated actions still unapproved once `change` is applied (stored ones it does not approve,
 * then appended ones), as `u.positions` (null when none), for the rules of `succeeded` and `awaiting_approval`.
 */
function unapprovedAfter(change: FairRunChange): SQL {
  return sql`lateral (select array_agg(n - 1 order by n) as positions
    from jsonb_array_elements(r.actions || ${JSON.stringify(change.actions)}::jsonb) with ordinality as x(e, n)
    where (e->>'gated')::boolean and not (e->>'approved')::boolean
      and (n - 1) <> all(${intArray(change.approve)})) u`;
}

/**
 * The rules a change to a stored run must meet, each aborting the transaction with a 409 `conflict` whose
 * `details` say why: a finished run never changes; the step count never decreases; the log holds at most
 * MAX_FAIR_RUN_ACTIONS entries; `succeeded` needs every gated action approved; `awaiting_approval` (entered from
 * `running`) needs a gated action left to approve.
 */
export function fairRunChangeRules(galleryId: string, id: string, change: FairRunChange): SQL[] {
  const rules: SQL[] = [
    sql`select raise_conflict(format('The fair run has finished (%s): a finished run never changes', r.status),
        jsonb_build_object('status', r.status))
      from ${stored(galleryId, id)} and r.status in (${finished})`,
  ];
  if (change.step_count !== undefined) {
    rules.push(sql`select raise_conflict(
        format('step_count never decreases: the run is at step %s, above %s', r.step_count, ${change.step_count}::int),
        jsonb_build_object('step_count', r.step_count))
      from ${stored(galleryId, id)} and r.step_count > ${change.step_count}::int`);
  }
  if (change.actions.length > 0) {
    rules.push(sql`select raise_conflict(
        format('The action log holds at most %s actions: it has %s, and %s more do not fit', ${MAX_FAIR_RUN_ACTIONS}::int,
          jsonb_array_length(r.actions), ${change.actions.length}::int),
        jsonb_build_object('limit', ${MAX_FAIR_RUN_ACTIONS}::int, 'action_count', jsonb_array_length(r.actions)))
      from ${stored(galleryId, id)}
        and jsonb_array_length(r.actions) + ${change.actions.length}::int > ${MAX_FAIR_RUN_ACTIONS}::int`);
  }
  if (change.status === "succeeded") {
    rules.push(sql`select raise_conflict(
        format('The fair run cannot succeed while gated actions await approval (positions %s)',
          array_to_string(u.positions, ', ')),
        jsonb_build_object('unapproved_positions', to_jsonb(u.positions)))
      from fair_runs r cross join ${unapprovedAfter(change)}
      where r.gallery_id = ${galleryId} and r.id = ${id} and u.positions is not null`);
  }
  if (change.status === "awaiting_approval") {
    rules.push(sql`select raise_conflict(
        'The fair run cannot await approval: no gated action is left to approve',
        jsonb_build_object('status', r.status, 'unapproved_positions', '[]'::jsonb))
      from fair_runs r cross join ${unapprovedAfter(change)}
      where r.gallery_id = ${galleryId} and r.id = ${id} and r.status <> 'awaiting_approval'
        and u.positions is null`);
  }
  return rules;
}

/**
 * The UPDATE for `guarded()`, matching only the run as it was read. The log is changed in place on the stored
 * value: approvals set `approved` at their positions, then the new actions are appended.
 */
export function updateFairRunStatement(
  galleryId: string,
  id: string,
  change: FairRunChange,
  readUpdatedAt: string,
  at: string,
): SQLWrapper {
  const set: SQL[] = [sql`updated_at = ${at}::timestamptz`];
  if (change.status !== undefined) set.push(sql`status = ${change.status}`);
  if (change.step_count !== undefined) set.push(sql`step_count = ${change.step_count}::int`);
  if (change.error !== undefined) set.push(sql`error = ${change.error}`);
  if (change.approve.length > 0 || change.actions.length > 0) {
    let log: SQL = sql`r.actions`;
    for (const position of change.approve) {
      log = sql`jsonb_set(${log}, ${`{${position},approved}`}::text[], 'true'::jsonb)`;
    }
    if (change.actions.length > 0) log = sql`${log} || ${JSON.stringify(change.actions)}::jsonb`;
    set.push(sql`actions = ${log}`);
  }
  return sql`update fair_runs r set ${sql.join(set, sql`, `)}
    where r.gallery_id = ${galleryId} and r.id = ${id} and r.updated_at = ${readUpdatedAt}::timestamptz`;
}

/**
 * `fair_run.updated`: the run after the change, the former values of the fields among status, step_count and
 * error that changed, the actions this change appended (as stored) and the stored positions it approved.
 */
export function fairRunUpdatedEvent(
  id: string,
  object: SQL,
  previous: Record<string, unknown>,
  appended: readonly FairRunAction[],
  approved: readonly number[],
): DomainEventInput {
  return {
    type: "fair_run.updated",
    resourceType: "fair_run",
    resourceId: id,
    data: sql`json_build_object('object', (${object}), 'previous_attributes', ${JSON.stringify(previous)}::json,
      'appended_actions', ${JSON.stringify(appended)}::json, 'approved_positions', ${JSON.stringify(approved)}::json)`,
  };
}
