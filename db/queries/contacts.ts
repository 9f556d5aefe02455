import { type SQL, sql } from "drizzle-orm";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import {
  CollectorProfile,
  Contact,
  ContactSegmentation,
  InstitutionProfile,
} from "../../lib/schemas/contacts";
import type { Db } from "../client";
import { isoMs, resource } from "../resource";
import { collectorProfiles, contacts, institutionProfiles } from "../schema";
import { type ContactListFilters, contactConditions } from "./contact-filters";
import { type KeysetQuery, keysetPage } from "./keyset";

/**
 * Contact reads. Like artworks, the API representation is built by Postgres from the resource description, so
 * a list, a read, a write's response and its replay are the same shape in one round trip.
 */

export const collectorProfileResource = resource({
  schema: CollectorProfile,
  table: collectorProfiles,
  alias: "cp",
});

export const institutionProfileResource = resource({
  schema: InstitutionProfile,
  table: institutionProfiles,
  alias: "ip",
});

/** The contact's tags, in the order they were added. */
const contactTagIds = sql`array(select ct.tag_id from contact_tags ct
  where ct.contact_id = c.id order by ct.created_at, ct.tag_id)`;

export const contactResource = resource({
  schema: Contact,
  table: contacts,
  alias: "c",
  name: "contact",
  computed: {
    assignee_ids: () => sql`array(select ca.member_id from contact_assignees ca
      where ca.contact_id = c.id order by ca.position, ca.member_id)`,
    collector_profile: () => sql`(select ${collectorProfileResource.json({})}
      from collector_profiles cp where cp.contact_id = c.id)`,
    institution_profile: () => sql`(select ${institutionProfileResource.json({})}
      from institution_profiles ip where ip.contact_id = c.id)`,
  },
});

/** What the roster's filters match a contact on beyond its own fields: GET /gallery/contacts/{id}/segmentation. */
export const contactSegmentationResource = resource({
  schema: ContactSegmentation,
  table: contacts,
  alias: "c",
  computed: {
    contact_id: () => sql`c.id`,
    tag_ids: () => contactTagIds,
    currency: () => sql`(select g.default_currency from galleries g where g.id = c.gallery_id)`,
  },
});

export interface ContactState {
  body: Record<string, unknown>;
  /** The written values the Contact does not show, so an update can tell whether it changes them. */
  unshown: { tag_ids: string[]; email_consent: string };
  updatedAt: string;
}

/** One contact with its raw updated_at (for guarded writes), or null. One round trip. */
export async function findContact(db: Db, galleryId: string, id: string): Promise<ContactState | null> {
  const result = await db.execute<{
    body: Record<string, unknown>;
    tag_ids: string[];
    email_consent: string;
    updated_at: string;
  }>(
    sql`select ${contactResource.json({})} as body, to_json(${contactTagIds}) as tag_ids, c.email_consent,
        ${isoMs(sql`c.updated_at`)} as updated_at
      from contacts c where c.gallery_id = ${galleryId} and c.id = ${id}`,
  );
  const row = result.rows[0];
  return row
    ? {
        body: row.body,
        unshown: { tag_ids: row.tag_ids, email_consent: row.email_consent },
        updatedAt: row.updated_at,
      }
    : null;
}

/** The contact's JSON after a write, for the response and the event (evaluated inside the transaction). */
export function contactJson(galleryId: string, id: string): SQL {
  return contactResource.jsonById(galleryId, id, {});
}

export const contactList = listSpec({ sorts: ["created", "updated", "name"], defaultSort: "created" });
export type ContactSort = (typeof contactList.sorts)[number];

function contactSortKey(sort: ContactSort): { expr: SQL; cast: KeysetQuery["cast"] } {
  switch (sort) {
    case "created":
      return { expr: sql`c.created_at`, cast: "timestamptz" };
    case "updated":
      return { expr: sql`c.updated_at`, cast: "timestamptz" };
    case "name":
      return { expr: sql`c.name`, cast: "text" };
  }
}

/** One page (limit + 1 rows) of contacts. One round trip. */
export function listContacts(
  db: Db,
  galleryId: string,
  filters: ContactListFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  const key = contactSortKey(page.sort as ContactSort);
  return keysetPage(
    db,
    {
      body: contactResource.json({}),
      from: sql`contacts c`,
      ...contactConditions(galleryId, filters),
      sortKey: key.expr,
      cast: key.cast,
      id: sql`c.id`,
    },
    page,
  );
}
