import { z } from "@hono/zod-openapi";
import { idString } from "../../lib/params";

/** A match id: `match_…`, as the engine creates them. */
const matchId = z
  .string()
  .max(64, { message: "is not a valid id" })
  .regex(/^match_[0-9a-z]{10,40}$/, { message: "must be an id beginning with match_" })
  .openapi({ example: "match_01jd4xk9v2c7h8m3n5p6q7r8s9" });

export const ContactMatchesParams = z.strictObject({
  id: idString("con").openapi({ param: { name: "id", in: "path" } }),
});

export const ContactMatchParams = z.strictObject({
  id: idString("con").openapi({ param: { name: "id", in: "path" } }),
  matchId: matchId.openapi({ param: { name: "matchId", in: "path" } }),
});
