import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { FairRun, FairRunIdParams, FairRunUpdate } from "../../lib/schemas/fair-runs";
import { updateFairRun } from "../../services/fair-runs/update";

const route = operation({
  operationId: "updateFairRun",
  method: "patch",
  path: "/gallery/fair-runs/{id}",
  tags: ["Fair runs"],
  summary: "Update a fair-submission run",
  description: [
    "Records the run's progress or outcome; every field is optional and they apply together, or not at all.",
    "- `status`: `running` and `awaiting_approval` are active and may follow each other; `succeeded`, `failed` and `cancelled` finish the run. Entering `awaiting_approval` needs a gated action left unapproved (after this request's approvals and appended actions), else 409 `conflict`. `succeeded` needs every gated action approved, else 409 `conflict` whose `details.unapproved_positions` lists the positions.",
    "- `step_count`: at least the stored count; lower is 409 `conflict` whose `details.step_count` is the current count.",
    "- `error`: 1 to 2000 characters (typically with `failed`), or null to clear it.",
    "- `actions`: 1 to 50 entries `{tool, gated, approved?, at?}` appended to the log after the stored ones (`approved` defaults to false, `at` to now); the log is never replaced and holds at most 1000 entries (beyond, 409 `conflict`).",
    "- `approve`: positions (0-based) of gated actions already in the log to mark approved; a position beyond the log or of an action that is not gated is 400 naming `approve`.",
    "",
    "A finished run never changes again: a request that would change one (its status, step count, error, log or approvals) is 409 `conflict` whose `details.status` names its state; sending what it already holds (the same terminal status) is 200 and changes nothing. Unknown fields are 400. Emits `fair_run.updated` (`data.previous_attributes` holds the former status, step_count and error that changed; `data.appended_actions` the entries appended; `data.approved_positions` the positions newly approved), then `fair_run.succeeded`, `fair_run.failed` or `fair_run.cancelled` when the run finishes; a request that changes nothing emits nothing.",
  ].join("\n"),
  auth: { scopes: ["artworks:update"] },
  idempotent: true,
  pathIds: { id: "fair" },
  exampleBody: { step_count: 1, actions: [{ tool: "open_portal", gated: false }] },
  request: {
    params: FairRunIdParams,
    body: { required: true, content: { "application/json": { schema: FairRunUpdate } } },
  },
  responses: {
    200: { description: "The run after the change.", content: { "application/json": { schema: FairRun } } },
  },
});

export function registerFairRunsUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await updateFairRun(serviceContext(c), id, c.req.valid("json")));
  });
}
