import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { FairRun, FairRunCreate } from "../../lib/schemas/fair-runs";
import { createFairRun } from "../../services/fair-runs/create";

const route = operation({
  operationId: "createFairRun",
  method: "post",
  path: "/gallery/fair-runs",
  tags: ["Fair runs"],
  summary: "Start a fair-submission run",
  description:
    "Starts a run that submits works to a fair through its portal (`portal_domain`, a host name such as `apply.example-fair.com`, stored in lower case; anything else is 400 naming it). `fair_list_id` optionally names the list of works submitted (opaque, 1 to 200 characters). The run acts for a member: with a member session, the signed-in member (`user_id` may be left out; another member's id is 400 naming `user_id`); with a secret key, `user_id` is required and must be an active member of the gallery (else 400 naming it). The run starts `running`, at `step_count` 0, with an empty action log. Emits `fair_run.created`.",
  auth: { scopes: ["artworks:create"] },
  idempotent: true,
  exampleBody: { portal_domain: "apply.example-fair.com", user_id: "mem_01jd4xk9v2c7h8m3n5p6q7r8s9" },
  request: {
    body: { required: true, content: { "application/json": { schema: FairRunCreate } } },
  },
  responses: {
    201: { description: "The new run.", content: { "application/json": { schema: FairRun } } },
  },
});

export function registerFairRunsCreate(app: Router): void {
  app.openapi(route, async (c) => respond(c, await createFairRun(serviceContext(c), c.req.valid("json"))));
}
