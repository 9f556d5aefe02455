import { sql } from "drizzle-orm";
import { recommendationMatches } from "../../db/schema";
import { newId } from "../../lib/ids";
import { APP_SECRET, AUTH_TOKEN, receive, VERIFY_TOKEN } from "./connectors";
import { call, db, type TestGallery } from "./gallery";
import { createMember } from "./members";
import { insertRow } from "./seed";
import { attachImage, mintImageUpload, uploadedImagePath } from "./uploads";

/** A valid sale body: a new contact of `g` bought a new artwork of `g`. */
async function saleBody(g: TestGallery): Promise<Record<string, unknown>> {
  return {
    contact_id: await createdId("/gallery/contacts", g, { name: "Fixture Buyer" }),
    artwork_ids: [await createdId("/gallery/artworks", g, { title: "Fixture" })],
    amount_cents: 1250000,
    currency: "USD",
  };
}

/** A valid fair-run body for a secret key: a portal, acting for a new editor of `g`. */
async function fairRunBody(g: TestGallery): Promise<Record<string, unknown>> {
  return { portal_domain: "apply.example-fair.com", user_id: (await createMember(g.id, "editor")).id };
}

/** A connection of `g`'s fixture editor (the inbox is member-private): an email account of its own. */
async function inboxConnectionId(g: TestGallery): Promise<string> {
  const response = await call("POST", "/gallery/inbox/connections", {
    key: (await g.editor()).token,
    body: { provider: "google", channel: "email", address: `desk-${crypto.randomUUID()}@gallery.example` },
  });
  return ((await response.json()) as { id: string }).id;
}

/** A thread of `g`'s fixture editor: an inbound message delivered to a new connection of theirs by `g`'s key. */
async function inboxThreadId(g: TestGallery): Promise<string> {
  const connectionId = await inboxConnectionId(g);
  const response = await call("POST", `/gallery/inbox/connections/${connectionId}/messages`, {
    key: g.key,
    body: {
      direction: "inbound",
      from: { address: "collector@example.com" },
      to: ["desk@gallery.example"],
      body: "Fixture",
      sent_at: "2025-03-04T09:30:00Z",
    },
  });
  return ((await response.json()) as { thread_id: string }).thread_id;
}

/** A small mail with one PDF attached, as a mail client writes it. */
function mailWithAttachment(): string {
  return [
    "From: Fixture Collector <fixture@example.com>",
    "To: desk@gallery.example",
    "Subject: Fixture",
    `Message-ID: <${crypto.randomUUID()}@example.com>`,
    "Date: Tue, 4 Mar 2025 09:30:00 +0000",
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="fixture"',
    "",
    "--fixture",
    "Content-Type: text/plain; charset=UTF-8",
    "",
    "Fixture",
    "--fixture",
    'Content-Type: application/pdf; name="fixture.pdf"',
    'Content-Disposition: attachment; filename="fixture.pdf"',
    "Content-Transfer-Encoding: base64",
    "",
    "JVBERi0xLjQKJSVFT0YK",
    "--fixture--",
    "",
  ].join("\r\n");
}

/** A message of `g`'s fixture editor with an attachment: a mail to a new email connection of theirs. */
async function inboxMessageId(g: TestGallery): Promise<string> {
  const response = await call("POST", "/gallery/inbox/connections", {
    key: (await g.editor()).token,
    body: { provider: "google", channel: "email", address: `desk-${crypto.randomUUID()}@gallery.example` },
  });
  const connection = (await response.json()) as { id: string; inbound_address: string };
  await receive(mailWithAttachment(), connection.inbound_address);
  const rows = await db().execute<{ id: string }>(
    sql`select m.id from inbox_messages m join inbox_threads t on t.id = m.thread_id
      where t.connection_id = ${connection.id}`,
  );
  return rows.rows[0]!.id;
}

/**
 * A connection of `g`'s fixture editor for the connector at `path` (`/connectors/whatsapp/…` or `/connectors/sms/…`),
 * with the test secrets its provider's proofs are made with (test/helpers/connectors.ts).
 */
