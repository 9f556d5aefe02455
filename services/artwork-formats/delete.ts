import {
  deleteFormatRow,
  findFormatTarget,
  renumberFormats,
  stageFormatDelete,
} from "../../db/queries/artwork-formats";
import { DeleteResult } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, deletedBody, writeExisting } from "../write";
import { formatNotFound, formatWorkStatements, withFormat } from "./work";

/**
 * Removes a format; the formats after it move up one place. On a published work the format is removed in the
 * draft (it stays live until the draft is published), unless the draft created it: then it is deleted outright.
 * Records `artwork_format.deleted` with the format's last state.
 */
export async function deleteArtworkFormat(ctx: ServiceContext, artworkId: string, formatId: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const target = withFormat(await findFormatTarget(db, galleryId, artworkId, formatId));
  return writeExisting(ctx, target, formatNotFound(artworkId, formatId), (found, at) => {
    const format = found.format;
    const staged = found.published && format.pendingAction !== "create";
    return {
      schema: DeleteResult,
      statements: [
        ...formatWorkStatements(ctx, artworkId, found, at),
        staged ? stageFormatDelete(galleryId, formatId) : deleteFormatRow(galleryId, formatId),
        renumberFormats(galleryId, artworkId, found.published, at, null),
      ],
      events: [changeEvent("artwork_format.deleted", "artwork_format", formatId, format.body)],
      status: 200,
      body: deletedBody(formatId),
    };
  });
}
