import type { SQL } from "drizzle-orm";
import { draftStatements } from "../../db/queries/artwork-drafts";
import { type FormatTarget, touchArtwork } from "../../db/queries/artwork-formats";
import type { ServiceContext } from "../context";
import { guarded } from "../write";

/**
 * What every format write runs first, in its batch: the guarded touch of the work (a concurrent change of the
 * work or its formats is a 409), and on a published work the opening of its draft, where the change goes.
 */
export function formatWorkStatements(
  ctx: ServiceContext,
  artworkId: string,
  target: FormatTarget,
  at: string,
): SQL[] {
  const { galleryId, memberId } = ctx.principal;
  return [
    guarded(touchArtwork(galleryId, artworkId, target.artworkUpdatedAt, at)),
    ...(target.published ? draftStatements(galleryId, artworkId, memberId, at) : []),
  ];
}

export function formatNotFound(artworkId: string, formatId: string): string {
  return `No format ${formatId} of artwork ${artworkId} in this gallery.`;
}

/** The target of a write to one format: null (a 404) unless the working copy has that format. */
export function withFormat(target: FormatTarget | null) {
  return target?.format ? { ...target, format: target.format } : null;
}
