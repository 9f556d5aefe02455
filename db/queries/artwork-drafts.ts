import { type SQL, sql } from "drizzle-orm";

/**
 * The working copy of a published artwork. Its pending field values live in `artwork_drafts.patch` (credited
 * artists and dimensions under `artists` and `dimensions`, in the shape a write takes them); its formats' pending
 * changes live on the format rows (`pending`, `pending_action`). A draft exists while its `artwork_drafts` row
 * does: every write that goes to the working copy makes sure of it, and marks the work `save_state = draft`.
 */

/**
 * Opens (or touches) the draft of a published work and merges `patch` into it. `memberId` is the member who
 * edits, when a member session does. With `readUpdatedAt`, the work must still be as it was read (a guarded
 * write: see services/write.ts `guarded`); the statement then aborts the batch otherwise.
 */
export function draftStatements(
  galleryId: string,
  artworkId: string,
  memberId: string | null,
  at: string,
  patch: Record<string, unknown> = {},
  readUpdatedAt?: string,
): SQL[] {
  const guard = readUpdatedAt ? sql` and updated_at = ${readUpdatedAt}` : sql``;
  const touch = sql`update artworks set save_state = 'draft', updated_at = ${at}
    where gallery_id = ${galleryId} and id = ${artworkId}${guard}`;
  return [
    readUpdatedAt
      ? sql`with changed as (${touch} returning 1) select expect_one_row((select count(*) from changed))`
      : touch,
    sql`insert into artwork_drafts (artwork_id, gallery_id, patch, edited_by, created_at, updated_at)
      values (${artworkId}, ${galleryId}, ${JSON.stringify(patch)}::jsonb, ${memberId}, ${at}, ${at})
      on conflict (artwork_id) do update set patch = artwork_drafts.patch || excluded.patch,
        edited_by = excluded.edited_by, updated_at = excluded.updated_at`,
  ];
}

/**
 * The draft's credits name a new primary artist (or none): the working copy's denormalised artist_id and
 * artist_name follow it, as the live row's follow its credits.
 */
export function draftPrimaryArtistStatement(artworkId: string, primaryArtistId: string | null): SQL {
  if (!primaryArtistId) {
    return sql`update artwork_drafts set patch = patch || '{"artist_id": null, "artist_name": null}'::jsonb
      where artwork_id = ${artworkId}`;
  }
  return sql`update artwork_drafts d set patch = d.patch || jsonb_build_object('artist_id', ar.id, 'artist_name', ar.name)
    from artists ar where d.artwork_id = ${artworkId} and ar.id = ${primaryArtistId}`;
}

/** Ends the draft: its row goes, and the work reads as published (or new, if it never was). */
export function closeDraftStatements(galleryId: string, artworkId: string): SQL[] {
  return [
    sql`delete from artwork_drafts where artwork_id = ${artworkId} and gallery_id = ${galleryId}`,
    sql`update artworks set save_state = case when published_at is null then 'new' else 'published' end
      where gallery_id = ${galleryId} and id = ${artworkId}`,
  ];
}
