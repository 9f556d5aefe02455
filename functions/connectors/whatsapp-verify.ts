import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { WhatsAppHandshakeQuery } from "../../lib/connectors/whatsapp";
import { ConnectorParams } from "../../lib/schemas/connectors";

const route = operation({
  operationId: "verifyWhatsAppWebhook",
  method: "get",
  path: "/connectors/whatsapp/{connection_id}",
  tags: ["Connectors"],
  summary: "WhatsApp: verify the callback URL",
  description:
    "Meta's verification of the webhook's callback URL (WhatsApp Business Cloud API: App dashboard → WhatsApp → Configuration → Webhook). Answers `hub.challenge` as plain text when `hub.mode` is `subscribe` and `hub.verify_token` is the connection's `verify_token` secret; otherwise 401. A connection that is not a WhatsApp one, or an unknown one, is 404.",
  auth: { scopes: [], credentials: ["connector"], connectorProof: "whatsapp_handshake" },
  request: { params: ConnectorParams, query: WhatsAppHandshakeQuery },
  responses: {
    200: {
      description: "The challenge, echoed.",
      content: { "text/plain": { schema: { type: "string", example: "1158201444" } } },
    },
  },
});

export function registerWhatsAppVerify(app: Router): void {
  app.openapi(route, (c) => c.text(c.req.valid("query")["hub.challenge"] ?? "", 200));
}
