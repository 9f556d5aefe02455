import {
  findIngestTarget,
  messageEventResource,
  messageResource,
  type ThreadHints,
} from "../../db/queries/inbox";
import { type IngestedMessage, ingestStatements, type StoredAttachment } from "../../db/queries/inbox-writes";
import { nextTimestamp } from "../../db/queries/rows";
import { addressProblem, type InboxChannel, normaliseAddress } from "../../lib/addresses";
import type { ConnectorMessage } from "../../lib/connectors/message";
import { newId } from "../../lib/ids";
import { ApiError, type FieldIssue } from "../../lib/problem";
import { InboxMessage, type InboxMessageIngestInput } from "../../lib/schemas/inbox";
import { toStoredMs } from "../../lib/time";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, guarded, notFoundUnlessReplay } from "../write";
import { inboxView } from "./member";

const SNIPPET_LENGTH = 200;

/** The first 200 characters (code points) of the text, every run of whitespace collapsed to one space. */
export function snippetOf(body: string): string {
  return Array.from(body.replace(/\s+/g, " ").trim()).slice(0, SNIPPET_LENGTH).join("");
}

/** The request's addresses normalised for the channel, or the 400 naming each one that is not an address. */
function normalisedAddresses(channel: InboxChannel, input: InboxMessageIngestInput) {
  const issues: FieldIssue[] = [];
  const normalise = (value: string, field: string): string => {
    const address = normaliseAddress(channel, value);
    if (address === null) issues.push({ location: "body", field, message: addressProblem(channel) });
    return address ?? value;
  };
  const from = normalise(input.from.address, "from.address");
  const to = input.to.map((address, i) => normalise(address, `to.${i}`));
  if (issues.length > 0) {
    const [first] = issues;
    throw new ApiError("invalid_request", `Body field \`${first!.field}\` ${first!.message}.`, issues);
  }
  return { from, to };
}

/**
 * A message as the one ingest stores it, whoever delivered it: a connector of this project (lib/connectors/) or
 * a program posting to the ingest operation. Addresses are already normalised for the channel.
 */
export interface Delivery extends ConnectorMessage {
  /** The subject without reply and forward prefixes, lower-cased: email threads by it when no reference matches. */
  subjectKey: string | null;
}

/**
 * Where a delivery goes and what is looked up before its write: the connection, the member it must belong to when
 * a session delivers, the provider ids, and how the thread is found.
 */
export interface DeliveryTarget {
  connectionId: string;
  /** A session delivers only to its member's connection; a key or a connector to any of the gallery's. */
  memberId: string | null;
  providerThreadId: string | null;
  providerMessageId: string | null;
  /**
   * Where a provider message id is unique: the ingest operation scopes it to the provider thread; the connectors'
   * ids (Message-ID, wamid, Twilio sid) are unique on the whole connection.
   */
  dedupe: "thread" | "connection";
  /** Email: the thread is found by the message's references, then its subject. */
  hints: ThreadHints | null;
}

/** A connector's delivery to its connection: provider ids unique on the connection; email threads by references. */
export function connectorTarget(
  connectionId: string,
  channel: InboxChannel,
  delivery: Delivery,
): DeliveryTarget {
  const counterpart = delivery.direction === "inbound" ? delivery.from.address : (delivery.to[0] ?? "");
  return {
    connectionId,
    memberId: null,
    providerThreadId: delivery.providerThreadId,
    providerMessageId: delivery.providerMessageId,
    dedupe: "connection",
    hints:
      channel === "email"
        ? { replyTo: delivery.replyTo, subjectKey: delivery.subjectKey, counterpart, sentAt: delivery.sentAt }
        : null,
  };
}

/** An email attachment's R2 key: under the gallery and the message, by position. */
function attachmentKey(galleryId: string, messageId: string, position: number): string {
  return `inbox/${galleryId}/${messageId}/${position}`;
}

/**
 * Delivers a message of one connection: the one ingest of the inbox. A provider thread id not yet seen on the
 * connection starts a thread, owned by the connection's member; with `threadByReferences`, a message answering a
 * stored one joins its thread, else one of the same counterpart and subject within the window; otherwise the
 * message starts a thread of its own. The counterpart (the sender of an inbound message, the first recipient of
 * an outbound one) is matched to a contact in the same transaction. A provider message id already stored answers
 * 200 with the stored message, changing nothing and recording nothing; otherwise 201, and
 * `inbox_message.received` (inbound) or `inbox_message.sent` (outbound), without content. Attachments with bytes
 * are stored in R2 first and removed again when the write fails.
 */
