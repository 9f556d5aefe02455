import type { z } from "zod";
import { apiKeyResource, findApiKey, revokeApiKeyStatement } from "../../db/queries/api-keys";
import { nextTimestamp } from "../../db/queries/rows";
import { purgeCredential } from "../../lib/credentials";
import { ApiError } from "../../lib/problem";
import { ApiKey } from "../../lib/schemas/api-keys";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, guarded, type Written } from "../write";

/**
 * Revokes a key: it stops authenticating before this call answers (the edge cache entry is purged after the
 * commit, so a concurrent lookup cannot re-cache the still-live row). Revoking a revoked key answers it as is.
 */
export async function revokeApiKey(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const current = await findApiKey(db, principal.galleryId, id);
  if (!current) throw new ApiError("not_found", `No API key ${id} in this gallery.`);
  if (current.revoked) {
    // Purged again: a revoke whose purge failed after its commit is completed by its retry.
    await purgeCredential(ctx.env, current.keyHash);
    const unchanged: Written<z.output<typeof ApiKey>, 200> = {
      status: 200,
      body: JSON.stringify(current.body),
      replayed: false,
    };
    return unchanged;
  }
  const object = apiKeyResource.jsonById(principal.galleryId, id, {});
  const at = nextTimestamp(current.updatedAt);
  const written = await executeWrite(ctx, {
    schema: ApiKey,
    statements: [guarded(revokeApiKeyStatement(db, principal.galleryId, id, current.updatedAt, at))],
    events: [changeEvent("api_key.revoked", "api_key", id, object)],
    status: 200,
    body: object,
  });
  // Awaited, not waitUntil: revocation must hold for the very next request.
  await purgeCredential(ctx.env, current.keyHash);
  return written;
}
