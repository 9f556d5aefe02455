import { sql } from "drizzle-orm";
import { endpointResource, findWebhookEndpoint, rotateSecretStatement } from "../../db/queries/webhooks";
import { PREVIOUS_SECRET_SECONDS, WebhookEndpointWithSecret } from "../../lib/schemas/webhooks";
import type { ServiceContext } from "../context";
import { changeEvent, guarded, revealOnce, writeExisting } from "../write";
import { newWebhookSecret, sealWebhookSecret } from "./secret";

/**
 * Mints a new signing secret, shown once; the former one keeps signing for `expirePreviousInSeconds` (24 hours
 * by default, 0 drops it at once). Records `webhook_endpoint.secret_rotated`.
 */
export async function rotateWebhookSecret(
  ctx: ServiceContext,
  id: string,
  input: { expire_previous_in_seconds?: number },
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findWebhookEndpoint(db, galleryId, id);
  const secret = newWebhookSecret();
  const sealed = await sealWebhookSecret(ctx.env, id, secret);
  const written = await writeExisting(
    ctx,
    current,
    `No webhook endpoint ${id} in this gallery.`,
    (found, at) => {
      const keepSeconds = input.expire_previous_in_seconds ?? PREVIOUS_SECRET_SECONDS;
      const previousExpiresAt =
        keepSeconds > 0 ? new Date(Date.parse(at) + keepSeconds * 1000).toISOString() : null;
      const object = endpointResource.jsonById(galleryId, id, {});
      return {
        schema: WebhookEndpointWithSecret,
        statements: [
          guarded(rotateSecretStatement(db, galleryId, id, sealed, previousExpiresAt, found.updatedAt, at)),
        ],
        events: [changeEvent("webhook_endpoint.secret_rotated", "webhook_endpoint", id, object)],
        status: 200 as const,
        body: sql`(${object})::jsonb || jsonb_build_object('secret', null::text)`,
      };
    },
  );
  return revealOnce(written, "secret", secret);
}
