import type { ActivityEntry } from "../../db/queries/artwork-writes";
import { formatMoney as money } from "../../lib/money";

/**
 * The timeline entries a change to an artwork implies, from the work as read before the change and the change's
 * new values (the fields sent; absent or undefined fields do not change). Pure: the caller writes the entries, in order, in
 * the change's own transaction. Fields sent with the value they already had imply nothing.
 *
 * Each entry has a sentence for people (`summary`) and the changed values for programs
 * (`metadata.from` and `metadata.to`, keyed by the artwork's field names). `names` gives display names for ids
 * the sentences mention (a location's name for its `loc_…` id); an id without one is shown as the id.
 */
export function timelineEntries(
  before: Readonly<Record<string, unknown>>,
  change: Readonly<Record<string, unknown>>,
  names: Readonly<Record<string, string>> = {},
): ActivityEntry[] {
  const sent = (field: string) => change[field] !== undefined;
  const was = (field: string) => before[field] ?? null;
  const now = (field: string) => (sent(field) ? change[field] : was(field));
  const changed = (field: string) => sent(field) && now(field) !== was(field);
  const diff = (...fields: string[]) => ({
    from: Object.fromEntries(fields.map((f) => [f, was(f)])),
    to: Object.fromEntries(fields.map((f) => [f, now(f)])),
  });
  const entries: ActivityEntry[] = [];

  if (changed("location_id")) {
    const from = was("location_id") as string | null;
    const to = now("location_id") as string | null;
    const place = (id: string) => names[id] ?? id;
    entries.push({
      eventType: "moved",
      summary:
        to === null
          ? `Location cleared (was ${place(from!)}).`
          : from === null
            ? `Moved to ${place(to)}.`
            : `Moved from ${place(from)} to ${place(to)}.`,
      metadata: diff("location_id"),
    });
  }

  if (changed("price_cents") || changed("currency")) {
    const from = { cents: was("price_cents") as number | null, currency: was("currency") as string };
    const to = { cents: now("price_cents") as number | null, currency: now("currency") as string };
    entries.push({
      eventType: "price_changed",
      summary:
        from.cents === null && to.cents === null
          ? `Currency changed from ${from.currency} to ${to.currency}.`
          : from.cents === null
            ? `Priced at ${money(to.cents!, to.currency)}.`
            : to.cents === null
              ? `Price removed (was ${money(from.cents, from.currency)}).`
              : `Price changed from ${money(from.cents, from.currency)} to ${money(to.cents, to.currency)}.`,
      metadata: diff("price_cents", "currency"),
    });
  }

  if (changed("ownership_status")) {
    const from = was("ownership_status") as string;
    const to = now("ownership_status") as string;
    entries.push(
      to === "consigned"
        ? {
            eventType: "consigned",
            summary: `Taken on consignment (was ${ownership(from)}).`,
            metadata: diff("ownership_status"),
          }
        : {
            eventType: "ownership_changed",
            summary: `Ownership changed from ${ownership(from)} to ${ownership(to)}.`,
            metadata: diff("ownership_status"),
          },
    );
  }

  if (changed("availability_state")) {
    const from = was("availability_state") as string;
    const to = now("availability_state") as string;
    entries.push({
      eventType: "availability_changed",
      summary: `Availability changed from ${words(from)} to ${words(to)}.`,
      metadata: diff("availability_state"),
    });
  }

  return entries;
}

const ownershipWords: Readonly<Record<string, string>> = {
  owned: "owned by the gallery",
  consigned: "on consignment",
  co_owned: "co-owned",
  artist_property: "the artist's property",
};

function ownership(status: string): string {
  return ownershipWords[status] ?? words(status);
}

/** `on_hold` → `on hold`. */
function words(value: string): string {
  return value.replaceAll("_", " ");
}
