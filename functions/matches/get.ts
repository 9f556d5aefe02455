import type { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { sendJson, serviceContext } from "../../http/respond";
import { MatchDetail } from "../../lib/schemas/matches";
import { getContactMatch } from "../../services/matches/read";
import { ContactMatchParams } from "./params";

const route = operation({
  operationId: "getContactMatch",
  method: "get",
  path: "/gallery/contacts/{id}/matches/{matchId}",
  tags: ["Contacts"],
  summary: "Read one match with all its evidence",
  description:
    "The match, every piece of evidence behind its probability (by question, strongest first, each with the sub-score of its question and the id of the row it came from) and members' feedback on the pair, newest first. Readable whatever its status, an `inactive` one too. A read-only caller does not see price evidence of a work that is not public-priced. 404 when the match is not this contact's in this gallery.",
  auth: { scopes: ["contacts:read", "artworks:read"] },
  pathIds: { id: "con", matchId: "match" },
  request: { params: ContactMatchParams },
  responses: {
    200: {
      description: "The match with its evidence and feedback.",
      content: { "application/json": { schema: MatchDetail } },
    },
  },
});

export function registerMatchesGet(app: Router): void {
  app.openapi(route, async (c) => {
    const { id, matchId } = c.req.valid("param");
    const text = await getContactMatch(serviceContext(c), id, matchId);
    return sendJson<z.infer<typeof MatchDetail>, 200>(c, text, 200);
  });
}
