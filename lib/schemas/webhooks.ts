import { z } from "@hono/zod-openapi";
import { eventTypes } from "../event-types";
import { idString } from "../params";
import { TimestampOut, UtcTimestamp } from "../time";

export const deliveryStatuses = ["pending", "succeeded", "failed", "abandoned"] as const;

/** Default and longest time the former secret keeps signing after a rotation. */
export const PREVIOUS_SECRET_SECONDS = 24 * 60 * 60;

const catalogue = Object.keys(eventTypes);
const resources = new Set(catalogue.map((type) => type.slice(0, type.indexOf("."))));

/** `*`, an exact catalogue type, or `<resource>.*` for a resource the catalogue has events of. */
export function isEventTypePattern(pattern: string): boolean {
  if (pattern === "*" || catalogue.includes(pattern)) return true;
  return pattern.endsWith(".*") && resources.has(pattern.slice(0, -2));
}

const eventTypePatterns = z
  .array(z.string().max(100))
  .min(1)
  .max(50)
  .superRefine((patterns, ctx) => {
    patterns.forEach((pattern, i) => {
      if (!isEventTypePattern(pattern)) {
        ctx.addIssue({
          code: "custom",
          path: [i],
          message: `names an unknown event type \`${pattern}\` (see GET /v1/event-types; wildcards: \`*\`, \`<resource>.*\`)`,
        });
      } else if (patterns.indexOf(pattern) !== i) {
        ctx.addIssue({ code: "custom", path: [i], message: `repeats \`${pattern}\`` });
      }
    });
  })
  .openapi({
    description:
      "1 to 50 event types this endpoint receives: exact types from the catalogue (GET /v1/event-types), `<resource>.*` for every type of one resource (`artwork.*`), or `*` for all.",
    example: ["artwork.*", "api_key.revoked"],
  });

const url = z.string().min(1).max(2048).openapi({
  description:
    "Where events are POSTed. Must be https and must not resolve to a private, loopback, link-local or metadata address (local mode allows http and private hosts, for development).",
  example: "https://example.com/webhooks/gallery",
});

const descriptionText = "A note on what the endpoint is for (`Website stock sync`); null for none.";
const description = z.string().max(500).nullable().openapi({ description: descriptionText });

const metadata = z
  .record(z.string().max(40), z.string().max(500))
  .refine((m) => Object.keys(m).length <= 50, { message: "holds at most 50 keys" })
  .openapi({ description: "Up to 50 string keys (40 chars) with string values (500 chars)." });

