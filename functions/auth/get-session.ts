import { z } from "@hono/zod-openapi";
import { httpDb } from "../../db/client";
import { findSessionOverview } from "../../db/queries/sessions";
import type { Router } from "../../lib/http/app";
import { operation } from "../../lib/http/operation";
import { ApiError } from "../../lib/problem";
import { CurrentSession } from "../../lib/schemas/auth";

const route = operation({
  operationId: "getCurrentSession",
  method: "get",
  path: "/auth/sessions/current",
  tags: ["Auth"],
  summary: "Retrieve the current session",
  description: "Who is signed in: the member, their gallery and the scopes their role grants.",
  auth: { scopes: [], credentials: ["session"] },
  request: { query: z.strictObject({}) },
  responses: {
    200: { description: "The session.", content: { "application/json": { schema: CurrentSession } } },
  },
});

export function registerAuthGetSession(app: Router): void {
  app.openapi(route, async (c) => {
    const principal = c.get("principal");
    const overview = await findSessionOverview(httpDb(c.env), principal.galleryId, principal.credentialId);
    // The credential cache may outlive a member's deletion by its TTL; the row is the truth.
    if (!overview) throw new ApiError("unauthenticated", "The credential is unknown, revoked or expired.");
    return c.json({ ...overview, scopes: [...principal.scopes] } as z.infer<typeof CurrentSession>, 200);
  });
}
