import { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { SessionDeleted } from "../../lib/schemas/auth";
import { signOut } from "../../services/auth/sessions";
import { clearSessionCookie } from "./cookie";

const route = operation({
  operationId: "deleteCurrentSession",
  method: "delete",
  path: "/auth/sessions/current",
  tags: ["Auth"],
  summary: "Sign out",
  description:
    "Revokes the session that authenticates this request, at once (its cached credential is purged before the response), and clears the `gallery_session` cookie. Takes no Idempotency-Key: once this succeeds the session no longer authenticates, so a retry answers 401, which means the sign-out happened.",
  auth: { scopes: [], credentials: ["session"] },
  request: { query: z.strictObject({}) },
  responses: {
    200: {
      description: "The session is revoked.",
      content: { "application/json": { schema: SessionDeleted } },
    },
  },
});

export function registerAuthDeleteSession(app: Router): void {
  app.openapi(route, async (c) => {
    clearSessionCookie(c);
    return respond(c, await signOut(serviceContext(c)));
  });
}
