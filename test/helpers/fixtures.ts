import { seedFormat } from "../artworks/helpers";
import { call, type TestGallery } from "./gallery";
import { createMember } from "./members";

/** Creates a resource through the API in a gallery and returns its id. */
async function createdId(path: string, g: TestGallery, body: Record<string, unknown>): Promise<string> {
  const response = await call("POST", path, { key: g.key, body });
  return ((await response.json()) as { id: string }).id;
}

/**
 * A real resource for each id prefix that appears in a path (`art` → an artwork), for tests that need an
 * existing id: generated cross-tenant checks (test/platform/conformance.test.ts) and robustness requests.
 */
export const fixtures: Record<string, (g: TestGallery) => Promise<string>> = {
  art: (g) => createdId("/gallery/artworks", g, { title: "Fixture" }),
  key: (g) => createdId("/gallery/api-keys", g, { name: "Fixture", scopes: ["artworks:read"] }),
  we: (g) =>
    createdId("/gallery/webhook-endpoints", g, { url: "https://example.com/hook", event_types: ["*"] }),
  mem: async (g) => (await createMember(g.id, "editor")).id,
  evt: async (g) => {
    await createdId("/gallery/artworks", g, { title: "Fixture" });
    const page = (await (await call("GET", "/gallery/events?limit=1", { key: g.key })).json()) as {
      data: { id: string }[];
    };
    return page.data[0]!.id;
  },
};

/** A fixture for this id prefix, or an error naming where to add one. */
export function fixtureFor(prefix: string): (g: TestGallery) => Promise<string> {
  const make = fixtures[prefix];
  if (!make) throw new Error(`no fixture for id prefix ${prefix}_ (add one to test/helpers/fixtures.ts)`);
  return make;
}

/**
 * A resource whose representation carries a membership-gated price, for each id prefix that has one: priced,
 * public-priced or not (generated price checks in test/platform/conformance.test.ts). Formats have no API yet,
 * so the format row is written directly.
 */
export const pricedFixtures: Record<string, (g: TestGallery, publicPriced: boolean) => Promise<string>> = {
  art: async (g, publicPriced) => {
    const id = await createdId("/gallery/artworks", g, {
      title: "Priced fixture",
      price_cents: 120000,
      show_price_publicly: publicPriced,
    });
    await seedFormat(g.id, id, { label: "Print", price_cents: 4500, position: 0 });
    await seedFormat(g.id, id, { label: "Framed print", price_cents: 6500, position: 1 });
    return id;
  },
  /** An `artwork.updated` event whose snapshot carries the priced formats (they exist before the change). */
  evt: async (g, publicPriced) => {
    const artworkId = await pricedFixtures.art!(g, publicPriced);
    await call("PATCH", `/gallery/artworks/${artworkId}`, {
      key: g.key,
      body: { title: "Priced fixture, renamed" },
    });
    const page = (await (
      await call("GET", "/gallery/events?type=artwork.updated&limit=1", { key: g.key })
    ).json()) as {
      data: { id: string }[];
    };
    return page.data[0]!.id;
  },
};

/** A priced fixture for this id prefix, or an error naming where to add one. */
export function pricedFixtureFor(prefix: string): (g: TestGallery, publicPriced: boolean) => Promise<string> {
  const make = pricedFixtures[prefix];
  if (!make)
    throw new Error(`no priced fixture for id prefix ${prefix}_ (add one to test/helpers/fixtures.ts)`);
  return make;
}
