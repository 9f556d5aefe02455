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
  updateConnectionStatement,
} from "../../db/queries/inbox-writes";
import { deleteAsRead, nextTimestamp } from "../../db/queries/rows";
import { inboxConnections } from "../../db/schema";
import { type InboxChannel, normaliseAddress } from "../../lib/addresses";
import {
  type ConnectionSecrets,
  openConnectionSecrets,
  sealConnectionSecrets,
} from "../../lib/connectors/secrets";
import { hex } from "../../lib/crypto";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError, type FieldIssue } from "../../lib/problem";
import { DeleteResult } from "../../lib/schemas/artworks";
import {
  foreignSecrets,
  InboxConnection,
  type InboxConnectionCreateInput,
  type InboxConnectionUpdateInput,
} from "../../lib/schemas/inbox";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, executeWrite, guarded, type WritePlan, writeExisting } from "../write";
import { inboxOwner, inboxView } from "./member";

/** One page (limit + 1 rows) of the signed-in member's connections. */
export function listConnections(ctx: ServiceContext, page: PageRequest): Promise<PageRow[]> {
  return listConnectionRows(ctx.db, inboxView(ctx.env), ctx.principal.galleryId, inboxOwner(ctx), page);
}

/**
 * Connects an account to the signed-in member's inbox: its address normalised for the channel (validated by
 * the request schema), 409 when the member already connected that address on that channel. Records
 * `inbox_connection.created` (without the address).
 */
export async function createConnection(ctx: ServiceContext, input: InboxConnectionCreateInput) {
  const galleryId = ctx.principal.galleryId;
  const address = normaliseAddress(input.channel, input.address);
  if (address === null) {
    throw new ApiError("invalid_request", "Body field `address` is not an address of its channel.", [
      { location: "body", field: "address", message: "is not an address of its channel" },
    ]);
  }
  const id = crypto.randomUUID();
  const secrets = definedSecrets(input.secrets);
  const connection: NewConnection = {
    id,
    memberId: inboxOwner(ctx),
    channel: input.channel,
    provider: input.provider,
    address,
    inboundToken: input.channel === "email" ? newInboundToken() : null,
    ...(await sealed(ctx, id, secrets)),
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
    body: connectionResource.jsonById(galleryId, connection.id, inboxView(ctx.env)),
  });
}

/** The secrets sent, without the absent ones. */
function definedSecrets(input: InboxConnectionCreateInput["secrets"]): ConnectionSecrets {
  return Object.fromEntries(
    Object.entries(input ?? {}).filter(([, v]) => v !== undefined),
  ) as ConnectionSecrets;
}

/** What the row stores of a connection's secrets: sealed, bound to it, and their names. */
async function sealed(ctx: ServiceContext, id: string, secrets: ConnectionSecrets) {
  const names = Object.keys(secrets).sort();
  return {
    sealedSecrets: names.length > 0 ? await sealConnectionSecrets(ctx.env, id, secrets) : null,
    secretNames: names,
  };
}

/** An email connection's inbound token: 128 random bits as 32 lower-case hex digits. */
function newInboundToken(): string {
  return hex(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * Changes one of the signed-in member's connections: its provider, or its provider secrets (those sent replace
 * theirs; the others stay). A secret the connection's channel does not take is a 400 naming it. Records
 * `inbox_connection.updated` with the former provider and secret names, when either changed; a secret replaced
 * by another value changes what opens the deliveries but not the names, and is recorded too.
 */
export async function updateConnection(ctx: ServiceContext, id: string, input: InboxConnectionUpdateInput) {
  const galleryId = ctx.principal.galleryId;
  const current = await findConnection(ctx.db, galleryId, id, inboxOwner(ctx));
  if (current) refuseForeignSecrets(current.body.channel, input.secrets);
  return writeExisting(ctx, current, `No inbox connection ${id} of yours.`, async (found, at) => {
    const sent = definedSecrets(input.secrets);
    const previousSecrets = await openConnectionSecrets(ctx.env, id, found.sealedSecrets);
    const secrets = { ...previousSecrets, ...sent };
    const secretsChanged = Object.entries(sent).some(
      ([name, value]) => previousSecrets[name as keyof ConnectionSecrets] !== value,
    );
    const provider = input.provider ?? found.body.provider;
    const previous: Record<string, unknown> = {};
    if (provider !== found.body.provider) previous.provider = found.body.provider;
    if (secretsChanged) previous.secrets = found.body.secrets;
    const stored = secretsChanged
      ? await sealed(ctx, id, secrets)
      : { sealedSecrets: found.sealedSecrets, secretNames: found.body.secrets };
    const plan: WritePlan<typeof InboxConnection, 200> = {
      schema: InboxConnection,
      statements: [],
      events: [],
      status: 200,
      body: connectionResource.jsonById(galleryId, id, inboxView(ctx.env)),
    };
    if (Object.keys(previous).length === 0) return plan;
    return {
      ...plan,
      statements: [
        guarded(updateConnectionStatement(galleryId, id, { provider, ...stored }, found.updatedAt, at)),
      ],
      events: [
        changeEvent(
          "inbox_connection.updated",
          "inbox_connection",
          id,
          connectionEventResource.jsonById(galleryId, id, {}),
          previous,
        ),
      ],
    };
  });
}

/** 400 naming each secret the connection's channel does not take. */
function refuseForeignSecrets(channel: InboxChannel, secrets: InboxConnectionUpdateInput["secrets"]): void {
  const issues: FieldIssue[] = foreignSecrets(channel, secrets).map((issue) => ({
    location: "body",
    ...issue,
  }));
  if (issues.length > 0) {
    const [first] = issues;
    throw new ApiError("invalid_request", `Body field \`${first!.field}\` ${first!.message}.`, issues);
  }
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
