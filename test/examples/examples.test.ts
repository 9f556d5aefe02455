import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createGalleryClient } from "../../clients/typescript/src/index";
import { main as importArtworks, parseCsv, SAMPLE_CSV, SOURCE_SYSTEM } from "../../examples/import-artworks";
import { main as walkRoster } from "../../examples/walk-roster";
import { startReceiver, subscribe } from "../../examples/webhook-receiver";
import { webhookHeaders } from "../../lib/webhook-signing";

/**
 * The integrator scripts of examples/, each run through its exported main against the API Worker under
 * `wrangler dev` (the live stack of test/browser/global-setup.ts), in a gallery of the suite's own that starts
 * empty. Each test asserts the script's effect as the API reports it.
 */

const { api, secretKey } = inject("examples");
const client = createGalleryClient({ apiKey: secretKey, baseUrl: api });
const lines: string[] = [];
const log = (line: string) => lines.push(line);

async function allArtworks() {
  const works = [];
  for await (const work of client.paginate("/gallery/artworks", { params: { query: { limit: 100 } } })) {
    works.push(work);
  }
  return works;
}

describe("examples/import-artworks.ts", () => {
  const dir = mkdtempSync(join(tmpdir(), "gallery-import-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("creates a work per row, then on a second run updates those works instead of adding them again", async () => {
    const rows = parseCsv(readFileSync(SAMPLE_CSV, "utf8"));
    expect(rows).toHaveLength(10);

    const first = await importArtworks(client, SAMPLE_CSV, log);
    expect(first).toMatchObject({ created: 10, updated: 0 });
    expect(lines.at(-1)).toContain("10 created, 0 updated");
    const afterFirst = await allArtworks();
    expect(afterFirst).toHaveLength(10);
    const study = afterFirst.find((w) => w.source_external_id === "INV-2024-003");
    expect(study).toMatchObject({
      title: 'Study for "The Orchard", No. 3',
      source_system: SOURCE_SYSTEM,
      medium: "Charcoal on paper",
      year: 2021,
      price_cents: 240_000,
      currency: "USD",
      artist_name: "Tomás Ferreira",
    });
    expect(afterFirst.find((w) => w.source_external_id === "INV-2024-006")).toMatchObject({
      medium: "Ink, gesso and graphite on panel",
      price_cents: null,
      availability_state: "not_for_sale",
    });

    // The spreadsheet changes a price and a title, and the import runs again.
    const edited = readFileSync(SAMPLE_CSV, "utf8")
      .replace("INV-2024-001,Harbour at Dusk,", "INV-2024-001,Harbour at Dusk (II),")
      .replace("Glazed stoneware,42,28,28,6200.00", "Glazed stoneware,42,28,28,6800.00");
    const file = join(dir, "artworks.csv");
    writeFileSync(file, edited);
    const second = await importArtworks(client, file, log);
    expect(second).toMatchObject({ created: 0, updated: 10 });
    expect([...second.ids.entries()]).toEqual([...first.ids.entries()]);

    const afterSecond = await allArtworks();
    expect(afterSecond).toHaveLength(10);
    expect(afterSecond.map((w) => w.id).sort()).toEqual(afterFirst.map((w) => w.id).sort());
    const byExternal = new Map(afterSecond.map((w) => [w.source_external_id, w]));
    expect(byExternal.get("INV-2024-001")?.title).toBe("Harbour at Dusk (II)");
    expect(byExternal.get("INV-2024-007")?.price_cents).toBe(680_000);
    expect(byExternal.get("INV-2024-008")?.price_cents).toBe(620_000);

    // Artists were matched by name on the second run, not made again.
    const artists = [];
    for await (const artist of client.paginate("/gallery/artists", { params: { query: { limit: 100 } } })) {
      artists.push(artist.name);
    }
    expect(artists.sort()).toEqual([
      "Aiko Mori",
      "Ingrid Halvorsen",
      "Kwame Asante",
      "Marta Lindqvist",
      "Tomás Ferreira",
    ]);
  });
});

describe("examples/walk-roster.ts", () => {
  it("walks every contact over several pages and counts what the API holds", async () => {
    const made: { name: string; contact_type: "collector" | "institution" | "advisor" }[] = [
      { name: "Clara Oyelaran", contact_type: "collector" },
      { name: "Henrik Dahl", contact_type: "collector" },
      { name: "Sofia Brandt", contact_type: "collector" },
      { name: "Musée de la Côte", contact_type: "institution" },
      { name: "Kunsthalle Nord", contact_type: "institution" },
      { name: "Ravi Menon", contact_type: "advisor" },
      { name: "Yuki Tanabe", contact_type: "collector" },
    ];
    const ids: string[] = [];
    for (const contact of made) ids.push((await client.POST("/gallery/contacts", { body: contact })).data.id);
    const archived = (await client.POST("/gallery/contacts", { body: { name: "Archived Person" } })).data.id;
    await client.POST("/gallery/contacts/{id}/archive", { params: { path: { id: archived } } });

    const summary = await walkRoster(client, log, 3);
    expect(summary.count).toBe(7);
    expect([...summary.ids].sort()).toEqual([...ids].sort());
    expect(summary.byType).toEqual({ collector: 4, institution: 2, advisor: 1 });
    expect(lines.some((l) => l.startsWith("7 contacts (3 pages of 3,"))).toBe(true);

    // The API's own count: the whole roster in one page.
    const { data: page } = await client.GET("/gallery/contacts", { params: { query: { limit: 100 } } });
    expect(page.next_cursor).toBeNull();
    expect(page.data).toHaveLength(summary.count);
  });
});

describe("examples/webhook-receiver.ts", () => {
  it("subscribes itself, verifies a signed delivery, handles it once and refuses a forged one", async () => {
    let secret = "";
    const handled: string[] = [];
    const receiver = await startReceiver({
      get secret() {
        return secret;
      },
      log,
      onEvent: (event) => {
        handled.push(event.id);
      },
    });
    try {
      const endpoint = await subscribe(client, receiver.url);
      secret = endpoint.secret;
      const { data: stored } = await client.GET("/gallery/webhook-endpoints/{id}", {
        params: { path: { id: endpoint.id } },
      });
      expect(stored.url).toBe(receiver.url);

      // A real event about the endpoint, signed with its secret as the cron Worker signs a delivery.
      const { data: test } = await client.POST("/gallery/webhook-endpoints/{id}/test", {
        params: { path: { id: endpoint.id } },
        body: {},
      });
      const { data: event } = await client.GET("/gallery/events/{id}", {
        params: { path: { id: test.event_id } },
      });
      const body = JSON.stringify(event);
      const headers = await webhookHeaders({
        id: event.id,
        timestamp: Math.floor(Date.now() / 1000),
        body,
        secrets: [secret],
      });
      const deliver = (payload: string, h: Record<string, string> = headers) =>
        fetch(receiver.url, {
          method: "POST",
          headers: { ...h, "content-type": "application/json" },
          body: payload,
        });

      expect((await deliver(body)).status).toBe(204);
      expect((await deliver(body)).status).toBe(200); // the same delivery again: acknowledged, not handled
      expect((await deliver(body.replace(endpoint.id, "we_forged"))).status).toBe(400);
      expect(receiver.outcomes).toEqual(["handled", "duplicate", "refused"]);
      expect(handled).toEqual([event.id]);
      expect(lines.some((l) => l.startsWith("webhook_endpoint.test") && l.includes(event.id))).toBe(true);
      expect(lines).toContain(`duplicate ${event.id} (already handled)`);
    } finally {
      await receiver.close();
    }
  });
});
