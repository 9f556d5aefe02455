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
 * Every scope a key can hold: `<resource>:<action>` for each resource, plus `artworks:write`, which the spec
 * names for deleting auction records.
 */
export const allScopes: readonly string[] = [
  ...scopeResources.flatMap((r) => scopeActions.map((a) => `${r}:${a}`)),
  "artworks:write",
].sort();

/** A publishable token (`gpub_`) holds exactly these: the public viewing-rooms read. */
export const PUBLISHABLE_SCOPES: readonly string[] = ["viewing_rooms:read"];

export const readScopes: readonly string[] = allScopes.filter((s) => s.endsWith(":read"));

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
