import type { Env } from "../lib/env";
import { mailContext, receiveMail } from "../services/connectors/email";

/**
 * The API Worker's email handler: Cloudflare Email Routing hands it each mail sent to the inbound domain (a rule
 * for `in+*@<INBOUND_EMAIL_DOMAIN>`, or a catch-all, with the action "Send to a Worker"). A mail to an email
 * connection's inbound address is stored in its member's inbox (services/connectors/email.ts); any other, one too
 * big or one that cannot be read is rejected, and the sending server bounces it with the reason. A failure of the
 * platform (the database unreachable) throws, so the mail is not acknowledged.
 */
export async function handleEmail(message: ForwardableEmailMessage, env: Env, ctx: ExecutionContext) {
  const outcome = await receiveMail(
    mailContext(env, (promise) => ctx.waitUntil(promise)),
    {
      from: message.from,
      to: message.to,
      raw: message.raw,
      rawSize: message.rawSize,
      receivedAt: new Date().toISOString(),
    },
  );
  if (outcome.kind === "rejected") message.setReject(outcome.reason);
  return outcome;
}
