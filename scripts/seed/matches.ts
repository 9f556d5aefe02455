/** Recommendation matches with sub-scores, evidence and a few hidden pairs. */
import * as schema from "../../db/schema";
import type { MatchReason } from "../../db/schema/matches";
import { BASE, DAY, HOUR, iso, MATCH_MODEL } from "./common";
import type { Art, Person, SeedContext } from "./context";
import type { OfferSummary } from "./offers";

const MATCH_COUNT = 500;

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
  const addMatch = (art: Art, person: Person, probability: number) => {
    const key = `${art.id}:${person.id}`;
    if (pairs.has(key)) return;
    pairs.add(key);
    const judgedMs = BASE - rng.int(1, 25) * DAY - rng.int(0, 23) * HOUR;
    const id = newId("mat", judgedMs);
    const subScores: Record<string, number> = {};
    for (const q of rng.sample(questions, rng.int(3, 5))) {
      subScores[q] =
        Math.round(Math.min(1, Math.max(0, probability + (rng.next() - 0.5) * 0.4)) * 1000) / 1000;
    }
    const evidenceCount = rng.int(1, 5);
    const reasons: MatchReason[] = [];
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
      if (reasons.length < 3)
        reasons.push({ question, kind, evidence_id: evidenceId, label, source_label: sourceLabel, at });
    }
    const hidden = rng.chance(0.04);
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
      hiddenUntil: hidden ? iso(BASE + 30 * DAY) : null,
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
        memberId: editorId,
        action: "hide",
        hiddenUntil: iso(BASE + 30 * DAY),
        createdAt: iso(judgedMs + HOUR),
      });
    }
  };
  // Offer works get strong matches with contacts not yet on the offer, so recommended recipients is not empty.
  for (const offer of offerItems) {
    for (const artId of offer.artIds) {
      const art = arts.find((a) => a.id === artId)!;
      for (const person of rng.sample(
        judgedContacts.filter((p) => !offer.recipientIds.has(p.id)),
        3,
      )) {
        addMatch(art, person, Math.round((0.62 + rng.next() * 0.36) * 1000) / 1000);
      }
    }
  }
  while (pairs.size < MATCH_COUNT) {
    const probability = Math.round((0.15 + 0.84 * rng.next() ** 0.7) * 1000) / 1000;
    addMatch(rng.pick(matchable), rng.pick(judgedContacts), probability);
  }
}
