import { type InboxChannel, normaliseAddress } from "../../lib/addresses";
import { subjectKey } from "../../lib/connectors/email-subject";
import type { ConnectorMessage } from "../../lib/connectors/message";
import type { ConnectorGrant } from "../../lib/principal";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";
import { connectorTarget, type Delivery, storeDelivery } from "../inbox/ingest";

/** What a delivery of one or more messages did: how many were stored, and how many were already. */
export interface DeliveryOutcome {
  received: number;
  stored: number;
  alreadyStored: number;
  /** The inbox message ids, in the order delivered. */
  messageIds: string[];
}

/**
 * A provider's address as the channel stores it. A provider's delivery is never refused for an address the API
 * would refuse from a client (a phone number without its country's length, a local mail address): the mail
 * still arrives, its address kept as sent, lower-cased.
 */
function stored(channel: InboxChannel, address: string): string {
  return normaliseAddress(channel, address) ?? address.trim().toLowerCase();
}

/** A connector's message as the ingest stores it on this connection. */
function deliveryOf(connector: ConnectorGrant, message: ConnectorMessage): Delivery {
  const { channel } = connector;
  const to = [...new Set(message.to.map((address) => stored(channel, address)).filter((a) => a !== ""))];
  return {
    ...message,
    // A mail's conversation is named by the first message of its References (else its own Message-ID): the id
    // its thread is started with, and found by again when a reply names no stored message.
    providerThreadId:
      channel === "email"
        ? (message.replyTo[message.replyTo.length - 1] ?? message.providerMessageId)
        : message.providerThreadId,
    from: { address: stored(channel, message.from.address), name: message.from.name },
    // An outbound message needs its counterpart first; a message to no one is to the connection.
    to: to.length > 0 ? to : [connector.address],
    subjectKey: channel === "email" ? subjectKey(message.subject) : null,
  };
}

/** The principal's connection: only a connector's delivery has one. */
export function connectorOf(ctx: Pick<ServiceContext, "principal">): ConnectorGrant {
  const connector = ctx.principal.connector;
  if (!connector) throw new ApiError("forbidden", "Only a provider's verified delivery reaches a connector.");
  return connector;
}

/**
 * Stores a provider's messages on the principal's connection through the one ingest (services/inbox/ingest.ts),
 * one write each, in the order delivered: a message already stored under its provider id is counted and left as
 * it is. A failure stops the delivery there; the provider's retry stores the rest and skips what was stored.
 */
export async function deliverToConnection(
  ctx: ServiceContext,
  messages: readonly ConnectorMessage[],
): Promise<DeliveryOutcome> {
  const connector = connectorOf(ctx);
  const outcome: DeliveryOutcome = { received: messages.length, stored: 0, alreadyStored: 0, messageIds: [] };
  for (const message of messages) {
    const delivery = deliveryOf(connector, message);
    const written = await storeDelivery(
      ctx,
      connectorTarget(connector.connectionId, connector.channel, delivery),
      () => delivery,
    );
    if (written.status === 201) outcome.stored += 1;
    else outcome.alreadyStored += 1;
    const id = written.body === null ? null : (JSON.parse(written.body) as { id?: string }).id;
    if (id) outcome.messageIds.push(id);
  }
  return outcome;
}
