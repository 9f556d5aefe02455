/** The CRM timeline (interactions) and engagement signals, with the contact roll-ups they imply. */
import * as schema from "../../db/schema";
import { BASE, HOUR, iso } from "./common";
import type { Art, Person, SeedContext } from "./context";
import { ENGAGEMENT_KINDS, ENGAGEMENT_WEIGHTS } from "./material";
import type { Rng } from "./random";

/** A work that existed (`since`) at `ms`, or null when none did yet: nobody asks about a work before it exists. */
function pickKnownAt(rng: Rng, arts: Art[], ms: number, since: (art: Art) => number): Art | null {
  const known = arts.filter((a) => since(a) <= ms);
  return known.length ? rng.pick(known) : null;
}

/** The CRM timeline; keeps each contact's last_interaction_* and updated_at consistent with it. */
export function seedInteractions(ctx: SeedContext, arts: Art[], people: Person[]): void {
  const { rng, newId, G, rows, editorId, viewerId } = ctx;
  const interactionTypes = { email: 35, call: 20, meeting: 12, visit: 10, note: 23 } as const;
  const lastInteraction = new Map<string, { ms: number; type: string }>();
  for (const person of people) {
    const n = rng.weighted({ "0": 15, "2": 25, "4": 25, "7": 20, "12": 15 });
    for (let k = 0; k < Number(n); k++) {
      const type = rng.weighted(interactionTypes);
      const ms = rng.between(person.createdMs, BASE - HOUR);
      const art = rng.chance(0.4) ? pickKnownAt(rng, arts, ms, (a) => a.createdMs) : null;
      const direction =
        type === "email" || type === "call" ? (rng.chance(0.5) ? "inbound" : "outbound") : null;
      const summary =
        type === "note"
          ? rng.pick([
              "Noted interest in upcoming shows.",
              "Follow up after the holidays.",
              "Asked to be kept informed.",
            ])
          : art !== null
            ? `${direction === "inbound" ? "Asked about" : "Discussed"} "${art.title}" by ${art.artist.name}`
            : rng.pick([
                "Catch-up on the collection",
                "Invitation to the opening",
                "Shipping and installation questions",
                "Discussed the spring programme",
              ]);
      const id = newId("int", ms);
      person.interactionIds.push(id);
      rows(schema.interactions).push({
        id,
        ...G,
        contactId: person.id,
        type,
        direction,
        summary,
        occurredAt: iso(ms),
        artworkId: art?.id ?? null,
        memberId: rng.chance(0.8) ? editorId : viewerId,
        metadata: type === "meeting" ? { location: rng.pick(["gallery", "client home", "fair booth"]) } : {},
        createdAt: iso(ms),
        updatedAt: iso(ms),
      });
      const prev = lastInteraction.get(person.id);
      if (!prev || prev.ms < ms) lastInteraction.set(person.id, { ms, type });
      if (art !== null && direction === "inbound") {
        ctx.activity(art, ms, {
          eventType: "interaction",
          summary: `${person.name}: ${summary}`,
          contactId: person.id,
          refTable: "interactions",
          refId: id,
        });
      }
    }
  }

  // Contact roll-ups
  for (const person of people) {
    const last = lastInteraction.get(person.id);
    if (last) {
      person.row.lastInteractionAt = iso(last.ms);
      person.row.lastInteractionType = last.type;
    }
    const archivedMs = person.row.archivedAt ? Date.parse(person.row.archivedAt as string) : 0;
    person.row.updatedAt = iso(Math.max(person.createdMs, last?.ms ?? 0, archivedMs));
  }
}

/** Engagement signals of every kind the contact filters know. */
export function seedEngagement(
  ctx: SeedContext,
  people: Person[],
  publishedArts: Art[],
  rooms: string[],
): void {
  const { rng, newId, G, rows } = ctx;
  let forced = 0;
  for (const person of people) {
    const n = rng.int(0, 8);
    for (let k = 0; k < n; k++) {
      const kind =
        forced < ENGAGEMENT_KINDS.length ? ENGAGEMENT_KINDS[forced++]! : rng.weighted(ENGAGEMENT_WEIGHTS);
      const ms = rng.between(Math.max(person.createdMs, Date.UTC(2025, 0, 1)), BASE - HOUR);
      const withArt = [
        "artwork_viewed",
        "favorite_added",
        "favorite_removed",
        "inquiry_submitted",
        "checkout_started",
        "purchase_completed",
        "waitlist_joined",
      ].includes(kind);
      const art = withArt ? pickKnownAt(rng, publishedArts, ms, (a) => a.versionTimes[0]!) : null;
      const room =
        kind === "room_opened" || (kind === "artwork_viewed" && rng.chance(0.5)) ? rooms[0]! : null;
      const id = newId("eng", ms);
      person.engagementIds.push(id);
      rows(schema.engagementEvents).push({
        id,
        ...G,
        contactId: person.id,
        kind,
        occurredAt: iso(ms),
        artworkId: art?.id ?? null,
        viewingRoomId: room,
        metadata:
          kind === "email_opened" || kind === "link_clicked"
            ? { campaign: rng.pick(["Winter preview", "Tidewater opening", "New editions"]) }
            : {},
        createdAt: iso(ms),
      });
      if (art !== null && (kind === "favorite_added" || kind === "inquiry_submitted")) {
        ctx.activity(art, ms, {
          eventType: "interest",
          summary:
            kind === "favorite_added" ? `${person.name} saved this work` : `${person.name} sent an inquiry`,
          actorId: null,
          contactId: person.id,
          refTable: "engagement_events",
          refId: id,
        });
      }
    }
  }
  if (forced < ENGAGEMENT_KINDS.length) throw new Error("seed: not every engagement kind was generated");
}
