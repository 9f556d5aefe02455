import { z } from "@hono/zod-openapi";

/** The connectors' path: the connection a provider delivers to, by its id (a UUID). */
export const ConnectorParams = z.strictObject({
  connection_id: z.string().openapi({
    param: { name: "connection_id", in: "path" },
    format: "uuid",
    description: "The connection's id: its `webhook_url` ends with it.",
    example: "0b7e8f52-4c1d-4a8e-9f7d-2f1c3b5a6d90",
  }),
});

const count = z.number().int().min(0);

export const ConnectorDeliveryResult = z
  .object({
    received: count.openapi({ description: "Messages in the delivery." }),
    stored: count.openapi({ description: "Messages stored now." }),
    already_stored: count.openapi({
      description:
        "Messages stored by an earlier delivery of the same provider message id (a retry): unchanged.",
    }),
    message_ids: z
      .array(z.string())
      .openapi({ description: "The inbox messages (`msg_…`), in delivery order." }),
    statuses: count.openapi({
      description:
        "Status callbacks (sent, delivered, read, failed) of messages the business sent: counted, not stored.",
    }),
    ignored: z
      .array(
        z.object({
          provider_message_id: z
            .string()
            .openapi({ description: "The provider's id of the message (`wamid.…` for WhatsApp)." }),
          type: z.string().openapi({
            description: "The message's type, as the provider wrote it (`reaction`, `system`, …).",
          }),
          reason: z.string().openapi({ description: "Why it is not for the inbox, in words." }),
        }),
      )
      .openapi({ description: "Messages that are not for the inbox (a reaction removed, …), and why." }),
  })
  .openapi("ConnectorDeliveryResult", {
    description: "What a provider's delivery did. The provider reads only the status; this is for its logs.",
  });
