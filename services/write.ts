import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { z } from "zod";
import { markedSubjects } from "../db/queries/engine";
import { findIdempotencyClaim } from "../db/queries/idempotency";
import { type DomainEventInput, eventInsert } from "../db/queries/outbox";
import { nextTimestamp } from "../db/queries/rows";
import type { EventType } from "../lib/event-types";
import { cacheResponse, reusedKey, type StoredResponse } from "../lib/idempotency";
import { ApiError } from "../lib/problem";
import type { DryRunBody } from "../lib/schemas/dry-run";
import type { ServiceContext, WriteContext } from "./context";
import { type MarkedSubject, sendToEngine } from "./engine/enqueue";

/** How long a duplicate request waits for the first one's transaction before answering 409 `idempotency_key_in_use`. */
const CLAIM_LOCK_TIMEOUT = "3s";

export type WriteStatus = 200 | 201 | 202;

export interface WritePlan<Schema extends z.ZodType, Status extends WriteStatus> {
  /** The success response's schema: types the result, so handlers need no casts. */
  schema: Schema;
  /** The change: statements (raw SQL or drizzle query builders) run in order inside one transaction. */
  statements: SQLWrapper[];
  /** Domain events recorded in the same transaction (the outbox). */
  events: DomainEventInput[];
  /** HTTP status of the success response. */
  status: Status;
  /**
   * SQL yielding the response body as json, evaluated after the change inside the same transaction, so the
   * response (and an idempotent replay of it) is exactly what a read would return at commit.
   */
  body: SQL;
}

/** The outcome of a write: the body as JSON text, exactly as committed (or as first committed, on a replay). */
export interface Written<T, Status extends number = WriteStatus> {
  status: Status;
  body: string | null;
  replayed: boolean;
  /** Extra response headers (e.g. `Cache-Control: no-store` on a response that shows a secret). */
  headers?: Record<string, string>;
  /** Type only: the body's shape. */
  readonly _type?: T;
}

interface PgError {
  code?: string;
  constraint?: string;
  message?: string;
  detail?: string;
  hint?: string;
}

function pgError(error: unknown): PgError | null {
  if (typeof error !== "object" || error === null) return null;
  const e = error as PgError & { cause?: unknown };
  if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e;
  return e.cause ? pgError(e.cause) : null;
}

function replayed<T, S extends number>(stored: StoredResponse): Written<T, S> {
  return { status: stored.status as S, body: stored.body, replayed: true };
}

/**
 * The one write path. Runs the plan as a single batch — one transaction, one round trip — preceded by the
 * idempotency claim when the request carries an Idempotency-Key, followed by the outbox rows and the response.
 * A duplicate key resolves to a replay (same request) or a 400 (different request).
 */
export async function executeWrite<Schema extends z.ZodType, Status extends WriteStatus>(
  ctx: WriteContext,
  plan: WritePlan<Schema, Status>,
): Promise<Written<z.output<Schema>, Status>> {
  const { db, principal } = ctx;
  // A dry run changes nothing: its service answers with dryRunAnswer() and never reaches the write path.
  if (ctx.dryRun) throw new Error("executeWrite called in a dry run: answer with dryRunAnswer() instead");
  const queries: SQLWrapper[] = [];
  // Only a request holds a claim, and with it the replay cache the claim's response is kept in.
  const request = ctx.claim === null ? null : ctx;
  const claim = request?.claim ?? null;
  if (claim) {
    queries.push(sql.raw(`set local lock_timeout = '${CLAIM_LOCK_TIMEOUT}'`));
    queries.push(sql`insert into idempotency_keys (gallery_id, key, request_hash, method, path, response_status)
      values (${principal.galleryId}, ${claim.key}, ${claim.requestHash}, ${claim.method}, ${claim.path}, ${plan.status})`);
  }
  queries.push(...plan.statements);
  for (const event of plan.events) queries.push(eventInsert(principal, ctx.requestId, event));
  // The events just recorded marked their subjects stale (trigger domain_events_engine_stale): read back which,
  // in the same batch, to send them to the engine without another round trip.
  const marks = plan.events.length > 0;
  if (marks) queries.push(markedSubjects());
  // The body as Postgres prints it is the response, and what a replay sends again byte for byte.
  queries.push(
    claim
      ? sql`update idempotency_keys set response_body = (${plan.body})::text
          where gallery_id = ${principal.galleryId} and key = ${claim.key} returning response_body as body`
      : sql`select (${plan.body})::text as body`,
  );

  let body: string | null;
  try {
    const results = await db.batch(queries.map((q) => db.execute(q)) as [ReturnType<typeof db.execute>]);
    const last = results[results.length - 1] as unknown as { rows: { body: string | null }[] };
    body = last.rows[0]?.body ?? null;
    if (marks) {
      const marked = results[results.length - 2] as unknown as { rows: MarkedSubject[] };
      if (marked.rows.length > 0 && "waitUntil" in ctx && "env" in ctx) {
        ctx.waitUntil(sendToEngine(ctx.env.ENGINE_QUEUE, principal.galleryId, marked.rows));
      }
    }
  } catch (error) {
    const pg = pgError(error);
    if (request && claim && pg?.code === "23505" && pg.constraint === "idempotency_keys_pkey") {
      const stored = await findIdempotencyClaim(db, principal.galleryId, claim.key);
      if (!stored || stored.requestHash !== claim.requestHash) throw reusedKey();
      request.waitUntil(cacheResponse(request.env, claim, stored));
      return replayed(stored);
    }
    throw translateWriteError(error);
  }

  if (request && claim) {
    const stored: StoredResponse = { requestHash: claim.requestHash, status: plan.status, body };
    request.waitUntil(cacheResponse(request.env, claim, stored));
  }
  return { status: plan.status, body, replayed: false };
}

