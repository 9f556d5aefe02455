import { type SQL, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { claimTicketStatement, claimTickets, claimTicketsStatement } from "../../db/queries/webhook-drain";
import { createGallery, db, type TestGallery } from "../helpers/gallery";
import { endpoint } from "./delivery-helpers";

/**
 * The drain's and a ticket's statements with 20,000 pending deliveries over 200 endpoints: each endpoint probed
 * down webhook_deliveries_endpoint_due_idx (its oldest due delivery only), a ticket's claim reading its endpoint's
 * first rows of that index — never a sequential scan of webhook_deliveries.
 */

const ENDPOINTS = 200;
const EVENTS = 100;
let g: TestGallery;

beforeAll(async () => {
  g = await createGallery();
  for (let i = 0; i < ENDPOINTS; i++) await endpoint(g, ["artwork.updated"]);
  await db().execute(sql`insert into domain_events (id, gallery_id, type, livemode, resource_type, resource_id, data)
    select new_id('evt'), ${g.id}, 'artwork.updated', false, 'artwork', 'art_plan' || i, '{"object": {}}'::jsonb
    from generate_series(1, ${EVENTS}) i`);
  // And the outbox holds far more events than one ticket's (another gallery's, without endpoints).
  const other = await createGallery();
  await db().execute(sql`insert into domain_events (id, gallery_id, type, livemode, resource_type, resource_id, data)
    select new_id('evt'), ${other.id}, 'artwork.updated', false, 'artwork', 'art_other' || i, '{"object": {}}'::jsonb
    from generate_series(1, 20000) i`);
  // Most deliveries of a platform are settled: the due index holds only the pending ones.
  await db().execute(sql`update webhook_deliveries set status = 'succeeded', next_attempt_at = null
    where gallery_id = ${g.id} and event_id in (
      select id from domain_events where gallery_id = ${g.id} order by id limit ${EVENTS / 2})`);
  await db().execute(sql`analyze webhook_deliveries`);
  await db().execute(sql`analyze webhook_endpoints`);
  await db().execute(sql`analyze domain_events`);
}, 120_000);

async function explain(statement: SQL): Promise<string> {
  const result = await db().execute<{ "QUERY PLAN": string }>(sql`explain (analyze, buffers) ${statement}`);
  return result.rows.map((r) => r["QUERY PLAN"]).join("\n");
}

describe("webhook dispatch at 20,000 pending deliveries over 200 endpoints", () => {
  it("the drain probes each endpoint's oldest due delivery by index, one entry an endpoint", async () => {
    const text = await explain(claimTicketsStatement({ limit: 10, leaseMs: 60_000, galleryIds: [g.id] }));
    expect(text, text).toContain("webhook_deliveries_endpoint_due_idx");
    expect(text, text).not.toMatch(/Seq Scan on webhook_deliveries/);
    const rows =
      /Index Scan using webhook_deliveries_endpoint_due_idx[^\n]*actual[^\n]*rows=(\d+)[^\n]*loops=(\d+)/.exec(
        text,
      );
    expect(rows, text).not.toBeNull();
    expect(Number(rows![1])).toBe(1);
    expect(Number(rows![2])).toBe(ENDPOINTS);
  });

  it("a ticket reads only its endpoint's due rows, by index, and its events by key", async () => {
    const issued = await claimTickets(db(), { limit: 1, leaseMs: 60_000, galleryIds: [g.id] });
    const [ticket] = issued;
    expect(ticket).toBeDefined();
    const text = await explain(
      claimTicketStatement({
        galleryId: g.id,
        endpointId: ticket!.endpointId,
        token: ticket!.token,
        limit: 40,
        leaseMs: 60_000,
      }),
    );
    expect(text, text).toContain("webhook_deliveries_endpoint_due_idx");
    expect(text, text).not.toMatch(/Seq Scan on webhook_deliveries/);
    expect(text, text).not.toMatch(/Seq Scan on domain_events/);
    // Only its own endpoint's pending entries (50 here), none of the other 199 endpoints'.
    const read =
      /(?:Bitmap Index Scan on|Index Scan using) webhook_deliveries_endpoint_due_idx[^\n]*actual[^\n]*rows=(\d+)/.exec(
        text,
      );
    expect(read, text).not.toBeNull();
    expect(Number(read![1])).toBeLessThanOrEqual(EVENTS / 2);
  });
});
