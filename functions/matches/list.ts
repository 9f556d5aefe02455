import { z } from "@hono/zod-openapi";
import { matchList } from "../../db/queries/matches";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { paginationQuery } from "../../lib/pagination";
import { boolParam } from "../../lib/params";
import { MatchList, RECOMMENDATION_FLOOR } from "../../lib/schemas/matches";
import { listContactMatches } from "../../services/matches/read";
import { ContactMatchesParams } from "./params";

/** A probability in [0, 1], written in decimal digits (`0.5`, `1`, `0`); nothing else. */
const probabilityParam = z
  .string()
  .regex(/^-?(0|[1-9]\d*)(\.\d+)?$/, { message: "must be a number from 0 to 1 written in decimal digits" })
  .transform(Number)
  .pipe(z.number().min(0, { message: "must be at least 0" }).max(1, { message: "must be at most 1" }))
  .openapi({
    type: "number",
    minimum: 0,
    maximum: 1,
    default: RECOMMENDATION_FLOOR,
    description: `The lowest probability returned, 0 to 1; default the visible floor, ${RECOMMENDATION_FLOOR}.`,
  });

const route = operation({
  operationId: "listContactMatches",
  method: "get",
  path: "/gallery/contacts/{id}/matches",
  tags: ["Contacts"],
  summary: "List the artworks matched to a contact",
  description: `Available works the engine matched to the contact, best first: by \`probability\` (then id), as a stable keyset. Each match carries its sub-scores and its strongest evidence (\`reasons[]\`); \`GET …/matches/{matchId}\` shows every piece. Only pairs at or above \`min_probability\` (default the visible floor, ${RECOMMENDATION_FLOOR}) are returned, \`active\` and not hidden now (a \`hidden_until\` in the past is back); \`include_hidden=true\` also returns pairs a member hid or marked not interested (\`dismissed\`). \`inactive\` pairs are never listed, nor a pair whose work is no longer available (sold, reserved, not for sale, on loan), even before the engine marks it. A read-only caller does not see price evidence of a work that is not public-priced. A contact of another gallery is 404; a contact the engine has not judged yet answers an empty page.`,
  auth: { scopes: ["contacts:read", "artworks:read"] },
  pathIds: { id: "con" },
  list: matchList,
  request: {
    params: ContactMatchesParams,
    query: z.strictObject({
      ...paginationQuery(matchList),
      min_probability: probabilityParam.optional(),
      include_hidden: boolParam(
        "When true, also returns pairs a member hid (whatever `hidden_until`) or marked not interested.",
      )
        .optional()
        .openapi({ default: "false" }),
    }),
  },
  responses: {
    200: { description: "A page of matches.", content: { "application/json": { schema: MatchList } } },
  },
});

export function registerMatchesList(app: Router): void {
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c);
    const { id } = c.req.valid("param");
    const { limit, cursor, sort, dir, min_probability, include_hidden } = c.req.valid("query");
    const visibility = {
      minProbability: min_probability ?? RECOMMENDATION_FLOOR,
      includeHidden: include_hidden ?? false,
    };
    return listPage<z.infer<typeof MatchList>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listContactMatches(ctx, id, visibility, page),
    );
  });
}
