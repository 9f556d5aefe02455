import { describe, expect, inject, it } from "vitest";
import { launchChromium } from "./chromium";

/**
 * The API reference page (/v1/docs) in a real headless Chromium against the API Worker under `wrangler dev`
 * (test/browser/global-setup.ts): its same-origin bundle renders the document's operations with their examples,
 * every request stays on the API's origin, and nothing breaks its Content-Security-Policy.
 */

const fixture = inject("browser");

describe.skipIf(fixture === "")("the API reference page in headless Chromium", () => {
  const f = fixture === "" ? (undefined as never) : fixture;
  const browser = launchChromium(() => f.chromium);

  it("renders the operations and an example, loading everything from the API's origin", async () => {
    const page = await browser().newPage({ viewport: { width: 1400, height: 1000 } });
    const origins = new Set<string>();
    const refused: string[] = [];
    page.on("request", (request) => origins.add(new URL(request.url()).origin));
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
    });
    const document = page.waitForResponse((r) => r.url().endsWith("/v1/openapi.json"));
    await page.goto(`${f.api}/docs`);
    expect((await document).status()).toBe(200);
    // The sidebar lists the document's tags; opening one shows its operations.
    await page.getByText("Artworks", { exact: true }).first().click();
    await page.getByText("Create an artwork", { exact: true }).first().click();
    // The request example generated from the schema, in the page's code sample.
    await page.getByText('"title": "Untitled (Blue)"').first().waitFor();
    expect(await page.getByText("List artworks", { exact: true }).count()).toBeGreaterThan(0);
    expect([...origins]).toEqual([new URL(f.api).origin]);
    expect(refused).toEqual([]);
  });
});
