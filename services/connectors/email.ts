import { type Db, httpDb } from "../../db/client";
import { findConnectorConnection } from "../../db/queries/inbox";
import { EMAIL_MAX_BYTES, parseEmail } from "../../lib/connectors/email";
import type { Env } from "../../lib/env";
import { newId } from "../../lib/ids";
import { connectorPrincipal } from "../../lib/principal";
import { ApiError } from "../../lib/problem";
import { enforceRateLimit, RATE_LIMIT_POLICIES } from "../../lib/rate-limits";
import type { ServiceContext } from "../context";
import { type DeliveryOutcome, deliverToConnection } from "./deliver";

/**
 * The Email connector: mail that Cloudflare Email Routing hands to the API Worker's email handler, read and stored
 * by the Email Worker it passes each mail on to (functions/email.ts), addressed to an email connection's inbound
 * address `in+<token>@<INBOUND_EMAIL_DOMAIN>`.
 * The address proves the delivery, as a signature does for the other connectors: its token is 122 random bits
 * shown only to the connection's member.
 */

/** The envelope and bytes of one routed mail. */
export interface InboundMail {
  /** The SMTP envelope's sender and recipient. */
  from: string;
  to: string;
  raw: ReadableStream<Uint8Array> | Uint8Array;
  rawSize: number;
  /** When the Worker received it (UTC ISO): the sent time of mail without a usable Date header. */
  receivedAt: string;
}

/**
 * What became of a mail: stored (or already stored, a redelivery), or rejected with the SMTP reply the sending
 * server bounces it with. Nothing of a rejected mail is stored.
 */
export type MailOutcome =
  | ({ kind: "delivered"; connectionId: string } & DeliveryOutcome)
  | { kind: "rejected"; reason: string };

/** The inbound token of an address `in+<token>@…` (any case), or null. */
export function inboundToken(address: string): string | null {
  const match = /^in\+([0-9a-f]{32})@[^@\s]+$/i.exec(address.trim());
  return match ? match[1]!.toLowerCase() : null;
}

/**
 * The service context of a mail: it acts as its connection, as a verified provider delivery does, and counts
 * against the connection's rate limit like the other connectors' deliveries (`count` throws 429 past it).
 */
export type MailContext = Omit<ServiceContext, "principal" | "db"> & {
  db: Db;
  count(connectionId: string): Promise<void>;
};

/**
 * Receives one routed mail: refused when its address names no email connection (550), when it is over the size
 * bound (552) or when it cannot be read as a message (554); otherwise parsed (lib/connectors/email.ts) and stored
 * through the one ingest, its own mail (from the connection's address or its member's) as outbound unless it
 * forwards a client's.
 */
export async function receiveMail(ctx: MailContext, mail: InboundMail): Promise<MailOutcome> {
  const token = inboundToken(mail.to);
  const connection = token ? await findConnectorConnection(ctx.db, { inboundToken: token }) : null;
  if (!connection || connection.channel !== "email") {
    return { kind: "rejected", reason: "550 5.1.1 No inbox has this address" };
  }
  try {
    await ctx.count(connection.id);
  } catch (error) {
    if (error instanceof ApiError && error.code === "rate_limited") {
      return { kind: "rejected", reason: "451 4.7.1 Too many messages to this inbox now; try again later" };
    }
    throw error;
  }
  if (mail.rawSize > EMAIL_MAX_BYTES) {
    return {
      kind: "rejected",
      reason: `552 5.3.4 Message too big: ${mail.rawSize} bytes, the inbox takes at most ${EMAIL_MAX_BYTES}`,
    };
  }
  let message: Awaited<ReturnType<typeof parseEmail>>;
  try {
    message = await parseEmail(
      mail.raw,
      { from: mail.from, to: mail.to },
      {
        ownAddresses: [connection.address, ...(connection.memberEmail ? [connection.memberEmail] : [])],
        receivedAt: mail.receivedAt,
      },
    );
  } catch (error) {
    console.error("an inbound mail could not be parsed", error);
    return { kind: "rejected", reason: "554 5.6.0 The message could not be read" };
  }
  const principal = connectorPrincipal(connection);
  const outcome = await deliverToConnection({ ...ctx, principal }, [message]);
  return { kind: "delivered", connectionId: connection.id, ...outcome };
}

/**
 * The context of one mail the Email Worker received: the database over HTTP, the bindings, a request id
 * for its events, and the connection's rate limit (the connectors' own, as for a verified webhook).
 */
export function mailContext(env: Env, waitUntil: (promise: Promise<unknown>) => void): MailContext {
  return {
    db: httpDb(env),
    env,
    requestId: newId("req"),
    claim: null,
    dryRun: false,
    waitUntil,
    count: (connectionId) =>
      enforceRateLimit(env, RATE_LIMIT_POLICIES.connector, `connection:${connectionId}`),
  };
}
