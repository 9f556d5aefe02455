import { type SQL, sql } from "drizzle-orm";
import { countryCode, countryFromEmail, countryFromPhone, findPlaces } from "../../lib/engine/rubric-places";
import type { ContactProfile } from "../../lib/engine/types";
import type { Db } from "../client";
import { isoMs } from "../resource";
import { textArray } from "./rows";

/**
 * What the rubric judge knows of contacts, in one statement: each contact's row with its collector profile,
 * notes, private notes, sales (one entry per catalogued work of a sale, the amount shared between them),
 * interactions, engagement events and tags, each read through its (gallery, contact, …) index. A sold work, and
 * the work an interaction is about, come with their tags, description and artist's years (their style).
 *
 * Contacts have no address column, so `country` is derived, strongest source first, and the source is kept as a
 * note the judge cites: the newest invoice's tax or billing address (kind "billing_address", id the invoice), else
 * the calling code of an international phone number (kind "phone"), else an email's country domain (kind
 * "email"). Notes saying where someone lives ("based in Edinburgh") are read by the judge itself.
 */

/** Characters of a work's description its style is read from. */
const DESCRIPTION_CHARS = 2000;

/**
 * A work as the rubric judge sees it (ProfileArtwork), from alias `a`: with its artwork tags, the head of its
 * description and its artist's years, which its style is read from (lib/engine/styles.ts).
 */
function artworkJson(a: string): SQL {
  const t = sql.raw(a);
  return sql`json_build_object('id', ${t}.id, 'title', ${t}.title, 'artistName', ${t}.artist_name,
    'medium', ${t}.medium, 'year', ${t}.year, 'heightCm', ${t}.height_cm, 'widthCm', ${t}.width_cm,
    'tags', (select coalesce(json_agg(tg.name order by tg.name), '[]'::json)
      from artwork_tags wt join tags tg on tg.id = wt.tag_id where wt.artwork_id = ${t}.id),
    'description', left(${t}.description, ${DESCRIPTION_CHARS}),
    'artistBirthYear', (select ar.birth_year from artists ar where ar.id = ${t}.artist_id),
    'artistDeathYear', (select ar.death_year from artists ar where ar.id = ${t}.artist_id))`;
}

interface Row {
  id: string;
  name: string;
  company: string | null;
  contact_type: string;
  lead_status: string | null;
  email: string | null;
  phone: string | null;
  email_consent: string | null;
  created_at: string;
  vip: boolean;
  notes: ContactProfile["notes"];
  address: {
    id: string;
    city: string | null;
    region: string | null;
    country: string | null;
    line: string | null;
    billing: string | null;
    at: string | null;
  } | null;
  sales: ContactProfile["sales"];
  interactions: ContactProfile["interactions"];
  engagements: ContactProfile["engagements"];
  tags: string[];
}

