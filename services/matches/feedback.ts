import type { z } from "zod";
import {
  findMatch,
  insertMatchFeedback,
  type MatchFeedbackChange,
  matchJsonById,
  updateMatchStatement,
} from "../../db/queries/matches";
import { newId } from "../../lib/ids";
import { ApiError } from "../../lib/problem";
import {
  DEFAULT_HIDE_DAYS,
  MAX_HIDE_DAYS,
  Match,
  type MatchFeedbackRequest,
} from "../../lib/schemas/matches";
import type { ServiceContext } from "../context";
import { changeEvent, guarded, refuseUnlessReplay, writeExisting } from "../write";

type FeedbackInput = z.infer<typeof MatchFeedbackRequest>;
type MatchBody = z.infer<typeof Match>;

const DAY_MS = 86_400_000;

function invalidHiddenUntil(message: string): ApiError {
  return new ApiError("invalid_request", `Body field \`hidden_until\` ${message}.`, [
    { location: "body", field: "hidden_until", message },
  ]);
}

/**
 * Until when a hide lasts: the body's `hidden_until`, or DEFAULT_HIDE_DAYS from now. It must lie ahead, at most
 * MAX_HIDE_DAYS away; `hidden_until` with any other action is refused (400 naming it).
 */
export function hideUntil(input: FeedbackInput, now: number): string | null {
  if (input.action !== "hide") {
    if (input.hidden_until !== undefined) throw invalidHiddenUntil("is only taken with the action hide");
    return null;
  }
  if (input.hidden_until === undefined) return new Date(now + DEFAULT_HIDE_DAYS * DAY_MS).toISOString();
  const until = Date.parse(input.hidden_until);
  if (until <= now) throw invalidHiddenUntil("must be in the future");
  if (until > now + MAX_HIDE_DAYS * DAY_MS) {
    throw invalidHiddenUntil(`must be at most ${MAX_HIDE_DAYS} days ahead`);
  }
  return new Date(until).toISOString();
}

/**
 * What the feedback changes on the match, and its former values (`previous_attributes`): hide sets
 * `hidden_until`; unhide clears it and brings a dismissed pair back to `active`; not_interested dismisses the
 * pair; good_match changes nothing (it is a label). An inactive pair stays inactive whatever the action: its
 * work is gone, the engine decides when it returns; a hide or unhide on it still moves `hidden_until`.
 */
export function feedbackChange(
  match: MatchBody,
  action: FeedbackInput["action"],
  hiddenUntil: string | null,
  memberId: string | null,
): { change: MatchFeedbackChange; previous: Partial<MatchBody> } {
  const change: MatchFeedbackChange = {};
  const previous: Partial<MatchBody> = {};
  const status = (next: MatchBody["status"]) => {
    if (match.status === "inactive" || match.status === next) return;
    change.status = next;
    previous.status = match.status;
  };
  const hidden = (next: string | null) => {
    change.hiddenUntil = next;
    change.hiddenBy = next === null ? null : memberId;
    if (match.hidden_until !== next) previous.hidden_until = match.hidden_until;
  };
  if (action === "hide") hidden(hiddenUntil);
  if (action === "unhide") {
    if (match.hidden_until !== null) hidden(null);
    status("active");
  }
  if (action === "not_interested") status("dismissed");
  return { change, previous };
}

/**
 * A member's feedback on one of the contact's matches, answered with the match after it. One batch: the
 * feedback row (kept by pair, the matcher's label), the match's change guarded against a concurrent one, and
 * `match.feedback_recorded` (the match after, `previous_attributes` the fields that changed, the feedback);
 * when the status changed (dismissed, or back to active) also `match.updated`.
 */
export async function recordMatchFeedback(
  ctx: ServiceContext,
  contactId: string,
  matchId: string,
  input: FeedbackInput,
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  let hiddenUntil: string | null;
  try {
    hiddenUntil = hideUntil(input, Date.now());
  } catch (error) {
    // A hide that was ahead when first sent and has passed since: its retry replays the first answer.
    if (error instanceof ApiError) return refuseUnlessReplay<MatchBody, 200>(ctx, error);
    throw error;
  }
  const memberId = principal.kind === "session" ? principal.memberId : null;
  const current = await findMatch(db, galleryId, contactId, matchId);
  const notFound = `No match ${matchId} of contact ${contactId} in this gallery.`;
  return writeExisting(ctx, current, notFound, (found, at) => {
    const { change, previous } = feedbackChange(found.body, input.action, hiddenUntil, memberId);
    const object = matchJsonById(galleryId, matchId, { gatePrices: false });
    const feedback = {
      id: newId("mfb"),
      action: input.action,
      hidden_until: hiddenUntil,
      member_id: memberId,
    };
    const events = [changeEvent("match.feedback_recorded", "match", matchId, object, previous, { feedback })];
    if ("status" in previous) {
      events.push(changeEvent("match.updated", "match", matchId, object, { status: previous.status }));
    }
    return {
      schema: Match,
      statements: [
        insertMatchFeedback(
          galleryId,
          {
            id: feedback.id,
            matchId,
            contactId,
            artworkId: found.body.artwork_id,
            memberId,
            action: input.action,
            hiddenUntil,
          },
          at,
        ),
        guarded(updateMatchStatement(galleryId, contactId, matchId, change, found.updatedAt, at)),
      ],
      events,
      status: 200 as const,
      body: object,
    };
  });
}
