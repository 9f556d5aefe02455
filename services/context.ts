import type { Db } from "../db/client";
import type { Env } from "../lib/env";
import type { IdempotencyClaim } from "../lib/idempotency";
import type { Actor, Principal } from "../lib/principal";

/**
 * What a service needs to act for a caller, passed explicitly so that the API Worker, the cron Worker and
 * background jobs call the same domain rules: the database, the bindings, who acts, the request id recorded on
 * events, the idempotency claim of the request (if any), whether it is a dry run and a way to finish work after
 * the response.
 */
export interface ServiceContext {
  db: Db;
  env: Pick<
    Env,
    | "EDGE_KV"
    | "SIGNING_SECRET"
    | "ENVIRONMENT"
    | "WEBHOOK_SECRET_KEY"
    | "WEBHOOK_SECRET_KEY_PREVIOUS"
    | "PUBLIC_BASE_URL"
    | "INBOUND_EMAIL_DOMAIN"
    | "UPLOADS"
    | "ENGINE_QUEUE"
  >;
  principal: Principal;
  requestId: string;
  claim: IdempotencyClaim | null;
  /**
   * The request is a dry run (http/dry-run.ts): the service answers what the call would change, reading at
   * most once, and writes nothing (executeWrite refuses to run).
   */
  dryRun: boolean;
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * What the one write path (services/write.ts) reads of its context: a request's ServiceContext, or a pass of the
 * cron Worker acting for a gallery. A pass holds no idempotency claim (its own guard makes a repeat harmless), so it
 * needs no replay cache, and no request asked for it, so its events carry no request id.
 */
export type WriteContext = Pick<ServiceContext, "db" | "dryRun"> & {
  principal: Actor;
  requestId: string | null;
} & ({ claim: null } | Pick<ServiceContext, "claim" | "env" | "waitUntil">);