export const WebhookEndpoint = z
  .object({
    id: z.string().openapi({ example: "we_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    url: z.string().openapi({ description: "Where events are POSTed, signed (Standard Webhooks)." }),
    description: z.string().nullable().openapi({ description: descriptionText }),
    event_types: z.array(z.string()).openapi({
      description:
        "The event types this endpoint receives, as given: exact types, `<resource>.*` for every type of one resource, or `*` for all.",
    }),
    enabled: z.boolean().openapi({
      description: "A disabled endpoint receives nothing: no deliveries are created for it.",
    }),
    disabled_reason: z.string().nullable().openapi({
      description:
        "Why the platform disabled the endpoint (it answered 410 Gone, or failed for 5 days); null while enabled or when disabled by a PATCH. Re-enabling clears it.",
    }),
    failing_since: TimestampOut.nullable().openapi({
      description: "Start of the current run of failed deliveries; null while deliveries succeed.",
    }),
    previous_secret_expires_at: TimestampOut.nullable().openapi({
      description:
        "After a rotation, the former secret keeps signing (a second `v1,` signature) until this time; null when there is no former secret.",
    }),
    metadata: z.record(z.string(), z.string()).openapi({
      description: "Your own string keys and values: stored and returned as given, never read by the API.",
    }),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("WebhookEndpoint");

const secretDoc = {
  description:
    "The signing secret (`whsec_` + base64 of 32 random bytes, the Standard Webhooks format), shown in this response only: store it now. An idempotent replay of this response (`Idempotent-Replayed: true`) carries null; rotate the secret if it was lost.",
  example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
};

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().nullable().openapi(secretDoc),
}).openapi("WebhookEndpointWithSecret");

export const WebhookEndpointCreate = z
  .strictObject({
    url,
    description: description.optional(),
    event_types: eventTypePatterns,
    enabled: z.boolean().default(true).openapi({
      description: "false creates the endpoint disabled: it receives nothing until enabled. true by default.",
    }),
    metadata: metadata.optional(),
  })
  .openapi("WebhookEndpointCreate");

export const WebhookEndpointUpdate = z
  .strictObject({
    url,
    description,
    event_types: eventTypePatterns,
    enabled: z.boolean().openapi({
      description:
        "false stops new deliveries; true re-enables and clears disabled_reason and failing_since.",
    }),
    metadata,
  })
  .partial()
  .openapi("WebhookEndpointUpdate");

export type WebhookEndpointCreateInput = z.infer<typeof WebhookEndpointCreate>;
export type WebhookEndpointUpdateInput = z.infer<typeof WebhookEndpointUpdate>;

export const SecretRotation = z
  .strictObject({
    expire_previous_in_seconds: z.number().int().min(0).max(PREVIOUS_SECRET_SECONDS).optional().openapi({
      description:
        "How long the former secret keeps signing beside the new one, 0 to 86400 seconds (default 86400, 24 hours); 0 drops it at once.",
    }),
  })
  .openapi("SecretRotation");

export const WebhookTestRequest = z.strictObject({}).openapi("WebhookTestRequest");

export const WebhookTestResult = z
  .object({
    delivery_id: z.string().openapi({
      example: "wd_01jd4xk9v2c7h8m3n5p6q7r8s9",
      description: "The queued delivery (`wd_…`) of the test event: follow it in the endpoint's deliveries.",
    }),
    event_id: z.string().openapi({ example: "evt_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
  })
  .openapi("WebhookTestResult");

export const WebhookReplay = z
  .strictObject({
    event_id: idString("evt").optional().openapi({
      description:
        "Re-send this event (of this gallery) to the endpoint, whether or not it was delivered before.",
    }),
    failed_since: UtcTimestamp.optional().openapi({
      description:
        "Re-send every delivery to this endpoint that failed for good (status `failed` or `abandoned`) and was created at or after this UTC time.",
    }),
  })
  .superRefine((body, ctx) => {
    const given = [body.event_id, body.failed_since].filter((v) => v !== undefined).length;
    if (given !== 1) {
      ctx.addIssue({
        code: "custom",
        path: [body.event_id === undefined ? "event_id" : "failed_since"],
        message: "send exactly one of event_id and failed_since",
      });
    }
  })
  .openapi("WebhookReplay");

export const WebhookReplayResult = z
  .object({
    requeued: z.number().int().openapi({ description: "How many deliveries were queued to be sent now." }),
  })
  .openapi("WebhookReplayResult");

export const DeliveryAttempt = z
  .object({
    attempted_at: TimestampOut.openapi({ description: "When the attempt started (UTC, milliseconds)." }),
    status_code: z.number().int().nullable().openapi({ description: "Null when no HTTP answer came back." }),
    latency_ms: z.number().int().nullable().openapi({
      description:
        "Milliseconds from sending the POST to reading the answer or failing; 0 when nothing was sent (a refused URL).",
    }),
    error: z.string().nullable().openapi({ description: "Timeout, connection or TLS failure." }),
    response_body: z.string().nullable().openapi({ description: "The start of the receiver's answer." }),
  })
  .openapi("WebhookDeliveryAttempt");

export const WebhookDelivery = z
  .object({
    id: z.string().openapi({
      example: "wd_01jd4xk9v2c7h8m3n5p6q7r8s9",
      description: "The delivery's id (`wd_…`): one event to one endpoint, with all its attempts.",
    }),
    endpoint_id: z.string().openapi({ description: "The webhook endpoint (`we_…`) the event is sent to." }),
    event_id: z.string(),
    event_type: z.string().openapi({ description: "The event's `type` (`artwork.created`)." }),
    status: z.enum(deliveryStatuses).openapi({
      description:
        "`pending` (queued or retrying), `succeeded` (a 2xx came back), `failed` (retries exhausted), `abandoned` (the endpoint was disabled before it succeeded).",
    }),
    attempt_count: z.number().int().openapi({
      description: "How many times it was POSTed; a replay starts it again from 0.",
    }),
    next_attempt_at: TimestampOut.nullable().openapi({
      description: "When the next attempt is due; null unless pending.",
    }),
    last_status_code: z.number().int().nullable().openapi({
      description:
        "The HTTP status the last attempt got back; null before the first attempt or when no answer came.",
    }),
    last_latency_ms: z.number().int().nullable().openapi({
      description: "The last attempt's `latency_ms`; null before the first attempt.",
    }),
    last_error: z.string().nullable().openapi({
      description:
        "Why the last attempt got no HTTP answer (a timeout, a connection or TLS failure, a refused URL); null when it got one, or before the first attempt.",
    }),
    attempts: z.array(DeliveryAttempt).openapi({ description: "The last 10 attempts, newest first." }),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("WebhookDelivery");

export const WebhookEndpointIdParams = z.strictObject({
  id: idString("we").openapi({ param: { name: "id", in: "path" } }),
});
