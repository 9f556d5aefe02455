import { type Column, getTableColumns, getTableName, type SQL, sql } from "drizzle-orm";
import { PgDialect, type PgTable } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { Db } from "./client";

/**
 * One description per resource. The zod output schema (lib/schemas/) lists the resource's fields, in order,
 * once; this module pairs it with its drizzle table and derives the rest: the Postgres JSON builder, each
 * field's column and SQL type, and typed row values for inserts and updates. A field is served from the column
 * of the same SQL name unless the description declares it computed (nested collections, derived values);
 * a field with neither is an error at the first use and in the parity suite (test/platform/resources.test.ts).
 *
 * The zod schema is the source rather than the table because the API shape is the contract: a table holds
 * internal columns (tenancy, search text, secrets, hashes) the API never shows, and a response holds values no
 * column stores.
 */

const dialect = new PgDialect();

/** camelCase → snake_case, at the type level, so row values are keyed by the API's (and the column's) names. */
type Snake<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}`
  : S;

/** A table's insertable values keyed by column SQL name: `{ price_cents: … }` for `priceCents`. */
export type RowValues<T extends PgTable> = {
  [K in keyof T["$inferInsert"] & string as Snake<K>]?: T["$inferInsert"][K];
};

/** API-named (snake_case) values → drizzle's insert/update values for `table`, keyed as the table declares them. */
export function rowOf<T extends PgTable>(table: T, values: RowValues<T>): T["$inferInsert"] {
  const keys = new Map(
    Object.entries(getTableColumns(table) as Record<string, Column>).map(([key, column]) => [
      column.name,
      key,
    ]),
  );
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(values)) {
    if (v === undefined) continue;
    const key = keys.get(name);
    if (!key) throw new Error(`${getTableName(table)}: no column ${name}`);
    out[key] = v;
  }
  return out as T["$inferInsert"];
}

/** What a caller's read varies by (a draft overlay, gated prices): each resource defines its own. */
export type JsonView = object;

export interface ResourceSpec<S extends z.ZodObject, T extends PgTable, V extends JsonView> {
  schema: S;
  table: T;
  /** The alias of `table` in every query that builds this resource's JSON. */
  alias: string;
  /**
   * Names the variant of the JSON a view builds (e.g. `draft:gated`), so it is rendered to SQL text once per
   * isolate rather than on every request; views that build the same SQL share a key. Without it, every view
   * builds the same SQL.
   */
  viewKey?: (view: V) => string;
  /** The resource's name in events (`resource_type`), for resources that events carry. */
  name?: string;
  /**
   * Membership-gated values: paths into the resource's JSON (`price_cents`, or `formats[].price_cents` for a
   * field of every element of an array) that a read-only caller sees as null, unless the boolean field
   * `unless` is true (a public-priced work). Every read surface that shows the resource applies it: the
   * resource's own JSON builder (its computed fields) and the payloads of its events.
   */
  gated?: { paths: readonly string[]; unless?: string };
  /** A column's value under a view, in place of the column itself (e.g. a pending draft's value). */
  column?: (view: V, field: string, columnSql: SQL) => SQL;
  /**
   * What the aliased row is selected from, when more than its table (a join the view's values read); by
   * default the table under its alias.
   */
  from?: (view: V) => SQL;
  /** Fields no column serves as is, each as SQL over the aliased row; the view is the caller's. */
  computed?: { [K in keyof S["shape"]]?: (view: V, value: (field: string) => SQL) => SQL };
}

/**
 * The `jsonb` value `doc` with the gated values of the object at `objectPath` nulled for a read-only caller,
 * according to each described resource named `resourceType` (events carry a snapshot of their resource).
 */
export function gatedPayload(doc: SQL, resourceType: SQL, objectPath: readonly string[]): SQL {
  const branches: SQL[] = [];
  for (const r of describedResources) {
    const gated = r.spec.gated;
    if (!gated || !r.spec.name) continue;
    let out = doc;
    for (const path of gated.paths) out = nullAt(out, [...objectPath], path);
    const open = gated.unless
      ? sql`coalesce((${doc} #>> ${pathLiteral([...objectPath, gated.unless])})::boolean, false)`
      : sql`false`;
    branches.push(
      sql`when ${sql.raw(`'${r.spec.name}'`)} then case when ${open} then ${doc} else ${out} end`,
    );
  }
  if (branches.length === 0) return doc;
  return sql`(case ${resourceType} ${sql.join(branches, sql` `)} else ${doc} end)`;
}

