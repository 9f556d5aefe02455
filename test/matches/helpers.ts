import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { matchEvidence, recommendationMatches } from "../../db/schema";
import type { MatchQuestion } from "../../lib/engine/types";
import { newId } from "../../lib/ids";
import { Match, MatchDetail } from "../../lib/schemas/matches";
import { call, db, readJson, type TestGallery } from "../helpers/gallery";
import { insertRow } from "../helpers/seed";

/**
 * Helpers of the matches suites. Contacts, works, sales, interactions and engagement events are made through the
 * API; matches and their evidence are written straight into the tables, as the judging engine writes them, each
 * evidence row pointing at a real row made through the API.
 */

export type MatchBody = z.infer<typeof Match>;
export type MatchDetailBody = z.infer<typeof MatchDetail>;

export function matchesPath(contactId: string, query = ""): string {
  return `/gallery/contacts/${contactId}/matches${query ? `?${query}` : ""}`;
}

export function matchPath(contactId: string, matchId: string): string {
  return `/gallery/contacts/${contactId}/matches/${matchId}`;
}

/** POST a resource through the API, expecting 201; returns its id. */
async function created(g: TestGallery, path: string, body: Record<string, unknown>): Promise<string> {
  const res = await call("POST", path, { key: g.key, body });
  const text = await res.clone().text();
  expect(res.status, text).toBe(201);
  return (JSON.parse(text) as { id: string }).id;
}

/** A contact of `g`, made through the API. */
export function contact(g: TestGallery, body: Record<string, unknown> = {}): Promise<string> {
  return created(g, "/gallery/contacts", { name: "Ada Collector", ...body });
}

/**
 * A published artwork of `g`, made through the API (available unless the body says otherwise): only published
 * works can be matched.
 */
export async function artwork(g: TestGallery, body: Record<string, unknown> = {}): Promise<string> {
  const id = await created(g, "/gallery/artworks", { title: "Untitled", ...body });
  const res = await call("POST", `/gallery/artworks/${id}/publish`, { key: g.key });
  expect(res.status, await res.clone().text()).toBe(200);
  return id;
}

/** PATCH /gallery/artworks/{id} and publish the change (the work is published), expecting 200 from both. */
export async function patchArtwork(g: TestGallery, id: string, body: Record<string, unknown>): Promise<void> {
  const res = await call("PATCH", `/gallery/artworks/${id}`, { key: g.key, body });
  expect(res.status, await res.clone().text()).toBe(200);
  const published = await call("POST", `/gallery/artworks/${id}/publish`, { key: g.key });
  expect(published.status, await published.clone().text()).toBe(200);
}

/** A completed sale of these works to the contact, through the API; returns the sale id. */
export function sale(g: TestGallery, contactId: string, artworkIds: string[]): Promise<string> {
  return created(g, "/gallery/sales", {
    contact_id: contactId,
    artwork_ids: artworkIds,
    amount_cents: 1_250_000,
    currency: "USD",
  });
}

/** An inquiry about a work, through the API; returns the interaction id. */
export function inquiry(g: TestGallery, contactId: string, artworkId: string): Promise<string> {
  return created(g, `/gallery/contacts/${contactId}/interactions`, {
    type: "email",
    direction: "inbound",
    summary: "Asked whether the oil is still available",
    artwork_id: artworkId,
  });
}

/** The contact viewed a work, through the API; returns the engagement event id. */
export function viewed(g: TestGallery, contactId: string, artworkId: string): Promise<string> {
  return created(g, `/gallery/contacts/${contactId}/engagements`, {
    kind: "artwork_viewed",
    artwork_id: artworkId,
  });
}

export interface EvidenceRow {
  question: MatchQuestion;
  kind: string;
  /** The row it came from (a sale, interaction, engagement event id), or null for a fact of the work. */
  ref: string | null;
  label: string;
  sourceLabel?: string | null;
  at?: string | null;
}

export interface MatchRow {
  probability: number;
  /** active, inactive, dismissed, or any other value a test writes as the table would take it. */
  status?: string;
  hiddenUntil?: string | null;
  model?: string;
  subScores?: Partial<Record<MatchQuestion, number>>;
  /** Every piece of evidence, strongest first: match_evidence rows, and the first three as `reasons`. */
  evidence?: EvidenceRow[];
}

/** The sub-scores a stored match gets unless the test names its own. */
export const DEFAULT_SUB_SCORES: Record<MatchQuestion, number> = {
  medium: 0.8,
  artist: 0.9,
  price: 0.6,
  size: 0.5,
  period: 0.4,
  style: 0,
  engagement: 0.7,
  recency: 0.3,
};