/**
 * A write's refusal found before its batch (the state it needs is gone or not there), unless this request is the
 * retry of one that already succeeded and changed that state (a DELETE whose row is gone, an attach whose upload
 * is taken): then the stored response is replayed, or a different request with the same key is refused.
 */
export async function refuseUnlessReplay<T, S extends number>(
  ctx: ServiceContext,
  refusal: ApiError,
): Promise<Written<T, S>> {
  if (ctx.claim) {
    const stored = await findIdempotencyClaim(ctx.db, ctx.principal.galleryId, ctx.claim.key);
    if (stored) {
      if (stored.requestHash !== ctx.claim.requestHash) throw reusedKey();
      return replayed(stored);
    }
  }
  throw refusal;
}

/** The 404 of a write, unless this request is the retry of one that already succeeded (refuseUnlessReplay). */
export function notFoundUnlessReplay<T, S extends number>(
  ctx: ServiceContext,
  detail: string,
): Promise<Written<T, S>> {
  return refuseUnlessReplay(ctx, new ApiError("not_found", detail));
}

/** What a write to an existing row needs to know of it: its raw updated_at guards the change. */
export interface Existing {
  updatedAt: string;
}

/**
 * A write to an existing resource: absent, it is the 404 (or the replay of a retried write that already
 * succeeded); present, `plan` gets the row as read and the next timestamp, and the change runs guarded.
 */
export async function writeExisting<E extends Existing, Schema extends z.ZodType, Status extends WriteStatus>(
  ctx: ServiceContext,
  current: E | null,
  notFound: string,
  plan: (current: E, at: string) => WritePlan<Schema, Status> | Promise<WritePlan<Schema, Status>>,
): Promise<Written<z.output<Schema>, Status>> {
  if (!current) return notFoundUnlessReplay(ctx, notFound);
  return executeWrite(ctx, await plan(current, nextTimestamp(current.updatedAt)));
}

/**
 * The plan of a partial update. When `previous` (the changed fields' former values) is empty nothing changes:
 * no statement runs and no event is recorded, though the idempotency claim still is (a retry replays it).
 * Otherwise the statements run and `<resource>.updated` is recorded with `previous_attributes`, before any
 * further events.
 */
export function updatePlan<Schema extends z.ZodType>(update: {
  schema: Schema;
  type: EventType;
  resourceType: string;
  id: string;
  /** The resource after the change (SQL, evaluated in the transaction): the response and the event's object. */
  object: SQL;
  previous: Record<string, unknown>;
  statements: SQLWrapper[];
  events?: DomainEventInput[];
  /** Further members of the event's `data`, as its catalogue entry declares them. */
  data?: Record<string, unknown>;
}): WritePlan<Schema, 200> {
  const { schema, object, previous } = update;
  if (Object.keys(previous).length === 0)
    return { schema, statements: [], events: [], status: 200, body: object };
  return {
    schema,
    statements: update.statements,
    events: [
      changeEvent(update.type, update.resourceType, update.id, object, previous, update.data),
      ...(update.events ?? []),
    ],
    status: 200,
    body: object,
  };
}

