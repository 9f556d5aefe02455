import { z } from "@hono/zod-openapi";

/**
 * The spec's Dry-run result: `dry_run: true` and, where the change can be determined, `effect`, what the real call
 * would change. Each operation that declares a dry run describes its own effect; this is the shape around it.
 */
export function dryRunResult<E extends z.ZodType>(effect: E, name: string) {
  return z
    .object({
      dry_run: z.literal(true).openapi({
        description: "Always true: the request was checked, and nothing was written, recorded or delivered.",
      }),
      effect: effect.optional().openapi({ description: "What the real call would change." }),
    })
    .openapi(name);
}

/** A dry run's answer as services build it (the effect typed by the operation's own schema). */
export interface DryRunBody<E = Record<string, unknown>> {
  dry_run: true;
  effect?: E;
}
