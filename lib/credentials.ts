import type { Env } from "./env";

export const SECRET_KEY_PREFIX = "gpk_";
export const PUBLISHABLE_TOKEN_PREFIX = "gpub_";
export const SESSION_TOKEN_PREFIX = "gss_";

export function credentialCacheKey(hash: string): string {
  return `cred:${hash}`;
}

/** Removes a credential from the edge cache; called by every revoke. */
export async function purgeCredential(env: Pick<Env, "EDGE_KV">, hash: string): Promise<void> {
  await env.EDGE_KV.delete(credentialCacheKey(hash));
}