/**
 * `<resource>.<verb>` with `data.object` (SQL, evaluated after the change), for updates `previous_attributes`,
 * and the further members of `data` the type's catalogue entry declares (`more`).
 */
export function changeEvent(
  type: EventType,
  resourceType: string,
  resourceId: string,
  object: SQL | Record<string, unknown>,
  previous?: Record<string, unknown>,
  more: Record<string, unknown> = {},
): DomainEventInput {
  const objectSql = "getSQL" in object ? sql`(${object})` : sql`${JSON.stringify(object)}::json`;
  const members = [sql`'object', ${objectSql}`];
  if (previous) members.push(sql`'previous_attributes', ${JSON.stringify(previous)}::json`);
  for (const [name, value] of Object.entries(more)) {
    members.push(sql`${sql.raw(`'${name}'`)}, ${JSON.stringify(value)}::json`);
  }
  return { type, resourceType, resourceId, data: sql`json_build_object(${sql.join(members, sql`, `)})` };
}

/**
 * The answer to a dry run (http/dry-run.ts) of a write to an existing resource: absent, the 404 the real call
 * would answer; present, `{dry_run: true, effect}` with what the real call would change, computed from the row as
 * read. Nothing is written and no idempotency claim exists to replay (a dry run makes none).
 */
export function dryRunAnswer<E, Effect extends Record<string, unknown>>(
  current: E | null,
  notFound: string,
  effect: (current: E) => Effect,
): Written<DryRunBody<Effect>, 200> {
  if (!current) throw new ApiError("not_found", notFound);
  return { status: 200, body: JSON.stringify({ dry_run: true, effect: effect(current) }), replayed: false };
}

/** The spec's Delete result, `{id, deleted: true}`, as a write's response body. */
export function deletedBody(id: string): SQL {
  return sql`json_build_object('id', ${id}::text, 'deleted', true)`;
}

/**
 * Guards a read-then-write: the UPDATE/DELETE must match the row exactly as it was read (by updated_at), or the
 * whole transaction aborts with serialization_failure and the caller gets 409 `concurrent_modification`.
 */
export function guarded(change: SQLWrapper): SQL {
  // getSQL(): a query builder embedded as is would be parenthesised like a subquery.
  return sql`with changed as (${change.getSQL()} returning 1) select expect_one_row((select count(*) from changed))`;
}

/**
 * Adds a value shown once (a freshly minted secret) to a write's body. What executeWrite stored for replays
 * holds null there, so a replay carries null.
 */
export function revealOnce<T, S extends number>(
  written: Written<T, S>,
  field: string,
  value: string,
): Written<T, S> {
  if (written.replayed || written.body === null) return written;
  const body = { ...(JSON.parse(written.body) as Record<string, unknown>), [field]: value };
  return { ...written, body: JSON.stringify(body), headers: { "Cache-Control": "no-store" } };
}

/** Maps database refusals that are the caller's doing to precise problems; anything else stays a 500. */
export function translateWriteError(error: unknown): unknown {
  const pg = pgError(error);
  if (!pg?.code) return error;
  switch (pg.code) {
    case "55P03":
      return new ApiError(
        "idempotency_key_in_use",
        "A request with this Idempotency-Key is still being processed. Retry shortly.",
      );
    case "40001":
    case "40P01":
      return new ApiError(
        "concurrent_modification",
        "The resource changed while this request was applying its change. Retry the request.",
      );
    case "23505":
      return new ApiError("conflict", "A resource with these unique values already exists.", {
        constraint: pg.constraint ?? null,
      });
    case "23503":
      return new ApiError("invalid_request", "The request references a resource that does not exist.", {
        constraint: pg.constraint ?? null,
      });
    case "GP400":
      // Raised by expect_valid / expect_references: DETAIL names the body field, HINT says what is wrong with it.
      return new ApiError(
        "invalid_request",
        `${pg.message ?? "A referenced resource does not exist"}.`,
        pg.detail && pg.hint ? [{ location: "body", field: pg.detail, message: pg.hint }] : null,
      );
    case "GP409":
      // Raised by raise_conflict: DETAIL is the problem's `details`, a JSON object.
      return new ApiError(
        "conflict",
        `${pg.message ?? "The request conflicts with stored data"}.`,
        pg.detail ? JSON.parse(pg.detail) : null,
      );
    default:
      return pg.code.startsWith("22")
        ? new ApiError("invalid_request", "A value is out of range or malformed for its field.")
        : error;
  }
}