export async function storeDelivery(
  ctx: ServiceContext,
  target: DeliveryTarget,
  deliveryFor: (channel: InboxChannel) => Delivery,
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const view = inboxView(ctx.env);
  const found = await findIngestTarget(
    db,
    galleryId,
    target.connectionId,
    target.memberId,
    target.dedupe === "thread" ? target.providerThreadId : null,
    target.providerMessageId,
    target.hints,
  );
  if (!found)
    return notFoundUnlessReplay<unknown, 201>(ctx, `No inbox connection ${target.connectionId} of yours.`);
  const { connection, storedMessageId } = found;
  // The request's addresses are checked (a 400) only once the connection is known, even on a replay.
  const delivery = deliveryFor(connection.channel);
  const counterpart = delivery.direction === "inbound" ? delivery.from.address : delivery.to[0]!;
  if (storedMessageId !== null) {
    return executeWrite(ctx, {
      schema: InboxMessage,
      statements: [],
      events: [],
      status: 200,
      body: messageResource.jsonById(galleryId, storedMessageId, view),
    });
  }
  const id = newId("msg");
  const attachments: StoredAttachment[] = delivery.attachments.map((a, position) => ({
    id: newId("att"),
    filename: a.filename,
    contentType: a.contentType,
    size: a.size ?? a.content?.byteLength ?? null,
    disposition: a.disposition ?? "attachment",
    storageKey: a.content ? attachmentKey(galleryId, id, position) : null,
    providerMediaId: a.providerMediaId ?? null,
    url: a.url ?? null,
  }));
  const stored = await storeAttachmentBytes(ctx, delivery, attachments);
  const message: IngestedMessage = {
    id,
    threadId: newId("thr"),
    connectionId: target.connectionId,
    memberId: connection.member_id,
    channel: connection.channel,
    direction: delivery.direction,
    providerThreadId: target.providerThreadId,
    providerMessageId: target.providerMessageId,
    subject: delivery.subject,
    fromAddress: delivery.from.address,
    fromName: delivery.from.name,
    toAddresses: delivery.to,
    counterpart,
    body: delivery.body,
    snippet: snippetOf(delivery.body),
    sentAt: toStoredMs(delivery.sentAt),
    joinThreadId: found.threadId,
    dedupe: target.dedupe,
    replyTo: delivery.replyTo,
    subjectKey: delivery.subjectKey,
    authentication: delivery.authentication ? { ...delivery.authentication } : null,
    forwardedBy: delivery.forwardedBy,
    attachments,
  };
  const { touch, rest } = ingestStatements(galleryId, message, nextTimestamp());
  const type = delivery.direction === "inbound" ? "inbox_message.received" : "inbox_message.sent";
  try {
    return await executeWrite(ctx, {
      schema: InboxMessage,
      statements: [guarded(touch), ...rest],
      events: [changeEvent(type, "inbox_message", id, messageEventResource.jsonById(galleryId, id, {}))],
      status: 201,
      body: messageResource.jsonById(galleryId, id, view),
    });
  } catch (error) {
    // Nothing half-stored: the bytes of a message that was not written go too.
    if (stored.length > 0) await ctx.env.UPLOADS.delete(stored).catch(() => undefined);
    throw error;
  }
}

/** Puts the bytes of the delivery's attachments in R2 under their keys; yields the keys written. */
async function storeAttachmentBytes(
  ctx: ServiceContext,
  delivery: Delivery,
  attachments: readonly StoredAttachment[],
): Promise<string[]> {
  const written: string[] = [];
  try {
    for (const [position, attachment] of attachments.entries()) {
      const content = delivery.attachments[position]?.content;
      if (!content || attachment.storageKey === null) continue;
      await ctx.env.UPLOADS.put(attachment.storageKey, content, {
        httpMetadata: { contentType: attachment.contentType },
      });
      written.push(attachment.storageKey);
    }
  } catch (error) {
    if (written.length > 0) await ctx.env.UPLOADS.delete(written).catch(() => undefined);
    throw error;
  }
  return written;
}

/**
 * Delivers a message of one connection through the ingest operation: a secret key may deliver to any connection
 * of the gallery, a session only to its member's own. The request's addresses are normalised for the channel (a
 * 400 names each one that is not an address); the provider message id is unique on its provider thread.
 */
export async function ingestMessage(
  ctx: ServiceContext,
  connectionId: string,
  input: InboxMessageIngestInput,
) {
  const { principal } = ctx;
  const providerThreadId = input.provider_thread_id ?? null;
  const providerMessageId = input.provider_message_id ?? null;
  const target: DeliveryTarget = {
    connectionId,
    memberId: principal.kind === "session" ? principal.memberId : null,
    providerThreadId,
    providerMessageId,
    dedupe: "thread",
    hints: null,
  };
  return storeDelivery(ctx, target, (channel) => {
    const { from, to } = normalisedAddresses(channel, input);
    return {
      providerMessageId: providerMessageId ?? "",
      providerThreadId,
      replyTo: [],
      direction: input.direction,
      from: { address: from, name: input.from.name ?? null },
      to,
      subject: input.subject ?? null,
      subjectKey: null,
      body: input.body,
      sentAt: input.sent_at,
      attachments: [],
      authentication: null,
      forwardedBy: null,
    };
  });
}
