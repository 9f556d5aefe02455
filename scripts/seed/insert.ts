/**
 * Writing the collected rows: tables in foreign-key order (parents first), each table's typed rows as few
 * set-based INSERTs, the rows travelling as one jsonb array that Postgres types from the table's row type.
 */
import { type Column, getTableColumns } from "drizzle-orm";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import type pg from "pg";
import type { Insert } from "./context";

/** Rows per INSERT statement: large enough to be one round trip for every table the demo seeds. */
const BATCH = 5_000;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function qualifiedName(table: PgTable): string {
  const { name, schema } = getTableConfig(table);
  return schema ? `${quote(schema)}.${quote(name)}` : quote(name);
}

/**
 * `tables` ordered so that every table comes after the tables its foreign keys reference (a depth-first
 * topological sort; ties keep the given order). References to tables outside the list are ignored (nothing
 * is written there, so those columns hold null), and so are self-references: rows of such a table are
 * inserted in the order given, parents first.
 */
export function insertOrder(tables: readonly PgTable[]): PgTable[] {
  const included = new Set(tables);
  const order: PgTable[] = [];
  const done = new Set<PgTable>();
  const visiting: PgTable[] = [];
  const visit = (table: PgTable) => {
    if (done.has(table)) return;
    if (visiting.includes(table)) {
      const cycle = [...visiting.slice(visiting.indexOf(table)), table].map((t) => getTableConfig(t).name);
      throw new Error(`seed: foreign keys form a cycle: ${cycle.join(" -> ")}`);
    }
    visiting.push(table);
    for (const fk of getTableConfig(table).foreignKeys) {
      const parent = fk.reference().foreignTable;
      if (parent !== table && included.has(parent)) visit(parent);
    }
    visiting.pop();
    done.add(table);
    order.push(table);
  };
  for (const table of tables) visit(table);
  return order;
}

/** Inserts `rows` into `table`. Every row must name the same columns (no silent mix of defaults and nulls). */
export async function insertRows<T extends PgTable>(
  client: pg.ClientBase,
  table: T,
  rows: readonly Insert<T>[],
): Promise<void> {
  if (rows.length === 0) return;
  const tableName = qualifiedName(table);
  const columns = getTableColumns(table) as Record<string, Column>;
  const keys = Object.keys(rows[0]!);
  for (const row of rows) {
    const rowKeys = Object.keys(row);
    if (rowKeys.length !== keys.length || !keys.every((k) => k in row)) {
      throw new Error(
        `seed: ${tableName} rows disagree on columns (${rowKeys.join(",")} vs ${keys.join(",")})`,
      );
    }
  }
  const names = keys.map((key) => {
    const column = columns[key];
    if (!column) throw new Error(`seed: ${tableName} has no column for the field "${key}"`);
    return column.name;
  });
  const list = names.map(quote).join(", ");
  const statement = `insert into ${tableName} (${list}) select ${list} from jsonb_populate_recordset(null::${tableName}, $1::jsonb)`;
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH).map((row) => {
      const record: Record<string, unknown> = {};
      keys.forEach((key, i) => {
        record[names[i]!] = (row as Record<string, unknown>)[key];
      });
      return record;
    });
    await client.query(statement, [JSON.stringify(batch)]);
  }
}
