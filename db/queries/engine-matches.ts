import { type SQL, sql } from "drizzle-orm";
import type { MatchArtistAffinity, MatchContact } from "../../lib/engine/types";
import type { MatchBody } from "../../lib/schemas/matches";
import { isoMs } from "../resource";
import { availableWork, matchResource } from "./matches";
import { textArray } from "./rows";

/**
 * The matcher's queries in the engine loop (docs/decisions.md, "The matcher in the loop"): what it knows of a
 * batch of contacts, their stored pairs and the gallery's model in one round trip; their candidate works by
 * indexed lookups in a second; for a batch of works, the pairs a work no longer available leaves and the
 * contacts to judge again in reverse; and the write-back statements, composed by services/engine/ into the
 * gallery's one write-back batch.
 */

/** The Match resource as the engine's events carry it (alias `rm`). */

/** Bounds on what one contact's judgment reads (newest first). */
export const MATCH_INPUT_LIMITS = {
  purchases: 100,
  interactions: 100,
  engagements: 200,
  privateNotes: 50,
  feedback: 500,
} as const;

/**
 * Candidate works per lookup: per artist, per medium family (within the price range), by price alone, per
 * artwork tag of a style the facts ask for, per period they name.
 */
export const CANDIDATES_PER_ARTIST = 40;
export const CANDIDATES_PER_MEDIUM = 60;
export const CANDIDATES_BY_PRICE = 40;
export const CANDIDATES_PER_STYLE_TAG = 40;
export const CANDIDATES_PER_PERIOD = 40;
/** Tags of a style, and artists by a surname the facts name, read per contact at most. */
export const STYLE_TAGS_READ = 20;
export const NAMED_ARTISTS_READ = 10;
/** Works named directly (asked about, engaged with) and stored pairs read per contact at most. */
export const CANDIDATES_NAMED = 200;

/** Characters of a work's description the style reading sees. */
export const MATCH_DESCRIPTION_CHARS = 2000;

/**
 * A work as the matcher sees it (lib/engine/types.ts MatchWork), from alias `a`: with its artwork tags (by the
 * artwork_tags key), the head of its description and its artist's years (by the artists key), which its style is
 * read from (lib/engine/styles.ts).
 */
function workJson(a: string): SQL {
  const t = sql.raw(a);
  return sql`json_build_object('id', ${t}.id, 'title', ${t}.title, 'artistId', ${t}.artist_id,
    'artistName', ${t}.artist_name, 'medium', ${t}.medium, 'year', ${t}.year, 'heightCm', ${t}.height_cm,
    'widthCm', ${t}.width_cm, 'priceCents', ${t}.price_cents, 'currency', ${t}.currency,
    'createdAt', ${isoMs(sql`${t}.created_at`)},
    'tags', (select coalesce(json_agg(tg.name order by tg.name), '[]'::json)
      from artwork_tags wt join tags tg on tg.id = wt.tag_id where wt.artwork_id = ${t}.id),
    'description', left(${t}.description, ${MATCH_DESCRIPTION_CHARS}),
    'artistBirthYear', (select ar.birth_year from artists ar where ar.id = ${t}.artist_id),
    'artistDeathYear', (select ar.death_year from artists ar where ar.id = ${t}.artist_id))`;
}

/** A contact's inputs, with what the loop needs beside them. */
export interface MatchContactRow extends MatchContact {
  archived: boolean;
  /** Hide state per work: the latest hide or unhide (hidden_until null after an unhide). */
  hides: { artworkId: string; hiddenUntil: string | null; memberId: string | null }[];
}

/**
 * What the matcher knows of each contact (MatchContact), as one JSON text: profile facts (notes, collecting
 * focus, wishlist, budget band, private notes), purchases (pending and completed sales, one entry per work, the
 * amount shared), interactions and engagement events (with their works; an engagement with the title of the
 * viewing room it happened in), and members' feedback by pair. Each
 * list read newest first through its (gallery, contact, …) index and bounded (MATCH_INPUT_LIMITS).
 */
