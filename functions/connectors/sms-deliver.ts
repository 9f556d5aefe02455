import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { EMPTY_TWIML, TwilioInboundMessage } from "../../lib/connectors/twilio";
import { ConnectorParams } from "../../lib/schemas/connectors";
import { receiveTwilio } from "../../services/connectors/providers";

const route = operation({
  operationId: "receiveTwilioMessage",
  method: "post",
  path: "/connectors/sms/{connection_id}",
  tags: ["Connectors"],
  summary: "SMS: receive a Twilio message",
  description:
    "Twilio's incoming-message webhook for the connection's number (Phone Numbers → the number → Messaging → \"A message comes in\": Webhook, HTTP POST, the connection's `webhook_url`). Each request must carry `X-Twilio-Signature`, the HMAC-SHA1 (base64) of the public URL followed by the form parameters sorted by name, keyed with the connection's `auth_token`; it is checked in constant time before anything is stored, against the URL as `PUBLIC_BASE_URL` names it. Without it, or when it does not verify, the answer is 401 and nothing is stored.\n\nThe message joins the sender's conversation (its `provider_thread_id` is the sender's number in E.164), the sender matched to a contact by phone; an MMS's media are recorded as attachments by URL and type. A `MessageSid` already stored is not stored again, so Twilio's retry changes nothing. Answered with an empty TwiML `<Response>`: nothing is sent back to the sender. Emits `inbox_message.received` when stored.",
  auth: { scopes: [], credentials: ["connector"], connectorProof: "twilio_signature" },
  request: {
    params: ConnectorParams,
    body: {
      required: true,
      content: { "application/x-www-form-urlencoded": { schema: TwilioInboundMessage } },
    },
  },
  responses: {
    200: {
      description: "An empty TwiML response: the message was taken, and nothing is sent back.",
      content: { "text/xml": { schema: { type: "string", example: EMPTY_TWIML } } },
    },
  },
});

export function registerTwilioDeliver(app: Router): void {
  app.openapi(route, async (c) => {
    await receiveTwilio(serviceContext(c), c.req.valid("form"), new Date());
    return c.body(EMPTY_TWIML, 200, { "content-type": "text/xml; charset=utf-8" });
  });
}
