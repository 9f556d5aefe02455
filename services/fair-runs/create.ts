import { expectRunMember, fairRunResource, insertFairRun } from "../../db/queries/fair-runs";
import { nextTimestamp } from "../../db/queries/rows";
import { newId } from "../../lib/ids";
import { ApiError } from "../../lib/problem";
import { FairRun, type FairRunCreateInput } from "../../lib/schemas/fair-runs";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite } from "../write";

function userIdProblem(message: string): ApiError {
  return new ApiError("invalid_request", `Body field \`user_id\` ${message}.`, [
    { location: "body", field: "user_id", message },
  ]);
}

/**
 * The member a new run acts for: with a member session, the signed-in member (naming another is a 400); with a
 * secret key, `user_id`, which is then required.
 */
function runMember(ctx: ServiceContext, userId: string | undefined): string {
  const { kind, memberId } = ctx.principal;
  if (kind === "session" && memberId) {
    if (userId !== undefined && userId !== memberId) {
      throw userIdProblem("must be the signed-in member (or left out) with a member session");
    }
    return memberId;
  }
  if (userId === undefined) throw userIdProblem("is required with a secret key: the member the run acts for");
  return userId;
}

/**
 * Starts a fair-submission run for a member (an active member of the gallery, else 400 naming `user_id`): it is
 * `running`, at step 0, with an empty action log. Records `fair_run.created`.
 */
export function createFairRun(ctx: ServiceContext, input: FairRunCreateInput) {
  const galleryId = ctx.principal.galleryId;
  const userId = runMember(ctx, input.user_id);
  const id = newId("fair");
  const at = nextTimestamp();
  const object = fairRunResource.jsonById(galleryId, id, {});
  return executeWrite(ctx, {
    schema: FairRun,
    statements: [
      expectRunMember(galleryId, userId),
      insertFairRun(
        galleryId,
        id,
        { userId, portalDomain: input.portal_domain, fairListId: input.fair_list_id ?? null },
        at,
      ),
    ],
    events: [changeEvent("fair_run.created", "fair_run", id, object)],
    status: 201,
    body: object,
  });
}
