export type CredentialKind = "secret" | "publishable" | "session";

/** Who is calling: resolved once per request by `authenticate` and read by handlers via `c.var.principal`. */
export interface Principal {
  kind: CredentialKind;
  /** The api_keys or sessions row id. */
  credentialId: string;
  /** SHA-256 of the presented secret: the stored hash and the edge-cache key, for revoking exactly this credential. */
  credentialHash: string;
  galleryId: string;
  livemode: boolean;
  scopes: readonly string[];
  memberId: string | null;
  role: "editor" | "viewer" | null;
  /** Every scope is `:read`: format prices are gated for such callers. */
  readOnly: boolean;
}
