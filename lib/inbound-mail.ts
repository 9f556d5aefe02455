/**
 * A mail Cloudflare Email Routing hands to the API Worker's email handler, as that handler passes it on to the
 * Email Worker (wrangler.email.toml, functions/email.ts) over its service binding `MAIL`: the SMTP envelope, the
 * raw bytes (streamed, never buffered by the API Worker) and their size.
 */
export interface RoutedMail {
  from: string;
  to: string;
  raw: ReadableStream<Uint8Array>;
  rawSize: number;
}

/** What the Email Worker answers for a mail: null when it stored it, else the SMTP reply to reject it with. */
export interface MailReceipt {
  rejected: string | null;
}

/** The Email Worker as the API Worker reaches it (Workers RPC over the service binding). */
export interface MailService {
  receive(mail: RoutedMail): Promise<MailReceipt>;
}
