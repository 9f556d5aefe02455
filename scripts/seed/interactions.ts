/** The CRM timeline (interactions) and engagement signals. */
import * as schema from "../../db/schema";
import { BASE, DAY, HOUR, iso } from "./common";
import type { Art, Person, SeedContext } from "./context";
import { ENGAGEMENT_KINDS, ENGAGEMENT_WEIGHTS } from "./material";
import type { Room } from "./publications";
import type { Rng } from "./random";
import { appeal, pickByTaste } from "./tastes";

/**
 * A work that existed (`since`) at `ms`, or null when none did yet: nobody asks about a work before it exists. A
 * buyer asks about and looks at what its taste likes, most of the time; anyone else at random.
 */
function pickKnownAt(
  rng: Rng,
  arts: Art[],
  ms: number,
  since: (art: Art) => number,
  person?: Person,
): Art | null {
  const known = arts.filter((a) => since(a) <= ms);
  if (known.length === 0) return null;
  if (person?.taste && rng.chance(0.8)) return pickByTaste(rng, person.taste, known) ?? rng.pick(known);
  return rng.pick(known);
}

/** The fairs the gallery showed at, on their first public day. */
const FAIRS: readonly [string, number][] = [
  ["Frieze London 2023", Date.UTC(2023, 9, 11)],
  ["Art Basel Miami Beach 2024", Date.UTC(2024, 11, 4)],
  ["Frieze London 2025", Date.UTC(2025, 9, 15)],
  ["Art Basel Miami Beach 2025", Date.UTC(2025, 11, 3)],
];

/**
 * The CRM timeline, of every interaction type. The contact's last_interaction_* is left to the database's
 * trigger on `interactions`; a contact's interactions have distinct instants, so "the newest" is never a tie.
 * Keeps each contact's updated_at at or after its newest interaction.
 */
