import { sql } from "drizzle-orm";
import { apiKeyResource, createApiKeyStatement } from "../../db/queries/api-keys";
import { nextTimestamp } from "../../db/queries/rows";
import { PUBLISHABLE_TOKEN_PREFIX, SECRET_KEY_PREFIX } from "../../lib/credentials";
import { randomToken, sha256Hex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import { ApiError } from "../../lib/problem";
import { type ApiKeyCreateInput, CreatedApiKey } from "../../lib/schemas/api-keys";
import { missingScopes, PUBLISHABLE_SCOPES } from "../../lib/scopes";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, revealOnce } from "../write";

/** Shown to the owner so they can recognise the key later: the type prefix and a few random characters. */
const DISPLAY_PREFIX_LENGTH = 12;

/**
 * Mints a secret key or publishable token; only its SHA-256 is stored and the key itself is shown once. A
 * credential cannot grant scopes it does not hold.
 */
export async function createApiKey(ctx: ServiceContext, input: ApiKeyCreateInput) {
  const { db, principal } = ctx;
  const scopes = input.kind === "publishable" ? PUBLISHABLE_SCOPES : input.scopes!;
  const ungrantable = missingScopes(principal.scopes, scopes);
  if (ungrantable.length > 0) {
    throw new ApiError(
      "forbidden",
      `A credential cannot grant scopes it does not hold: ${ungrantable.join(", ")}.`,
      { ungrantable_scopes: ungrantable },
    );
  }
  const token = randomToken(input.kind === "secret" ? SECRET_KEY_PREFIX : PUBLISHABLE_TOKEN_PREFIX);
  const id = newId("key");
  const object = apiKeyResource.jsonById(principal.galleryId, id, {});
  const key = {
    id,
    kind: input.kind,
    name: input.name,
    prefix: token.slice(0, DISPLAY_PREFIX_LENGTH),
    key_hash: await sha256Hex(token),
    scopes: [...scopes],
  };
  const written = await executeWrite(ctx, {
    schema: CreatedApiKey,
    statements: [createApiKeyStatement(db, principal.galleryId, key, nextTimestamp())],
    events: [changeEvent("api_key.created", "api_key", id, object)],
    status: 201,
    // What is stored for replays (Postgres and KV) must not hold the secret, so it is added only after.
    body: sql`(${object})::jsonb || jsonb_build_object('secret', null::text)`,
  });
  return revealOnce(written, "secret", token);
}
