import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

/**
 * Debian's Chromium for the describe block that calls this: launched before its tests, closed after them. Returns
 * the running browser. No sandbox: CI runs as root, where Chromium's sandbox cannot start.
 */
export function launchChromium(executablePath: () => string): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: executablePath(), args: ["--no-sandbox"] });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("Chromium is not running");
    return browser;
  };
}
