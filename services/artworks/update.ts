import type { SQLWrapper } from "drizzle-orm";
import { draftPrimaryArtistStatement, draftStatements } from "../../db/queries/artwork-drafts";
import { editionChecks, syncEditionStatements } from "../../db/queries/artwork-editions";
import {
  activityInsert,
  artworkReferenceChecks,
  primaryArtist,
  relationStatements,
  updateArtworkRelations,
  updateArtworkStatement,
} from "../../db/queries/artwork-writes";
import { type ArtworkWriteState, artworkResource, findArtworkForWrite } from "../../db/queries/artworks";
import type { DomainEventInput } from "../../db/queries/outbox";
import { previousAttributes } from "../../lib/json";
import { Artwork, type ArtworkUpdateInput } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, guarded, updatePlan, writeExisting } from "../write";
import { checkArtworkRules, touchesEditions, withEditionOverrides } from "./rules";
import { timelineEntries } from "./timeline";

/**
 * The former values of the fields this patch changes. `artists`, `dimensions` and `tag_ids` are written as
 * whole lists in another shape than they are read, so sending one counts as a change (tags are not part of
 * the Artwork: their former value is null).
 */
export function artworkPreviousAttributes(before: Record<string, unknown>, input: ArtworkUpdateInput) {
  const { artists, dimensions, tag_ids, ...scalars } = input;
  return {
    ...previousAttributes(before, scalars),
    ...(artists ? { artists: before.artists } : {}),
    ...(dimensions ? { dimensions: before.dimensions } : {}),
    ...(tag_ids ? { tag_ids: null } : {}),
  };
}

/**
 * The statements that apply `input` to the live work, with what they imply: the rules on other rows, the
 * editions that show its values, and the timeline entries. Shared by a direct update and a publish.
 */
export function liveChangeStatements(
  ctx: ServiceContext,
  id: string,
  found: ArtworkWriteState,
  input: ArtworkUpdateInput,
  at: string,
): SQLWrapper[] {
  const before = found.live;
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  return [
    ...artworkReferenceChecks(galleryId, input),
    ...editionChecks(galleryId, id, input.parent_artwork_id, input.is_edition),
    guarded(updateArtworkStatement(db, galleryId, id, input, found.updatedAt, at)),
    ...updateArtworkRelations(db, galleryId, id, input),
    ...(touchesEditions(input) ? syncEditionStatements(galleryId, id, at) : []),
    ...timelineEntries(before, input, found.locationNames).map((entry) =>
      activityInsert(db, galleryId, id, principal.credentialId, at, entry),
    ),
  ];
}

/** `artwork.price_changed` when the change moves price_cents or currency. */
export function priceEvents(
  id: string,
  before: Record<string, unknown>,
  previous: Record<string, unknown>,
  object: ReturnType<typeof artworkResource.jsonById>,
): DomainEventInput[] {
  if (!("price_cents" in previous || "currency" in previous)) return [];
  const priceBefore = { price_cents: before.price_cents, currency: before.currency };
  return [changeEvent("artwork.price_changed", "artwork", id, object, priceBefore)];
}

/**
 * Changes only the fields sent. An unpublished work changes at once: `artwork.updated` with
 * `previous_attributes`, `artwork.price_changed` when the price or currency moves, and timeline entries. A
 * published work changes through its draft: the working copy takes the fields (the live work is untouched until
 * publish), `artwork.draft_updated` is recorded, and the response is the working copy. Tags apply at once either
 * way. A patch that changes nothing writes nothing and records nothing.
 */
export async function updateArtwork(ctx: ServiceContext, id: string, input: ArtworkUpdateInput) {
  const current = await findArtworkForWrite(ctx.db, ctx.principal.galleryId, id, input.location_id);
  return writeExisting(ctx, current, `No artwork ${id} in this gallery.`, (found, at) =>
    found.published ? draftUpdate(ctx, id, found, input, at) : liveUpdate(ctx, id, found, input, at),
  );
}

function liveUpdate(
  ctx: ServiceContext,
  id: string,
  found: ArtworkWriteState,
  sent: ArtworkUpdateInput,
  at: string,
) {
  const before = found.live;
  checkArtworkRules(before, sent);
  const input = withEditionOverrides(before, sent);
  const previous = artworkPreviousAttributes(before, input);
  const object = artworkResource.jsonById(ctx.principal.galleryId, id, { draft: false, gatePrices: false });
  return updatePlan({
    schema: Artwork,
    type: "artwork.updated",
    resourceType: "artwork",
    id,
    object,
    previous,
    statements: liveChangeStatements(ctx, id, found, input, at),
    events: priceEvents(id, before, previous, object),
  });
}

function draftUpdate(
  ctx: ServiceContext,
  id: string,
  found: ArtworkWriteState,
  sent: ArtworkUpdateInput,
  at: string,
) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const before = found.working;
  checkArtworkRules(before, sent);
  const input = withEditionOverrides(before, sent);
  const previous = artworkPreviousAttributes(before, input);
  const { tag_ids, ...pending } = input;
  const object = artworkResource.jsonById(galleryId, id, { draft: true, gatePrices: false });
  const draftChanges = Object.keys(previous).some((field) => field !== "tag_ids");
  const statements: SQLWrapper[] = [
    ...artworkReferenceChecks(galleryId, input),
    ...editionChecks(galleryId, id, input.parent_artwork_id, input.is_edition),
  ];
  if (draftChanges) {
    statements.push(...draftStatements(galleryId, id, principal.memberId, at, pending, found.updatedAt));
    if (input.artists) {
      statements.push(draftPrimaryArtistStatement(id, primaryArtist(input.artists)?.artist_id ?? null));
    }
  }
  if (tag_ids) statements.push(...relationStatements(db, galleryId, id, { tag_ids }, true));
  return updatePlan({
    schema: Artwork,
    type: "artwork.draft_updated",
    resourceType: "artwork",
    id,
    object,
    previous,
    statements,
  });
}