function pathLiteral(path: readonly string[]): SQL {
  return sql.raw(`'{${path.join(",")}}'::text[]`);
}

/** `doc` with the value at `path` (`a` or `list[].a`) under `base` set to null, where present. */
function nullAt(doc: SQL, base: string[], path: string): SQL {
  const [array, field] = path.includes("[].") ? path.split("[].") : [undefined, path];
  if (!array) {
    return sql`(case when (${doc} #> ${pathLiteral(base)}) ? ${sql.raw(`'${field}'`)} then jsonb_set(${doc}, ${pathLiteral([...base, field!])}, 'null'::jsonb) else ${doc} end)`;
  }
  const at = pathLiteral([...base, array]);
  return sql`(case when jsonb_typeof(${doc} #> ${at}) = 'array' then jsonb_set(${doc}, ${at},
    (select coalesce(jsonb_agg(el || jsonb_build_object(${sql.raw(`'${field}'`)}, null) order by n), '[]'::jsonb)
      from jsonb_array_elements(${doc} #> ${at}) with ordinality as x(el, n))) else ${doc} end)`;
}

/**
 * A pending value over a column: when the jsonb `patch` holds `field`, its value typed like the column (`type`
 * as `sqlType` names it), else the column. The artwork draft and a format's pending changes both read this way.
 */
export function patchOverlay(patch: SQL, field: string, type: string, columnSql: SQL): SQL {
  const key = sql.raw(`'${field}'`);
  const pending =
    type === "jsonb"
      ? sql`${patch}->${key}`
      : type === "text[]"
        ? sql`array(select jsonb_array_elements_text(${patch}->${key}))`
        : type === "text"
          ? sql`${patch}->>${key}`
          : sql`(${patch}->>${key})::${sql.raw(type)}`;
  return sql`(case when ${patch} ? ${key} then ${pending} else ${columnSql} end)`;
}

