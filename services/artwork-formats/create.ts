import {
  findFormatTarget,
  formatJsonById,
  insertFormat,
  renumberFormats,
} from "../../db/queries/artwork-formats";
import { newId } from "../../lib/ids";
import { ApiError } from "../../lib/problem";
import { type ArtworkFormatCreateInput, MAX_FORMATS_PER_ARTWORK } from "../../lib/schemas/artwork-formats";
import { ArtworkFormat } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, writeExisting } from "../write";
import { formatWorkStatements } from "./work";

/**
 * Adds a format to a work, at `position` (after the last by default), shifting the formats at and after it.
 * On a published work the format is created in the draft: the live work shows it once the draft is published.
 * Records `artwork_format.created`.
 */
export async function createArtworkFormat(
  ctx: ServiceContext,
  artworkId: string,
  input: ArtworkFormatCreateInput,
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const target = await findFormatTarget(db, galleryId, artworkId, null);
  return writeExisting(ctx, target, `No artwork ${artworkId} in this gallery.`, (found, at) => {
    if (found.count >= MAX_FORMATS_PER_ARTWORK) {
      throw new ApiError(
        "conflict",
        `Artwork ${artworkId} already has ${MAX_FORMATS_PER_ARTWORK} formats, the most a work can have.`,
      );
    }
    const id = newId("fmt");
    const position = Math.min(input.position ?? found.count, found.count);
    const object = formatJsonById(galleryId, id);
    return {
      schema: ArtworkFormat,
      statements: [
        ...formatWorkStatements(ctx, artworkId, found, at),
        insertFormat(db, {
          ...input,
          id,
          gallery_id: galleryId,
          artwork_id: artworkId,
          position,
          pending_action: found.published ? "create" : null,
          created_at: at,
          updated_at: at,
        }),
        renumberFormats(galleryId, artworkId, found.published, at, { id, position, towardsFront: true }),
      ],
      events: [changeEvent("artwork_format.created", "artwork_format", id, object)],
      status: 201,
      body: object,
    };
  });
}
