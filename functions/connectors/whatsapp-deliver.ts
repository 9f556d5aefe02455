import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { WhatsAppWebhook } from "../../lib/connectors/whatsapp";
import { ConnectorDeliveryResult, ConnectorParams } from "../../lib/schemas/connectors";
import { receiveWhatsApp } from "../../services/connectors/providers";

const route = operation({
  operationId: "receiveWhatsAppWebhook",
  method: "post",
  path: "/connectors/whatsapp/{connection_id}",
  tags: ["Connectors"],
  summary: "WhatsApp: receive messages",
  description:
    "The WhatsApp Business Cloud API webhook (subscribe the app to the `messages` field; the callback URL is the connection's `webhook_url`). Each delivery must carry `X-Hub-Signature-256`, the HMAC-SHA256 of the raw body with the connection's `app_secret`, checked in constant time before anything is parsed: without it, or when it does not verify, the answer is 401 and nothing is stored.\n\nEvery message of the delivery (several entries, changes or messages are several) joins the sender's conversation on the connection (its `provider_thread_id` is the sender's number in E.164) and the sender is matched to a contact by phone. Text is the body; a media message (image, document, audio, video, sticker) is recorded as an attachment by its media id and type, its caption the body; a location is written as text; a reply records the message it quotes in `reply_to`. A message already stored under its `wamid` is not stored again (Meta retries deliveries), so a replay changes nothing. Status callbacks (sent, delivered, read, failed) of the business's own messages are counted and not stored. Emits `inbox_message.received` per message stored.",
  auth: { scopes: [], credentials: ["connector"], connectorProof: "whatsapp_signature" },
  request: {
    params: ConnectorParams,
    body: { required: true, content: { "application/json": { schema: WhatsAppWebhook } } },
  },
  responses: {
    200: {
      description: "The delivery was taken: what it stored.",
      content: { "application/json": { schema: ConnectorDeliveryResult } },
    },
  },
});

export function registerWhatsAppDeliver(app: Router): void {
  app.openapi(route, async (c) => {
    const outcome = await receiveWhatsApp(serviceContext(c), c.req.valid("json"));
    return c.json(
      {
        received: outcome.received,
        stored: outcome.stored,
        already_stored: outcome.alreadyStored,
        message_ids: outcome.messageIds,
        statuses: outcome.statuses,
        ignored: outcome.ignored,
      },
      200,
    );
  });
}
