import { WorkerEntrypoint } from "cloudflare:workers";
import type { Env } from "../lib/env";
import type { MailReceipt, MailService, RoutedMail } from "../lib/inbound-mail";
import { mailContext, receiveMail } from "../services/connectors/email";

/**
 * The Email Worker (wrangler.email.toml): reads and stores the mail Cloudflare Email Routing hands to the API
 * Worker. Email Routing's rule (`in+*@<INBOUND_EMAIL_DOMAIN>`, or a catch-all, "Send to a Worker") names the API
 * Worker, whose email handler passes each mail on, streamed, over the service binding `MAIL` (functions/api.ts);
 * the MIME parser (postal-mime, with its HTML entity table) and the connector's reading of a mail are this
 * Worker's alone, outside the API Worker's bundle (docs/decisions.md, "Bundles and startup, per Worker").
 *
 * A mail to an email connection's inbound address is stored in its member's inbox (services/connectors/email.ts);
 * any other, one too big or one that cannot be read is answered with the SMTP reply to reject it with, which the
 * API Worker gives Email Routing and the sending server bounces. A failure of the platform (the database
 * unreachable) throws to the API Worker's handler, so the mail is not acknowledged. It serves no HTTP: it is
 * reached only through the binding.
 */
export default class EmailWorker extends WorkerEntrypoint<Env> implements MailService {
  override async fetch(): Promise<Response> {
    return new Response(null, { status: 404 });
  }

  async receive(mail: RoutedMail): Promise<MailReceipt> {
    const outcome = await receiveMail(
      mailContext(this.env, (promise) => this.ctx.waitUntil(promise)),
      { ...mail, receivedAt: new Date().toISOString() },
    );
    return { rejected: outcome.kind === "rejected" ? outcome.reason : null };
  }
}