export function matchContactInputs(galleryId: string, contactIds: string[]): SQL {
  const L = MATCH_INPUT_LIMITS;
  return sql`select coalesce(json_agg(json_build_object(
      'id', c.id,
      'name', c.name,
      'archived', c.archived_at is not null,
      'priceBand', c.price_band,
      'totalSpendCents', c.total_spend_cents,
      'facts', (select coalesce(json_agg(f order by f.ord, f.at nulls first, f.id), '[]'::json) from (
          select 1 as ord, c.id as id, 'notes' as kind, c.notes as text, null::text as at
            where nullif(trim(c.notes), '') is not null
          union all select 2, c.id, 'collecting_focus', cp.collecting_focus, null
            where nullif(trim(cp.collecting_focus), '') is not null
          union all select 3, c.id, 'wishlist_notes', cp.wishlist_notes, null
            where nullif(trim(cp.wishlist_notes), '') is not null
          union all select 4, c.id, 'budget_band', cp.budget_band, null
            where nullif(trim(cp.budget_band), '') is not null
          union all select 5, pn.id, 'private_note', pn.body, pn.at from (
            select pn.id, pn.body, ${isoMs(sql`pn.created_at`)} as at from private_notes pn
            where pn.gallery_id = c.gallery_id and pn.contact_id = c.id
            order by pn.created_at desc, pn.id desc limit ${L.privateNotes}) pn
        ) f),
      'purchases', (select coalesce(json_agg(json_build_object('id', p.id, 'at', p.at, 'priceCents', p.price_cents,
            'currency', p.currency, 'pending', p.pending, 'work', p.work) order by p.at, p.id, p.position), '[]'::json) from (
          select s.id, ${isoMs(sql`s.sold_at`)} as at, w.position, s.status = 'pending' as pending,
            round(s.amount_cents::numeric / greatest(w.n, 1))::bigint as price_cents, s.currency,
            case when a.id is null then null else ${workJson("a")} end as work
          from (select * from sales s where s.gallery_id = c.gallery_id and s.contact_id = c.id
              and s.status in ('pending', 'completed')
            order by s.sold_at desc, s.id desc limit ${L.purchases}) s
          left join lateral (select sa.artwork_id, sa.position, count(*) over () as n
            from sale_artworks sa where sa.sale_id = s.id) w on true
          left join artworks a on a.id = w.artwork_id) p),
      'interactions', (select coalesce(json_agg(json_build_object('id', i.id, 'at', ${isoMs(sql`i.occurred_at`)},
            'type', i.type, 'direction', i.direction, 'summary', i.summary,
            'work', case when a.id is null then null else ${workJson("a")} end) order by i.occurred_at, i.id), '[]'::json)
          from (select * from interactions i where i.gallery_id = c.gallery_id and i.contact_id = c.id
            order by i.occurred_at desc, i.id desc limit ${L.interactions}) i
          left join artworks a on a.id = i.artwork_id),
      'engagements', (select coalesce(json_agg(json_build_object('id', e.id, 'at', ${isoMs(sql`e.occurred_at`)},
            'kind', e.kind, 'work', case when a.id is null then null else ${workJson("a")} end, 'room', vr.title)
            order by e.occurred_at, e.id), '[]'::json)
          from (select * from engagement_events e where e.gallery_id = c.gallery_id and e.contact_id = c.id
            order by e.occurred_at desc, e.id desc limit ${L.engagements}) e
          left join artworks a on a.id = e.artwork_id
          left join viewing_rooms vr on vr.id = e.viewing_room_id),
      'feedback', (select coalesce(json_agg(json_build_object('id', f.id, 'artworkId', f.artwork_id,
            'action', f.action, 'at', ${isoMs(sql`f.created_at`)}) order by f.created_at, f.id), '[]'::json)
          from (select * from match_feedback f where f.gallery_id = c.gallery_id and f.contact_id = c.id
            order by f.created_at desc, f.id desc limit ${L.feedback}) f),
      'hides', (select coalesce(json_agg(json_build_object('artworkId', h.artwork_id,
            'hiddenUntil', case when h.action = 'hide' then ${isoMs(sql`h.hidden_until`)} end,
            'memberId', case when h.action = 'hide' then h.member_id end) order by h.artwork_id), '[]'::json)
          from (select distinct on (f.artwork_id) f.artwork_id, f.action, f.hidden_until, f.member_id
            from match_feedback f where f.gallery_id = c.gallery_id and f.contact_id = c.id
              and f.action in ('hide', 'unhide')
            order by f.artwork_id, f.created_at desc, f.id desc) h)
    ) order by c.id), '[]'::json)::text as body
    from contacts c
    left join collector_profiles cp on cp.contact_id = c.id
    where c.gallery_id = ${galleryId} and c.id = any(${textArray(contactIds)})`;
}