/** A timestamp as the API prints it: UTC with milliseconds (inlined, unlike a SQL function call). */
export function isoMs(expr: SQL): SQL {
  return sql`to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

function isTimestamp(column: Column): boolean {
  return column.getSQLType().startsWith("timestamp");
}

export interface Resource<S extends z.ZodObject, T extends PgTable, V extends JsonView> {
  spec: ResourceSpec<S, T, V>;
  /** The fields, in schema order. */
  fields: readonly string[];
  /** Field → column, for the fields a column serves. */
  columns: ReadonlyMap<string, Column>;
  /** Fields with neither a column nor a computed value (empty for a valid description). */
  unserved: readonly string[];
  /** The SQL of a column of the aliased row, through the view. */
  value(view: V, field: string): SQL;
  /** The resource's JSON (type json, fields in schema order) for the aliased row. */
  json(view: V): SQL;
  /** Postgres type of a column-served field (`text`, `integer`, `jsonb`, `text[]`, …). */
  sqlType(field: string): string;
  /** API-named values → drizzle's insert/update values (keys checked against the table at compile time). */
  row(values: RowValues<T>): T["$inferInsert"];
  /** What the aliased row is selected from under this view. */
  from(view: V): SQL;
  /** SQL yielding one row's JSON (null when absent) in a gallery, for write responses and event objects. */
  jsonById(galleryId: string, id: string, view: V): SQL;
  /** One row's JSON as text (null when absent), sent to the client as is. One round trip. */
  textById(db: Db, galleryId: string, id: string, view: V): Promise<string | null>;
}

/** Every resource described so far, for the parity suite. */
export const describedResources: Resource<z.ZodObject, PgTable, never>[] = [];

export function resource<S extends z.ZodObject, T extends PgTable, V extends JsonView = JsonView>(
  spec: ResourceSpec<S, T, V>,
): Resource<S, T, V> {
  const byName = new Map<string, { key: string; column: Column }>();
  for (const [key, column] of Object.entries(getTableColumns(spec.table) as Record<string, Column>)) {
    byName.set(column.name, { key, column });
  }
  const fields = Object.keys(spec.schema.shape);
  const computed = (spec.computed ?? {}) as Record<string, (view: V, value: (f: string) => SQL) => SQL>;
  const columns = new Map<string, Column>();
  for (const field of fields) {
    const entry = byName.get(field);
    if (entry && !computed[field]) columns.set(field, entry.column);
  }
  const unserved = fields.filter((f) => !columns.has(f) && !computed[f]);
  const alias = sql.raw(spec.alias);
  const from = (view: V): SQL => spec.from?.(view) ?? sql`${spec.table} ${alias}`;
  const byId = (galleryId: string, id: string): SQL =>
    sql`${alias}.gallery_id = ${galleryId} and ${alias}.id = ${id}`;
  const rendered = new Map<string, SQL>();

  const value = (view: V, field: string): SQL => {
    const column = byName.get(field);
    if (!column) throw new Error(`${spec.alias}: no column for field ${field}`);
    const columnSql = sql`${alias}.${sql.identifier(column.column.name)}`;
    return spec.column ? spec.column(view, field, columnSql) : columnSql;
  };

  const fieldSql = (view: V, field: string): SQL => {
    const make = computed[field];
    if (make) return make(view, (f) => value(view, f));
    const column = columns.get(field);
    if (!column) throw new Error(`${spec.alias}: field ${field} has neither a column nor a computed value`);
    const v = value(view, field);
    return isTimestamp(column) ? isoMs(v) : v;
  };

  const described: Resource<S, T, V> = {
    spec,
    fields,
    columns,
    unserved,
    value,
    json(view) {
      const key = spec.viewKey?.(view) ?? "";
      const cached = rendered.get(key);
      if (cached) return cached;
      if (unserved.length) throw new Error(`${spec.alias}: unserved fields ${unserved.join(", ")}`);
      // A record serialised by to_json: Postgres looks up how to print each field's type once per query, where
      // json_object/json_build_object do it again for every value of every row (twice as slow here).
      const columnsSql = fields.map((field) => sql`${fieldSql(view, field)} as ${sql.identifier(field)}`);
      const built = sql`(select to_json(r) from (select ${sql.join(columnsSql, sql`, `)}) r)`;
      // Rendered once: the builder has no parameters, and walking its few hundred SQL chunks on every request
      // costs the Worker more CPU than the rest of a list request.
      const query = dialect.sqlToQuery(built);
      const text = query.params.length === 0 ? sql.raw(query.sql) : built;
      rendered.set(key, text);
      return text;
    },
    sqlType(field) {
      const column = byName.get(field)?.column;
      if (!column) throw new Error(`${spec.alias}: no column for field ${field}`);
      return column.getSQLType();
    },
    row(values) {
      return rowOf(spec.table, values);
    },
    from,
    jsonById(galleryId, id, view) {
      return sql`select ${described.json(view)} from ${from(view)} where ${byId(galleryId, id)}`;
    },
    async textById(db, galleryId, id, view) {
      const result = await db.execute<{ body: string }>(
        sql`select ${described.json(view)}::text as body from ${from(view)} where ${byId(galleryId, id)}`,
      );
      return result.rows[0]?.body ?? null;
    },
  };
  describedResources.push(described as unknown as Resource<z.ZodObject, PgTable, never>);
  return described;
}
