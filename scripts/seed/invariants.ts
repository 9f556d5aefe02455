/**
 * What the demo data must hold for the API to serve it as it would serve its own writes. Run on the seeded
 * gallery before the seed's transaction commits: a violation aborts the seed, naming the rule and a few rows.
 */
import type pg from "pg";
import { formatWritableFields } from "../../lib/schemas/artwork-formats";
import { artworkActivityTypes } from "../../lib/schemas/artwork-timeline";
import { ArtworkUpdate, type InheritableField, inheritableFields } from "../../lib/schemas/artworks";
import { auctionResults } from "../../lib/schemas/auction-records";

const textArray = (items: readonly string[]) => `array[${items.map((i) => `'${i}'`).join(", ")}]::text[]`;

/** How an edition's value of each inheritable field compares with its parent's (`c` the edition, `p` the parent). */
const credits = (alias: string) =>
  `(select array_agg(aa.artist_id || ':' || aa.role || ':' || aa.position order by aa.position)
    from artwork_artists aa where aa.artwork_id = ${alias}.id)`;
const differs: Record<InheritableField, string> = {
  ...(Object.fromEntries(inheritableFields.map((f) => [f, `c.${f} is distinct from p.${f}`])) as Record<
    InheritableField,
    string
  >),
  artists: `c.artist_id is distinct from p.artist_id or c.artist_name is distinct from p.artist_name
    or ${credits("c")} is distinct from ${credits("p")}`,
};

/** Each rule selects the offending rows' ids (`id`) of gallery $1. */
export const DEMO_INVARIANTS: readonly { rule: string; sql: string }[] = [
  {
    rule: "a work has a draft row exactly when its save_state is draft",
    sql: `select a.id from artworks a where a.gallery_id = $1
      and exists (select 1 from artwork_drafts d where d.artwork_id = a.id) <> (a.save_state = 'draft')`,
  },
  {
    rule: "a format with a pending change belongs to a work with a draft",
    sql: `select f.id from artwork_formats f where f.gallery_id = $1
      and (f.pending is not null or f.pending_action is not null)
      and not exists (select 1 from artwork_drafts d where d.artwork_id = f.artwork_id)`,
  },
  {
    rule: "pending_action is create, delete or null",
    sql: `select id from artwork_formats where gallery_id = $1 and pending_action not in ('create', 'delete')`,
  },
  {
    rule: "a never-published work is new, without published_at, published_version or versions",
    sql: `select a.id from artworks a where a.gallery_id = $1
      and ((a.save_state = 'new') <> (a.published_at is null)
        or a.save_state = 'new' and (a.published_version is not null
          or exists (select 1 from artwork_versions v where v.artwork_id = a.id)))`,
  },
  {
    rule: "a draft's patch and a format's pending values name fields a write takes",
    sql: `select d.artwork_id as id from artwork_drafts d where d.gallery_id = $1
        and not array(select jsonb_object_keys(d.patch)) <@ ${textArray(Object.keys(ArtworkUpdate.shape))}
      union all
      select f.id from artwork_formats f where f.gallery_id = $1 and f.pending is not null
        and not array(select jsonb_object_keys(f.pending)) <@ ${textArray(formatWritableFields)}`,
  },
  {
    rule: "a published work has published_version ≥ 1 and versions 1..published_version, the last at published_at",
    sql: `select a.id from artworks a where a.gallery_id = $1 and a.save_state in ('published', 'draft')
      and (a.published_version is null or a.published_version < 1
        or (select count(*) from artwork_versions v where v.artwork_id = a.id) <> a.published_version
        or not exists (select 1 from artwork_versions v where v.artwork_id = a.id
          and v.version = a.published_version and v.published_at = a.published_at))`,
  },
  {
    rule: "an edition with a parent is numbered within its edition size, and its parent is no edition",
    sql: `select c.id from artworks c left join artworks p on p.id = c.parent_artwork_id and p.gallery_id = c.gallery_id
      where c.gallery_id = $1 and c.parent_artwork_id is not null
        and (p.id is null or p.is_edition or not c.is_edition or c.edition_number is null
          or c.edition_size is null or c.edition_number > c.edition_size)`,
  },
  {
    rule: "edition_number ≤ edition_size",
    sql: `select id from artworks where gallery_id = $1 and edition_number > edition_size`,
  },
  {
    rule: "edition_overrides names inheritable fields only",
    sql: `select id from artworks where gallery_id = $1
      and not edition_overrides <@ ${textArray(inheritableFields)}`,
  },
  {
    rule: "an edition shows its parent's value of every inheritable field it does not override",
    sql: `select c.id || ' (' || f.field || ')' as id
      from artworks c join artworks p on p.id = c.parent_artwork_id
      cross join lateral (values ${inheritableFields.map((f) => `('${f}', ${differs[f]})`).join(", ")}) f(field, differs)
      where c.gallery_id = $1 and not (f.field = any(c.edition_overrides)) and f.differs`,
  },
  {
    rule: "image_count and thumbnail_url agree with the image rows",
    sql: `select a.id from artworks a where a.gallery_id = $1
      and (a.image_count <> (select count(*) from artwork_images i where i.artwork_id = a.id)
        or a.thumbnail_url is distinct from
          (select i.url from artwork_images i where i.artwork_id = a.id order by i.position, i.id limit 1))`,
  },
  {
    rule: "auction records have a sale date, a known result, and no hammer price unless offered",
    sql: `select id from auction_records where gallery_id = $1
      and (sale_date is null or not result = any(${textArray(auctionResults)})
        or (hammer_price_cents is not null and result in ('withdrawn', 'postponed')))`,
  },
  {
    rule: "a draft's credited artists are artists of the gallery",
    sql: `select d.artwork_id as id from artwork_drafts d
      cross join lateral jsonb_array_elements(case when jsonb_typeof(d.patch->'artists') = 'array'
        then d.patch->'artists' else '[]'::jsonb end) x
      where d.gallery_id = $1
        and not exists (select 1 from artists ar where ar.id = x->>'artist_id' and ar.gallery_id = d.gallery_id)`,
  },
  {
    rule: "timeline entries are of the kinds the API serves",
    sql: `select id::text from artwork_activity_events where gallery_id = $1
      and not event_type = any(${textArray(artworkActivityTypes)})`,
  },
  {
    rule: "timeline entries lie between the work's creation and its last update",
    sql: `select e.id || ' (' || e.event_type || ')' as id from artwork_activity_events e join artworks a on a.id = e.artwork_id
      where e.gallery_id = $1 and (e.occurred_at < a.created_at or e.occurred_at > a.updated_at)`,
  },
];

/** Throws when a rule has offending rows in the gallery. */
export async function checkDemo(client: pg.ClientBase, galleryId: string): Promise<void> {
  const broken: string[] = [];
  for (const { rule, sql } of DEMO_INVARIANTS) {
    const result = await client.query<{ id: string }>(`${sql} limit 5`, [galleryId]);
    if (result.rowCount) broken.push(`${rule}: ${result.rows.map((r) => r.id).join(", ")}`);
  }
  if (broken.length) throw new Error(`seed: the demo data breaks its rules:\n  ${broken.join("\n  ")}`);
}
