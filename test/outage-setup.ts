import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "../scripts/migrate";
import { type ShutdownMode, startEmbeddedDatabase } from "../scripts/postgres";
import setupStack from "./global-setup";

declare module "vitest" {
  export interface ProvidedContext {
    /** The `outage` project's database: an embedded server of its own, which its suites stop and start. */
    outageDatabaseUrl: string;
    /** Where those suites ask for it to be stopped and started (see below). */
    outageControlUrl: string;
  }
}

/**
 * The `outage` project (vitest.config.ts): suites of what happens when PostgreSQL really goes away, mid-request.
 * They need a server they may stop, and no other suite may be using it, so the project has an embedded PostgreSQL
 * of its own (the shared stack's serves the other files, untouched), and one file at a time holds it: a file
 * leases it before its tests and releases it after (test/helpers/outage.ts `useOutageDatabase`), so the project's
 * files run beside the other projects' without stopping the server under each other. The suites run in workerd
 * and cannot signal a process, so this setup answers them over HTTP:
 * - `POST /lease?holder=…`: answered once no other file holds the server (first come, first served);
 *   `POST /release?holder=…` lets the next one have it.
 * - `POST /shutdown?mode=immediate|fast`: the postmaster gets SIGQUIT (as a crash: every session cut, no
 *   checkpoint) or SIGINT (fast shutdown); answered once it has exited.
 * - `POST /restart`: started again on the same port and data; answered once it accepts connections (after crash
 *   recovery, for an immediate shutdown).
 * Each answers `{ "pid": … }`, the postmaster's pid after the change (null while down).
 */
export default async function setup(project: TestProject) {
  const teardownStack = await setupStack(project);
  const dataDir = mkdtempSync(join(tmpdir(), "gallery-outage-pg-"));
  const database = await startEmbeddedDatabase({ dataDir, database: "gallery_outage" });
  await migrateDatabase(database.url);

  // One change at a time, in the order asked.
  let queue: Promise<unknown> = Promise.resolve();
  // The file holding the server, and the files waiting for it.
  let holder: string | null = null;
  const waiting: { holder: string; grant: () => void }[] = [];
  const control: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://control");
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    let change: (() => Promise<void>) | undefined;
    const who = url.searchParams.get("holder") ?? "";
    if (req.method === "POST" && url.pathname === "/lease") {
      if (holder === null) {
        holder = who;
        return answer(200, { holder });
      }
      waiting.push({ holder: who, grant: () => answer(200, { holder: who }) });
      return;
    }
    if (req.method === "POST" && url.pathname === "/release") {
      if (holder !== who) return answer(409, { error: `held by ${holder ?? "no one"}, not ${who}` });
      const next = waiting.shift();
      holder = next?.holder ?? null;
      next?.grant();
      return answer(200, { holder });
    }
    if (req.method === "POST" && url.pathname === "/shutdown") {
      const mode = (url.searchParams.get("mode") ?? "immediate") as ShutdownMode;
      if (mode !== "immediate" && mode !== "fast") return answer(400, { error: "mode is immediate or fast" });
      change = () => database.shutdown(mode);
    } else if (req.method === "POST" && url.pathname === "/restart") {
      change = async () => {
        if (database.pid() === null) await database.restart();
      };
    } else if (req.method === "GET" && url.pathname === "/") {
      return answer(200, { pid: database.pid() });
    } else {
      return answer(404, {
        error: "POST /lease, POST /release, POST /shutdown?mode=immediate|fast, POST /restart, GET /",
      });
    }
    const run = queue.then(change);
    queue = run.catch(() => undefined);
    run.then(
      () => answer(200, { pid: database.pid() }),
      (err: Error) => answer(500, { error: err.message }),
    );
  });
  await new Promise<void>((listening) => control.listen(0, "127.0.0.1", listening));
  const address = control.address();
  if (address === null || typeof address === "string")
    throw new Error("outage control: not listening on TCP");
  project.provide("outageDatabaseUrl", database.url);
  project.provide("outageControlUrl", `http://127.0.0.1:${address.port}`);

  return async () => {
    await new Promise<void>((closed) => control.close(() => closed()));
    await queue;
    if (database.pid() !== null) await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await teardownStack();
  };
}
