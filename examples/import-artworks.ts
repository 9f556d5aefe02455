/**
 * Imports artworks from a CSV (a spreadsheet export), one work per row, and can be run again: each row carries the
 * work's id in the spreadsheet (`external_id`), sent as `source_external_id` with `source_system`. The API keeps
 * that pair unique within the gallery, so creating a work whose pair exists answers 409 `conflict` with
 * `details.existing_id`, the work that has it; the import then updates that work. A second run updates every
 * work rather than adding them twice.
 *
 *   GALLERY_API_URL=http://127.0.0.1:8787/v1 GALLERY_API_KEY=gpk_… npx tsx examples/import-artworks.ts [file.csv]
 *
 * Columns (a header row, then one row per work; quoted fields as spreadsheets write them):
 *   external_id, title, artist, year, medium, height_cm, width_cm, depth_cm, price, currency, availability
 * `artist` is matched by name to the gallery's artists, and created when there is none; `price` is in units of
 * `currency` (12500.00), empty for a work without a price.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { type components, GalleryApiError, type GalleryClient } from "../clients/typescript/src/index";
import { clientFromEnv, isMain, run } from "./config";

type ArtworkCreate = components["schemas"]["ArtworkCreate"];
type Availability = NonNullable<ArtworkCreate["availability_state"]>;

export const SAMPLE_CSV = fileURLToPath(new URL("./artworks.csv", import.meta.url));

/** The name the import gives its source: works it made carry `source_system: "spreadsheet"`. */
export const SOURCE_SYSTEM = "spreadsheet";

export interface ImportResult {
  created: number;
  updated: number;
  /** The work of each row, by the row's external_id. */
  ids: Map<string, string>;
}

/** Parses CSV text (RFC 4180: quoted fields may hold commas, line breaks and doubled quotes) into records. */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  const [header, ...records] = rows.filter((r) => r.some((cell) => cell.trim() !== ""));
  if (!header) return [];
  const names = header.map((name) => name.trim());
  return records.map((cells) => Object.fromEntries(names.map((name, i) => [name, (cells[i] ?? "").trim()])));
}

function numberOrNull(value: string | undefined, column: string, line: number): number | null {
  if (!value) return null;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`row ${line}: ${column} "${value}" is not a number`);
  return n;
}

/** The work a row describes, as the API's fields (the artist credited separately, by id). */
function artworkFields(record: Record<string, string>, line: number): Omit<ArtworkCreate, "artists"> {
  const title = record.title;
  if (!title) throw new Error(`row ${line}: title is empty`);
  const price = numberOrNull(record.price, "price", line);
  return {
    title,
    year: numberOrNull(record.year, "year", line),
    medium: record.medium || null,
    height_cm: numberOrNull(record.height_cm, "height_cm", line),
    width_cm: numberOrNull(record.width_cm, "width_cm", line),
    depth_cm: numberOrNull(record.depth_cm, "depth_cm", line),
    price_cents: price === null ? null : Math.round(price * 100),
    currency: record.currency || "USD",
    ...(record.availability ? { availability_state: record.availability as Availability } : {}),
  };
}

/** The gallery's artist of this name (ignoring case), created when there is none; one look-up per name. */
async function artistId(client: GalleryClient, name: string, known: Map<string, string>): Promise<string> {
  const key = name.toLowerCase();
  const cached = known.get(key);
  if (cached) return cached;
  let id: string | undefined;
  for await (const artist of client.paginate("/gallery/artists", {
    params: { query: { q: name, limit: 100 } },
  })) {
    if (artist.name.toLowerCase() === key) {
      id = artist.id;
      break;
    }
  }
  if (!id) id = (await client.POST("/gallery/artists", { body: { name } })).data.id;
  known.set(key, id);
  return id;
}

/**
 * Creates or updates one work per CSV record, keyed by (`source_system`, `external_id`): create first, and on
 * the 409 that names the work already holding the pair, PATCH that work with the row's fields.
 */
export async function importArtworks(
  client: GalleryClient,
  csv: string,
  options: { sourceSystem?: string; log?: (line: string) => void } = {},
): Promise<ImportResult> {
  const sourceSystem = options.sourceSystem ?? SOURCE_SYSTEM;
  const log = options.log ?? (() => {});
  const result: ImportResult = { created: 0, updated: 0, ids: new Map() };
  const artists = new Map<string, string>();
  const records = parseCsv(csv);
  for (const [index, record] of records.entries()) {
    const line = index + 2; // the header is line 1
    const externalId = record.external_id;
    if (!externalId) throw new Error(`row ${line}: external_id is empty`);
    const fields = artworkFields(record, line);
    const credits = record.artist
      ? [{ artist_id: await artistId(client, record.artist, artists), role: "primary" as const }]
      : [];
    const body = { ...fields, artists: credits };
    try {
      const { data } = await client.POST("/gallery/artworks", {
        body: { ...body, source_system: sourceSystem, source_external_id: externalId },
      });
      result.created++;
      result.ids.set(externalId, data.id);
      log(`created ${data.id}  ${externalId}  ${data.title}`);
    } catch (error) {
      const existing = existingId(error);
      if (!existing) throw error;
      const { data } = await client.PATCH("/gallery/artworks/{id}", {
        params: { path: { id: existing } },
        body,
      });
      result.updated++;
      result.ids.set(externalId, data.id);
      log(`updated ${data.id}  ${externalId}  ${data.title}`);
    }
  }
  return result;
}

/** The work named by a 409 for a taken (source_system, source_external_id) pair; null for any other error. */
function existingId(error: unknown): string | null {
  if (!(error instanceof GalleryApiError) || error.code !== "conflict") return null;
  const details = error.details as { constraint?: string; existing_id?: string | null } | null;
  if (details?.constraint !== "artworks_gallery_source_key" || !details.existing_id) return null;
  return details.existing_id;
}

export async function main(
  client: GalleryClient = clientFromEnv(),
  file: string = process.argv[2] ?? SAMPLE_CSV,
  log: (line: string) => void = console.log,
): Promise<ImportResult> {
  const result = await importArtworks(client, readFileSync(file, "utf8"), { log });
  log(`${result.created} created, ${result.updated} updated (${relative(process.cwd(), file)})`);
  return result;
}

if (isMain(import.meta.url)) run(() => main());
