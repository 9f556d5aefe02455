/** Recommendation matches with sub-scores, evidence and a few hidden pairs. */
import * as schema from "../../db/schema";
import type { MatchReason } from "../../db/schema/matches";
import { RECOMMENDATION_FLOOR } from "../../lib/schemas/offers";
import { BASE, DAY, HOUR, iso, MATCH_MODEL } from "./common";
import type { Art, Person, SeedContext } from "./context";
import type { OfferSummary } from "./offers";

const MATCH_COUNT = 500;

/**
 * Evidence kinds, strongest first: what the contact bought, then asked about, then looked at, then what their
 * profile says. A match's `reasons` are its three strongest pieces of evidence in this order (then by the
 * sub-score of the question each answers, then the latest), so `reasons[0]` is the strongest evidence: the
 * `top_reason` of recommended recipients.
 */
export const EVIDENCE_STRENGTH = ["purchase", "interaction", "engagement", "memory_fact"] as const;
/** How many pieces of evidence a match keeps in `reasons`. */
export const MAX_REASONS = 3;

/**
 * Until when the demo's planted hidden match stays hidden: a fixed date years after the seed's clock, so the
 * pair reads hidden whenever the demo runs. (The random hides end 30 days after the seed's clock.)
 */
export const SHOWCASE_HIDDEN_UNTIL = Date.UTC(2030, 5, 1);