export async function loadContactProfiles(
  db: Db,
  galleryId: string,
  contactIds: string[],
): Promise<ContactProfile[]> {
  const ids = [...new Set(contactIds)];
  if (ids.length === 0) return [];
  const result = await db.execute<{ body: string }>(
    sql`select coalesce(json_agg(json_build_object(
        'id', c.id,
        'name', c.name,
        'company', c.company,
        'contact_type', c.contact_type,
        'lead_status', c.lead_status,
        'email', c.email,
        'phone', c.phone,
        'email_consent', c.email_consent,
        'created_at', ${isoMs(sql`c.created_at`)},
        'vip', coalesce(cp.vip, false),
        'notes', (select coalesce(json_agg(n order by n.ord, n.at nulls first, n.id), '[]'::json) from (
            select 1 as ord, c.id as id, 'notes' as kind, c.notes as text, null::text as at where nullif(trim(c.notes), '') is not null
            union all select 2, c.id || ':collecting_focus', 'collecting_focus', cp.collecting_focus, null
              where nullif(trim(cp.collecting_focus), '') is not null
            union all select 3, c.id || ':wishlist_notes', 'wishlist_notes', cp.wishlist_notes, null
              where nullif(trim(cp.wishlist_notes), '') is not null
            union all select 4, c.id || ':budget_band', 'budget_band', cp.budget_band, null
              where nullif(trim(cp.budget_band), '') is not null
            union all select 5, pn.id, 'private_note', pn.body, ${isoMs(sql`pn.created_at`)}
              from private_notes pn where pn.gallery_id = c.gallery_id and pn.contact_id = c.id
          ) n),
        'address', (select json_build_object(
            'id', i.id,
            'city', i.tax_address_city,
            'region', i.tax_address_state,
            'country', i.tax_address_country,
            'line', nullif(concat_ws(', ', i.tax_address_line1, i.tax_address_city, i.tax_address_state,
              i.tax_address_postal_code, i.tax_address_country), ''),
            'billing', i.billing_address,
            'at', ${isoMs(sql`i.created_at`)})
          from invoices i
          where i.gallery_id = c.gallery_id and i.contact_id = c.id
            and (i.tax_address_country is not null or nullif(trim(i.billing_address), '') is not null)
          order by i.created_at desc, i.id desc limit 1),
        'sales', (select coalesce(json_agg(json_build_object(
            'id', s.id,
            'at', ${isoMs(sql`s.sold_at`)},
            'priceCents', round(s.amount_cents::numeric / greatest(w.n, 1))::bigint,
            'currency', s.currency,
            'status', s.status,
            'artwork', case when a.id is null then null else ${artworkJson("a")} end)
            order by s.sold_at, s.id, w.position), '[]'::json)
          from sales s
          left join lateral (select sa.artwork_id, sa.position, count(*) over () as n
            from sale_artworks sa where sa.sale_id = s.id) w on true
          left join artworks a on a.id = w.artwork_id
          where s.gallery_id = c.gallery_id and s.contact_id = c.id),
        'interactions', (select coalesce(json_agg(json_build_object(
            'id', i.id, 'at', ${isoMs(sql`i.occurred_at`)}, 'type', i.type, 'direction', i.direction,
            'summary', i.summary, 'artwork', case when a.id is null then null else ${artworkJson("a")} end)
            order by i.occurred_at, i.id), '[]'::json)
          from interactions i left join artworks a on a.id = i.artwork_id
          where i.gallery_id = c.gallery_id and i.contact_id = c.id),
        'engagements', (select coalesce(json_agg(json_build_object(
            'id', e.id, 'at', ${isoMs(sql`e.occurred_at`)}, 'kind', e.kind, 'artworkId', e.artwork_id)
            order by e.occurred_at, e.id), '[]'::json)
          from engagement_events e where e.gallery_id = c.gallery_id and e.contact_id = c.id),
        'tags', (select coalesce(json_agg(t.name order by t.name), '[]'::json)
          from contact_tags ct join tags t on t.id = ct.tag_id
          where ct.gallery_id = c.gallery_id and ct.contact_id = c.id)
      ) order by c.id), '[]'::json)::text as body
      from contacts c
      left join collector_profiles cp on cp.contact_id = c.id
      where c.gallery_id = ${galleryId} and c.id = any(${textArray(ids)})`,
  );
  const rows = JSON.parse(result.rows[0]?.body ?? "[]") as Row[];
  return rows.map(toProfile);
}

/** The profile with its derived location; the note that gave the location says where it came from. */
function toProfile(row: Row): ContactProfile {
  const notes = [...row.notes];
  let city: string | null = null;
  let region: string | null = null;
  let country: string | null = null;
  const address = row.address;
  const addressText = address ? (address.line ?? address.billing) : null;
  const fromAddress = address ? (countryCode(address.country) ?? lastPlaceCountry(address.billing)) : null;
  if (address && addressText && fromAddress) {
    city = address.city ?? firstCity(address.billing);
    region = address.region;
    country = fromAddress;
    notes.unshift({ id: address.id, kind: "billing_address", text: addressText, at: address.at });
  } else if (countryFromPhone(row.phone)) {
    country = countryFromPhone(row.phone);
    notes.unshift({ id: row.id, kind: "phone", text: row.phone!, at: null });
  } else if (countryFromEmail(row.email)) {
    country = countryFromEmail(row.email);
    notes.unshift({ id: row.id, kind: "email", text: row.email!, at: null });
  }
  return {
    id: row.id,
    name: row.name,
    company: row.company,
    contactType: row.contact_type,
    leadStatus: row.lead_status,
    vip: row.vip,
    city,
    region,
    country,
    emailConsent: row.email_consent,
    createdAt: row.created_at,
    notes,
    sales: row.sales.map((s) => ({ ...s, priceCents: s.priceCents === null ? null : Number(s.priceCents) })),
    interactions: row.interactions,
    engagements: row.engagements,
    tags: row.tags,
  };
}

/** The country a free-text address ends with ("…, Edinburgh EH3 6HP, United Kingdom"). */
function lastPlaceCountry(text: string | null): string | null {
  if (!text) return null;
  const parts = text
    .split(/[,\n]/)
    .map((p) => p.trim())
    .filter(Boolean);
  for (const part of parts.reverse()) {
    const code = countryCode(part);
    if (code) return code;
    const places = findPlaces(part);
    const last = places[places.length - 1];
    if (last && last.place.countries.length === 1) return last.place.countries[0]!;
  }
  return null;
}

function firstCity(text: string | null): string | null {
  if (!text) return null;
  const city = findPlaces(text).find((p) => p.place.city);
  return city ? text.slice(city.start, city.end) : null;
}
