import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { DEFAULT_HIDE_DAYS, MAX_HIDE_DAYS, Match, MatchFeedbackRequest } from "../../lib/schemas/matches";
import { recordMatchFeedback } from "../../services/matches/feedback";
import { ContactMatchParams } from "./params";

const route = operation({
  operationId: "createContactMatchFeedback",
  method: "post",
  path: "/gallery/contacts/{id}/matches/{matchId}/feedback",
  tags: ["Contacts"],
  summary: "Give feedback on a match",
  description: `A member's word on a match, kept as a label the matcher learns from. \`hide\` omits the pair from the matches list until \`hidden_until\` (default ${DEFAULT_HIDE_DAYS} days ahead; a future time at most ${MAX_HIDE_DAYS} days ahead, else 400 naming it); \`unhide\` shows it again and brings a \`dismissed\` pair back to \`active\`; \`not_interested\` dismisses the pair (listed only with \`include_hidden=true\`); \`good_match\` changes nothing on the match. \`hidden_until\` with another action is 400. An \`inactive\` match takes feedback too and stays inactive. Answers the match after the change. Emits \`match.feedback_recorded\` (with \`previous_attributes\` and \`data.feedback\`), and \`match.updated\` when the status changed.`,
  auth: { scopes: ["contacts:update"] },
  idempotent: true,
  pathIds: { id: "con", matchId: "match" },
  exampleBody: { action: "good_match" },
  request: {
    params: ContactMatchParams,
    body: { required: true, content: { "application/json": { schema: MatchFeedbackRequest } } },
  },
  responses: {
    200: { description: "The match after the feedback.", content: { "application/json": { schema: Match } } },
  },
});

export function registerMatchesFeedback(app: Router): void {
  app.openapi(route, async (c) => {
    const { id, matchId } = c.req.valid("param");
    return respond(c, await recordMatchFeedback(serviceContext(c), id, matchId, c.req.valid("json")));
  });
}
