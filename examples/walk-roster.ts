/**
 * Walks the gallery's whole roster, every unarchived contact, page after page with the client's `paginate`
 * (which follows each page's `next_cursor` until it is null), and prints how many there are, by kind and by
 * sales stage, and how many may be written to by email.
 *
 *   GALLERY_API_URL=http://127.0.0.1:8787/v1 GALLERY_API_KEY=gpk_… npx tsx examples/walk-roster.ts
 */
import type { components, GalleryClient } from "../clients/typescript/src/index";
import { clientFromEnv, isMain, run } from "./config";

type Contact = components["schemas"]["Contact"];

export interface RosterSummary {
  count: number;
  /** Contacts per `contact_type` (collector, institution, …). */
  byType: Record<string, number>;
  /** Contacts per `lead_status` (new, active, engaged, dormant, closed). */
  byLeadStatus: Record<string, number>;
  /** Contacts with an email and no `do_not_email`: who may be written to (marketing also needs `email_consent`). */
  emailable: number;
  /** Every contact's id, in the order walked. */
  ids: string[];
}

function tally(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** Walks every contact, `pageSize` a request. */
export async function walkRoster(client: GalleryClient, pageSize = 100): Promise<RosterSummary> {
  const summary: RosterSummary = { count: 0, byType: {}, byLeadStatus: {}, emailable: 0, ids: [] };
  for await (const contact of client.paginate("/gallery/contacts", {
    params: { query: { limit: pageSize, sort: "name", dir: "asc" } },
  })) {
    const c: Contact = contact;
    summary.count++;
    summary.ids.push(c.id);
    tally(summary.byType, c.contact_type);
    tally(summary.byLeadStatus, c.lead_status);
    if (c.email && !c.do_not_email) summary.emailable++;
  }
  return summary;
}

function line(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([key, n]) => `${key} ${n}`)
    .join(", ");
}

export async function main(
  client: GalleryClient = clientFromEnv(),
  log: (line: string) => void = console.log,
  pageSize = 100,
): Promise<RosterSummary> {
  const started = performance.now();
  const summary = await walkRoster(client, pageSize);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(
    `${summary.count} contacts (${Math.ceil(summary.count / pageSize) || 1} pages of ${pageSize}, ${seconds} s)`,
  );
  log(`  by type:         ${line(summary.byType) || "none"}`);
  log(`  by lead status:  ${line(summary.byLeadStatus) || "none"}`);
  log(`  with an email:   ${summary.emailable}`);
  return summary;
}

if (isMain(import.meta.url)) run(() => main());
