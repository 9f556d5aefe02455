import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The example page a gallery hosts on its own site (examples/viewing-room/). */
export const EXAMPLE_DIR = fileURLToPath(new URL("../examples/viewing-room/", import.meta.url));

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
};

export interface ExampleServer {
  /** The page's origin, e.g. http://127.0.0.1:5173 (another origin than the API's). */
  origin: string;
  close(): Promise<void>;
}

/**
 * A static server for the example page, on its own port: `npm start` and the browser suite serve it from
 * another origin than the API, as a gallery's website would, so the browser applies CORS to the page's calls.
 */
export async function serveExample(port = 0): Promise<ExampleServer> {
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const relative = normalize(decodeURIComponent(path === "/" ? "/index.html" : path)).replace(
      /^[/\\]+/,
      "",
    );
    const file = join(EXAMPLE_DIR, relative);
    const type = TYPES[extname(file)];
    if (!file.startsWith(EXAMPLE_DIR) || relative.split(sep).includes("..") || !type) {
      response.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { "content-type": type, "cache-control": "no-cache" }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${bound}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The page's address for one room: the API base (with /v1), a publishable token and the room's slug. */
export function exampleUrl(origin: string, api: string, token: string, room: string): string {
  const query = new URLSearchParams({ api, token, room });
  return `${origin}/?${query}`;
}
