import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { revokeSessionStatement } from "../../db/queries/sessions";
import type { Router } from "../../lib/http/app";
import { purgeCredential } from "../../lib/http/auth";
import { operation } from "../../lib/http/operation";
import { executeWrite, guarded } from "../../lib/http/write";
import { SessionDeleted } from "../../lib/schemas/auth";
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
    const principal = c.get("principal");
    clearSessionCookie(c);
    const response = await executeWrite(c, {
      statements: [
        guarded(
          revokeSessionStatement(principal.galleryId, principal.credentialId, principal.credentialHash),
        ),
      ],
      events: [],
      status: 200,
      body: sql`jsonb_build_object('id', ${principal.credentialId}::text, 'deleted', true)`,
    });
    // Only after the commit: purged earlier, a concurrent lookup could re-cache the still-live row.
    await purgeCredential(c.env, principal.credentialHash);
    return response as never;
  });
}
