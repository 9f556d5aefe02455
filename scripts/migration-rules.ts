/**
 * Expand and contract (docs/decisions.md, "Migrations: expand, deploy, contract"): a migration is applied
 * before the Workers that need it are deployed, so for a while the Workers of the release before run against
 * it. An expand migration keeps that safe: it only adds (tables, nullable columns or columns with a default,
 * indexes, functions) and backfills. Whatever can break the Workers still running (dropping, renaming or
 * retyping something, or making it stricter) belongs in a contract migration, shipped in a later release than
 * the one that stopped using the thing, with a header comment that says so:
 *
 *   -- Contract: drops inbox_messages.legacy_body, unread since release 2027-01-12 (the Workers of that release
 *   -- read body_text only).
 *
 * test/db/expand-contract.test.ts runs `destructiveStatements` over every migration and fails on a finding in a
 * migration without that header.
 */
import { splitStatements, sqlCode } from "./migrator";

export interface Finding {
  /** 1-based statement (between `--> statement-breakpoint`s) of the file. */
  statement: number;
  /** 1-based line of the file where the statement starts. */
  line: number;
  rule: string;
}

/** `-- Contract: … release …` in the comment lines that open the file. */
const CONTRACT_HEADER = /^--\s*contract:.*\brelease\b/im;

/** The comment lines at the top of the file declare it a contract migration, naming the release. */
export function isContractMigration(text: string): boolean {
  const header: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim().startsWith("--") || line.trim().startsWith("-->")) break;
    header.push(line.trim());
  }
  return CONTRACT_HEADER.test(header.join("\n"));
}

const NAME = `(?:"[^"]+"|[a-z_][a-z0-9_$]*)`;
const QUALIFIED = String.raw`(?:${NAME}\.)?(${NAME})`;

function unquote(name: string): string {
  return name.replace(/^"|"$/g, "").toLowerCase();
}

/** Statements whose kind alone breaks the Workers of the release before (each its own rule). */
const DROPS: { pattern: RegExp; rule: string }[] = [
  { pattern: /^drop table\b/, rule: "DROP TABLE" },
  { pattern: /^drop (materialized )?view\b/, rule: "DROP VIEW" },
  { pattern: /^drop function\b/, rule: "DROP FUNCTION" },
  { pattern: /^drop (type|domain)\b/, rule: "DROP TYPE" },
  { pattern: /^drop schema\b/, rule: "DROP SCHEMA" },
  { pattern: /^drop sequence\b/, rule: "DROP SEQUENCE" },
  { pattern: /^truncate\b/, rule: "TRUNCATE" },
  { pattern: /^alter (type|function|view|materialized view|sequence|schema)\b.*\brename\b/, rule: "RENAME" },
];

/**
 * What in the migration can break the Workers of the release before it. ALTER TABLE on a table the same
 * migration creates is left alone: no earlier Worker knows that table.
 */
export function destructiveStatements(text: string): Finding[] {
  const findings: Finding[] = [];
  const created = new Set<string>();
  for (const match of sqlCode(text, { identifiers: true }).matchAll(
    new RegExp(String.raw`\bcreate\s+(?:unlogged\s+)?table\s+(?:if\s+not\s+exists\s+)?${QUALIFIED}`, "gi"),
  )) {
    created.add(unquote(match[1] as string));
  }
  for (const statement of splitStatements(text)) {
    const code = sqlCode(statement.text, { identifiers: true });
    for (const raw of code.split(";")) {
      const command = raw.replace(/\s+/g, " ").trim().toLowerCase();
      if (command === "") continue;
      const add = (rule: string) => findings.push({ statement: statement.index, line: statement.line, rule });
      for (const drop of DROPS) if (drop.pattern.test(command)) add(drop.rule);
      const table = new RegExp(`^alter table (?:only )?(?:if exists )?${QUALIFIED}`).exec(command);
      if (!table || created.has(unquote(table[1] as string))) continue;
      const actions = command.slice(table[0].length);
      if (
        new RegExp(String.raw`(?:^|,) ?drop (?:column )?(?:if exists )?(?!constraint\b)${NAME}`).test(actions)
      ) {
        add("DROP COLUMN");
      }
      if (/\brename\b/.test(actions)) add("RENAME");
      if (new RegExp(String.raw`\balter (?:column )?${NAME} (?:set data )?type\b`).test(actions)) {
        add("ALTER COLUMN TYPE");
      }
      if (/\bset not null\b/.test(actions)) add("SET NOT NULL");
      for (const clause of actions.split(",")) {
        const column = new RegExp(
          String.raw`^ ?add (?:column )?(?:if not exists )?(?!constraint\b)${NAME} `,
        ).test(clause);
        if (column && /\bnot null\b/.test(clause) && !/\b(default|generated)\b/.test(clause)) {
          add("ADD COLUMN NOT NULL without a default");
        }
      }
    }
  }
  return findings;
}
