/**
 * What every connector (the Email Worker, the WhatsApp Cloud API webhook, Twilio's SMS webhook) turns a provider's
 * delivery into, before the one ingest service stores it: the provider's own format stays in its connector module,
 * and the inbox sees one shape.
 */

export type ConnectorDirection = "inbound" | "outbound";

/** A file that came with a message. Email attachments carry their bytes (stored in R2); the others a reference. */
export interface ConnectorAttachment {
  /** The file name as the sender's client gave it; null when it gave none. */
  filename: string | null;
  /** The MIME type, lower-cased, without parameters (`image/jpeg`). */
  contentType: string;
  /** Size in bytes when known (always for email). */
  size: number | null;
  /** The bytes (email only). */
  content?: Uint8Array;
  /** WhatsApp: the media id, fetched later through the Graph API with the connection's access token. */
  providerMediaId?: string;
  /** Twilio: the MMS media URL. */
  url?: string;
  /** `inline` for a part shown inside the HTML (an embedded image), `attachment` otherwise. */
  disposition?: "attachment" | "inline";
}

/** What authentication the receiving server found (the Authentication-Results header's verdicts). */
export interface ConnectorAuthentication {
  /** `pass`, `fail`, `softfail`, `neutral`, `none`, `temperror`, `permerror`, or null when not reported. */
  spf: string | null;
  dkim: string | null;
  dmarc: string | null;
  /** True when the verdicts say the sender is not who the From header claims (DMARC fail, or SPF and DKIM both not pass). */
  failed: boolean;
}

export interface ConnectorMessage {
  /** The provider's id of the message: email Message-ID (without angle brackets), a WhatsApp `wamid.…`, a Twilio `SM…`/`MM…` sid. */
  providerMessageId: string;
  /**
   * The conversation key when the channel has one: a WhatsApp or SMS conversation is the counterpart's number in
   * E.164. Null for email, which threads by `replyTo` and then by subject.
   */
  providerThreadId: string | null;
  /** Provider ids of the messages this one answers, nearest first (email In-Reply-To then References reversed; a WhatsApp reply's `context.id`). */
  replyTo: string[];
  direction: ConnectorDirection;
  /** The sender; for a message the gallery forwarded, the original sender recovered from the forwarded part. */
  from: { address: string; name: string | null };
  /** Recipients' addresses (email: To then Cc; WhatsApp and SMS: the connection's number). */
  to: string[];
  subject: string | null;
  /**
   * The text as the sender wrote it, quoted history and signature included (the engine reads them apart). HTML-only
   * mail is turned into text; a WhatsApp location or a media caption is written as text.
   */
  body: string;
  /** When it was sent, an ISO 8601 timestamp in UTC. */
  sentAt: string;
  attachments: ConnectorAttachment[];
  /** Email only: the receiving server's authentication verdicts; null when the mail carried none. */
  authentication: ConnectorAuthentication | null;
  /** When the gallery forwarded a client's mail: who forwarded it (the member's address). */
  forwardedBy: string | null;
}
