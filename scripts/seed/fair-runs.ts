/** Fair-submission runs: one finished, one waiting for approval of its gated step. */
import * as schema from "../../db/schema";
import { BASE, DAY, iso } from "./common";
import type { SeedContext } from "./context";

/** The runs, each with its tool actions; the gated submit step is approved only on the finished run. */
export function seedFairRuns(ctx: SeedContext, lists: string[]): void {
  const { newId, G, rows, editorId } = ctx;
  const fairSpecs = [
    ["portal.northsea-art-fair.example", "completed", lists[0]!, null, 4],
    ["apply.pacific-contemporary.example", "running", null, null, 2],
  ] as const;
  fairSpecs.forEach(([portal, status, fairListId, error, steps], i) => {
    const createdMs = BASE - (12 - i * 8) * DAY;
    const tools = ["open_portal", "fill_application", "upload_images", "submit_application"];
    const actions = tools.slice(0, steps).map((tool, k) => ({
      tool,
      gated: tool === "submit_application",
      approved: tool !== "submit_application" || status === "completed",
      at: iso(createdMs + (k + 1) * 10 * 60_000),
    }));
    rows(schema.fairRuns).push({
      id: newId("fair", createdMs),
      ...G,
      userId: editorId,
      portalDomain: portal,
      fairListId: fairListId,
      status,
      stepCount: actions.length,
      actions,
      error,
      createdAt: iso(createdMs),
      updatedAt: actions.at(-1)?.at ?? iso(createdMs),
    });
  });
}
