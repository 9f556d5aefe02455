/**
 * `connector`: a provider's delivery to a connection (`/connectors/{channel}/{connection_id}`), proved by the
 * provider's signature with the connection's secret.
 * `upload_token`: the one-time token of a signed upload URL, presented in the path (`/uploads/{token}`) rather
 * than a header; it authorises exactly one PUT of one object.
 */
export type CredentialKind = "secret" | "publishable" | "session" | "upload_token" | "connector";

/** What an upload token allows: one object, of one type and at most so many bytes, at a path the server chose. */
export interface UploadGrant {
  /** The upload_tokens row id. */
  id: string;
  storagePath: string;
  purpose: string;
  resourceId: string | null;
  contentType: string;
  maxBytes: number;
  expiresAt: string;
}

/**
 * A connector's connection, proved by the provider's signature (or, for email, by the inbound address the mail
 * was routed to): the principal of a provider's delivery acts for it.
 */
export interface ConnectorGrant {
  connectionId: string;
  channel: "email" | "whatsapp" | "sms";
  /** The connection's own address, normalised. */
  address: string;
  /** The owning member's sign-in email, when the member still exists. */
  memberEmail: string | null;
}

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
  /** For an upload token: the one upload it allows. */
  upload?: UploadGrant;
  /** For a connector's delivery: the connection it delivers to. */
  connector?: ConnectorGrant;
}

/**
 * Who a change is recorded for in the outbox: a request's principal, or, for work no request asked for (the cron
 * Worker sending a scheduled offer), the gallery itself with no credential.
 */
export type Actor = Pick<Principal, "galleryId" | "livemode"> & { credentialId: string | null };

/** What a connector's principal is made from: the connection a verified delivery (or a routed mail) names. */
export interface ConnectorConnectionInfo {
  id: string;
  galleryId: string;
  livemode: boolean;
  memberId: string;
  channel: ConnectorGrant["channel"];
  address: string;
  memberEmail: string | null;
}

/**
 * The principal of a provider's delivery: it acts as the connection, in its gallery, for its member, and may only
 * deliver messages (`inbox:create`). One constructor for the webhooks' gate and the email handler.
 */
export function connectorPrincipal(connection: ConnectorConnectionInfo): Principal {
  return {
    kind: "connector",
    credentialId: connection.id,
    credentialHash: "",
    galleryId: connection.galleryId,
    livemode: connection.livemode,
    scopes: ["inbox:create"],
    memberId: connection.memberId,
    role: null,
    readOnly: false,
    connector: {
      connectionId: connection.id,
      channel: connection.channel,
      address: connection.address,
      memberEmail: connection.memberEmail,
    },
  };
}