/**
 * A stored match of a work for a contact, written as the judging engine writes it: the recommendation_matches row
 * (its `reasons` the three strongest pieces of evidence, `evidence_count` all of them) and one match_evidence row
 * per piece, in order of strength (ids minted in that order). Returns the match id.
 */
export async function storedMatch(
  g: TestGallery,
  artworkId: string,
  contactId: string,
  row: MatchRow,
): Promise<string> {
  const id = newId("match");
  const evidence = row.evidence ?? [];
  const reason = (e: EvidenceRow) => ({
    question: e.question,
    kind: e.kind,
    evidence_id: e.ref,
    label: e.label,
    source_label: e.sourceLabel ?? null,
    at: e.at ?? null,
  });
  await insertRow(recommendationMatches, {
    id,
    gallery_id: g.id,
    artwork_id: artworkId,
    contact_id: contactId,
    model: row.model ?? "matcher@1",
    counterpart_name: "Untitled, by Ines Marchetti",
    probability: row.probability,
    sub_scores: { ...DEFAULT_SUB_SCORES, ...row.subScores },
    reasons: evidence.slice(0, 3).map(reason),
    evidence_count: evidence.length,
    status: row.status ?? "active",
    hidden_until: row.hiddenUntil ?? null,
    judged_at: "2026-11-20T10:00:00.000Z",
  });
  for (const e of evidence) {
    await insertRow(matchEvidence, {
      id: newId("mev"),
      gallery_id: g.id,
      match_id: id,
      question: e.question,
      kind: e.kind,
      label: e.label,
      source_label: e.sourceLabel ?? null,
      at: e.at ?? null,
      evidence_ref: e.ref,
    });
  }
  return id;
}

/** Many matches of one contact in one statement (for paging and plan tests), each on a work of its own. */
export async function bulkMatches(
  g: TestGallery,
  contactId: string,
  probabilities: number[],
): Promise<string[]> {
  const result = await db().execute<{ id: string }>(
    sql`with works as (
        insert into artworks (id, gallery_id, title, published_at)
        select 'art_bulk' || lpad(n::text, 8, '0') || substr(md5(${contactId} || n::text), 1, 12), ${g.id}, 'Bulk ' || n,
          now()
        from generate_series(1, ${probabilities.length}::int) n
        returning id, title
      )
      insert into recommendation_matches (id, gallery_id, artwork_id, contact_id, model, probability, judged_at)
      select 'match_bulk' || lpad(w.n::text, 8, '0') || substr(md5(${contactId} || w.n::text), 1, 12), ${g.id}, w.id,
        ${contactId}, 'matcher@1', (${JSON.stringify(probabilities)}::jsonb ->> (w.n - 1))::float8, now()
      from (select id, substr(title, 6)::int as n from works) w
      returning id`,
  );
  return result.rows.map((r) => r.id);
}

/** GET the contact's matches, expecting 200. */
export async function listMatches(
  key: string,
  contactId: string,
  query = "",
): Promise<{ data: MatchBody[]; next_cursor: string | null }> {
  const res = await call("GET", matchesPath(contactId, query), { key });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { data: MatchBody[]; next_cursor: string | null };
}

/** GET one match, expecting 200. */
export async function getMatch(key: string, contactId: string, matchId: string): Promise<MatchDetailBody> {
  const res = await call("GET", matchPath(contactId, matchId), { key });
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(MatchDetail, res);
}

/** POST feedback, returning the response unread. */
export function feedback(
  key: string,
  contactId: string,
  matchId: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return call("POST", `${matchPath(contactId, matchId)}/feedback`, { key, body, headers });
}

/** POST feedback, expecting 200; returns the match after it. */
export async function feedbackOk(
  key: string,
  contactId: string,
  matchId: string,
  body: Record<string, unknown>,
): Promise<MatchBody> {
  const res = await feedback(key, contactId, matchId, body);
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(Match, res);
}

/** The stored row of a match, straight from the table. */
export async function storedMatchRow(
  id: string,
): Promise<{ status: string; hidden_until: string | null; hidden_by: string | null }> {
  const result = await db().execute<{
    status: string;
    hidden_until: string | null;
    hidden_by: string | null;
  }>(sql`select status, hidden_until::text, hidden_by from recommendation_matches where id = ${id}`);
  return result.rows[0]!;
}

/** An instant `days` from now, as the API prints timestamps. */
export function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString();
}
