import { type SQL, sql } from "drizzle-orm";
import { type InheritableField, inheritableFields } from "../../lib/schemas/artworks";

/**
 * Editions show their parent's values through. The values are copied onto the edition's own row (and its
 * credits) by the write that changes either side, in the same transaction, so reads, filters, sorts and their
 * indexes see an edition exactly as it is shown, with no join on the read path.
 */

/** The artwork columns behind each inheritable field (`artists` is the credits plus the primary artist). */
const columnsOf: Record<InheritableField, readonly string[]> = {
  ...(Object.fromEntries(inheritableFields.map((f) => [f, [f]])) as Record<InheritableField, string[]>),
  artists: ["artist_id", "artist_name"],
};

/** Which editions a sync touches: the work itself (when an edition) and the works that name it as parent. */
function scope(galleryId: string, artworkId: string): SQL {
  return sql`e.gallery_id = ${galleryId} and e.is_edition
    and (e.id = ${artworkId} or e.parent_artwork_id = ${artworkId})`;
}

/**
 * Copies the parent's values onto the editions in scope, for every inheritable field their `edition_overrides`
 * does not name; credits likewise unless `artists` is overridden. Statements for one batch, after the change.
 */
export function syncEditionStatements(galleryId: string, artworkId: string, at: string): SQL[] {
  const sets = inheritableFields.flatMap((field) =>
    columnsOf[field].map((column) => {
      const c = sql.identifier(column);
      return sql`${c} = case when ${field} = any(e.edition_overrides) then e.${c} else p.${c} end`;
    }),
  );
  const inheritsCredits = sql`${scope(galleryId, artworkId)} and e.parent_artwork_id is not null
    and not ('artists' = any(e.edition_overrides))`;
  return [
    sql`update artworks e set ${sql.join(sets, sql`, `)}, updated_at = greatest(e.updated_at, ${at}::timestamptz)
      from artworks p where ${scope(galleryId, artworkId)} and p.gallery_id = ${galleryId}
        and p.id = e.parent_artwork_id`,
    sql`delete from artwork_artists aa using artworks e where aa.artwork_id = e.id and ${inheritsCredits}`,
    sql`insert into artwork_artists (gallery_id, artwork_id, artist_id, role, position)
      select e.gallery_id, e.id, pa.artist_id, pa.role, pa.position
      from artworks e join artwork_artists pa on pa.artwork_id = e.parent_artwork_id where ${inheritsCredits}`,
  ];
}

/**
 * The rules an edition's parent must meet, checked in the write's transaction: a work of the same gallery (checked
 * with the other references), not the edition itself, and not itself an edition; and a work that has editions
 * cannot become one.
 */
export function editionChecks(
  galleryId: string,
  artworkId: string,
  parentId: string | null | undefined,
  isEdition: boolean | undefined,
): SQL[] {
  const checks: SQL[] = [];
  if (parentId) {
    checks.push(
      sql`select expect_valid(${parentId} <> ${artworkId}, 'parent_artwork_id', 'must name another work')`,
      sql`select expect_valid((select not p.is_edition from artworks p
          where p.gallery_id = ${galleryId} and p.id = ${parentId}),
        'parent_artwork_id', 'must name a work that is not itself an edition')`,
    );
  }
  if (isEdition) {
    checks.push(
      sql`select expect_valid(not exists (select 1 from artworks e
          where e.gallery_id = ${galleryId} and e.parent_artwork_id = ${artworkId}),
        'is_edition', 'cannot be true for a work that other editions name as their parent')`,
    );
  }
  return checks;
}

/** A deleted parent leaves its editions standing, with the values they showed, and no parent. */
export function orphanEditionsStatement(galleryId: string, artworkId: string): SQL {
  return sql`update artworks set parent_artwork_id = null
    where gallery_id = ${galleryId} and parent_artwork_id = ${artworkId}`;
}
