import type { Context, MiddlewareHandler } from "hono";
import { httpDb } from "../db/client";
import { findConnectorConnection } from "../db/queries/inbox";
import { openConnectionSecrets } from "../lib/connectors/secrets";
import { verifyTwilioSignature } from "../lib/connectors/twilio";
import { verifyWhatsAppHandshake, verifyWhatsAppSignature } from "../lib/connectors/whatsapp";
import { type AppEnv, publicBaseUrl } from "../lib/env";
import { connectorPrincipal } from "../lib/principal";
import { ApiError } from "../lib/problem";
import { countRequest, countsItsRequests } from "./rate-limit";

/**
 * How a provider proves a delivery to a connection (`/connectors/{channel}/{connection_id}`):
 * - `whatsapp_handshake`: Meta's verification of the callback URL (`hub.mode=subscribe`, `hub.verify_token`
 *   equal to the connection's verify token);
 * - `whatsapp_signature`: `X-Hub-Signature-256`, HMAC-SHA256 of the raw body with the connection's app secret;
 * - `twilio_signature`: `X-Twilio-Signature`, HMAC-SHA1 of the public URL and the sorted form parameters with the
 *   connection's auth token.
 */
export type ConnectorProof = "whatsapp_handshake" | "whatsapp_signature" | "twilio_signature";

/** The path parameter naming the connection a provider delivers to. */
export const CONNECTION_PARAM = "connection_id";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const proofChannel: Record<ConnectorProof, "whatsapp" | "sms"> = {
  whatsapp_handshake: "whatsapp",
  whatsapp_signature: "whatsapp",
  twilio_signature: "sms",
};

/** The secret each proof is checked with, and what its absence tells the gallery to do. */
const proofSecret: Record<ConnectorProof, "verify_token" | "app_secret" | "auth_token"> = {
  whatsapp_handshake: "verify_token",
  whatsapp_signature: "app_secret",
  twilio_signature: "auth_token",
};

/** The URL the provider requested, as the public origin names it (Twilio signs it; the Host header is not trusted). */
function publicUrl(c: Context<AppEnv>): string {
  const url = new URL(c.req.url);
  const prefix = new URL(publicBaseUrl(c.env)).pathname.replace(/\/+$/, "");
  // The router sees the path after the public prefix, if the API is served under one.
  const path = url.pathname.startsWith(`${prefix}/`) ? url.pathname : `${prefix}${url.pathname}`;
  return `${new URL(publicBaseUrl(c.env)).origin}${path}${url.search}`;
}

/** Does the request carry the provider's proof, made with `secret`? */
async function proves(c: Context<AppEnv>, proof: ConnectorProof, secret: string): Promise<boolean> {
  switch (proof) {
    case "whatsapp_handshake":
      return (
        (await verifyWhatsAppHandshake(
          {
            mode: c.req.query("hub.mode") ?? null,
            verifyToken: c.req.query("hub.verify_token") ?? null,
            challenge: c.req.query("hub.challenge") ?? null,
          },
          secret,
        )) !== null
      );
    case "whatsapp_signature":
      return verifyWhatsAppSignature(
        new Uint8Array(await c.req.arrayBuffer()),
        c.req.header("x-hub-signature-256"),
        secret,
      );
    case "twilio_signature": {
      const form = new URLSearchParams(new TextDecoder().decode(await c.req.arrayBuffer()));
      return verifyTwilioSignature(publicUrl(c), [...form], c.req.header("x-twilio-signature"), secret);
    }
  }
}

/**
 * The gate of a connector's operation. The connection is named by the path; the provider proves the delivery
 * with the connection's secret, checked before anything of the body is parsed or stored. An unknown connection,
 * or one of another channel, is 404; a delivery that does not verify (no secret set, no signature, a wrong one)
 * is 401 and counted by client address; a verified one is counted against the connection (http/rate-limit.ts)
 * and acts as the connection: its gallery, its member.
 */
export function authenticateConnector(proof: ConnectorProof): MiddlewareHandler<AppEnv> {
  return countsItsRequests(async (c, next) => {
    const id = c.req.param(CONNECTION_PARAM) ?? "";
    const connection = UUID.test(id)
      ? await findConnectorConnection(httpDb(c.env), { id: id.toLowerCase() })
      : null;
    if (!connection || connection.channel !== proofChannel[proof]) {
      await countRequest(c, null);
      throw new ApiError("not_found", `No ${proofChannel[proof]} connection has this URL.`);
    }
    const secrets = await openConnectionSecrets(c.env, connection.id, connection.sealedSecrets);
    const secret = secrets[proofSecret[proof]];
    if (secret === undefined) {
      await countRequest(c, null);
      throw new ApiError(
        "unauthenticated",
        `The connection has no \`${proofSecret[proof]}\` yet, so no delivery to it can be verified: set it with PATCH /v1/gallery/inbox/connections/${connection.id}.`,
      );
    }
    if (!(await proves(c, proof, secret))) {
      await countRequest(c, null);
      throw new ApiError(
        "unauthenticated",
        proof === "whatsapp_handshake"
          ? "`hub.mode` must be `subscribe` and `hub.verify_token` the connection's verify token."
          : `The ${proof === "twilio_signature" ? "X-Twilio-Signature" : "X-Hub-Signature-256"} signature does not verify with the connection's ${proofSecret[proof]}; nothing was stored.`,
      );
    }
    c.set("principal", connectorPrincipal(connection));
    await countRequest(c, c.get("principal"));
    await next();
  });
}
