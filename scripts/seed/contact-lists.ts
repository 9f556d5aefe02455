/** Static and dynamic contact lists, and the engine's verdicts for the described segment. */
import * as schema from "../../db/schema";
import type { ContactListQuery } from "../../db/schema/contact-lists";
import { BASE, DAY, iso, MATCH_MODEL } from "./common";
import { isBuyer, type Person, type SeedContext } from "./context";

/** Static and dynamic contact lists, and the engine's verdicts for the described segment. Returns list ids. */
export function seedContactLists(ctx: SeedContext, people: Person[]): string[] {
  const { rng, newId, G, rows } = ctx;
  const buyers = people.filter(isBuyer);
  const active = people.filter((p) => !p.archived);
  const collectors = active.filter((p) => p.type === "collector");
  const listSpecs: [
    title: string,
    kind: string,
    description: string,
    members: Person[] | null,
    query: ContactListQuery | null,
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
      "Engaged collectors, $25k+",
      "segment",
      "Engaged collectors who have spent at least $25,000.",
      null,
      {
        type: "collector",
        lead_status: "engaged",
        min_total_spend_cents: 2_500_000,
        described_as: "collectors building a serious contemporary painting collection",
      },
    ],
    [
      "Viewing room visitors this winter",
      "segment",
      "Anyone who opened a viewing room since November.",
      null,
      { engaged_event: "room_opened", engaged_since: "2025-11-01T00:00:00Z" },
    ],
  ];
  const lists = listSpecs.map(([title, kind, description, members, query], i) => {
    const createdMs = Date.UTC(2025, 5, 1) + i * 21 * DAY;
    const id = newId("list", createdMs);
    rows(schema.contactLists).push({
      id,
      ...G,
      title,
      description,
      kind,
      isDynamic: query !== null,
      dynamicQuery: query,
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
  // The engine's verdicts for the described dynamic segment (read by judged_rubric=segment:<list id>).
  const rubricKey = `segment:${lists[4]!}`;
  for (const person of rng.sample(collectors, 100)) {
    const probability = Math.round(rng.next() * 1000) / 1000;
    rows(schema.rubricJudgments).push({
      ...G,
      rubricKey: rubricKey,
      contactId: person.id,
      verdict: probability >= 0.5,
      probability,
      model: MATCH_MODEL,
      reasons: [
        {
          label: `Collecting focus fits (${person.budget ?? "no budget band"})`,
          source_label: "Collector profile",
        },
      ],
      judgedAt: iso(BASE - rng.int(1, 20) * DAY),
    });
  }
  return lists;
}
