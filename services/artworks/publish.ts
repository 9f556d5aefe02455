import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { closeDraftStatements } from "../../db/queries/artwork-drafts";
import { discardFormatStatements, publishFormatStatements } from "../../db/queries/artwork-formats";
import { activityInsert } from "../../db/queries/artwork-writes";
import { type ArtworkWriteState, artworkResource, findArtworkForWrite } from "../../db/queries/artworks";
import { nextTimestamp } from "../../db/queries/rows";
import { canonicalJson } from "../../lib/json";
import { Artwork, ArtworkUpdate, type ArtworkUpdateInput } from "../../lib/schemas/artworks";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, guarded, notFoundUnlessReplay } from "../write";
import { artworkPreviousAttributes, liveChangeStatements, priceEvents } from "./update";

const writable: ReadonlySet<string> = new Set(Object.keys(ArtworkUpdate.shape));

/** The draft's changes to the live work, as an update would send them: the fields whose working value differs. */
function pendingChanges(found: ArtworkWriteState): ArtworkUpdateInput {
  const input: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(found.patch ?? {})) {
    if (!writable.has(field)) continue;
    if (canonicalJson(found.working[field]) === canonicalJson(found.live[field])) continue;
    // Credits and dimensions are kept in the shape a write takes them; scalars read back as they were written.
    input[field] = field === "artists" || field === "dimensions" ? value : found.working[field];
  }
  return input as ArtworkUpdateInput;
}

function liveObject(ctx: ServiceContext, id: string): SQL {
  return artworkResource.jsonById(ctx.principal.galleryId, id, { draft: false, gatePrices: false });
}

/** A publish or discard with nothing to do: the work as it is, recorded under the idempotency key only. */
function unchanged(ctx: ServiceContext, id: string) {
  return executeWrite(ctx, {
    schema: Artwork,
    statements: [],
    events: [],
    status: 200,
    body: liveObject(ctx, id),
  });
}

/**
 * Makes the working copy live: the draft's fields, credits, dimensions and formats become the artwork, with
 * `published_at` now, `published_version` + 1 and `save_state` published, and the version's snapshot kept. Records
 * `artwork.updated` (and `artwork.price_changed`) for what changed, then `artwork.published`, and timeline entries.
 * A work that is published and has no draft has nothing to publish: the call changes nothing and answers the work.
 */
export async function publishArtwork(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const found = await findArtworkForWrite(db, galleryId, id);
  if (!found) return notFoundUnlessReplay<unknown, 200>(ctx, `No artwork ${id} in this gallery.`);
  if (found.published && found.patch === null) return unchanged(ctx, id);

  const at = nextTimestamp(found.updatedAt);
  const input = pendingChanges(found);
  const previous = artworkPreviousAttributes(found.live, input);
  const version = ((found.live.published_version as number | null) ?? 0) + 1;
  const object = liveObject(ctx, id);
  const statements: SQLWrapper[] = [
    ...liveChangeStatements(ctx, id, found, input, at),
    sql`update artworks set published_at = ${at}, published_version = ${version}
      where gallery_id = ${galleryId} and id = ${id}`,
    ...closeDraftStatements(galleryId, id),
    ...publishFormatStatements(galleryId, id, at),
    activityInsert(db, galleryId, id, principal.credentialId, at, {
      eventType: "published",
      summary: version === 1 ? "Published for the first time." : `Published version ${version} of the work.`,
      metadata: { version, changed: Object.keys(previous) },
    }),
    sql`insert into artwork_versions (gallery_id, artwork_id, version, snapshot, published_by, published_at)
      values (${galleryId}, ${id}, ${version}, (${object})::jsonb, ${principal.credentialId}, ${at})`,
  ];
  const changed = Object.keys(previous).length > 0;
  return executeWrite(ctx, {
    schema: Artwork,
    statements,
    events: [
      ...(changed ? [changeEvent("artwork.updated", "artwork", id, object, previous)] : []),
      ...(changed ? priceEvents(id, found.live, previous, object) : []),
      changeEvent("artwork.published", "artwork", id, object),
    ],
    status: 200,
    body: object,
  });
}

/**
 * Drops the pending draft: the working copy equals the last published state again (its fields, credits,
 * dimensions and formats), and the live work is untouched. Records `artwork.draft_discarded` and a timeline entry.
 * A work without a draft is already in that state: the call changes nothing and answers the work.
 */
export async function discardArtworkDraft(ctx: ServiceContext, id: string) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const found = await findArtworkForWrite(db, galleryId, id);
  if (!found) return notFoundUnlessReplay<unknown, 200>(ctx, `No artwork ${id} in this gallery.`);
  if (found.patch === null) return unchanged(ctx, id);

  const at = nextTimestamp(found.updatedAt);
  const object = liveObject(ctx, id);
  const dropped = Object.keys(pendingChanges(found));
  return executeWrite(ctx, {
    schema: Artwork,
    statements: [
      guarded(sql`update artworks set updated_at = ${at}
        where gallery_id = ${galleryId} and id = ${id} and updated_at = ${found.updatedAt}`),
      ...closeDraftStatements(galleryId, id),
      ...discardFormatStatements(galleryId, id),
      activityInsert(db, galleryId, id, principal.credentialId, at, {
        eventType: "draft_discarded",
        summary: "Discarded the pending draft.",
        metadata: { discarded: dropped },
      }),
    ],
    events: [changeEvent("artwork.draft_discarded", "artwork", id, object)],
    status: 200,
    body: object,
  });
}
