import { eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { ContactCreateInput, ContactUpdateInput } from "../../lib/schemas/contacts";
import type { Db } from "../client";
import {
  collectorProfiles,
  contactAssignees,
  contacts,
  contactTags,
  institutionProfiles,
  members,
  tags,
} from "../schema";
import { collectorProfileResource, contactResource, institutionProfileResource } from "./contacts";
import { asRead, expectReferences, textArray } from "./rows";

/**
 * Statements that write contacts: the contact row, its assignees, tags and profiles. They are composed into one
 * transaction by services/write.ts; none of them runs on its own.
 */

/** The parts of a contact written to tables of their own. */
export type ContactRelations = Pick<
  ContactUpdateInput,
  "assignee_ids" | "tag_ids" | "collector_profile" | "institution_profile"
>;

/** The fields of the input that are columns of the contact. */
function scalarFields(input: ContactUpdateInput) {
  const { assignee_ids: _a, tag_ids: _t, collector_profile: _c, institution_profile: _i, ...scalars } = input;
  return scalars;
}

/**
 * Every member and tag the input names must be the gallery's, and every tag one of scope `contact`: otherwise the
 * transaction aborts with a 400 naming `assignee_ids[]` or `tag_ids[]`.
 */
export function contactReferenceChecks(galleryId: string, input: ContactRelations): SQL[] {
  const checks: SQL[] = [];
  if (input.assignee_ids?.length) {
    checks.push(expectReferences(members, galleryId, input.assignee_ids, "assignee_ids[]"));
  }
  if (input.tag_ids?.length) {
    checks.push(expectReferences(tags, galleryId, input.tag_ids, "tag_ids[]"));
    checks.push(sql`select expect_valid(not exists (select 1 from tags t where t.gallery_id = ${galleryId}
      and t.id = any(${textArray(input.tag_ids)}) and t.scope <> 'contact'), 'tag_ids[]',
      'names a tag whose scope is not contact')`);
  }
  return checks;
}

/**
 * An email another unarchived contact of the gallery has: 409 `conflict` whose `details.existing_id` names that
 * contact. The unique index contacts_gallery_email_key backs this check against concurrent writes.
 */
export function refuseDuplicateEmail(galleryId: string, email: string, exceptId: string): SQL {
  return sql`select raise_conflict(format('Contact %s already has the email %s: an email belongs to one unarchived contact of the gallery', o.id, o.email),
      jsonb_build_object('existing_id', o.id))
    from contacts o where o.gallery_id = ${galleryId} and o.email = ${email} and o.archived_at is null
      and o.id <> ${exceptId}`;
}

/** The unarchived contact that has this email, if any (after the unique index refused a write). */
export async function findContactIdByEmail(db: Db, galleryId: string, email: string): Promise<string | null> {
  const result = await db.execute<{ id: string }>(
    sql`select id from contacts where gallery_id = ${galleryId} and email = ${email} and archived_at is null`,
  );
  return result.rows[0]?.id ?? null;
}

/**
 * Writes the relations the input sends. `replace`: the contact exists, so assignees are replaced in the order
 * sent, tags keep the rows of those still sent (their order is when they were added), and a profile sent as an
 * object is merged into the stored one (created when absent) while null removes it.
 */
export function contactRelationStatements(
  db: Db,
  galleryId: string,
  contactId: string,
  input: ContactRelations,
  at: string,
  replace: boolean,
): SQLWrapper[] {
  const out: SQLWrapper[] = [];
  if (input.assignee_ids) {
    if (replace) out.push(db.delete(contactAssignees).where(eq(contactAssignees.contactId, contactId)));
    if (input.assignee_ids.length) {
      out.push(
        db.insert(contactAssignees).values(
          input.assignee_ids.map((memberId, position) => ({
            galleryId,
            contactId,
            memberId,
            position,
            createdAt: at,
          })),
        ),
      );
    }
  }
  if (input.tag_ids) {
    if (replace) {
      out.push(sql`delete from contact_tags where contact_id = ${contactId}
        and tag_id <> all(${textArray(input.tag_ids)})`);
    }
    if (input.tag_ids.length) {
      out.push(
        db
          .insert(contactTags)
          .values(input.tag_ids.map((tagId) => ({ galleryId, contactId, tagId, createdAt: at })))
          .onConflictDoNothing(),
      );
    }
  }
  const collector = input.collector_profile;
  if (collector === null) {
    out.push(db.delete(collectorProfiles).where(eq(collectorProfiles.contactId, contactId)));
  } else if (collector) {
    out.push(
      db
        .insert(collectorProfiles)
        .values(
          collectorProfileResource.row({
            ...collector,
            contact_id: contactId,
            gallery_id: galleryId,
            created_at: at,
            updated_at: at,
          }),
        )
        .onConflictDoUpdate({
          target: collectorProfiles.contactId,
          set: collectorProfileResource.row({ ...collector, updated_at: at }),
        }),
    );
  }
  const institution = input.institution_profile;
  if (institution === null) {
    out.push(db.delete(institutionProfiles).where(eq(institutionProfiles.contactId, contactId)));
  } else if (institution) {
    out.push(
      db
        .insert(institutionProfiles)
        .values(
          institutionProfileResource.row({
            ...institution,
            contact_id: contactId,
            gallery_id: galleryId,
            created_at: at,
            updated_at: at,
          }),
        )
        .onConflictDoUpdate({
          target: institutionProfiles.contactId,
          set: institutionProfileResource.row({ ...institution, updated_at: at }),
        }),
    );
  }
  return out;
}

/** The INSERT of a new contact, then its relations. */
export function createContactStatements(
  db: Db,
  galleryId: string,
  id: string,
  input: ContactCreateInput,
  at: string,
): SQLWrapper[] {
  return [
    db.insert(contacts).values(
      contactResource.row({
        ...scalarFields(input),
        id,
        gallery_id: galleryId,
        created_at: at,
        updated_at: at,
      }),
    ),
    ...contactRelationStatements(db, galleryId, id, input, at, false),
  ];
}

/**
 * The UPDATE for `guarded()`: the sent columns and updated_at, matching only the row as it was read. It runs
 * whenever anything of the contact changes (its relations too), so updated_at always moves with a change.
 */
export function updateContactStatement(
  db: Db,
  galleryId: string,
  id: string,
  input: ContactUpdateInput,
  readUpdatedAt: string,
  at: string,
): SQLWrapper {
  return db
    .update(contacts)
    .set(contactResource.row({ ...scalarFields(input), updated_at: at }))
    .where(asRead(contacts, galleryId, id, readUpdatedAt));
}
