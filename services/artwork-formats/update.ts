import {
  findFormatTarget,
  formatJsonById,
  renumberFormats,
  stageFormatChanges,
  updateFormatColumns,
} from "../../db/queries/artwork-formats";
import { previousAttributes } from "../../lib/json";
import type { ArtworkFormatUpdateInput } from "../../lib/schemas/artwork-formats";
import { ArtworkFormat } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { updatePlan, writeExisting } from "../write";
import { formatNotFound, formatWorkStatements, withFormat } from "./work";

/** The fields of `input` that `previous` says change. */
function changedFields(input: ArtworkFormatUpdateInput, previous: Record<string, unknown>) {
  const changed = Object.entries(input).filter(([field]) => field in previous);
  return Object.fromEntries(changed) as ArtworkFormatUpdateInput;
}

/**
 * Changes only the fields sent. A new `position` moves the format there (at most the last place) and shifts the
 * formats between its old and new place. On a published work the changes go to the draft. Records
 * `artwork_format.updated` with `previous_attributes`; a patch that changes nothing writes nothing.
 */
export async function updateArtworkFormat(
  ctx: ServiceContext,
  artworkId: string,
  formatId: string,
  input: ArtworkFormatUpdateInput,
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const target = withFormat(await findFormatTarget(db, galleryId, artworkId, formatId));
  return writeExisting(ctx, target, formatNotFound(artworkId, formatId), (found, at) => {
    const before = found.format.body;
    const wanted =
      input.position === undefined
        ? input
        : { ...input, position: Math.min(input.position, found.count - 1) };
    const previous = previousAttributes(before, wanted);
    const changes = changedFields(wanted, previous);
    const from = before.position as number;
    const moved = changes.position;
    return updatePlan({
      schema: ArtworkFormat,
      type: "artwork_format.updated",
      resourceType: "artwork_format",
      id: formatId,
      object: formatJsonById(galleryId, formatId),
      previous,
      statements: [
        ...formatWorkStatements(ctx, artworkId, found, at),
        found.published
          ? stageFormatChanges(galleryId, formatId, changes)
          : updateFormatColumns(db, galleryId, formatId, changes, at),
        ...(moved === undefined
          ? []
          : [
              renumberFormats(galleryId, artworkId, found.published, at, {
                id: formatId,
                position: moved,
                towardsFront: moved < from,
              }),
            ]),
      ],
    });
  });
}
