import { type SQL, sql } from "drizzle-orm";
import type { Context } from "hono";
import { httpDb } from "../../db/client";
import { findIdempotencyClaim } from "../../db/queries/idempotency";
import { type DomainEventInput, eventInsert } from "../../db/queries/outbox";
import type { AppEnv } from "../env";
import { ApiError } from "../problem";
import { cacheResponse, claimOf, replay, reusedKey, type StoredResponse } from "./idempotency";

/** How long a duplicate request waits for the first one's transaction before answering 409 `idempotency_key_in_use`. */
const CLAIM_LOCK_TIMEOUT = "3s";

export interface WritePlan {
  /** The change: statements run in order inside one transaction. */
  statements: SQL[];
  /** Domain events recorded in the same transaction (the outbox). */
  events: DomainEventInput[];
  /** HTTP status of the success response. */
  status: 200 | 201 | 202;
  /**
   * SQL yielding the response body as jsonb, evaluated after the change inside the same transaction, so the
   * response (and an idempotent replay of it) is exactly what a read would return at commit.
   */
  body: SQL;
}

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
  message?: string;
}

function pgError(error: unknown): PgError | null {
  if (typeof error !== "object" || error === null) return null;
  const e = error as PgError & { cause?: unknown };
  if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e;
  return e.cause ? pgError(e.cause) : null;
}

/**
 * The one write path. Runs the plan as a single batch — one transaction, one round trip — preceded by the
 * idempotency claim when the request carries an Idempotency-Key, followed by the outbox rows and the response.
 * A duplicate key resolves to a replay (same request) or a 400 (different request).
 */
export async function executeWrite(c: Context<AppEnv>, plan: WritePlan): Promise<Response> {
  const principal = c.get("principal");
  const requestId = c.get("requestId");
  const claim = claimOf(c);
  const db = httpDb(c.env);
  const queries: SQL[] = [];
  if (claim) {
    queries.push(sql.raw(`set local lock_timeout = '${CLAIM_LOCK_TIMEOUT}'`));
    queries.push(sql`insert into idempotency_keys (gallery_id, key, request_hash, method, path, response_status)
      values (${principal.galleryId}, ${claim.key}, ${claim.requestHash}, ${claim.method}, ${claim.path}, ${plan.status})`);
  }
  queries.push(...plan.statements);
  for (const event of plan.events) queries.push(eventInsert(principal, requestId, event));
  queries.push(
    claim
      ? sql`update idempotency_keys set response_body = (${plan.body})::jsonb
          where gallery_id = ${principal.galleryId} and key = ${claim.key} returning response_body as body`
      : sql`select (${plan.body})::jsonb as body`,
  );

  let body: unknown;
  try {
    const results = await db.batch(queries.map((q) => db.execute(q)) as [ReturnType<typeof db.execute>]);
    const last = results[results.length - 1] as unknown as { rows: { body: unknown }[] };
    body = last.rows[0]?.body ?? null;
  } catch (error) {
    const pg = pgError(error);
    if (claim && pg?.code === "23505" && pg.constraint === "idempotency_keys_pkey") {
      const stored = await findIdempotencyClaim(db, principal.galleryId, claim.key);
      if (!stored || stored.requestHash !== claim.requestHash) throw reusedKey();
      c.executionCtx.waitUntil(cacheResponse(c.env, principal.galleryId, claim, stored));
      return replay(stored);
    }
    throw translateWriteError(error);
  }

  if (claim) {
    const stored: StoredResponse = { requestHash: claim.requestHash, status: plan.status, body };
    c.executionCtx.waitUntil(cacheResponse(c.env, principal.galleryId, claim, stored));
  }
  return c.json(body as object, plan.status);
}

/**
 * The 404 of a write, unless this request is the retry of one that already succeeded (a DELETE whose row is
 * gone, say): then the stored response is replayed, or a different request with the same key is refused.
 */
export async function notFoundUnlessReplay(c: Context<AppEnv>, detail: string): Promise<Response> {
  const claim = claimOf(c);
  if (claim) {
    const stored = await findIdempotencyClaim(httpDb(c.env), c.get("principal").galleryId, claim.key);
    if (stored) {
      if (stored.requestHash !== claim.requestHash) throw reusedKey();
      return replay(stored);
    }
  }
  throw new ApiError("not_found", detail);
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
      return new ApiError("invalid_request", `${pg.message ?? "A referenced resource does not exist"}.`);
    default:
      return pg.code.startsWith("22")
        ? new ApiError("invalid_request", "A value is out of range or malformed for its field.")
        : error;
  }
}

/**
 * Guards a read-then-write: the UPDATE/DELETE must match the row exactly as it was read (by updated_at), or the
 * whole transaction aborts with serialization_failure and the caller gets 409 `concurrent_modification`.
 */
export function guarded(change: SQL): SQL {
  return sql`with changed as (${change} returning 1) select expect_one_row((select count(*) from changed))`;
}
