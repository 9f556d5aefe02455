import { openSecret, type SecretBoxKeys, sealSecret } from "../secret-box";

/**
 * A connection's provider secrets (a WhatsApp app secret and verify token, a Twilio auth token) are kept as one
 * JSON object sealed like webhook signing secrets (lib/secret-box.ts), bound to the connection: a sealed value
 * copied onto another connection does not open.
 */

export type ConnectionSecrets = Partial<Record<"app_secret" | "verify_token" | "auth_token", string>>;

function context(connectionId: string): string {
  return `inbox_connection:${connectionId}`;
}

/** Never the start of a stored value: every stored value is sealed. */
const NO_LEGACY_FORMAT = "\u0000";

export function sealConnectionSecrets(
  keys: SecretBoxKeys,
  connectionId: string,
  secrets: ConnectionSecrets,
): Promise<string> {
  return sealSecret(keys, JSON.stringify(secrets), context(connectionId));
}

/** The connection's secrets; empty when none were set. */
export async function openConnectionSecrets(
  keys: SecretBoxKeys,
  connectionId: string,
  sealed: string | null,
): Promise<ConnectionSecrets> {
  if (sealed === null) return {};
  return JSON.parse(
    await openSecret(keys, sealed, context(connectionId), NO_LEGACY_FORMAT),
  ) as ConnectionSecrets;
}
