import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { launchChromium } from "./chromium";

/**
 * The example page (examples/viewing-room/) in a real headless Chromium, served from another origin than the
 * API (test/browser/global-setup.ts): it renders the public room's works, never a private room's, and the
 * browser's own CORS enforcement lets the page read the publishable surface and stops it reading a secret-key
 * route, and every work's picture, uploaded through the signed-upload flow, loads from the asset route.
 */

const fixture = inject("browser");

describe.skipIf(fixture === "")("the example viewing-room page in headless Chromium", () => {
  const f = fixture === "" ? (undefined as never) : fixture;
  const browser = launchChromium(() => f.chromium);

  /** A new tab on `url`, once the page has left its loading state. */
  async function open(url: string): Promise<Page> {
    const page = await browser().newPage();
    await page.goto(url);
    await page.waitForSelector('#room:not([data-state="loading"])');
    return page;
  }

  it("renders the public room's works: titles, prices or price on request, availability", async () => {
    const p = await browser().newPage();
    const posted = p.waitForResponse(
      (r) => r.url().endsWith("/engagements") && r.request().method() === "POST",
    );
    await p.goto(f.publicPage);
    const response = await posted;
    await p.waitForSelector('#room[data-state="ready"]');
    expect(await p.textContent("#room-title")).toBe("Winter Viewing Room");
    const works = await p.$$eval(".work", (items) =>
      items.map((item) => ({
        title: item.querySelector(".work-title")?.textContent,
        price: item.querySelector(".work-price")?.textContent,
        availability: item.querySelector(".work-availability")?.textContent,
      })),
    );
    expect(works).toEqual([
      { title: "Harbour at Dusk", price: "$12,500.00", availability: "Available" },
      { title: "Quiet Field", price: "Price on request", availability: "Available" },
    ]);
    // Every work's picture loaded from the API's asset route (a failed one is left without a src, at width 0).
    await p.waitForFunction("[...document.querySelectorAll('.work-image')].every((image) => image.complete)");
    const images = (await p.evaluate(
      "[...document.querySelectorAll('.work-image')].map((image) => ({ src: image.src, width: image.naturalWidth }))",
    )) as { src: string; width: number }[];
    expect(images).toHaveLength(2);
    for (const image of images) {
      expect(image.src.startsWith(`${f.api}/assets/galleries/`), `src "${image.src}"`).toBe(true);
      expect(image.width, image.src).toBeGreaterThan(0);
    }
    // The page's best-effort engagement (room_opened) crossed origins and was accepted.
    expect(response.status()).toBe(202);
    await p.close();
  });

  it("shows the not-found state for a private room, and none of its works", async () => {
    const p = await open(f.privatePage);
    expect(await p.getAttribute("#room", "data-state")).toBe("not-found");
    expect(await p.textContent("#room-message")).toBe("This viewing room is not open.");
    expect(await p.$$(".work")).toHaveLength(0);
    const text = (await p.textContent("body")) ?? "";
    for (const title of f.privateRoom.titles) expect(text).not.toContain(title);
    await p.close();
  });

  it("lets the page read the publishable surface across origins, and blocks a secret-key route", async () => {
    const p = await open(f.publicPage);
    expect(new URL(p.url()).origin).not.toBe(new URL(f.api).origin);
    const result = await p.evaluate(
      async ({ api, token, secretKey, slug }) => {
        const attempt = async (url: string, credential: string) => {
          try {
            const response = await fetch(url, { headers: { Authorization: `Bearer ${credential}` } });
            return { status: response.status, error: null as string | null };
          } catch (error) {
            return { status: null, error: `${(error as Error).name}: ${(error as Error).message}` };
          }
        };
        return {
          publicRoom: await attempt(`${api}/public/viewing-rooms/${slug}`, token),
          publicList: await attempt(`${api}/public/viewing-rooms`, token),
          secretRoute: await attempt(`${api}/gallery/artworks`, secretKey),
        };
      },
      { api: f.api, token: f.publishableToken, secretKey: f.secretKey, slug: f.publicRoom.slug },
    );
    expect(result.publicRoom).toEqual({ status: 200, error: null });
    expect(result.publicList).toEqual({ status: 200, error: null });
    expect(result.secretRoute).toEqual({ status: null, error: "TypeError: Failed to fetch" });
    await p.close();
  });

  it("shows an error state when the page is not configured", async () => {
    const p = await open(`${f.pageOrigin}/`);
    expect(await p.getAttribute("#room", "data-state")).toBe("error");
    expect(await p.textContent("#room-message")).toContain("publishable token");
    await p.close();
  });
});