export function seedInteractions(ctx: SeedContext, arts: Art[], people: Person[]): void {
  const { rng, newId, G, rows, editorId, viewerId } = ctx;
  const interactionTypes = {
    email: 30,
    call: 17,
    meeting: 10,
    visit: 8,
    note: 20,
    message: 6,
    viewing: 4,
    event: 3,
    other: 2,
  } as const;
  const lastInteraction = new Map<string, number>();
  for (const person of people) {
    const n = rng.weighted({ "0": 15, "2": 25, "4": 25, "7": 20, "12": 15 });
    const used = new Set<number>();
    for (let k = 0; k < Number(n); k++) {
      const type = rng.weighted(interactionTypes);
      let ms = rng.between(person.createdMs, BASE - HOUR);
      while (used.has(ms)) ms += 1000;
      used.add(ms);
      const art = rng.chance(0.4) ? pickKnownAt(rng, arts, ms, (a) => a.createdMs, person) : null;
      const direction =
        type === "email" || type === "call" || type === "message"
          ? rng.chance(0.5)
            ? "inbound"
            : "outbound"
          : null;
      const summary =
        type === "note"
          ? art !== null
            ? `Noted interest in "${art.title}" by ${art.artist.name}`
            : rng.pick([
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
                ...(type === "viewing" ? ["Private viewing of the winter hang"] : []),
                ...(type === "event" ? ["Came to the Tidewater opening"] : []),
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
      lastInteraction.set(person.id, Math.max(lastInteraction.get(person.id) ?? 0, ms));
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
    // Buyers who still buy come to the gallery's booth at a fair now and then, and a member notes the work that
    // held them there: one their taste likes, of those the booth could show then.
    for (const [fair, fairMs] of FAIRS) {
      const taste = person.taste;
      if (!taste || taste.pattern === "lapsed" || fairMs < person.createdMs || !rng.chance(0.2)) continue;
      const shown = arts.filter((a) => a.createdMs <= fairMs - 7 * DAY);
      const art = shown.length ? pickByTaste(rng, taste, shown) : null;
      if (art === null) continue;
      let ms = fairMs + rng.int(10, 18) * HOUR + rng.int(0, 59) * 60_000;
      while (used.has(ms)) ms += 1000;
      used.add(ms);
      const id = newId("int", ms);
      person.interactionIds.push(id);
      rows(schema.interactions).push({
        id,
        ...G,
        contactId: person.id,
        type: "event",
        direction: null,
        summary: `At our booth at ${fair}: spent time with "${art.title}" by ${art.artist.name}`,
        occurredAt: iso(ms),
        artworkId: art.id,
        memberId: rng.chance(0.8) ? editorId : viewerId,
        metadata: { location: fair },
        createdAt: iso(ms),
        updatedAt: iso(ms),
      });
      lastInteraction.set(person.id, Math.max(lastInteraction.get(person.id) ?? 0, ms));
    }
  }

  for (const person of people) {
    const archivedMs = person.row.archivedAt ? Date.parse(person.row.archivedAt as string) : 0;
    person.row.updatedAt = iso(Math.max(person.createdMs, lastInteraction.get(person.id) ?? 0, archivedMs));
  }
}

/**
 * One engagement event of a contact's, as ingest records it, and the interest a save or an inquiry leaves on the
 * work's timeline. Returns the event's id.
 */
export function recordEngagement(
  ctx: SeedContext,
  person: Person,
  e: { kind: string; ms: number; art: Art | null; roomId: string | null; metadata?: Record<string, string> },
): string {
  const id = ctx.newId("eng", e.ms);
  person.engagementIds.push(id);
  ctx.rows(schema.engagementEvents).push({
    id,
    ...ctx.G,
    contactId: person.id,
    kind: e.kind,
    occurredAt: iso(e.ms),
    artworkId: e.art?.id ?? null,
    viewingRoomId: e.roomId,
    metadata: e.metadata ?? {},
    createdAt: iso(e.ms),
  });
  if (e.art !== null && (e.kind === "favorite_added" || e.kind === "inquiry_submitted")) {
    ctx.activity(e.art, e.ms, {
      eventType: "interest",
      summary:
        e.kind === "favorite_added" ? `${person.name} saved this work` : `${person.name} sent an inquiry`,
      actorId: null,
      contactId: person.id,
      refTable: "engagement_events",
      refId: id,
    });
  }
  return id;
}

/**
 * Engagement signals of every kind the contact filters know, over the last year. The contact's last_engaged_at
 * and its newest engagement per kind (contact_engagement) are left to the database's trigger.
 */
export function seedEngagement(
  ctx: SeedContext,
  people: Person[],
  publishedArts: Art[],
  rooms: Room[],
): void {
  const { rng } = ctx;
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
        "waitlist_joined",
      ].includes(kind);
      const art = withArt ? pickKnownAt(rng, publishedArts, ms, (a) => a.versionTimes[0]!, person) : null;
      const room =
        kind === "room_opened" || (kind === "artwork_viewed" && rng.chance(0.5)) ? rooms[0]!.id : null;
      recordEngagement(ctx, person, {
        kind,
        ms,
        art,
        roomId: room,
        metadata:
          kind === "email_opened" || kind === "link_clicked"
            ? { campaign: rng.pick(["Winter preview", "Tidewater opening", "New editions"]) }
            : {},
      });
    }
  }
  if (forced < ENGAGEMENT_KINDS.length) throw new Error("seed: not every engagement kind was generated");
  seedRoomVisits(ctx, people, rooms);
}

/**
 * Buyers who still buy visit the viewing rooms while they are open: they open a room, look at the works their
 * taste likes (one to three), and now and then save one or send an inquiry from the room. Most look at nothing
 * they like and leave.
 */
function seedRoomVisits(ctx: SeedContext, people: Person[], rooms: Room[]): void {
  const { rng } = ctx;
  for (const person of people) {
    const taste = person.taste;
    if (!taste || person.archived || taste.pattern === "lapsed") continue;
    for (const room of rooms) {
      const from = Math.max(room.opensMs, person.createdMs);
      const to = Math.min(room.closesMs ?? BASE, BASE) - 3 * HOUR;
      if (to <= from || !rng.chance(0.45)) continue;
      const liked = room.arts.filter((a) => appeal(taste, a) >= 2);
      let ms = rng.between(from, to);
      const event = (kind: string, art: Art | null) => {
        recordEngagement(ctx, person, { kind, ms, art, roomId: room.id });
        ms += rng.int(1, 9) * 60_000;
      };
      event("room_opened", null);
      for (const art of rng.sample(liked, rng.int(1, 3))) {
        event("artwork_viewed", art);
        if (rng.chance(0.25)) event(rng.chance(0.6) ? "favorite_added" : "inquiry_submitted", art);
      }
    }
  }
}
