import type { Context, TypedResponse } from "hono";
import type { ContentfulStatusCode, StatusCode } from "hono/utils/http-status";
import type { JSONParsed } from "hono/utils/types";
import { httpDb } from "../db/client";
import type { AppEnv } from "../lib/env";
import { REPLAYED_HEADER } from "../lib/idempotency";
import type { ServiceContext } from "../services/context";
import type { Written } from "../services/write";
import { isDryRun } from "./dry-run";
import { claimOf } from "./idempotency";

/** A JSON response whose body is text Postgres already built, typed as the route's schema says. */
export type JsonText<T, S extends StatusCode> = Response & TypedResponse<JSONParsed<T>, S, "json">;

/** The explicit context a service runs with, for this request. */
export function serviceContext(c: Context<AppEnv>): ServiceContext {
  return {
    db: httpDb(c.env),
    env: c.env,
    principal: c.get("principal"),
    requestId: c.get("requestId"),
    claim: claimOf(c) ?? null,
    dryRun: isDryRun(c),
    waitUntil: (promise) => c.executionCtx.waitUntil(promise),
  };
}

/** Sends JSON text as is: no parse and re-serialise of what Postgres built. */
export function sendJson<T, S extends StatusCode>(
  c: Context<AppEnv>,
  body: string | null,
  status: S,
  headers: Record<string, string> = {},
): JsonText<T, S> {
  // The one cast of the data path: the body is the schema's shape by construction (and validated in tests).
  const response = c.body(body as string, status as ContentfulStatusCode, {
    "content-type": "application/json",
    ...headers,
  });
  return response as unknown as JsonText<T, S>;
}

/** The response of a write: its committed body, marked when it is an idempotent replay. */
export function respond<T, S extends StatusCode>(c: Context<AppEnv>, written: Written<T, S>): JsonText<T, S> {
  const headers = { ...written.headers, ...(written.replayed ? { [REPLAYED_HEADER]: "true" } : {}) };
  return sendJson<T, S>(c, written.body, written.status, headers);
}
