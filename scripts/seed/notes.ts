/** Editor-only private notes and follow-up tasks. */
import * as schema from "../../db/schema";
import { BASE, DAY, HOUR, iso } from "./common";
import type { Person, SeedContext } from "./context";

/** Editor-only private notes and follow-up tasks. */
export function seedNotesAndTasks(ctx: SeedContext, people: Person[]): void {
  const { rng, newId, G, rows, editorId, viewerId } = ctx;
  for (const person of people) {
    if (rng.chance(0.15)) {
      for (let k = rng.int(1, 2); k > 0; k--) {
        const ms = rng.between(person.createdMs, BASE - HOUR);
        rows(schema.privateNotes).push({
          id: newId("note", ms),
          ...G,
          contactId: person.id,
          authorId: editorId,
          body: rng.pick([
            "Confidential: going through a divorce; avoid mentioning the Hudson Valley house.",
            "Has indicated a ceiling of about $80k this year.",
            "Will consign the Volkonsky if the estimate is right; do not share with other dealers.",
            "Prefers discretion; never list as a lender by name.",
          ]),
          createdAt: iso(ms),
          updatedAt: iso(ms),
        });
      }
    }
    if (rng.chance(0.25)) {
      for (let k = rng.int(1, 2); k > 0; k--) {
        const createdMs = rng.between(person.createdMs, BASE - DAY);
        const dueMs = BASE + rng.int(-20, 45) * DAY;
        const done = dueMs < BASE && rng.chance(0.6);
        rows(schema.tasks).push({
          id: newId("task", createdMs),
          ...G,
          contactId: person.id,
          title: rng.pick([
            `Send ${person.name.split(" ")[0]} the winter viewing room`,
            "Follow up on the quote",
            "Arrange a studio visit",
            "Confirm shipping address",
            "Send condition report",
          ]),
          notes: rng.chance(0.3) ? "Mention the new editions." : null,
          dueAt: iso(dueMs),
          completedAt: done ? iso(Math.min(dueMs, BASE - HOUR)) : null,
          assigneeId: rng.chance(0.8) ? editorId : viewerId,
          createdBy: editorId,
          createdAt: iso(createdMs),
          updatedAt: iso(done ? Math.max(createdMs, Math.min(dueMs, BASE - HOUR)) : createdMs),
        });
      }
    }
  }
  for (const [title, days] of [
    ["Renew fine-art insurance policy", 14],
    ["Book art handlers for the March install", 30],
    ["Update price list for the fair", -3],
  ] as const) {
    const createdMs = BASE - 10 * DAY;
    rows(schema.tasks).push({
      id: newId("task", createdMs),
      ...G,
      contactId: null,
      title,
      notes: null,
      dueAt: iso(BASE + days * DAY),
      completedAt: null,
      assigneeId: editorId,
      createdBy: editorId,
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs),
    });
  }
}
