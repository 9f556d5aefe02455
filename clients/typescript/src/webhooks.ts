import { Webhook, WebhookVerificationError } from "standardwebhooks";
import type { webhooks } from "./schema.js";

/** Standard Webhooks' own verifier and its error, as the API signs deliveries with that scheme. */
export { Webhook, WebhookVerificationError };

/** Every event type a webhook endpoint can receive. */
export type WebhookEventType = keyof webhooks;

/** The body of a delivery of one event type (or of any, by default). */
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = {
  [K in T]: NonNullable<webhooks[K]["post"]["requestBody"]>["content"]["application/json"];
}[T];

/**
 * Verifies a delivery with the endpoint's signing secret (`whsec_…`) and returns its event: `body` must be the
 * request body exactly as received (the raw text, before any JSON parsing). Throws WebhookVerificationError
 * when the signature does not match or the timestamp is more than 5 minutes away. Dedupe on the event's `id`
 * (the `webhook-id` header): delivery is at least once.
 */
export function verifyWebhook(
  secret: string,
  body: string,
  headers: Headers | Record<string, string | string[] | undefined>,
): WebhookEvent {
  const plain: Record<string, string> = {};
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      plain[name] = value;
    });
  } else {
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined) plain[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
    }
  }
  return new Webhook(secret).verify(body, plain) as WebhookEvent;
}
