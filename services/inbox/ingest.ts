import { findIngestTarget, messageEventResource, messageResource } from "../../db/queries/inbox";
import { type IngestedMessage, ingestStatements } from "../../db/queries/inbox-writes";
import { nextTimestamp } from "../../db/queries/rows";
import { addressProblem, type InboxChannel, normaliseAddress } from "../../lib/addresses";
import { newId } from "../../lib/ids";
import { ApiError, type FieldIssue } from "../../lib/problem";
import { InboxMessage, type InboxMessageIngestInput } from "../../lib/schemas/inbox";
import { toStoredMs } from "../../lib/time";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, guarded, notFoundUnlessReplay } from "../write";

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
 * Delivers a message of one connection (a connector's ingest): a secret key may deliver to any connection of
 * the gallery, a session only to its member's own. A provider thread id not yet seen on the connection starts
 * a thread, owned by the connection's member; no provider thread id starts one of its own. The counterpart
 * (the sender of an inbound message, the first recipient of an outbound one) is normalised for the channel and
 * matched to a contact in the same transaction. A provider message id already stored answers 200 with the
 * stored message, changing nothing and recording nothing; otherwise 201, and `inbox_message.received`
 * (inbound) or `inbox_message.sent` (outbound), without content.
 */
export async function ingestMessage(
  ctx: ServiceContext,
  connectionId: string,
  input: InboxMessageIngestInput,
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const memberId = principal.kind === "session" ? principal.memberId : null;
  const providerThreadId = input.provider_thread_id ?? null;
  const providerMessageId = input.provider_message_id ?? null;
  const target = await findIngestTarget(
    db,
    galleryId,
    connectionId,
    memberId,
    providerThreadId,
    providerMessageId,
  );
  if (!target)
    return notFoundUnlessReplay<unknown, 201>(ctx, `No inbox connection ${connectionId} of yours.`);
  const { connection, storedMessageId } = target;
  const channel = connection.channel;
  const { from, to } = normalisedAddresses(channel, input);
  if (storedMessageId !== null) {
    return executeWrite(ctx, {
      schema: InboxMessage,
      statements: [],
      events: [],
      status: 200,
      body: messageResource.jsonById(galleryId, storedMessageId, {}),
    });
  }
  const message: IngestedMessage = {
    id: newId("msg"),
    threadId: newId("thr"),
    connectionId,
    memberId: connection.member_id,
    channel,
    direction: input.direction,
    providerThreadId,
    providerMessageId,
    subject: input.subject ?? null,
    fromAddress: from,
    fromName: input.from.name ?? null,
    toAddresses: to,
    counterpart: input.direction === "inbound" ? from : to[0]!,
    body: input.body,
    snippet: snippetOf(input.body),
    sentAt: toStoredMs(input.sent_at),
  };
  const { touch, rest } = ingestStatements(galleryId, message, nextTimestamp());
  const type = input.direction === "inbound" ? "inbox_message.received" : "inbox_message.sent";
  return executeWrite(ctx, {
    schema: InboxMessage,
    statements: [guarded(touch), ...rest],
    events: [
      changeEvent(
        type,
        "inbox_message",
        message.id,
        messageEventResource.jsonById(galleryId, message.id, {}),
      ),
    ],
    status: 201,
    body: messageResource.jsonById(galleryId, message.id, {}),
  });
}
