import { createRouter, type RouterOptions } from "../../http/app";
import { registerTwilioDeliver } from "./sms-deliver";
import { registerWhatsAppDeliver } from "./whatsapp-deliver";
import { registerWhatsAppVerify } from "./whatsapp-verify";

/**
 * The connectors' webhooks, under /connectors: what WhatsApp and Twilio call with a connection's messages, each
 * delivery proved by the provider's signature with the connection's secret (http/connector-auth.ts). Mail reaches
 * the inbox through the API Worker's email handler and the Email Worker instead (functions/email.ts).
 */
export function connectorsRouter(options: RouterOptions = {}) {
  const app = createRouter(options);
  registerWhatsAppVerify(app);
  registerWhatsAppDeliver(app);
  registerTwilioDeliver(app);
  return app;
}