export async function connectorConnectionId(g: TestGallery, path: string): Promise<string> {
  const whatsapp = path.startsWith("/connectors/whatsapp/");
  const phone = `+4420${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  const response = await call("POST", "/gallery/inbox/connections", {
    key: (await g.editor()).token,
    body: whatsapp
      ? {
          provider: "meta",
          channel: "whatsapp",
          address: phone,
          secrets: { app_secret: APP_SECRET, verify_token: VERIFY_TOKEN },
        }
      : { provider: "twilio", channel: "sms", address: phone, secrets: { auth_token: AUTH_TOKEN } },
  });
  return ((await response.json()) as { id: string }).id;
}

/** Creates a resource through the API in a gallery and returns its id. */
async function createdId(path: string, g: TestGallery, body: Record<string, unknown>): Promise<string> {
  const response = await call("POST", path, { key: g.key, body });
  return ((await response.json()) as { id: string }).id;
}

/**
 * Makes a resource in `g`. `parents` holds the ids already made for the path parameters before this one (by
 * prefix: `{ art: "art_…" }`), so a nested resource (a format at /artworks/{id}/formats/{formatId}) is made under
 * the very parent the path names.
 */
export type Fixture = (g: TestGallery, parents: Readonly<Record<string, string>>) => Promise<string>;

/**
 * A real resource for each id prefix that appears in a path (`art` → an artwork), for tests that need an
 * existing id: generated cross-tenant checks (test/platform/conformance.test.ts) and robustness requests.
 */
export const fixtures: Record<string, Fixture> = {
  art: (g) => createdId("/gallery/artworks", g, { title: "Fixture" }),
  key: (g) => createdId("/gallery/api-keys", g, { name: "Fixture", scopes: ["artworks:read"] }),
  we: (g) =>
    createdId("/gallery/webhook-endpoints", g, { url: "https://example.com/hook", event_types: ["*"] }),
  mem: async (g) => (await createMember(g.id, "editor")).id,
  artist: (g) => createdId("/gallery/artists", g, { name: "Fixture Artist" }),
  // Tag names are unique per scope in a gallery, and a gallery may need several fixtures.
  tag: (g) => createdId("/gallery/tags", g, { name: `Fixture ${crypto.randomUUID()}` }),
  cst: (g) => createdId("/gallery/custom-statuses", g, { name: "Fixture status" }),
  loc: (g) => createdId("/gallery/locations", g, { name: "Fixture location" }),
  fmt: async (g, parents) => {
    const artworkId = parents.art ?? (await createdId("/gallery/artworks", g, { title: "Fixture" }));
    return createdId(`/gallery/artworks/${artworkId}/formats`, g, { label: "Fixture" });
  },
  img: async (g, parents) => {
    const artworkId = parents.art ?? (await createdId("/gallery/artworks", g, { title: "Fixture" }));
    return attachImage(g, artworkId, { caption: "Fixture" });
  },
  // An upload token is the path id of a signed upload (PUT /uploads/{token}): a fresh PNG target.
  gupl: async (g, parents) => {
    const artworkId = parents.art ?? (await createdId("/gallery/artworks", g, { title: "Fixture" }));
    return (await mintImageUpload(g, artworkId)).token;
  },
  auc: async (g, parents) => {
    const artworkId = parents.art ?? (await createdId("/gallery/artworks", g, { title: "Fixture" }));
    return createdId(`/gallery/artworks/${artworkId}/auction-records`, g, {
      auction_house: "Fixture House",
      sale_date: "2024-02-29",
      result: "sold",
    });
  },
  con: (g) => createdId("/gallery/contacts", g, { name: "Fixture Contact" }),
  list: (g) => createdId("/gallery/contact-lists", g, { title: "Fixture list" }),
  task: async (g, parents) => {
    const contactId = parents.con ?? (await createdId("/gallery/contacts", g, { name: "Fixture Contact" }));
    return createdId(`/gallery/contacts/${contactId}/tasks`, g, { title: "Fixture task" });
  },
  // A match is the engine's: written as it writes one, of the contact the path names, on a new available work.
  match: async (g, parents) => {
    const contactId = parents.con ?? (await createdId("/gallery/contacts", g, { name: "Fixture Contact" }));
    const id = newId("match");
    await insertRow(recommendationMatches, {
      id,
      gallery_id: g.id,
      artwork_id: await createdId("/gallery/artworks", g, { title: "Fixture" }),
      contact_id: contactId,
      model: "matcher@1",
      probability: 0.8,
      judged_at: new Date().toISOString(),
    });
    return id;
  },
  sale: async (g) => createdId("/gallery/sales", g, await saleBody(g)),
  // Issued with part of it paid, so that every invoice operation, a payment reversal too, has something to act on.
  inv: async (g) => {
    const id = await createdId("/gallery/invoices", g, { subtotal_cents: 1250000, currency: "USD" });
    const paid = await call("PATCH", `/gallery/invoices/${id}`, {
      key: g.key,
      body: { amount_paid_cents: 500000 },
    });
    if (paid.status !== 200) throw new Error(`invoice fixture payment: ${paid.status} ${await paid.text()}`);
    return id;
  },
  fair: async (g) => createdId("/gallery/fair-runs", g, await fairRunBody(g)),
  offer: (g) => createdId("/gallery/offers", g, { title: "Fixture offer" }),
  room: (g) => createdId("/gallery/viewing-rooms", g, { title: "Fixture room" }),
  show: (g) => createdId("/gallery/shows", g, { title: "Fixture show" }),
  // A tag name is unique on its show.
  stag: async (g, parents) => {
    const showId = parents.show ?? (await createdId("/gallery/shows", g, { title: "Fixture show" }));
    return createdId(`/gallery/shows/${showId}/tags`, g, {
      name: `Fixture ${crypto.randomUUID()}`,
      facet: "theme",
    });
  },
  pub: (g) => createdId("/gallery/publications", g, { title: "Fixture publication" }),
  // Connection ids are UUIDs: `conn` names their fixture rather than an id prefix.
  conn: (g) => inboxConnectionId(g),
  thr: (g) => inboxThreadId(g),
  msg: (g) => inboxMessageId(g),
  // An attachment of the message made before it (its path's `{id}`), else of a new one.
  att: async (g, parents) => {
    const messageId = parents.msg ?? (await inboxMessageId(g));
    const rows = await db().execute<{ id: string }>(
      sql`select id from inbox_attachments where message_id = ${messageId} order by position limit 1`,
    );
    return rows.rows[0]!.id;
  },
  evt: async (g) => {
    await createdId("/gallery/artworks", g, { title: "Fixture" });
    const page = (await (await call("GET", "/gallery/events?limit=1", { key: g.key })).json()) as {
      data: { id: string }[];
    };
    return page.data[0]!.id;
  },
};

/**
 * A valid request body, by operationId, for operations whose body must name something made first (an uploaded
 * object's storage_path): made in `g` for the path's ids. Other operations' example body is valid as it is.
 */
export const bodyFixtures: Record<
  string,
  (g: TestGallery, ids: Readonly<Record<string, string>>) => Promise<Record<string, unknown>>
> = {
  createArtworkImage: async (g, ids) => ({
    caption: "Fixture",
    storage_path: await uploadedImagePath(g, ids.id!),
  }),
  // A tag name is unique in its scope: each request that should succeed takes a name of its own.
  createTag: async () => ({ name: `Fixture ${crypto.randomUUID()}`, scope: "artwork" }),
  updateTag: async () => ({ name: `Renamed ${crypto.randomUUID()}` }),
  // Members are contacts of the gallery the request is made in.
  addContactListMembers: async (g) => ({
    contact_ids: [await createdId("/gallery/contacts", g, { name: "Fixture Member" })],
  }),
  // A sale names a buyer and works of the gallery the request is made in.
  createSale: (g) => saleBody(g),
  // A member connects an address once per channel: each request that should succeed connects one of its own.
  createInboxConnection: async () => ({
    provider: "google",
    channel: "email",
    address: `desk-${crypto.randomUUID()}@gallery.example`,
  }),
  // A fair run started with a secret key acts for a member of the gallery the request is made in.
  createFairRun: (g) => fairRunBody(g),
  // Recipients are contacts of the gallery the request is made in.
  addOfferRecipients: async (g) => ({
    contact_ids: [await createdId("/gallery/contacts", g, { name: "Fixture Recipient" })],
  }),
  // A show's tag name is unique on the show: each request that should succeed takes a name of its own.
  createShowTag: async () => ({ name: `Fixture ${crypto.randomUUID()}`, facet: "medium" }),
};

/**
 * The slug of a new viewing room of `g` that visitors may read (public, open, one work): for the publishable
 * surface's path parameter `{slug}`, which is not an id.
 */
export async function publicRoomSlug(g: TestGallery): Promise<string> {
  const artworkId = await createdId("/gallery/artworks", g, { title: "Fixture" });
  const response = await call("POST", "/gallery/viewing-rooms", {
    key: g.key,
    body: { title: "Fixture room", visibility: "public", artworks: [{ artwork_id: artworkId }] },
  });
  return ((await response.json()) as { slug: string }).slug;
}

/** A fixture for this id prefix, or an error naming where to add one. */
export function fixtureFor(prefix: string): Fixture {
  const make = fixtures[prefix];
  if (!make) throw new Error(`no fixture for id prefix ${prefix}_ (add one to test/helpers/fixtures.ts)`);
  return make;
}

/**
 * Real resources in `g` for a path's id parameters (name → prefix, in path order): each one made under the ids
 * made before it, so `/artworks/{id}/formats/{formatId}` gets a format of that very artwork.
 */
export async function fixtureIdsFor(
  pathIds: Readonly<Record<string, string>>,
  g: TestGallery,
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const byPrefix: Record<string, string> = {};
  for (const [name, prefix] of Object.entries(pathIds)) {
    ids[name] = await fixtureFor(prefix)(g, byPrefix);
    byPrefix[prefix] = ids[name];
  }
  return ids;
}

/**
 * A resource whose representation carries a membership-gated price, for each id prefix that has one: priced,
 * public-priced or not (generated price checks in test/platform/conformance.test.ts).
 */
export const pricedFixtures: Record<string, (g: TestGallery, publicPriced: boolean) => Promise<string>> = {
  art: async (g, publicPriced) => {
    const id = await createdId("/gallery/artworks", g, {
      title: "Priced fixture",
      price_cents: 120000,
      currency: "USD",
      show_price_publicly: publicPriced,
    });
    for (const [label, price_cents] of [
      ["Print", 4500],
      ["Framed print", 6500],
    ] as const) {
      await createdId(`/gallery/artworks/${id}/formats`, g, { label, price_cents, currency: "EUR" });
    }
    return id;
  },
  /** A publication with a price, public or private. */
  pub: (g, publicPriced) =>
    createdId("/gallery/publications", g, {
      title: "Priced fixture",
      price: { price_cents: 4500, currency: "USD", price_visibility: publicPriced ? "public" : "private" },
    }),
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

/** Terse "same as last time?" messages: from a gallery's regular clients, an order
 * (the kind a gallery corrects to purchase_inquiry in the triage-adjustment suites). */
export const SAME_AS_LAST_TIME = [
  "Same as last time?",
  "same as last time please?",
  "Same arrangement as last time?",
  "Hi, same as last time? Thanks",
  "Same as last time for this one?",
  "Same again, like last time?",
  "Same terms as last time?",
  "Same as last time, ok?",
  "Same as last time with the framing?",
  "Same as last time for the Hartmann?",
];
