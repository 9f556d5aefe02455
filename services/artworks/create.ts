import { sql } from "drizzle-orm";
import { editionChecks, syncEditionStatements } from "../../db/queries/artwork-editions";
import { activityInsert, createArtworkStatements } from "../../db/queries/artwork-writes";
import { artworkResource } from "../../db/queries/artworks";
import { nextTimestamp } from "../../db/queries/rows";
import { newId } from "../../lib/ids";
import { ApiError } from "../../lib/problem";
import { Artwork, type ArtworkCreateInput } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite } from "../write";
import { checkArtworkRules, withEditionOverrides } from "./rules";

/**
 * Creates an artwork with its credits, dimensions and tags; records `artwork.created` and a timeline entry. An
 * edition with a parent shows the parent's values for the inheritable fields it does not set itself.
 */
export async function createArtwork(ctx: ServiceContext, sent: ArtworkCreateInput) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  checkArtworkRules({}, sent);
  const input = withEditionOverrides({}, sent);
  const id = newId("art");
  const at = nextTimestamp();
  const object = artworkResource.jsonById(galleryId, id, { draft: false, gatePrices: false });
  try {
    return await executeWrite(ctx, {
      schema: Artwork,
      statements: [
        ...editionChecks(galleryId, id, input.parent_artwork_id, input.is_edition),
        ...createArtworkStatements(db, galleryId, id, input, at),
        ...(input.parent_artwork_id ? syncEditionStatements(galleryId, id, at) : []),
        activityInsert(db, galleryId, id, principal.credentialId, at, {
          eventType: "created",
          summary: `Added “${input.title}” to the inventory.`,
          metadata: {},
        }),
      ],
      events: [changeEvent("artwork.created", "artwork", id, object)],
      status: 201,
      body: object,
    });
  } catch (error) {
    throw await withExistingSource(ctx, input, error);
  }
}

/**
 * An import that repeats a (source_system, source_external_id) pair: a 409 naming the work that holds it, so the
 * importer can update that work instead.
 */
async function withExistingSource(ctx: ServiceContext, input: ArtworkCreateInput, error: unknown) {
  if (!(error instanceof ApiError) || error.code !== "conflict") return error;
  const { constraint } = (error.details ?? {}) as { constraint?: string };
  if (constraint !== "artworks_gallery_source_key") return error;
  const existing = await ctx.db.execute<{ id: string }>(
    sql`select id from artworks where gallery_id = ${ctx.principal.galleryId}
      and source_system = ${input.source_system ?? null} and source_external_id = ${input.source_external_id ?? null}`,
  );
  const id = existing.rows[0]?.id ?? null;
  return new ApiError(
    "conflict",
    `Artwork ${id ?? "(unknown)"} already has source_system ${JSON.stringify(input.source_system)} and source_external_id ${JSON.stringify(input.source_external_id)}: update it instead.`,
    { constraint, existing_id: id },
  );
}