/** A stored pair as the loop compares it, with its Match JSON (the object of a match.deleted). */
export interface StoredMatchRow {
  id: string;
  contact_id: string;
  artwork_id: string;
  model: string;
  probability: number;
  status: string;
  hidden_until: string | null;
  input_hash: string | null;
  body: MatchBody;
}

/** The stored pairs of these contacts (every model's). */
export function storedMatchesOfContacts(galleryId: string, contactIds: string[]): SQL {
  return sql`select rm.id, rm.contact_id, rm.artwork_id, rm.model, rm.probability, rm.status,
      ${isoMs(sql`rm.hidden_until`)} as hidden_until, rm.input_hash, ${matchResource.json({ gatePrices: false })} as body
    from recommendation_matches rm
    where rm.gallery_id = ${galleryId} and rm.contact_id = any(${textArray(contactIds)})`;
}

/** The gallery's fitted model, if any. */
export function matchModelOf(galleryId: string): SQL {
  return sql`select model, bias, weights, examples, positives, affinity, calibration from match_models where gallery_id = ${galleryId}`;
}

export interface MatchModelRow {
  model: string;
  bias: number;
  weights: Record<string, number>;
  examples: number;
  positives: number;
  affinity: MatchArtistAffinity | null;
  /** The calibration map (lib/engine/calibration.ts), or a reliability table in a row fitted before maps. */
  calibration?: unknown;
}

/** One contact's candidate lookups (lib/engine/types.ts MatchCandidateQuery) with its stored pairs' works. */
export interface CandidateLookup {
  c: string;
  artists: string[];
  media: string[];
  min: number | null;
  max: number | null;
  /** Works named directly (asked about, engaged with) and the works of its stored pairs. */
  works: string[];
  /** Artwork tag names (lower-cased LIKE patterns) of the styles its facts ask for. */
  tags: string[];
  /** Surnames its facts name (folded). */
  names: string[];
  /** Years of making its facts name: from and to, pairwise. */
  yfrom: number[];
  yto: number[];
}

/**
 * Candidate works for each contact, by index: the newest available works of each artist its history points at
 * or its facts name by surname (artworks_gallery_artist_idx; the surnames compared with the last word of each of
 * the gallery's artists' names, read through the gallery prefix of artists_gallery_name_idx), available works of each medium family within its price range
 * (artworks_match_medium_idx), without a medium some within its price range (artworks_gallery_price_idx), the
 * newest available works tagged with a style its facts ask for (the gallery's artwork tags by name through
 * tags_gallery_scope_name_key, then artwork_tags_tag_idx), the latest-made of each period they name
 * (artworks_gallery_year_idx), and the works named directly or stored with it, when available. Rows: contact
 * id and the work as MatchWork.
 */
