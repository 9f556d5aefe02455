export const scopeResources = [
  "api_keys",
  "artists",
  "artworks",
  "contacts",
  "custom_statuses",
  "events",
  "inbox",
  "locations",
  "members",
  "offers",
  "publications",
  "sales",
  "shows",
  "tags",
  "viewing_rooms",
  "webhooks",
] as const;

export const scopeActions = ["read", "create", "update", "delete"] as const;

/**
 * The operator's scope: the engine's failures and what reached the dead-letter queues (GET
 * /v1/gallery/engine/failures, /dead-letters). Not a read of the gallery's business, so a viewer does not hold it.
 */
export const ADMIN_SCOPE = "admin:read";

/**
 * Every scope a key can hold: `<resource>:<action>` for each resource, plus `artworks:write`, which the spec
 * names for deleting auction records, and the operator's `admin:read`.
 */
export const allScopes: readonly string[] = [
  ...scopeResources.flatMap((r) => scopeActions.map((a) => `${r}:${a}`)),
  "artworks:write",
  ADMIN_SCOPE,
].sort();

/** A publishable token (`gpub_`) holds exactly these: the public viewing-rooms read. */
export const PUBLISHABLE_SCOPES: readonly string[] = ["viewing_rooms:read"];

export const readScopes: readonly string[] = allScopes.filter(
  (s) => s.endsWith(":read") && s !== ADMIN_SCOPE,
);

export function isKnownScope(scope: string): boolean {
  return allScopes.includes(scope);
}

/** All listed scopes are required (the spec leaves all-vs-any open; requiring all is the safe reading). */
export function missingScopes(held: readonly string[], required: readonly string[]): string[] {
  return required.filter((s) => !held.includes(s));
}

/** Member roles map onto scopes: editors may do everything, viewers only read. */
export function scopesForRole(role: "editor" | "viewer"): readonly string[] {
  return role === "editor" ? allScopes : readScopes;
}
