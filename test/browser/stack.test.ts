import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { unstable_getVarsForDev } from "wrangler";
import { writeEnvFile } from "../../scripts/wrangler";

/**
 * The live stack's Workers (test/browser/global-setup.ts, started by scripts/wrangler.ts as `npm start` starts
 * them) receive their settings through an env file only the user can read, never on a command line, which any
 * user of the machine sees in `ps`.
 */

const secrets = inject("stackSecrets");

/** The command line of every process this user can read, as its arguments. */
function commandLines(): { pid: string; args: string[] }[] {
  const lines: { pid: string; args: string[] }[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      if (args.length > 0) lines.push({ pid, args });
    } catch {
      // Gone since the listing, or not ours to read.
    }
  }
  return lines;
}

describe.skipIf(!existsSync("/proc/self/cmdline"))("the live stack's settings", () => {
  it("appear in no process's command line; wrangler reads them from a file mode 0600", () => {
    const processes = commandLines();
    for (const [name, value] of Object.entries(secrets)) {
      const showing = processes.filter(({ args }) => args.join(" ").includes(value));
      expect(
        showing.map(({ pid, args }) => `${pid}: ${args[0]}`),
        name,
      ).toEqual([]);
    }
    // The stack's wrangler processes (the API and cron Workers) name their env files, which only the user reads.
    const envFiles = processes.flatMap(({ args }) =>
      args.flatMap((arg, i) => (arg === "--env-file" ? args.slice(i + 1, i + 2) : [])),
    );
    const names = envFiles.map((file) => basename(file));
    expect(names).toContain("gallery-platform-api.env");
    expect(names).toContain("gallery-platform-cron.env");
    for (const file of envFiles.filter((f) => existsSync(f))) {
      expect((statSync(file).mode & 0o777).toString(8), file).toBe("600");
    }
  });

  it("are read by wrangler as they were written, whatever their characters", () => {
    const dir = mkdtempSync(join(tmpdir(), "gallery-env-file-"));
    try {
      const vars = {
        DATABASE_URL: "postgres://user:p%40ss$HOME@127.0.0.1:5432/db?sslmode=disable#x",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the characters wrangler would expand.
        SIGNING_SECRET: "a-_$PATH ${HOME} \\$b trailing\\",
        WEBHOOK_SECRET_KEY: "dGVzdC13ZWJob29rLWtleS0zMi1ieXRlcy1leGFjdCE=",
        QUOTED: `it's "quoted" # not a comment`,
        PADDED: "  padded  ",
        EMPTY: "",
        ENVIRONMENT: "local",
      };
      const file = join(dir, "worker.env");
      writeEnvFile(file, vars);
      expect((statSync(file).mode & 0o777).toString(8)).toBe("600");
      // What `wrangler dev --env-file` does with it: the file's values over the config's [vars].
      const bindings = unstable_getVarsForDev(
        resolve("wrangler.cron.toml"),
        [file],
        { ENVIRONMENT: "production" },
        undefined,
        true,
      );
      const read = Object.fromEntries(Object.keys(vars).map((key) => [key, bindings[key]?.value]));
      expect(read).toEqual(vars);
      expect(() => writeEnvFile(file, { SPLIT: "one\ntwo" })).toThrow(/SPLIT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
