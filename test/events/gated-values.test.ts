import { describe, expect, it } from "vitest";
import "../../functions/api";
import { describedResources } from "../../db/resource";
import { domainEvents, recommendationMatches } from "../../db/schema";
import { newId } from "../../lib/ids";
import { readScopes } from "../../lib/scopes";
import { call, createGallery, db, signedInMember, type TestGallery } from "../helpers/gallery";
import { walkPages } from "../helpers/pages";
import { insertRow } from "../helpers/seed";

/**
 * Generated from the resource descriptions: every resource that declares a gate (`gated` in its resource()) is
 * written so that its gated value changes, and the events that write recorded are read by a read-only key (every
 * `:read` scope, so no event is left out for want of a scope) and by a full key.
 */

const BEFORE = 7340021;
const AFTER = 8123457;

interface GatedWrite {
  /** The gated values the write put in its events (before and after the change). */
  values: readonly number[];
  /** Those a read-only caller sees when the gate's condition admits it (a public-priced work, a public price). */
  shownWhenAdmitted: readonly number[];
}

async function created(g: TestGallery, path: string, body: Record<string, unknown>): Promise<string> {
  const response = await call("POST", path, { key: g.key, body });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function patched(g: TestGallery, path: string, body: Record<string, unknown>): Promise<void> {
  const response = await call("PATCH", path, { key: g.key, body });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** A format priced BEFORE, then AFTER, on a work public-priced or not; the work is then renamed. */
async function repricedFormat(g: TestGallery, publicPriced: boolean): Promise<GatedWrite> {
  const id = await created(g, "/gallery/artworks", { title: "Gated", show_price_publicly: publicPriced });
  const format = await created(g, `/gallery/artworks/${id}/formats`, {
    label: "Print",
    price_cents: BEFORE,
    currency: "EUR",
  });
  await patched(g, `/gallery/artworks/${id}/formats/${format}`, { price_cents: AFTER });
  // artwork.updated carries the work with its formats.
  await patched(g, `/gallery/artworks/${id}`, { title: "Gated, renamed" });
  return { values: [BEFORE, AFTER], shownWhenAdmitted: [AFTER] };
}

/** For each described resource with a gate, by its event name: a write that changes the gated value. */
const gatedWrites: Record<string, (g: TestGallery, admitted: boolean) => Promise<GatedWrite>> = {
  artwork: repricedFormat,
  artwork_format: repricedFormat,
  match: matchWithPriceEvidence,
  publication: async (g, admitted) => {
    const price_visibility = admitted ? "public" : "private";
    const id = await created(g, "/gallery/publications", {
      title: "Gated",
      price: { price_cents: BEFORE, currency: "USD", price_visibility },
    });
    await patched(g, `/gallery/publications/${id}`, { price: { price_cents: AFTER } });
    return { values: [BEFORE, AFTER], shownWhenAdmitted: [BEFORE, AFTER] };
  },
};

/**
 * A match the engine wrote with two pieces of price evidence (a sale BEFORE, the work's price AFTER) on a work
 * that is not public-priced; a member's feedback records it in `match.feedback_recorded`. The event carries the
 * match without its work's setting, so a read-only reader never sees price evidence there.
 */
async function matchWithPriceEvidence(g: TestGallery): Promise<GatedWrite> {
  const contactId = await created(g, "/gallery/contacts", { name: "Gated" });
  const artworkId = await created(g, "/gallery/artworks", { title: "Gated" });
  const id = newId("match");
  const reason = (question: string, label: string) => ({
    question,
    kind: "work_fact",
    evidence_id: null,
    label,
    source_label: null,
    at: null,
  });
  await db().execute(
    insertRow(recommendationMatches, {
      id,
      gallery_id: g.id,
      artwork_id: artworkId,
      contact_id: contactId,
      model: "matcher@1",
      probability: 0.8,
      reasons: [
        reason("price", `Spent ${BEFORE} cents on one work`),
        reason("medium", "Collects oil paintings"),
        reason("price", `Priced ${AFTER} cents, within the band`),
      ],
      evidence_count: 3,
      judged_at: new Date().toISOString(),
    }),
  );
  const response = await call("POST", `/gallery/contacts/${contactId}/matches/${id}/feedback`, {
    key: g.key,
    body: { action: "hide" },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return { values: [BEFORE, AFTER], shownWhenAdmitted: [] };
}

interface EventBody {
  id: string;
  type: string;
  resource_type: string;
  data: Record<string, unknown>;
}

/** Every event of the gallery as `key` reads it: the list walked to the end, and each event by id. */
async function eventsSeen(key: string): Promise<{ listed: EventBody[]; byId: EventBody[] }> {
  const pages = await walkPages<EventBody>(key, "/gallery/events", { limit: "100" });
  const listed = pages.flatMap((page) => page.data);
  const byId: EventBody[] = [];
  for (const event of listed) {
    const response = await call("GET", `/gallery/events/${event.id}`, { key });
    expect(response.status).toBe(200);
    byId.push((await response.json()) as EventBody);
  }
  return { listed, byId };
}

/** The values among `values` that appear anywhere in the JSON of `events`. */
function appearing(events: readonly EventBody[], values: readonly number[]): number[] {
  const text = JSON.stringify(events);
  return values.filter((value) => new RegExp(`(?<![0-9])${value}(?![0-9])`).test(text));
}

const gated = describedResources.filter((r) => r.spec.gated && r.spec.name);

describe("gated resources", () => {
  it("every gated resource has a write for these checks", () => {
    expect(gated.length).toBeGreaterThan(0);
    for (const r of gated) expect(Object.keys(gatedWrites)).toContain(r.spec.name);
  });
});

describe.each(gated.map((r) => [r.spec.name!, r] as const))("%s: gated values in events", (name, r) => {
  it("a read-only key sees them nowhere in any event, listed or by id; a full key sees them", async () => {
    const g = await createGallery();
    const { values } = await gatedWrites[name]!(g, false);
    const readOnly = await eventsSeen(await g.keyWith(readScopes));
    const full = await eventsSeen(g.key);
    expect(readOnly.listed.map((e) => e.id)).toEqual(full.listed.map((e) => e.id));
    expect(readOnly.listed.some((e) => e.resource_type === name)).toBe(true);
    expect(appearing(readOnly.listed, values)).toEqual([]);
    expect(appearing(readOnly.byId, values)).toEqual([]);
    expect(appearing(full.listed, values)).toEqual(values);
    expect(appearing(full.byId, values)).toEqual(values);
  });

  it.runIf(r.spec.gated?.unless)(
    "a read-only key sees them in the resource's events when its condition admits the key",
    async () => {
      const g = await createGallery();
      const { shownWhenAdmitted } = await gatedWrites[name]!(g, true);
      const readOnly = await eventsSeen(await g.keyWith(readScopes));
      const own = (events: EventBody[]) => events.filter((e) => e.resource_type === name);
      expect(appearing(own(readOnly.listed), shownWhenAdmitted)).toEqual(shownWhenAdmitted);
      expect(appearing(own(readOnly.byId), shownWhenAdmitted)).toEqual(shownWhenAdmitted);
    },
  );
});

describe("a publication's price in events follows price_visibility, for keys and viewer sessions alike", () => {
  it.each([
    ["public", { key: true, viewer: true }],
    ["members", { key: false, viewer: true }],
    ["private", { key: false, viewer: false }],
  ] as const)("%s", async (price_visibility, shown) => {
    const g = await createGallery();
    const id = await created(g, "/gallery/publications", {
      title: "Priced",
      price: { price_cents: BEFORE, currency: "USD", price_visibility },
    });
    await patched(g, `/gallery/publications/${id}`, { price: { price_cents: AFTER } });
    const viewer = await signedInMember(g.id, "viewer");
    const both = [BEFORE, AFTER];
    const byKey = await eventsSeen(await g.keyWith(readScopes));
    const byViewer = await eventsSeen(viewer.token);
    expect(appearing(byKey.listed, both)).toEqual(shown.key ? both : []);
    expect(appearing(byViewer.listed, both)).toEqual(shown.viewer ? both : []);
    // The record's existence, currency and visibility are not secret: only the amount is hidden.
    const updated = byKey.listed.find((e) => e.type === "publication.updated")!;
    expect(updated.data.previous_attributes).toMatchObject({ price: { currency: "USD", price_visibility } });
  });
});

/**
 * Former values of a public-priced work: `previous_attributes` does not carry the work's flag unless it changed,
 * so the gate reads it from the object then; a work that changed its flag shows former prices only when it was
 * public-priced before and after. Seeded with the shape the artwork's events have.
 */
describe("an artwork event's previous_attributes, by the work's setting before and after", () => {
  async function seeded(g: TestGallery, now: boolean, before: boolean | undefined) {
    const format = (price_cents: number) => ({ id: newId("fmt"), label: "Print", price_cents });
    const object = { id: newId("art"), show_price_publicly: now, formats: [format(AFTER)] };
    const previous = {
      formats: [format(BEFORE)],
      ...(before === undefined ? {} : { show_price_publicly: before }),
    };
    const id = newId("evt");
    await db().execute(
      insertRow(domainEvents, {
        id,
        gallery_id: g.id,
        type: "artwork.updated",
        livemode: false,
        resource_type: "artwork",
        resource_id: object.id,
        data: { object, previous_attributes: previous },
        created_at: new Date().toISOString(),
      }),
    );
    return id;
  }

  it.each([
    [true, undefined, [BEFORE, AFTER]],
    [false, undefined, []],
    [true, true, [BEFORE, AFTER]],
    [true, false, [AFTER]],
    [false, true, []],
  ] as const)("public-priced now: %s, before: %s", async (now, before, shown) => {
    const g = await createGallery();
    const id = await seeded(g, now, before);
    const response = await call("GET", `/gallery/events/${id}`, { key: await g.keyWith(readScopes) });
    expect(response.status).toBe(200);
    const event = (await response.json()) as EventBody;
    expect(appearing([event], [BEFORE, AFTER])).toEqual(shown);
    const full = (await (await call("GET", `/gallery/events/${id}`, { key: g.key })).json()) as EventBody;
    expect(appearing([full], [BEFORE, AFTER])).toEqual([BEFORE, AFTER]);
    // Only the prices are hidden: the rest of the former formats is as recorded.
    expect((event.data.previous_attributes as { formats: { label: string }[] }).formats[0]!.label).toBe(
      "Print",
    );
  });
});
