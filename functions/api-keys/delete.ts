import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { httpDb } from "../../db/client";
import { apiKeyJsonById, findApiKey, revokeApiKeyStatement } from "../../db/queries/api-keys";
import { nextTimestamp } from "../../db/queries/rows";
import type { Router } from "../../lib/http/app";
import { purgeCredential } from "../../lib/http/auth";
import { operation } from "../../lib/http/operation";
import { executeWrite, guarded } from "../../lib/http/write";
import { ApiError } from "../../lib/problem";
import { ApiKey, ApiKeyIdParams } from "../../lib/schemas/api-keys";

const route = operation({
  operationId: "revokeApiKey",
  method: "delete",
  path: "/gallery/api-keys/{id}",
  tags: ["API keys"],
  summary: "Revoke an API key",
  description:
    "Revokes the key at once: the response is sent only after its cached credential is purged, so the next request with it is 401. The key stays listed with `revoked_at`. Revoking a revoked key changes nothing and answers the same. A key may revoke itself; it is then unusable, including for a retry of this request. Emits `api_key.revoked`.",
  auth: { scopes: ["api_keys:delete"] },
  idempotent: true,
  pathIds: { id: "key" },
  request: { params: ApiKeyIdParams },
  responses: {
    200: { description: "The revoked key.", content: { "application/json": { schema: ApiKey } } },
  },
});

export function registerApiKeysDelete(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const principal = c.get("principal");
    const current = await findApiKey(httpDb(c.env), principal.galleryId, id);
    if (!current) throw new ApiError("not_found", `No API key ${id} in this gallery.`);
    if (current.revoked) {
      // Purged again: a revoke whose purge failed after its commit is completed by its retry.
      await purgeCredential(c.env, current.keyHash);
      return c.json(current.body as z.infer<typeof ApiKey>, 200);
    }
    const object = apiKeyJsonById(principal.galleryId, id);
    const at = nextTimestamp(current.updatedAt);
    const response = await executeWrite(c, {
      statements: [guarded(revokeApiKeyStatement(principal.galleryId, id, current.updatedAt, at))],
      events: [
        {
          type: "api_key.revoked",
          resourceType: "api_key",
          resourceId: id,
          data: sql`jsonb_build_object('object', (${object}))`,
        },
      ],
      status: 200,
      body: object,
    });
    // Awaited, not waitUntil: revocation must hold for the very next request. Only after the commit, so a
    // concurrent lookup cannot re-cache the still-live row.
    await purgeCredential(c.env, current.keyHash);
    return response as never;
  });
}
