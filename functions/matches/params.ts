import { z } from "@hono/zod-openapi";
import { idString } from "../../lib/params";

/** A match id: `mat_…` (the engine's) or `match_…`. */
const matchId = z
  .string()
  .max(64, { message: "is not a valid id" })
  .regex(/^(mat|match)_[0-9a-z]{10,40}$/, { message: "must be an id beginning with mat_" })
  .openapi({ example: "mat_01jd4xk9v2c7h8m3n5p6q7r8s9" });

export const ContactMatchesParams = z.strictObject({
  id: idString("con").openapi({ param: { name: "id", in: "path" } }),
});

export const ContactMatchParams = z.strictObject({
  id: idString("con").openapi({ param: { name: "id", in: "path" } }),
  matchId: matchId.openapi({ param: { name: "matchId", in: "path" } }),
});