export function candidateWorks(galleryId: string, lookups: CandidateLookup[]): SQL {
  return sql`select q.c as contact_id, w.work
    from jsonb_to_recordset(${JSON.stringify(lookups)}::jsonb)
      as q(c text, artists text[], media text[], min bigint, max bigint, works text[], tags text[], names text[],
        yfrom integer[], yto integer[])
    cross join lateral (
      select x.id from (
        select unnest(q.artists) as artist_id
        union
        (select ar.id from artists ar
          where cardinality(q.names) > 0 and ar.gallery_id = ${galleryId}
            and lower(regexp_replace(ar.name, '^.*[[:space:]]', '')) = any(q.names)
          order by ar.id limit ${NAMED_ARTISTS_READ})
      ) ar cross join lateral (
        select a.id from artworks a
        where a.gallery_id = ${galleryId} and a.artist_id = ar.artist_id and ${availableWork("a")}
        order by a.created_at desc, a.id desc limit ${CANDIDATES_PER_ARTIST}) x
      union
      select x.id from unnest(q.media) m(family) cross join lateral (
        select a.id from artworks a
        where a.gallery_id = ${galleryId} and a.match_medium = m.family
          and a.availability_state = 'available' and a.published_at is not null
          and a.price_cents between coalesce(q.min, 0) and coalesce(q.max, ${Number.MAX_SAFE_INTEGER})
          and ${availableWork("a")}
        order by a.price_cents desc, a.id desc limit ${CANDIDATES_PER_MEDIUM}) x
      union
      select x.id from (
        select a.id from artworks a
        where q.min is not null and cardinality(q.media) = 0 and a.gallery_id = ${galleryId}
          and coalesce(a.price_cents, -1) between q.min and q.max and ${availableWork("a")}
        order by coalesce(a.price_cents, -1) desc, a.id desc limit ${CANDIDATES_BY_PRICE}) x
      union
      select x.id from (select tg.id from tags tg
          where cardinality(q.tags) > 0 and tg.gallery_id = ${galleryId} and tg.scope = 'artwork'
            and lower(tg.name) like any(q.tags)
          order by tg.id limit ${STYLE_TAGS_READ}) tg
        cross join lateral (
          select a.id from artwork_tags wt join artworks a on a.id = wt.artwork_id
          where wt.gallery_id = ${galleryId} and wt.tag_id = tg.id and ${availableWork("a")}
          order by a.created_at desc, a.id desc limit ${CANDIDATES_PER_STYLE_TAG}) x
      union
      select x.id from unnest(q.yfrom, q.yto) y(y0, y1) cross join lateral (
        select a.id from artworks a
        where a.gallery_id = ${galleryId} and coalesce(a.year, -2147483648) between y.y0 and y.y1
          and ${availableWork("a")}
        order by coalesce(a.year, -2147483648) desc, a.id desc limit ${CANDIDATES_PER_PERIOD}) x
      union
      select a.id from artworks a
      where a.gallery_id = ${galleryId} and a.id = any(q.works) and ${availableWork("a")}
    ) ids
    -- Each candidate's row by its key: a probe of the primary key per candidate (the limit keeps the planner from
    -- pulling the subquery up into a join it may hash over the whole table).
    cross join lateral (select ${workJson("a")} as work from artworks a where a.id = ids.id limit 1) w`;
}

/** For a batch of works: each one's medium (its family is kept by the engine) and whether it can be matched. */
export function artworkMatchStates(galleryId: string, artworkIds: string[]): SQL {
  return sql`select a.id, a.artist_id, a.medium, a.match_medium, ${availableWork("a")} as available
    from artworks a where a.gallery_id = ${galleryId} and a.id = any(${textArray(artworkIds)})`;
}

export interface ArtworkMatchStateRow {
  id: string;
  artist_id: string | null;
  medium: string | null;
  match_medium: string | null;
  available: boolean;
}

/** Active pairs on these works when a work can no longer be matched: at most `limit` (the rest next time). */
export function activePairsOnUnavailable(galleryId: string, artworkIds: string[], limit: number): SQL {
  return sql`select rm.id, rm.contact_id, rm.artwork_id, rm.model, rm.probability, rm.status,
      ${isoMs(sql`rm.hidden_until`)} as hidden_until, rm.input_hash, ${matchResource.json({ gatePrices: false })} as body
    from artworks a
    join recommendation_matches rm on rm.gallery_id = a.gallery_id and rm.artwork_id = a.id
    where a.gallery_id = ${galleryId} and a.id = any(${textArray(artworkIds)}) and not ${availableWork("a")}
      and rm.status = 'active'
    order by rm.artwork_id, rm.id limit ${limit}`;
}

