import {
  connectionEventResource,
  connectionResource,
  findConnection,
  listConnections as listConnectionRows,
} from "../../db/queries/inbox";
import {
  insertConnection,
  type NewConnection,
  refuseDuplicateConnection,
} from "../../db/queries/inbox-writes";
import { deleteAsRead, nextTimestamp } from "../../db/queries/rows";
import { inboxConnections } from "../../db/schema";
import { normaliseAddress } from "../../lib/addresses";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import { DeleteResult } from "../../lib/schemas/artworks";
import { InboxConnection, type InboxConnectionCreateInput } from "../../lib/schemas/inbox";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, executeWrite, guarded, writeExisting } from "../write";
import { inboxOwner } from "./member";

/** One page (limit + 1 rows) of the signed-in member's connections. */
export function listConnections(ctx: ServiceContext, page: PageRequest): Promise<PageRow[]> {
  return listConnectionRows(ctx.db, ctx.principal.galleryId, inboxOwner(ctx), page);
}

/**
 * Connects an account to the signed-in member's inbox: its address normalised for the channel (validated by
 * the request schema), 409 when the member already connected that address on that channel. Records
 * `inbox_connection.created` (without the address).
 */
export function createConnection(ctx: ServiceContext, input: InboxConnectionCreateInput) {
  const galleryId = ctx.principal.galleryId;
  const address = normaliseAddress(input.channel, input.address);
  if (address === null) {
    throw new ApiError("invalid_request", "Body field `address` is not an address of its channel.", [
      { location: "body", field: "address", message: "is not an address of its channel" },
    ]);
  }
  const connection: NewConnection = {
    id: crypto.randomUUID(),
    memberId: inboxOwner(ctx),
    channel: input.channel,
    provider: input.provider,
    address,
  };
  const at = nextTimestamp();
  return executeWrite(ctx, {
    schema: InboxConnection,
    statements: [
      refuseDuplicateConnection(galleryId, connection),
      insertConnection(galleryId, connection, at),
    ],
    events: [
      changeEvent(
        "inbox_connection.created",
        "inbox_connection",
        connection.id,
        connectionEventResource.jsonById(galleryId, connection.id, {}),
      ),
    ],
    status: 201,
    body: connectionResource.jsonById(galleryId, connection.id, {}),
  });
}

/**
 * Disconnects one of the signed-in member's accounts. Its threads and messages stay in the inbox, without a
 * connection. Records `inbox_connection.deleted` with its last state (without the address).
 */
export async function deleteConnection(ctx: ServiceContext, id: string) {
  const galleryId = ctx.principal.galleryId;
  const current = await findConnection(ctx.db, galleryId, id, inboxOwner(ctx));
  return writeExisting(ctx, current, `No inbox connection ${id} of yours.`, (found) => ({
    schema: DeleteResult,
    statements: [guarded(deleteAsRead(inboxConnections, galleryId, id, found.updatedAt))],
    events: [changeEvent("inbox_connection.deleted", "inbox_connection", id, found.body)],
    status: 200,
    body: deletedBody(id),
  }));
}
