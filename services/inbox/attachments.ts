import { findAttachment } from "../../db/queries/inbox";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";
import { inboxOwner } from "./member";

/** An email attachment's bytes as the member downloads them. */
export interface AttachmentDownload {
  body: ReadableStream;
  size: number;
  filename: string | null;
  contentType: string;
}

/**
 * One attachment of one of the signed-in member's messages, from R2. Another member's, an unknown one, and a
 * WhatsApp or SMS media reference (which stays with its provider) are 404.
 */
export async function downloadAttachment(
  ctx: ServiceContext,
  messageId: string,
  attachmentId: string,
): Promise<AttachmentDownload> {
  const found = await findAttachment(
    ctx.db,
    ctx.principal.galleryId,
    inboxOwner(ctx),
    messageId,
    attachmentId,
  );
  if (!found) throw new ApiError("not_found", `No attachment ${attachmentId} on a message of yours.`);
  if (found.storageKey === null) {
    throw new ApiError(
      "not_found",
      `Attachment ${attachmentId} is kept by its provider: fetch it by its provider_media_id or provider_url.`,
    );
  }
  const object = await ctx.env.UPLOADS.get(found.storageKey);
  if (!object) throw new ApiError("not_found", `The bytes of attachment ${attachmentId} are gone.`);
  return { body: object.body, size: object.size, filename: found.filename, contentType: found.contentType };
}
