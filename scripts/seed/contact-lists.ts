/** Static and dynamic contact lists; the segments described in plain words are left for the engine to judge. */
import * as schema from "../../db/schema";
import type { ContactListQuery as StoredQuery } from "../../db/schema/contact-lists";
import { ContactListQuery, type ContactListQueryInput } from "../../lib/schemas/contact-filters";
import { DAY, iso } from "./common";
import { isBuyer, type Person, type SeedContext } from "./context";
import { CONTACT_TAGS } from "./material";

/**
 * Static lists with members, and dynamic lists whose saved filters combine several of the contact filters
 * (type with spend, engagement kind with a date, price band with works acquired, a tag with consent, a
 * description the engine judges). Every saved filter is parsed with the API's own schema, so the seed cannot
 * store one the API would reject. Returns the list ids in order (the first is the fair pipeline).
 */
export function seedContactLists(ctx: SeedContext, people: Person[], contactTags: string[]): string[] {
  const { rng, newId, G, rows } = ctx;
  const buyers = people.filter(isBuyer);
  const active = people.filter((p) => !p.archived);
  const collectors = active.filter((p) => p.type === "collector");
  const newsletterTag = contactTags[CONTACT_TAGS.indexOf("Newsletter")]!;
  const listSpecs: [
    title: string,
    kind: string,
    description: string,
    members: Person[] | null,
    query: ContactListQueryInput | null,
  ][] = [
    [
      "Spring Fair 2026 pipeline",
      "pipeline",
      "Collectors to invite to the booth preview.",
      rng.sample(buyers, 28),
      null,
    ],
    [
      "VIP collectors",
      "segment",
      "Hand-picked; see the director before contacting.",
      rng.sample(collectors, 18),
      null,
    ],
    [
      "Newsletter: Photography",
      "mailing",
      "Monthly photography newsletter.",
      rng.sample(
        active.filter((p) => p.email !== null),
        40,
      ),
      null,
    ],
    [
      "Museum acquisitions",
      "pipeline",
      "Institutions with open acquisition proposals.",
      active.filter((p) => p.type === "institution").slice(0, 14),
      null,
    ],
    [
      "Collectors, $25k and more",
      "segment",
      "Collectors whose completed purchases add up to at least $25,000.",
      null,
      { type: "collector", min_total_spend_cents: 2_500_000 },
    ],
    [
      "Viewing room visitors this winter",
      "segment",
      "Anyone who opened a viewing room since November.",
      null,
      { engaged_event: "room_opened", engaged_since: "2025-11-01T00:00:00Z" },
    ],
    [
      "Repeat buyers, $5k–$25k a work",
      "segment",
      "Two works or more at an average between $5,000 and $25,000.",
      null,
      { price_band: "5k_25k", min_works_acquired: 2 },
    ],
    [
      "Newsletter, opted in",
      "mailing",
      "Tagged for the newsletter and consented to email.",
      null,
      { tag_id: [newsletterTag], email_consent: "granted" },
    ],
    [
      "Paper, never painting",
      "segment",
      "Collectors of works on paper we could introduce to painting.",
      null,
      { described_as: "collectors who bought works on paper but never a painting" },
    ],
    [
      "Lapsed buyers",
      "segment",
      "Buyers who have gone quiet: worth a call.",
      null,
      { described_as: "lapsed buyers: two purchases before 2024, nothing since" },
    ],
    [
      "Painting collectors to court",
      "segment",
      "Collectors building a contemporary painting collection, in the words a member would use.",
      null,
      {
        type: "collector",
        described_as: "collectors of contemporary painting who are still buying: a purchase since 2024",
      },
    ],
    [
      "Minimal art",
      "segment",
      "Whoever bought, asked about or says they collect minimal art: for the spring show.",
      null,
      { described_as: "collectors of minimal art" },
    ],
  ];
  const lists = listSpecs.map(([title, kind, description, members, query], i) => {
    const createdMs = Date.UTC(2025, 5, 1) + i * 14 * DAY;
    const id = newId("list", createdMs);
    rows(schema.contactLists).push({
      id,
      ...G,
      title,
      description,
      kind,
      isDynamic: query !== null,
      // Stored as the API stores it: parsed (a single tag_id becomes an array of one).
      dynamicQuery: query === null ? null : (ContactListQuery.parse(query) as unknown as StoredQuery),
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs + 3 * DAY),
    });
    (members ?? []).forEach((person, position) => {
      rows(schema.contactListMemberships).push({
        ...G,
        listId: id,
        contactId: person.id,
        position,
        addedAt: iso(Math.max(createdMs, person.createdMs)),
      });
    });
    return id;
  });

  return lists;
}
