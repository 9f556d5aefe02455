import { env } from "cloudflare:workers";
import type { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../../lib/ids";
import {
  PublicArtwork,
  PublicViewingRoom,
  PublicViewingRoomSummary,
  ViewingRoom,
} from "../../lib/schemas/viewing-rooms";
import { PUBLISHABLE_SCOPES } from "../../lib/scopes";
import { renewPublicGenerations } from "../../services/edge-cache/invalidate";
import { memberSession, minutesFromNow, newArtwork } from "../contact-interactions/helpers";
import { call, createGallery, db, mintKey, readJson, type TestGallery } from "../helpers/gallery";
import { getPage, walkPages } from "../helpers/pages";
import { expectProblem } from "../helpers/problem";
import { attachImage } from "../helpers/uploads";

/**
 * The browser surface of viewing rooms: GET /public/viewing-rooms, GET /public/viewing-rooms/{slug}, with a
 * publishable token only, CORS-open, visitor-safe fields only.
 */

type PublicRoomBody = z.infer<typeof PublicViewingRoom>;
type SummaryBody = z.infer<typeof PublicViewingRoomSummary>;

const PUBLIC = "/public/viewing-rooms";
const ORIGIN = "https://collector-site.example";

async function createRoom(
  g: TestGallery,
  body: Record<string, unknown>,
): Promise<z.infer<typeof ViewingRoom>> {
  const res = await call("POST", "/gallery/viewing-rooms", { key: g.key, body });
  expect(res.status, await res.clone().text()).toBe(201);
  return readJson(ViewingRoom, res);
}

async function artwork(g: TestGallery, body: Record<string, unknown>): Promise<string> {
  const res = await call("POST", "/gallery/artworks", { key: g.key, body });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A gallery with its publishable token. */
async function setting() {
  const g = await createGallery();
  const token = await mintKey(g.id, PUBLISHABLE_SCOPES, "publishable");
  return { g, token };
}

async function readRoom(token: string, slug: string): Promise<PublicRoomBody> {
  const res = await call("GET", `${PUBLIC}/${slug}`, { key: token, headers: { origin: ORIGIN } });
  expect(res.status, await res.clone().text()).toBe(200);
  return readJson(PublicViewingRoom, res);
}

async function listed(token: string): Promise<string[]> {
  return (await walkPages<SummaryBody>(token, PUBLIC, {})).flatMap((p) => p.data.map((r) => r.slug));
}

function corsHeaders(res: Response): Record<string, string> {
  return Object.fromEntries([...res.headers].filter(([h]) => h.startsWith("access-control-")));
}

/**
 * The edge cache's invalidation pass, as the cron Worker runs it after a change: public reads are served from
 * the edge until the change's event renews the gallery's generation.
 */
async function invalidated(): Promise<void> {
  await renewPublicGenerations(env);
}

const EXPOSED = "etag, request-id, idempotent-replayed, retry-after, allow, ratelimit, ratelimit-policy";

describe("which rooms a visitor sees", () => {
  it("public and open: listed and readable; unlisted: readable, never listed; private: never", async () => {
    const { g, token } = await setting();
    await createRoom(g, { title: "Public", visibility: "public" });
    await createRoom(g, { title: "Unlisted", visibility: "unlisted" });
    await createRoom(g, { title: "Private", visibility: "private" });
    expect(await listed(token)).toEqual(["public"]);
    expect((await readRoom(token, "public")).title).toBe("Public");
    expect((await readRoom(token, "unlisted")).title).toBe("Unlisted");
    const hidden = await expectProblem(
      await call("GET", `${PUBLIC}/private`, { key: token }),
      404,
      "not_found",
    );
    const unknown = await expectProblem(
      await call("GET", `${PUBLIC}/nothing-here`, { key: token }),
      404,
      "not_found",
    );
    // The same problem for a private and an unknown room, but for the slug.
    expect(hidden.detail.replace("private", "X")).toBe(unknown.detail.replace("nothing-here", "X"));
  });

  it("a room not yet open or already closed is neither listed nor readable; open bounds count", async () => {
    const { g, token } = await setting();
    await createRoom(g, { title: "Later", visibility: "public", opens_at: minutesFromNow(60) });
    await createRoom(g, {
      title: "Over",
      visibility: "public",
      opens_at: "2020-01-01T00:00Z",
      closes_at: "2021-01-01T00:00Z",
    });
    await createRoom(g, { title: "Unlisted over", visibility: "unlisted", closes_at: minutesFromNow(-1) });
    await createRoom(g, {
      title: "Now",
      visibility: "public",
      opens_at: minutesFromNow(-1),
      closes_at: minutesFromNow(60),
    });
    expect(await listed(token)).toEqual(["now"]);
    for (const slug of ["later", "over", "unlisted-over"]) {
      await expectProblem(await call("GET", `${PUBLIC}/${slug}`, { key: token }), 404, "not_found");
    }
    expect((await readRoom(token, "now")).title).toBe("Now");
  });

  it("follows changes once they reach the edge: a room made private or closed leaves", async () => {
    const { g, token } = await setting();
    const room = await createRoom(g, { title: "Moving", visibility: "public" });
    expect(await listed(token)).toEqual(["moving"]);
    expect((await readRoom(token, "moving")).title).toBe("Moving");
    await call("PATCH", `/gallery/viewing-rooms/${room.id}`, { key: g.key, body: { visibility: "private" } });
    await invalidated();
    expect(await listed(token)).toEqual([]);
    await expectProblem(await call("GET", `${PUBLIC}/moving`, { key: token }), 404, "not_found");
    await call("PATCH", `/gallery/viewing-rooms/${room.id}`, {
      key: g.key,
      body: { visibility: "public", closes_at: minutesFromNow(-1) },
    });
    await invalidated();
    expect(await listed(token)).toEqual([]);
    await expectProblem(await call("GET", `${PUBLIC}/moving`, { key: token }), 404, "not_found");
  });

  it("lists newest first in cursor pages, and only the token's gallery's rooms", async () => {
    const { g, token } = await setting();
    for (const title of ["One", "Two", "Three"]) await createRoom(g, { title, visibility: "public" });
    const other = await createGallery();
    await createRoom(other, { title: "Elsewhere", visibility: "public" });
    await createRoom(other, { title: "Three", visibility: "public" });
    const pages = await walkPages<SummaryBody>(token, PUBLIC, { limit: "2" });
    expect(pages.map((p) => p.data.map((r) => r.slug))).toEqual([["three", "two"], ["one"]]);
    expect((await getPage<SummaryBody>(token, PUBLIC, "dir=asc")).data.map((r) => r.slug)).toEqual([
      "one",
      "two",
      "three",
    ]);
    await expectProblem(await call("GET", `${PUBLIC}/elsewhere`, { key: token }), 404, "not_found");
    await expectProblem(
      await call("GET", `${PUBLIC}?cursor=garbage`, { key: token }),
      400,
      "invalid_request",
      { field: "cursor" },
    );
    await expectProblem(await call("GET", `${PUBLIC}?limit=101`, { key: token }), 400, "invalid_request", {
      field: "limit",
    });
    await expectProblem(
      await call("GET", `${PUBLIC}?visibility=private`, { key: token }),
      400,
      "invalid_request",
      {
        field: "visibility",
      },
    );
  });
});

describe("visitor-safe fields", () => {
  it("the room and each work carry exactly the visitor's fields, works in the room's order", async () => {
    const { g, token } = await setting();
    const artistRes = await call("POST", "/gallery/artists", { key: g.key, body: { name: "Agnes Martin" } });
    const artistId = ((await artistRes.json()) as { id: string }).id;
    const location = await call("POST", "/gallery/locations", { key: g.key, body: { name: "Back store" } });
    const locationId = ((await location.json()) as { id: string }).id;
    const shown = await artwork(g, {
      title: "Untitled #5",
      artists: [{ artist_id: artistId, role: "primary" }],
      year: 1977,
      date_display: "c. 1977",
      medium: "Acrylic and graphite on canvas",
      dimensions_text: "72 × 72 in",
      price_cents: 950_000_00,
      currency: "USD",
      show_price_publicly: true,
      inventory_number: "AM-0005",
      location_id: locationId,
      condition_notes: "Minor abrasion lower left.",
      provenance: "Private collection, Zurich.",
      availability_state: "on_hold",
    });
    const imageId = await attachImage(g, shown, { caption: "Installation view" });
    expect(imageId).toMatch(/^img_/);
    const plain = await artwork(g, { title: "Study", availability_state: "on_loan" });
    const room = await createRoom(g, {
      title: "Grids",
      description: "Paintings and drawings.",
      visibility: "public",
      opens_at: "2024-01-01T00:00Z",
      artworks: [{ artwork_id: plain }, { artwork_id: shown, show_price: true }],
    });
    const body = await readRoom(token, room.slug);
    expect(Object.keys(body)).toEqual(Object.keys(PublicViewingRoom.shape));
    const image = body.artworks[1]!.images[0]!;
    expect(body).toEqual({
      slug: "grids",
      title: "Grids",
      description: "Paintings and drawings.",
      opens_at: "2024-01-01T00:00:00.000Z",
      closes_at: null,
      artwork_count: 2,
      cover_image_url: image.url,
      artworks: [
        {
          id: plain,
          title: "Study",
          artists: [],
          year: null,
          date_display: null,
          medium: null,
          dimensions_text: null,
          image_url: null,
          images: [],
          availability: "not_for_sale",
          price: null,
          price_on_request: true,
        },
        {
          id: shown,
          title: "Untitled #5",
          artists: [{ name: "Agnes Martin", role: "primary" }],
          year: 1977,
          date_display: "c. 1977",
          medium: "Acrylic and graphite on canvas",
          dimensions_text: "72 × 72 in",
          image_url: image.url,
          images: [
            {
              url: expect.stringContaining("/v1/assets/"),
              caption: "Installation view",
              width: expect.any(Number),
              height: expect.any(Number),
            },
          ],
          availability: "reserved",
          price: { price_cents: 950_000_00, currency: "USD" },
          price_on_request: false,
        },
      ],
    });
    for (const work of body.artworks) expect(Object.keys(work)).toEqual(Object.keys(PublicArtwork.shape));
    const text = JSON.stringify(body);
    for (const secret of [room.id, locationId, artistId, "AM-0005", "abrasion", "Zurich", "Back store"]) {
      expect(text).not.toContain(secret);
    }
    const summary = (await getPage<SummaryBody>(token, PUBLIC)).data;
    expect(summary).toEqual([
      {
        slug: "grids",
        title: "Grids",
        description: "Paintings and drawings.",
        opens_at: "2024-01-01T00:00:00.000Z",
        closes_at: null,
        artwork_count: 2,
        cover_image_url: image.url,
      },
    ]);
    expect(Object.keys(summary[0]!)).toEqual(Object.keys(PublicViewingRoomSummary.shape));
  });

  it("a price only where the room shows it and the work is public-priced and priced", async () => {
    const { g, token } = await setting();
    const publicPriced = await artwork(g, {
      title: "A",
      price_cents: 1000,
      currency: "EUR",
      show_price_publicly: true,
    });
    const privatePriced = await artwork(g, {
      title: "B",
      price_cents: 2000,
      currency: "USD",
      show_price_publicly: false,
    });
    const unpriced = await artwork(g, { title: "C", show_price_publicly: true });
    const notShown = await artwork(g, {
      title: "D",
      price_cents: 4000,
      currency: "USD",
      show_price_publicly: true,
    });
    const sold = await artwork(g, { title: "E", availability_state: "sold" });
    await createRoom(g, {
      title: "Prices",
      visibility: "unlisted",
      artworks: [
        { artwork_id: publicPriced, show_price: true },
        { artwork_id: privatePriced, show_price: true },
        { artwork_id: unpriced, show_price: true },
        { artwork_id: notShown, show_price: false },
        { artwork_id: sold, show_price: true },
      ],
    });
    const works = (await readRoom(token, "prices")).artworks;
    expect(works.map((w) => [w.title, w.price, w.price_on_request, w.availability])).toEqual([
      ["A", { price_cents: 1000, currency: "EUR" }, false, "available"],
      ["B", null, true, "available"],
      ["C", null, true, "available"],
      ["D", null, true, "available"],
      ["E", null, true, "sold"],
    ]);
    // A work whose price becomes public shows it on the next read.
    await call("PATCH", `/gallery/artworks/${privatePriced}`, {
      key: g.key,
      body: { show_price_publicly: true },
    });
    await invalidated();
    expect((await readRoom(token, "prices")).artworks[1]!.price).toEqual({
      price_cents: 2000,
      currency: "USD",
    });
  });
});

describe("credentials", () => {
  it("a secret key and a member session are refused with 403 saying why; no token is 401", async () => {
    const { g } = await setting();
    await createRoom(g, { title: "Open", visibility: "public" });
    const editor = await memberSession(g, "editor");
    for (const path of [PUBLIC, `${PUBLIC}/open`]) {
      const secret = await expectProblem(await call("GET", path, { key: g.key }), 403, "forbidden");
      expect(secret.detail).toContain("publishable tokens (gpub_) only");
      expect(secret.details).toHaveProperty("credential", "secret");
      const session = await expectProblem(await call("GET", path, { key: editor.token }), 403, "forbidden");
      expect(session.details).toHaveProperty("credential", "session");
      await expectProblem(await call("GET", path), 401, "unauthenticated");
      await expectProblem(
        await call("GET", path, { key: "gpub_doesnotexistdoesnotexistdoesnotexist" }),
        401,
        "unauthenticated",
      );
    }
  });

  it("a revoked token is refused; x-api-key carries a token too", async () => {
    const { g, token } = await setting();
    await createRoom(g, { title: "Open", visibility: "public" });
    const viaHeader = await call("GET", PUBLIC, { headers: { "x-api-key": token } });
    expect(viaHeader.status).toBe(200);
    const keys = (await (await call("GET", "/gallery/api-keys", { key: g.key })).json()) as {
      data: { id: string; kind: string }[];
    };
    const publishable = keys.data.find((k) => k.kind === "publishable")!;
    expect((await call("DELETE", `/gallery/api-keys/${publishable.id}`, { key: g.key })).status).toBe(200);
    await expectProblem(await call("GET", PUBLIC, { key: token }), 401, "unauthenticated");
  });
});

describe("CORS", () => {
  it("answers a preflight on the public paths with 204 and the CORS headers, without credentials", async () => {
    const { g } = await setting();
    await createRoom(g, { title: "Open", visibility: "public" });
    for (const [path, methods] of [
      [PUBLIC, "GET, HEAD, OPTIONS"],
      [`${PUBLIC}/open`, "GET, HEAD, OPTIONS"],
      [`${PUBLIC}/open/engagements`, "POST, OPTIONS"],
    ] as const) {
      const res = await call("OPTIONS", path, {
        headers: {
          origin: ORIGIN,
          "access-control-request-method": methods.split(", ")[0]!,
          "access-control-request-headers": "authorization, content-type, idempotency-key",
        },
      });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe("");
      expect(corsHeaders(res)).toEqual({
        "access-control-allow-origin": "*",
        "access-control-allow-methods": methods,
        "access-control-allow-headers":
          "authorization, content-type, idempotency-key, if-none-match, x-api-key",
        "access-control-max-age": "7200",
        "access-control-expose-headers": EXPOSED,
      });
      expect(res.headers.get("allow")).toBe(methods);
    }
  });

  it("every answer on the public surface carries Access-Control-Allow-Origin: *, problems included", async () => {
    const { g, token } = await setting();
    await createRoom(g, { title: "Open", visibility: "public" });
    const answers = [
      await call("GET", PUBLIC, { key: token, headers: { origin: ORIGIN } }),
      await call("GET", `${PUBLIC}/open`, { key: token, headers: { origin: ORIGIN } }),
      await call("GET", `${PUBLIC}/missing`, { key: token, headers: { origin: ORIGIN } }),
      await call("GET", PUBLIC, { headers: { origin: ORIGIN } }),
      await call("GET", PUBLIC, { key: g.key, headers: { origin: ORIGIN } }),
      await call("GET", `${PUBLIC}?limit=0`, { key: token, headers: { origin: ORIGIN } }),
      await call("DELETE", PUBLIC, { key: token, headers: { origin: ORIGIN } }),
      await call("GET", "/public/no-such-thing", { key: token, headers: { origin: ORIGIN } }),
      await call("POST", `${PUBLIC}/open/engagements`, { key: token, body: { kind: "nope" } }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 404, 401, 403, 400, 405, 404, 400]);
    for (const res of answers) {
      expect(corsHeaders(res)).toEqual({
        "access-control-allow-origin": "*",
        "access-control-expose-headers": EXPOSED,
      });
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("the gallery's routes send no CORS header, to a browser's preflight or its request", async () => {
    const { g } = await setting();
    for (const path of [
      "/gallery/viewing-rooms",
      "/gallery/artworks",
      `/gallery/viewing-rooms/${newId("room")}`,
    ]) {
      const preflight = await call("OPTIONS", path, {
        headers: { origin: ORIGIN, "access-control-request-method": "GET" },
      });
      expect(preflight.status).toBe(204);
      expect(corsHeaders(preflight)).toEqual({});
      const res = await call("GET", path, { key: g.key, headers: { origin: ORIGIN } });
      expect(corsHeaders(res)).toEqual({});
    }
  });
});

describe("data isolation", () => {
  it("a room's works are joined in its own gallery only", async () => {
    const { g, token } = await setting();
    const a = await newArtwork(g, "Mine");
    const room = await createRoom(g, { title: "Iso", visibility: "public", artworks: [{ artwork_id: a }] });
    // A row pointing at another gallery's work (which no API write allows) shows nothing of it.
    const other = await createGallery();
    const theirs = await newArtwork(other, "Theirs");
    await db().execute(sql`insert into viewing_room_artworks (gallery_id, viewing_room_id, artwork_id, position)
      values (${g.id}, ${room.id}, ${theirs}, 5)`);
    const body = await readRoom(token, "iso");
    expect(body.artworks.map((w) => w.title)).toEqual(["Mine"]);
    expect(body.artwork_count).toBe(1);
  });
});
