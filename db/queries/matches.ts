import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { z } from "zod";
import { MATCH_QUESTIONS } from "../../lib/engine/types";
import { listSpec, type PageRequest, type PageRow } from "../../lib/pagination";
import { Match, RECOMMENDATION_FLOOR } from "../../lib/schemas/matches";
import type { Db } from "../client";
import { isoMs, type JsonView, resource } from "../resource";
import { recommendationMatches } from "../schema";
import { textArray } from "./rows";

export interface MatchView extends JsonView {
  /**
   * A read-only caller: evidence of the `price` question is left out of `reasons[]` (and of the one-match
   * read's evidence) unless the work is public-priced, as format prices are gated everywhere.
   */
  gatePrices: boolean;
}

/** Whether the evidence of `question` is shown on this view: a price is the gated kind, unless public-priced. */
function evidenceShown(view: MatchView, question: SQL): SQL {
  if (!view.gatePrices) return sql`true`;
  return sql`(${question} is distinct from 'price'
    or coalesce((select aw.show_price_publicly from artworks aw where aw.id = rm.artwork_id), false))`;
}

/** A recommendation match (alias `rm`): every field its column, `reasons` gated for read-only callers. */
export const matchResource = resource({
  schema: Match,
  table: recommendationMatches,
  alias: "rm",
  name: "match",
  // In events (which carry the match without its work's setting) a read-only reader never sees price evidence.
  gated: { paths: [], drops: [{ path: "reasons", field: "question", equals: "price" }] },
  viewKey: (view: MatchView) => (view.gatePrices ? "gated" : "open"),
  computed: {
    reasons: (view: MatchView) =>
      view.gatePrices
        ? sql`coalesce((select jsonb_agg(x.r order by x.n) from jsonb_array_elements(rm.reasons) with ordinality x(r, n)
            where ${evidenceShown(view, sql`x.r->>'question'`)}), '[]'::jsonb)`
        : sql`rm.reasons`,
  },
});

/** Best first: probability, then id, both descending (the only order; `dir=asc` reads it from the bottom). */
export const matchList = listSpec({ sorts: ["probability"], defaultSort: "probability" });

/** A work can be matched: available, published, and in no pending or completed sale. */
export function availableWork(a: string): SQL {
  const t = sql.raw(a);
  return sql`(${t}.availability_state = 'available' and ${t}.published_at is not null
    and not exists (select 1 from sale_artworks sa join sales s on s.id = sa.sale_id
      where sa.artwork_id = ${t}.id and s.status in ('pending', 'completed')))`;
}

/**
 * The work can be recommended now: the engine's own rule (`availableWork`:
 * available, published, in no pending or completed sale), so a work sold or put on hold leaves the lists with
 * the write that changed it, before the engine marks its pairs inactive.
 */
export function workAvailable(artworkId: SQL): SQL {
  return sql`exists (select 1 from artworks aw where aw.id = ${artworkId} and ${availableWork("aw")})`;
}

export interface MatchVisibility {
  /** The lowest probability shown (RECOMMENDATION_FLOOR unless a caller lowers or raises it). */
  minProbability: number;
  /** Also pairs a member hid (whatever `hidden_until`) and pairs a member dismissed. */
  includeHidden: boolean;
}

/**
 * The one rule of what a member is shown of the stored matches (`m` aliases recommendation_matches), read by the
 * matches list and by an offer's recommended recipients alike, so the two never disagree: status `active` and not
 * hidden now (`hidden_until` null or past) — or, with `includeHidden`, also hidden and `dismissed` pairs —, at or
 * above the floor, and the work still available, checked here whatever the engine has marked so far (a sold
 * work's pairs vanish at once, before the engine turns them `inactive`). `inactive` pairs are never shown.
 */
