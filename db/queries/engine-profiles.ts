import { sql } from "drizzle-orm";
import type { ContactProfile } from "../../lib/engine/types";
import type { Db } from "../client";
import { textArray } from "./rows";

/**
 * What the rubric judge knows of each contact, in one round trip bounded by the ids given. This reads the
 * contact's own fields and notes; sales, interactions, engagements and tags are read by the full loader.
 */
export async function loadContactProfiles(
  db: Db,
  galleryId: string,
  contactIds: string[],
): Promise<ContactProfile[]> {
  if (contactIds.length === 0) return [];
  const result = await db.execute<{
    id: string;
    name: string;
    company: string | null;
    contact_type: string;
    lead_status: string | null;
    email_consent: string | null;
    notes: string | null;
    created_at: string;
  }>(sql`select id, name, company, contact_type, lead_status, email_consent, notes, created_at::text as created_at
    from contacts where gallery_id = ${galleryId} and id = any(${textArray(contactIds)}) order by id`);
  return result.rows.map((r) => ({
    id: r.id,
    name: r.name,
    company: r.company,
    contactType: r.contact_type,
    leadStatus: r.lead_status,
    vip: false,
    city: null,
    region: null,
    country: null,
    emailConsent: r.email_consent,
    createdAt: r.created_at,
    notes: r.notes ? [{ id: `${r.id}:notes`, kind: "profile", text: r.notes, at: null }] : [],
    sales: [],
    interactions: [],
    engagements: [],
    tags: [],
  }));
}