/** Recommendation matches with sub-scores, evidence and a few hidden pairs. */
export function seedMatches(
  ctx: SeedContext,
  arts: Art[],
  people: Person[],
  offerItems: OfferSummary[],
): void {
  const { rng, newId, G, rows, editorId } = ctx;
  const active = people.filter((p) => !p.archived);
  const matchable = arts.filter((a) => a.availability === "available" || a.availability === "on_hold");
  const judgedContacts = rng.sample(
    active.filter((p) => p.type === "collector" || p.type === "institution" || p.type === "advisor"),
    130,
  );
  const pairs = new Set<string>();
  const questions = ["medium", "artist", "price", "scale", "period"] as const;
  /** Pairs only the planted hide may take: the showcase's hidden contact on each of the showcase's works. */
  const reserved = new Set<string>();
  const addMatch = (art: Art, person: Person, probability: number, hiddenUntil?: number) => {
    const key = `${art.id}:${person.id}`;
    if (pairs.has(key) || (hiddenUntil === undefined && reserved.has(key))) return;
    pairs.add(key);
    const judgedMs = BASE - rng.int(1, 25) * DAY - rng.int(0, 23) * HOUR;
    const id = newId("mat", judgedMs);
    const subScores: Record<string, number> = {};
    for (const q of rng.sample(questions, rng.int(3, 5))) {
      subScores[q] =
        Math.round(Math.min(1, Math.max(0, probability + (rng.next() - 0.5) * 0.4)) * 1000) / 1000;
    }
    const evidenceCount = rng.int(1, 5);
    const evidence: (MatchReason & { e: number })[] = [];
    for (let e = 0; e < evidenceCount; e++) {
      const kind = rng.weighted({
        memory_fact: 35,
        interaction: person.interactionIds.length > 0 ? 25 : 0,
        purchase: person.saleIds.length > 0 ? 20 : 0,
        engagement: person.engagementIds.length > 0 ? 20 : 0,
      });
      const question = rng.pick(Object.keys(subScores));
      const evidenceId =
        kind === "interaction"
          ? rng.pick(person.interactionIds)
          : kind === "purchase"
            ? rng.pick(person.saleIds)
            : kind === "engagement"
              ? rng.pick(person.engagementIds)
              : null;
      const label =
        kind === "purchase"
          ? `Bought a ${art.artist.practice === "paper" ? "work on paper" : art.artist.practice} work from the gallery`
          : kind === "interaction"
            ? `Asked about ${question === "scale" ? "large-scale works" : `works like ${art.artist.name}'s`}`
            : kind === "engagement"
              ? `Viewed works by ${art.artist.name} online`
              : question === "price"
                ? `Budget band ${person.budget ?? "25k_100k"}`
                : `Collects ${art.row.medium as string}`;
      const sourceLabel =
        kind === "purchase"
          ? "Sale"
          : kind === "interaction"
            ? "Interaction"
            : kind === "engagement"
              ? "Viewing room"
              : "Collector profile";
      const at = iso(judgedMs - rng.int(1, 200) * DAY);
      rows(schema.matchEvidence).push({
        id: newId("mev", judgedMs + e),
        ...G,
        matchId: id,
        question,
        kind,
        label,
        sourceLabel: sourceLabel,
        at,
        evidenceRef: evidenceId,
        createdAt: iso(judgedMs),
      });
      evidence.push({ e, question, kind, evidence_id: evidenceId, label, source_label: sourceLabel, at });
    }
    const strength = (x: MatchReason) =>
      EVIDENCE_STRENGTH.indexOf(x.kind as (typeof EVIDENCE_STRENGTH)[number]);
    const reasons: MatchReason[] = evidence
      .sort(
        (a, b) =>
          strength(a) - strength(b) ||
          subScores[b.question]! - subScores[a.question]! ||
          Date.parse(b.at!) - Date.parse(a.at!) ||
          a.e - b.e,
      )
      .slice(0, MAX_REASONS)
      .map(({ e: _, ...reason }) => reason);
    const hidden = hiddenUntil !== undefined || rng.chance(0.04);
    const until = hiddenUntil ?? BASE + 30 * DAY;
    rows(schema.recommendationMatches).push({
      id,
      ...G,
      artworkId: art.id,
      contactId: person.id,
      model: MATCH_MODEL,
      counterpartName: person.name,
      probability,
      subScores: subScores,
      reasons,
      evidenceCount: evidenceCount,
      status: "active",
      hiddenUntil: hidden ? iso(until) : null,
      hiddenBy: hidden ? editorId : null,
      judgedAt: iso(judgedMs),
      createdAt: iso(judgedMs),
      updatedAt: iso(judgedMs),
    });
    if (hidden) {
      rows(schema.matchFeedback).push({
        id: newId("mfb", judgedMs + HOUR),
        ...G,
        matchId: id,
        contactId: person.id,
        artworkId: art.id,
        memberId: editorId,
        action: "hide",
        hiddenUntil: iso(until),
        createdAt: iso(judgedMs + HOUR),
      });
    }
  };
  const round3 = (n: number) => Math.round(n * 1000) / 1000;
  const showcase = offerItems.find((o) => o.showcase);
  // The contact whose only match on the showcase's works is hidden: left out of the showcase's other matches.
  const hiddenContact = showcase
    ? rng.pick(judgedContacts.filter((p) => !showcase.recipientIds.has(p.id) && !p.row.doNotEmail))
    : null;
  if (showcase && hiddenContact) {
    for (const artId of showcase.artIds) reserved.add(`${artId}:${hiddenContact.id}`);
  }
  // Offer works get strong matches with contacts not yet on the offer, so recommended recipients is not empty.
  let showcaseFirst: Person | undefined;
  for (const offer of offerItems) {
    for (const artId of offer.artIds) {
      const art = arts.find((a) => a.id === artId)!;
      for (const person of rng.sample(
        judgedContacts.filter((p) => !offer.recipientIds.has(p.id) && !reserved.has(`${artId}:${p.id}`)),
        3,
      )) {
        if (offer.showcase) showcaseFirst ??= person;
        addMatch(art, person, round3(0.62 + rng.next() * 0.36));
      }
    }
  }
  if (showcase && hiddenContact) {
    const showcaseArts = showcase.artIds.map((id) => arts.find((a) => a.id === id)!);
    const [first, second] = showcaseArts;
    // One contact matched on two of the offer's works: its entry lists both, best first.
    addMatch(second!, showcaseFirst!, round3(RECOMMENDATION_FLOOR + rng.next() * 0.1));
    // Below the 0.6 floor: the matches list shows these, recommended recipients does not.
    for (const art of showcaseArts) {
      for (const person of rng.sample(
        judgedContacts.filter((p) => !showcase.recipientIds.has(p.id) && p !== hiddenContact),
        2,
      )) {
        addMatch(art, person, round3(0.3 + rng.next() * (RECOMMENDATION_FLOOR - 0.32)));
      }
    }
    // Strong pairs recommended recipients omits: hidden by the editor, an archived contact, a contact who asked
    // not to be emailed, and a contact already on the offer.
    addMatch(first!, hiddenContact, 0.94, SHOWCASE_HIDDEN_UNTIL);
    addMatch(first!, rng.pick(people.filter((p) => p.archived)), 0.96);
    addMatch(
      first!,
      rng.pick(active.filter((p) => p.row.doNotEmail && !showcase.recipientIds.has(p.id))),
      0.92,
    );
    addMatch(first!, people.find((p) => showcase.recipientIds.has(p.id))!, 0.97);
  }
  while (pairs.size < MATCH_COUNT) {
    const probability = Math.round((0.15 + 0.84 * rng.next() ** 0.7) * 1000) / 1000;
    addMatch(rng.pick(matchable), rng.pick(judgedContacts), probability);
  }
}
