import {
  artworkJudgmentsText,
  listRubricJudgments,
  type RubricJudgmentPage,
  threadTriageText,
} from "../../db/queries/judgments";
import { type ListQuery, type ListSpec, pageBody } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";
import { inboxOwner } from "../inbox/member";
import { readsPrivateNotes } from "../private-notes/access";

/** Why an artwork is judged as it is, as JSON text; a work of another gallery is as missing as an unknown one. */
export async function getArtworkJudgments(ctx: ServiceContext, id: string): Promise<string> {
  const text = await artworkJudgmentsText(ctx.db, ctx.principal.galleryId, id);
  if (text === null) throw new ApiError("not_found", `No artwork ${id} in this gallery.`);
  return text;
}

/** Why one of the signed-in member's threads is triaged as it is; another member's is 404. */
export async function getThreadTriage(ctx: ServiceContext, id: string): Promise<string> {
  const text = await threadTriageText(ctx.db, ctx.principal.galleryId, inboxOwner(ctx), id);
  if (text === null) throw new ApiError("not_found", `No inbox thread ${id} of yours.`);
  return text;
}

/**
 * One page of a list's rubric verdicts with the list's `rubric` object, as the whole response (JSON text):
 * `{rubric, data, next_cursor}`. A missing list is a 404, not an empty page.
 */
export async function listRubricJudgmentsPage(
  ctx: ServiceContext,
  listId: string,
  contactId: string | undefined,
  list: ListSpec & { route: string },
  query: ListQuery,
): Promise<string> {
  let found: RubricJudgmentPage | null = null;
  const body = await pageBody(ctx.env.SIGNING_SECRET, ctx.principal.galleryId, list, query, async (page) => {
    found = await listRubricJudgments(
      ctx.db,
      ctx.principal.galleryId,
      listId,
      contactId,
      page,
      readsPrivateNotes(ctx.principal),
    );
    if (found === null) throw new ApiError("not_found", `No contact list ${listId} in this gallery.`);
    return found.rows;
  });
  const rubric = (found as RubricJudgmentPage | null)?.rubric ?? "null";
  // pageBody's text starts with `{"data":`: the rubric object goes first, as Postgres built it.
  return `{"rubric":${rubric},${body.slice(1)}`;
}