/**
 * The contacts to judge again for an available work, in reverse of the candidate lookups, at most `perWork`
 * each: those with a stored pair on it (recommendation_matches_artwork_idx), those who bought, asked about or
 * engaged with works of its artist (artworks_gallery_artist_idx, then sale_artworks_artwork_idx,
 * interactions_artwork_idx, engagement_events_artwork_idx), and those who bought or asked about works of its
 * medium family (artworks_gallery_match_medium_idx). Archived contacts are left out (their pairs are inactive).
 * Each source reads a bounded number of works and rows.
 */
export function reverseCandidateContacts(
  galleryId: string,
  works: { id: string; artist_id: string | null; family: string | null }[],
  perWork: number,
): SQL {
  const g = galleryId;
  return sql`select distinct w.id as artwork_id, r.contact_id
    from jsonb_to_recordset(${JSON.stringify(works)}::jsonb) as w(id text, artist_id text, family text)
    cross join lateral (
      select x.contact_id from (
        (select rm.contact_id from recommendation_matches rm
          where rm.gallery_id = ${g} and rm.artwork_id = w.id limit ${perWork})
        union
        (select s.contact_id from (select b.id from artworks b
            where b.gallery_id = ${g} and b.artist_id = w.artist_id and b.id <> w.id
            order by b.created_at desc, b.id desc limit 200) b
          join sale_artworks sa on sa.artwork_id = b.id join sales s on s.id = sa.sale_id
          where s.contact_id is not null and s.status in ('pending', 'completed') limit ${perWork})
        union
        (select i.contact_id from (select b.id from artworks b
            where b.gallery_id = ${g} and b.artist_id = w.artist_id
            order by b.created_at desc, b.id desc limit 200) b
          join interactions i on i.gallery_id = ${g} and i.artwork_id = b.id limit ${perWork})
        union
        (select e.contact_id from (select b.id from artworks b
            where b.gallery_id = ${g} and b.artist_id = w.artist_id
            order by b.created_at desc, b.id desc limit 200) b
          join engagement_events e on e.gallery_id = ${g} and e.artwork_id = b.id limit ${perWork})
        union
        (select s.contact_id from (select b.id from artworks b
            where b.gallery_id = ${g} and b.match_medium = w.family and b.id <> w.id
            order by b.id desc limit 500) b
          join sale_artworks sa on sa.artwork_id = b.id join sales s on s.id = sa.sale_id
          where s.contact_id is not null and s.status in ('pending', 'completed') limit ${perWork})
      ) x
      join contacts c on c.gallery_id = ${g} and c.id = x.contact_id and c.archived_at is null
      limit ${perWork}
    ) r`;
}

// ---------------------------------------------------------------------------------------------------------
// Write-back statements

export interface MatchEvidenceRowInput {
  id: string;
  question: string;
  kind: string;
  label: string;
  source_label: string | null;
  at: string | null;
  evidence_ref: string | null;
}

export interface MatchUpsertRow {
  id: string;
  contact_id: string;
  artwork_id: string;
  model: string;
  counterpart_name: string | null;
  probability: number;
  sub_scores: Record<string, number>;
  reasons: unknown[];
  evidence_count: number;
  status: string;
  hidden_until: string | null;
  hidden_by: string | null;
  input_hash: string;
  evidence: MatchEvidenceRowInput[];
}

/**
 * Upserts judged pairs by their pair key (gallery, artwork, contact, model): a stored pair keeps its id; its
 * evidence rows are replaced. A pair whose contact or work was deleted meanwhile is skipped.
 */
