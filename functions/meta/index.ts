import { createRoute, z } from "@hono/zod-openapi";
import { databaseReachable } from "../../db/queries/health";
import { createRouter, type RouterOptions } from "../../http/app";
import type { Env } from "../../lib/env";
import {
  ApiError,
  addressRateLimitedResponses,
  type ErrorCode,
  errorCodes,
  PROBLEM_CONTENT_TYPE,
  ProblemSchema,
  problemResponses,
} from "../../lib/problem";

const ErrorEntry = z
  .object({
    code: z.string().openapi({ description: "The code a problem's `code` carries." }),
    status: z.number().int().openapi({ description: "The HTTP status a problem with this code answers." }),
    title: z
      .string()
      .openapi({ description: "The problem's `title`: the same for every problem of the code." }),
    retry: z.enum(["permanent", "transient", "after_delay"]).openapi({
      description:
        "What a client does: `permanent` (fix the request), `transient` (retry with backoff) or `after_delay` (retry after `Retry-After`).",
    }),
    description: z.string().openapi({ description: "When the code is answered and what it means." }),
  })
  .openapi("ErrorCode");

function entry(code: ErrorCode) {
  return { code, ...errorCodes[code] };
}

/** How long one database check answers /health in an isolate, so the route stays cheap under load. */
export const HEALTH_CACHE_MS = 5_000;
/** A database slower than this to answer `select 1` counts as unreachable. */
const HEALTH_TIMEOUT_MS = 2_000;

let lastCheck: { database: string; at: number; reachable: Promise<boolean> } | undefined;

/** Whether the database answers, checked at most once per HEALTH_CACHE_MS per isolate (callers share a check). */
function checkDatabase(env: Env): Promise<boolean> {
  const now = Date.now();
  if (!lastCheck || lastCheck.database !== env.DATABASE_URL || now - lastCheck.at >= HEALTH_CACHE_MS) {
    lastCheck = {
      database: env.DATABASE_URL,
      at: now,
      reachable: databaseReachable(env, HEALTH_TIMEOUT_MS),
    };
  }
  return lastCheck.reachable;
}

/** Unauthenticated service routes: health and the error dictionary that problem `type` URLs point to. */
export function metaRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  app.openapi(
    createRoute({
      method: "get",
      path: "/health",
      operationId: "getHealth",
      security: [],
      tags: ["Meta"],
      summary: "Health: the Worker and its database",
      description: `200 when the Worker is up and its database answers. The database is checked at most once every ${HEALTH_CACHE_MS / 1000} s per Worker isolate (callers in between get that answer), so the route stays cheap; a database that does not answer within ${HEALTH_TIMEOUT_MS / 1000} s counts as unreachable.`,
      responses: {
        ...problemResponses,
        ...addressRateLimitedResponses,
        200: {
          description: "The Worker is up and its database answers.",
          content: {
            "application/json": {
              schema: z.object({
                status: z.literal("ok").openapi({ description: "Always `ok`: the Worker answered." }),
                database: z.literal("reachable").openapi({
                  description: `Always \`reachable\` here: the database answered its latest check (at most ${HEALTH_CACHE_MS / 1000} s old); an unreachable one is a 503 instead.`,
                }),
              }),
            },
          },
        },
        503: {
          description:
            "The database is unreachable (`service_unavailable`, `details.database` is `unreachable`): every route that reads or writes would fail. Retry after `Retry-After`.",
          content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } },
        },
      },
    }),
    async (c) => {
      if (!(await checkDatabase(c.env))) {
        throw new ApiError(
          "service_unavailable",
          "The database is unreachable.",
          { database: "unreachable" },
          { "Retry-After": String(HEALTH_CACHE_MS / 1000) },
        );
      }
      return c.json({ status: "ok" as const, database: "reachable" as const }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/errors",
      operationId: "listErrorCodes",
      security: [],
      tags: ["Meta"],
      summary: "The error dictionary",
      responses: {
        ...problemResponses,
        ...addressRateLimitedResponses,
        200: {
          description: "Every error code.",
          content: { "application/json": { schema: z.object({ data: z.array(ErrorEntry) }) } },
        },
      },
    }),
    (c) => c.json({ data: (Object.keys(errorCodes) as ErrorCode[]).map(entry) }, 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/errors/{code}",
      operationId: "getErrorCode",
      security: [],
      tags: ["Meta"],
      summary: "One error code",
      request: {
        params: z.object({
          code: z
            .string()
            .max(64)
            .openapi({
              param: { name: "code", in: "path" },
              description: "An error code, as a problem's `code` names it (`not_found`).",
            }),
        }),
      },
      responses: {
        ...problemResponses,
        ...addressRateLimitedResponses,
        200: {
          description: "The error code's entry.",
          content: { "application/json": { schema: ErrorEntry } },
        },
      },
    }),
    (c) => {
      const { code } = c.req.valid("param");
      if (!Object.hasOwn(errorCodes, code)) throw new ApiError("not_found", `No error code ${code}.`);
      return c.json(entry(code as ErrorCode), 200);
    },
  );
  return app;
}
