import { parseTwilioMessage, type TwilioInboundMessageParams } from "../../lib/connectors/twilio";
import { parseWhatsAppDelivery, type WhatsAppWebhookPayload } from "../../lib/connectors/whatsapp";
import type { ServiceContext } from "../context";
import { type DeliveryOutcome, deliverToConnection } from "./deliver";

/** What a WhatsApp delivery did: its messages stored, the status callbacks and other entries left aside. */
export interface WhatsAppOutcome extends DeliveryOutcome {
  statuses: number;
  ignored: { provider_message_id: string; type: string; reason: string }[];
}

/**
 * A WhatsApp Business Cloud API delivery, its signature already verified: every message of it (several entries,
 * changes and messages become several) stored through the one ingest, replies joining the sender's conversation
 * (a WhatsApp conversation is the number). Status callbacks of messages the business sent are counted and
 * deliberately not stored: they are receipts, not something a contact wrote (lib/connectors/whatsapp.ts).
 */
export async function receiveWhatsApp(
  ctx: ServiceContext,
  payload: WhatsAppWebhookPayload,
): Promise<WhatsAppOutcome> {
  const delivery = parseWhatsAppDelivery(payload);
  const outcome = await deliverToConnection(ctx, delivery.messages);
  return {
    ...outcome,
    statuses: delivery.statuses.length,
    ignored: delivery.ignored.map((i) => ({
      provider_message_id: i.providerMessageId,
      type: i.type,
      reason: i.reason,
    })),
  };
}

/** A Twilio incoming message (SMS or MMS), its signature already verified, stored through the one ingest. */
export function receiveTwilio(
  ctx: ServiceContext,
  params: TwilioInboundMessageParams,
  receivedAt: Date,
): Promise<DeliveryOutcome> {
  return deliverToConnection(ctx, [parseTwilioMessage(params, receivedAt)]);
}
