/**
 * Members' feedback on recommendation pairs. The matches themselves are the engine's: the seed writes no verdict
 * (design §8: no hand-made judgments). It plants the history and the feedback a judged demo shows: a contact who
 * looked at one of the showcase offer's works, with the editor's hide of that pair until SHOWCASE_HIDDEN_UNTIL
 * (so once the engine has judged the contact, the pair reads hidden), and a few other members' labels by pair
 * (not interested, good match) that the matcher honours and learns from. Feedback is kept by pair (contact,
 * artwork), so it stands before any match row exists.
 */
import * as schema from "../../db/schema";
import { BASE, DAY, HOUR, iso } from "./common";
import type { Art, Person, SeedContext } from "./context";
import { recordEngagement } from "./interactions";
import type { OfferSummary } from "./offers";
import { appeal } from "./tastes";

/**
 * Until when the demo's planted hidden pair stays hidden: a fixed date years after the seed's clock, so the pair
 * reads hidden whenever the demo runs.
 */
export const SHOWCASE_HIDDEN_UNTIL = Date.UTC(2030, 5, 1);

/** Other labels planted by pair, besides the showcase hide. */
const LABELS = { not_interested: 6, good_match: 6 } as const;

/** At most this many collectors whose taste suits the showcase offer's works find them (see below). */
const FOLLOWERS = 12;

export function seedMatches(
  ctx: SeedContext,
  arts: Art[],
  people: Person[],
  offerItems: OfferSummary[],
): void {
  const { rng, newId, G, rows, editorId } = ctx;
  const active = people.filter((p) => !p.archived && !p.row.doNotEmail);
  const matchable = arts.filter((a) => a.availability === "available" && a.published);
  const showcase = offerItems.find((o) => o.showcase);
  const showcaseWork = showcase ? matchable.find((a) => showcase.artIds.includes(a.id)) : undefined;
  /** An engagement event of the person's on a work, `daysAgo` before the seed's clock. */
  const engage = (person: Person, work: Art, kind: string, daysAgo: number) =>
    recordEngagement(ctx, person, {
      kind,
      ms: BASE - daysAgo * DAY - rng.int(0, 23) * HOUR,
      art: work,
      roomId: null,
    });
  /** The editor's feedback on a pair, at `at`, kept by pair (no match row exists before the engine judges). */
  const label = (person: Person, work: Art, action: string, at: number, hiddenUntil: string | null) => {
    rows(schema.matchFeedback).push({
      id: newId("mfb", at),
      ...G,
      matchId: null,
      contactId: person.id,
      artworkId: work.id,
      memberId: editorId,
      action,
      hiddenUntil,
      createdAt: iso(at),
    });
  };
  if (showcase && showcaseWork) {
    const hidden = rng.pick(active.filter((p) => !showcase.recipientIds.has(p.id) && p.type === "collector"));
    // The history the matcher reads: the contact looked at the work twice, a week before the seed's clock.
    for (const daysAgo of [9, 7]) engage(hidden, showcaseWork, "artwork_viewed", daysAgo);
    label(hidden, showcaseWork, "hide", BASE - 2 * DAY, iso(SHOWCASE_HIDDEN_UNTIL));
  }
  // Collectors whose taste the showcase offer's works suit (a favourite artist or its circle) found them on the
  // gallery's site in the last weeks: each viewed one, saved it as a favourite and sent an inquiry about it, and
  // looked at another work by the same artist.
  if (showcase) {
    const offered = matchable.filter((a) => showcase.artIds.includes(a.id));
    const suited = active.filter(
      (p) =>
        !showcase.recipientIds.has(p.id) &&
        p.type === "collector" &&
        p.taste !== null &&
        p.taste.pattern !== "lapsed" &&
        offered.some((a) => appeal(p.taste!, a) >= 2),
    );
    const followers = rng.sample(suited, Math.min(FOLLOWERS, offered.length * 2));
    for (const person of followers) {
      const liked = offered.filter((a) => appeal(person.taste!, a) >= 2);
      const art = rng.pick(liked);
      const sibling = matchable.find((a) => a.id !== art.id && a.artist.id === art.artist.id);
      const history: [Art, string, number][] = [
        [art, "artwork_viewed", rng.int(10, 20)],
        [art, "favorite_added", rng.int(5, 9)],
        [art, "inquiry_submitted", rng.int(1, 4)],
      ];
      if (sibling) history.push([sibling, "artwork_viewed", rng.int(20, 40)]);
      for (const [work, kind, daysAgo] of history) engage(person, work, kind, daysAgo);
    }
  }
  const used = new Set<string>();
  for (const [action, count] of Object.entries(LABELS)) {
    for (let i = 0; i < count; i++) {
      const person = rng.pick(active);
      const art = rng.pick(matchable);
      const key = `${person.id}:${art.id}`;
      if (used.has(key)) continue;
      used.add(key);
      label(person, art, action, BASE - rng.int(1, 60) * DAY - rng.int(0, 23) * HOUR, null);
    }
  }
}