export function upsertMatches(galleryId: string, rows: MatchUpsertRow[], at: string): SQL {
  return sql`with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, contact_id text,
        artwork_id text, model text, counterpart_name text, probability double precision, sub_scores jsonb,
        reasons jsonb, evidence_count integer, status text, hidden_until timestamptz, hidden_by text,
        input_hash text, evidence jsonb)
    ), up as (
      insert into recommendation_matches as rm (id, gallery_id, artwork_id, contact_id, model, counterpart_name,
        probability, sub_scores, reasons, evidence_count, status, hidden_until, hidden_by, judged_at, input_hash)
      select r.id, ${galleryId}, r.artwork_id, r.contact_id, r.model, r.counterpart_name, r.probability,
        r.sub_scores, r.reasons, r.evidence_count, r.status, r.hidden_until, r.hidden_by, ${at}::timestamptz,
        r.input_hash
      from input r
      where exists (select 1 from contacts c where c.gallery_id = ${galleryId} and c.id = r.contact_id)
        and exists (select 1 from artworks a where a.gallery_id = ${galleryId} and a.id = r.artwork_id)
      on conflict (gallery_id, artwork_id, contact_id, model) do update
        set counterpart_name = excluded.counterpart_name, probability = excluded.probability,
          sub_scores = excluded.sub_scores, reasons = excluded.reasons, evidence_count = excluded.evidence_count,
          status = excluded.status, hidden_until = excluded.hidden_until, hidden_by = excluded.hidden_by,
          judged_at = excluded.judged_at, input_hash = excluded.input_hash, updated_at = now()
      returning rm.id, rm.contact_id, rm.artwork_id, rm.model
    ), cleared as (
      delete from match_evidence e using up where e.match_id = up.id
    )
    insert into match_evidence (id, gallery_id, match_id, question, kind, label, source_label, at, evidence_ref)
    select x.id, ${galleryId}, up.id, x.question, x.kind, x.label, x.source_label, x.at, x.evidence_ref
    from up
    join input r on r.contact_id = up.contact_id and r.artwork_id = up.artwork_id and r.model = up.model
    cross join lateral jsonb_to_recordset(r.evidence) as x(id text, question text, kind text, label text,
      source_label text, at timestamptz, evidence_ref text)`;
}

/**
 * Status and hide of stored pairs, without judging them again (judged_at and the evidence stay). A row whose
 * hide is the stored one keeps the stored hidden_by.
 */
export function setMatchStates(
  galleryId: string,
  rows: { id: string; status: string; hidden_until: string | null; hidden_by: string | null }[],
): SQL {
  return sql`update recommendation_matches rm set status = r.status, hidden_until = r.hidden_until,
      hidden_by = case when rm.hidden_until is not distinct from r.hidden_until then rm.hidden_by else r.hidden_by end,
      updated_at = now()
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, status text, hidden_until timestamptz,
      hidden_by text)
    where rm.gallery_id = ${galleryId} and rm.id = r.id`;
}

/** Pairs the matcher no longer stores (their evidence goes with them). */
export function deleteMatches(galleryId: string, ids: string[]): SQL {
  return sql`delete from recommendation_matches where gallery_id = ${galleryId} and id = any(${textArray(ids)})`;
}

/** A match event of the write-back: its object read by pair key after the batch's writes, or given (deleted). */
export interface MatchEventRow {
  id: string;
  type: "match.created" | "match.updated" | "match.deleted";
  resource_id: string;
  contact_id: string;
  artwork_id: string;
  model: string;
  /** The object as given (a deleted pair's last state); null: the stored pair's JSON at insert. */
  object: MatchBody | null;
  previous: Record<string, unknown> | null;
}

/**
 * The batch's match events in one statement (the outbox row of each, as eventInsert writes one): `data.object`
 * the pair as stored after the batch's writes (or the given object of a deleted pair), `previous_attributes`
 * when given. The outbox triggers (webhook fan-out, engine marking) run for each row as for any event.
 */
export function insertMatchEvents(galleryId: string, events: MatchEventRow[]): SQL {
  return sql`insert into domain_events (id, gallery_id, type, livemode, resource_type, resource_id, data)
    select e.id, ${galleryId}, e.type, g.livemode, 'match', e.resource_id,
      jsonb_build_object('object', coalesce(e.object, (
          select ${matchResource.json({ gatePrices: false })}::jsonb from recommendation_matches rm
          where rm.gallery_id = ${galleryId} and rm.contact_id = e.contact_id and rm.artwork_id = e.artwork_id
            and rm.model = e.model)))
        || case when e.previous is null then '{}'::jsonb else jsonb_build_object('previous_attributes', e.previous) end
    from jsonb_to_recordset(${JSON.stringify(events)}::jsonb) as e(id text, type text, resource_id text,
      contact_id text, artwork_id text, model text, object jsonb, previous jsonb)
    join galleries g on g.id = ${galleryId}
    order by e.id`;
}