export function visibleMatch(
  m: string,
  { minProbability, includeHidden }: MatchVisibility = {
    minProbability: RECOMMENDATION_FLOOR,
    includeHidden: false,
  },
): SQL {
  const a = sql.raw(m);
  const state = includeHidden
    ? sql`${a}.status in ('active', 'dismissed')`
    : sql`${a}.status = 'active' and (${a}.hidden_until is null or ${a}.hidden_until <= now())`;
  return sql`(${state} and ${a}.probability >= ${minProbability}::float8 and ${workAvailable(sql`${a}.artwork_id`)})`;
}

/** The contact exists in the gallery (a row). */
function contactRow(galleryId: string, contactId: string): SQL {
  return sql`select 1 from contacts c where c.gallery_id = ${galleryId} and c.id = ${contactId}`;
}

/**
 * The statement of one page (limit + 1 rows) of a contact's matches, best first: the contact's existence and the
 * page in one statement (no row: the contact is not the gallery's; one row with a null id: an empty page). The
 * page walks recommendation_matches_contact_idx (gallery, contact, probability, id) from the top and stops at
 * the page's end; the keyset position is (probability, id). Exported for the bench to EXPLAIN.
 */
export function matchListQuery(
  galleryId: string,
  contactId: string,
  view: MatchView,
  visibility: MatchVisibility,
  page: PageRequest,
): SQL {
  const order = sql.raw(page.dir);
  const op = sql.raw(page.dir === "desc" ? "<" : ">");
  const where = [
    sql`rm.gallery_id = ${galleryId}`,
    sql`rm.contact_id = ${contactId}`,
    visibleMatch("rm", visibility),
  ];
  if (page.after) where.push(sql`(rm.probability, rm.id) ${op} (${page.after[0]}::float8, ${page.after[1]})`);
  return sql`select p.body, p.sort_key, p.id from (${contactRow(galleryId, contactId)}) parent
    left join (
      select (${matchResource.json(view)})::text as body, rm.probability as sort_key, rm.id
      from recommendation_matches rm
      where ${sql.join(where, sql` and `)}
      order by rm.probability ${order}, rm.id ${order}
      limit ${page.limit + 1}
    ) p on true
    order by p.sort_key ${order}, p.id ${order}`;
}

/** One page of the contact's matches (see matchListQuery), or null when the contact is not the gallery's. */
export async function listMatches(
  db: Db,
  galleryId: string,
  contactId: string,
  view: MatchView,
  visibility: MatchVisibility,
  page: PageRequest,
): Promise<PageRow[] | null> {
  const result = await db.execute<{
    body: string | null;
    sort_key: number | string | null;
    id: string | null;
  }>(matchListQuery(galleryId, contactId, view, visibility, page));
  if (result.rows.length === 0) return null;
  return result.rows
    .filter((row): row is PageRow => row.id !== null)
    .map((row) => ({ ...row, sort_key: Number(row.sort_key) }));
}

/**
 * One match of the contact with every piece of evidence and the pair's feedback, as MatchDetail JSON text; null
 * when the gallery has no such match of this contact. Evidence by question (in MATCH_QUESTIONS order), within a
 * question as the engine stored it (strongest first), each with its question's sub-score; feedback on the pair
 * (contact, work, whichever model's row it was given on), newest first. One round trip.
 */
export async function matchDetailText(
  db: Db,
  galleryId: string,
  contactId: string,
  matchId: string,
  view: MatchView,
): Promise<string | null> {
  const result = await db.execute<{ body: string }>(
    sql`select json_build_object(
        'match', ${matchResource.json(view)},
        'evidence', coalesce((select json_agg(json_build_object(
            'question', me.question, 'kind', me.kind, 'evidence_id', me.evidence_ref, 'label', me.label,
            'source_label', me.source_label, 'at', ${isoMs(sql`me.at`)},
            'sub_score', coalesce((rm.sub_scores->>me.question)::float8, 0))
          order by array_position(${textArray([...MATCH_QUESTIONS])}, me.question), me.question, me.id)
          from match_evidence me where me.match_id = rm.id and ${evidenceShown(view, sql`me.question`)}), '[]'::json),
        'feedback', coalesce((select json_agg(json_build_object(
            'id', mf.id, 'action', mf.action, 'hidden_until', ${isoMs(sql`mf.hidden_until`)},
            'member_id', mf.member_id, 'created_at', ${isoMs(sql`mf.created_at`)})
          order by mf.created_at desc, mf.id desc)
          from match_feedback mf where mf.gallery_id = rm.gallery_id and mf.contact_id = rm.contact_id
            and mf.artwork_id = rm.artwork_id), '[]'::json))::text as body
      from recommendation_matches rm
      where rm.gallery_id = ${galleryId} and rm.contact_id = ${contactId} and rm.id = ${matchId}`,
  );
  return result.rows[0]?.body ?? null;
}

