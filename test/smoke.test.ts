import { describe, expect, it } from "vitest";
import { call, createGallery, json } from "./helpers/gallery";

describe("smoke", () => {
  it("creates and lists an artwork", async () => {
    const g = await createGallery();
    const created = await call("POST", "/gallery/artworks", {
      key: g.key,
      body: { title: "First", price_cents: 1000 },
    });
    const body = await json(created);
    expect(created.status, JSON.stringify(body)).toBe(201);
    const list = await call("GET", "/gallery/artworks", { key: g.key });
    const page = await json<{ data: { id: string }[]; next_cursor: string | null }>(list);
    expect(list.status, JSON.stringify(page)).toBe(200);
    expect(page.data.map((a) => a.id)).toEqual([body.id]);
  });
});