/** The medium family the candidate lookups read, kept by the engine (no event: a derived value). */
export function setMatchMedia(galleryId: string, rows: { id: string; family: string | null }[]): SQL {
  return sql`update artworks a set match_medium = r.family
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, family text)
    where a.gallery_id = ${galleryId} and a.id = r.id and a.match_medium is distinct from r.family`;
}

/**
 * Marks subjects stale from the engine itself (contacts to judge again for a work; a work whose pairs are
 * taken a batch at a time), exactly as the trigger marks them for a write (migrations 0013, 0022: attempts start
 * over).
 */
export function markStale(galleryId: string, kind: "contact" | "artwork", ids: string[]): SQL {
  return sql`insert into judgment_subjects as s (gallery_id, kind, subject_id, version, judged_version,
      stale_since, marked_xact)
    select ${galleryId}, ${kind}, id, 1, 0, now(), txid_current() from unnest(${textArray(ids)}) as id
    on conflict (gallery_id, kind, subject_id) do update
      set version = s.version + 1,
        stale_since = case when s.judged_version < s.version then s.stale_since else now() end,
        marked_xact = txid_current(), attempts = 0`;
}

// ---------------------------------------------------------------------------------------------------------
// Fitting: the gallery's outcomes, bounded

/** Contacts with the newest outcomes read for a fit, and works sampled as negatives. */
export const FIT_CONTACTS = 1000;
export const FIT_WORKS = 500;

/** The contacts with the newest outcomes (sales, interactions about a work, feedback): at most `limit`. */
export function fitContactIds(galleryId: string, limit: number): SQL {
  return sql`select contact_id from (
      (select s.contact_id, s.sold_at as at from sales s
        where s.gallery_id = ${galleryId} and s.contact_id is not null order by s.sold_at desc limit ${limit})
      union all
      (select f.contact_id, f.created_at from match_feedback f
        where f.gallery_id = ${galleryId} order by f.created_at desc limit ${limit})
    ) o group by contact_id order by max(at) desc limit ${limit}`;
}

/** The newest works of the gallery as MatchWork (the fit's sampled negatives). */
export function fitWorks(galleryId: string, limit: number): SQL {
  return sql`select ${workJson("a")} as work from artworks a where a.gallery_id = ${galleryId}
    order by a.created_at desc, a.id desc limit ${limit}`;
}

/** Galleries with outcomes whose model is missing or older than `olderThanHours`: at most `limit`. */
export function galleriesToFit(olderThanHours: number, limit: number): SQL {
  return sql`select g.id from galleries g
    left join match_models m on m.gallery_id = g.id
    where (m.fitted_at is null or m.fitted_at < now() - make_interval(hours => ${olderThanHours}))
      and exists (select 1 from sales s where s.gallery_id = g.id)
    order by m.fitted_at nulls first, g.id limit ${limit}`;
}

export function upsertMatchModel(
  galleryId: string,
  model: MatchModelRow & { calibration: unknown },
  at: string,
): SQL {
  return sql`insert into match_models (gallery_id, model, bias, weights, examples, positives, affinity, calibration,
      fitted_at)
    values (${galleryId}, ${model.model}, ${model.bias}, ${JSON.stringify(model.weights)}::jsonb,
      ${model.examples}, ${model.positives}, ${model.affinity ? JSON.stringify(model.affinity) : null}::jsonb,
      ${JSON.stringify(model.calibration)}::jsonb, ${at}::timestamptz)
    on conflict (gallery_id) do update set model = excluded.model, bias = excluded.bias,
      weights = excluded.weights, examples = excluded.examples, positives = excluded.positives,
      affinity = excluded.affinity, calibration = excluded.calibration, fitted_at = excluded.fitted_at`;
}
