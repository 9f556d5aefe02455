import { type RouteConfig, z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../lib/env";
import { boolParam } from "../lib/params";
import { dryRunResult } from "../lib/schemas/dry-run";

/**
 * The dry-run mechanism. An operation declared with `dryRun` (http/operation.ts) takes the query parameter
 * `dry_run`; with `dry_run=true` the request is authenticated, scoped and validated as usual, then the service is
 * told (ServiceContext.dryRun) and answers what the call would change without changing it: no write, no
 * idempotency claim (http/idempotency.ts skips it), no domain event and so no webhook delivery (deliveries are
 * fanned out from event rows). executeWrite refuses to run in a dry run, so a service cannot write by mistake.
 */

export const DRY_RUN_PARAM = "dry_run";
export const DRY_RUN_HEADER = "X-Dry-Run";

/** What an operation that can be dry-run declares: the schema of its Dry-run result's `effect`. */
export interface DryRunDeclaration {
  effect: z.ZodType;
}

const dryRuns = new WeakSet<Request>();

/** Whether this request is a dry run of an operation that declares one. */
export function isDryRun(c: Context<AppEnv>): boolean {
  return dryRuns.has(c.req.raw);
}

/**
 * Marks a dry run before the idempotency middleware and the handler run, and sets `X-Dry-Run: true` on its
 * success. A malformed `dry_run` value is refused by the query validator after this, before any handler.
 */
export const dryRunMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.query(DRY_RUN_PARAM) !== "true") return next();
  dryRuns.add(c.req.raw);
  await next();
  if (c.res.status >= 200 && c.res.status < 300) c.res.headers.set(DRY_RUN_HEADER, "true");
};

/** The paragraph every dry-runnable operation's description ends with. */
export const DRY_RUN_NOTE =
  "**Dry run.** With `dry_run=true` the request is authenticated, scoped and validated as usual (a missing resource is still 404), but nothing happens: no write, no idempotency claim (an `Idempotency-Key` sent with it is checked for shape only and stays unused), no domain event and no webhook delivery. The answer is 200 with `X-Dry-Run: true` and `{dry_run: true, effect}`, where `effect` says what the real call would change.";

/** The operation's query with `dry_run` beside its own parameters (an object schema, so it can take one more). */
export function withDryRunQuery(operationId: string, query: unknown): z.ZodObject {
  if (!(query instanceof z.ZodObject))
    throw new Error(`${operationId}: a dry run needs an object query schema`);
  return query.extend({
    [DRY_RUN_PARAM]: boolParam(
      "`true` makes this call a dry run: validated, then answered with what it would change, changing nothing.",
    ).optional(),
  });
}

function pascalCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The documented 200 of a dry-runnable operation: its own 200 body (when it has one) or the Dry-run result. */
export function withDryRunResponse(
  operationId: string,
  responses: RouteConfig["responses"],
  declaration: DryRunDeclaration,
): RouteConfig["responses"] {
  const result = dryRunResult(declaration.effect, `${pascalCase(operationId)}DryRunResult`);
  const own = responses[200];
  if (own && "$ref" in own) throw new Error(`${operationId}: a dry run needs its 200 response inline`);
  const media = own?.content?.["application/json"];
  const ownSchema = media && "schema" in media ? media.schema : undefined;
  const schema = ownSchema instanceof z.ZodType ? z.union([ownSchema, result]) : result;
  return {
    ...responses,
    200: {
      description: `${own?.description ?? "Success."} With \`dry_run=true\`: the Dry-run result.`,
      headers: {
        ...own?.headers,
        [DRY_RUN_HEADER]: {
          description: "`true` on the answer to a dry run; absent otherwise.",
          schema: { type: "string", enum: ["true"] },
        },
      },
      content: { "application/json": { schema } },
    },
  };
}