export interface MatchState {
  body: z.infer<typeof Match>;
  updatedAt: string;
}

/** One match of the contact as the API shows it (ungated), with what a guarded write needs; null when absent. */
export async function findMatch(
  db: Db,
  galleryId: string,
  contactId: string,
  matchId: string,
): Promise<MatchState | null> {
  const result = await db.execute<{ body: z.infer<typeof Match>; updated_at: string }>(
    sql`select ${matchResource.json({ gatePrices: false })} as body, ${isoMs(sql`rm.updated_at`)} as updated_at
      from recommendation_matches rm
      where rm.gallery_id = ${galleryId} and rm.contact_id = ${contactId} and rm.id = ${matchId}`,
  );
  const row = result.rows[0];
  return row ? { body: row.body, updatedAt: row.updated_at } : null;
}

/** The match as the API shows it, after a write in the same transaction (the response and the event's object). */
export function matchJsonById(galleryId: string, id: string, view: MatchView): SQL {
  return matchResource.jsonById(galleryId, id, view);
}

/**
 * Statements of a member's feedback, composed into one transaction by services/write.ts; none runs on its own.
 */

export interface NewMatchFeedback {
  id: string;
  matchId: string;
  contactId: string;
  artworkId: string;
  memberId: string | null;
  action: string;
  hiddenUntil: string | null;
}

/** Records the feedback by pair (it outlives the match row: the matcher learns from it). */
export function insertMatchFeedback(galleryId: string, f: NewMatchFeedback, at: string): SQL {
  return sql`insert into match_feedback (id, gallery_id, match_id, contact_id, artwork_id, member_id, action,
      hidden_until, created_at)
    values (${f.id}, ${galleryId}, ${f.matchId}, ${f.contactId}, ${f.artworkId}, ${f.memberId}, ${f.action},
      ${f.hiddenUntil}::timestamptz, ${at}::timestamptz)`;
}

export interface MatchFeedbackChange {
  status?: string;
  /** A hide's end (an ISO timestamp), or null to unhide; absent: unchanged. */
  hiddenUntil?: string | null;
  /** Who hid it (with hiddenUntil). */
  hiddenBy?: string | null;
}

/**
 * The UPDATE for `guarded()`: matches only the row as it was read (by updated_at), so an engine write-back or
 * another member's feedback in between aborts this one with 409 `concurrent_modification`. A change of nothing
 * (a good_match label) still takes the row's lock and checks it is unchanged, and leaves it as it was.
 */
export function updateMatchStatement(
  galleryId: string,
  contactId: string,
  id: string,
  change: MatchFeedbackChange,
  readUpdatedAt: string,
  at: string,
): SQLWrapper {
  const set: SQL[] = [];
  if (change.status !== undefined) set.push(sql`status = ${change.status}`);
  if (change.hiddenUntil !== undefined) set.push(sql`hidden_until = ${change.hiddenUntil}::timestamptz`);
  if (change.hiddenBy !== undefined) set.push(sql`hidden_by = ${change.hiddenBy}`);
  set.push(set.length > 0 ? sql`updated_at = ${at}::timestamptz` : sql`updated_at = rm.updated_at`);
  return sql`update recommendation_matches rm set ${sql.join(set, sql`, `)}
    where rm.gallery_id = ${galleryId} and rm.contact_id = ${contactId} and rm.id = ${id}
      and rm.updated_at = ${readUpdatedAt}::timestamptz`;
}
