import { findThread, threadEventResource, threadResource } from "../../db/queries/inbox";
import { markThreadStatements, updateThreadStatement } from "../../db/queries/inbox-writes";
import { InboxThread } from "../../lib/schemas/inbox";
import type { ServiceContext } from "../context";
import { changeEvent, guarded, writeExisting } from "../write";
import { inboxOwner } from "./member";

/**
 * Marks a thread of the signed-in member read (every unread inbound message gets read_at now) or unread (every
 * inbound message's read_at is cleared), and counts unread_count again from the messages in the same
 * transaction. Records `inbox_thread.marked_read` or `inbox_thread.marked_unread`; a call that changes nothing
 * records nothing and answers the thread.
 */
export async function markThread(ctx: ServiceContext, id: string, read: boolean) {
  const galleryId = ctx.principal.galleryId;
  const current = await findThread(ctx.db, galleryId, inboxOwner(ctx), id);
  return writeExisting(ctx, current, `No inbox thread ${id} of yours.`, (found, at) => {
    const body = threadResource.jsonById(galleryId, id, {});
    // A kept count that drifted from the messages is a change too: the recount repairs it.
    const changes = read
      ? found.unread > 0 || found.body.unread_count !== 0
      : found.unread < found.inbound || found.body.unread_count !== found.inbound;
    if (!changes) return { schema: InboxThread, statements: [], events: [], status: 200 as const, body };
    return {
      schema: InboxThread,
      statements: [
        guarded(updateThreadStatement(galleryId, id, {}, found.updatedAt, at)),
        ...markThreadStatements(id, read, at),
      ],
      events: [
        changeEvent(
          read ? "inbox_thread.marked_read" : "inbox_thread.marked_unread",
          "inbox_thread",
          id,
          threadEventResource.jsonById(galleryId, id, {}),
        ),
      ],
      status: 200 as const,
      body,
    };
  });
}
