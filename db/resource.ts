import { type Column, getTableColumns, getTableName, type SQL, sql } from "drizzle-orm";
import { PgDialect, type PgTable } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { Principal } from "../lib/principal";
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
   * Membership-gated values: paths into the resource's JSON (`price_cents`, `price.price_cents`, or
   * `formats[].price_cents` for a field of every element of an array) that a read-only caller sees as null,
   * unless the field `unless.field` holds a value the caller's access admits (a public-priced work, a public
   * price). Every read surface that shows the resource applies it: the resource's own JSON builder (its computed
   * fields) and every event that carries the resource, wherever in its `data` (`gatedEventData`).
   */
  gated?: Gate;
  /** A column's value under a view, in place of the column itself (e.g. a pending draft's value). */
  column?: (view: V, field: string, columnSql: SQL) => SQL;
  /**
   * What the aliased row is selected from, when more than its table (a join the view's values read); by
   * default the table under its alias.
   */
  from?: (view: V) => SQL;
  /**
   * A view whose JSON Postgres keeps built (a stored document, refreshed by triggers at commit), or null for the
   * others: `read` is its stored JSON over the aliased row, for reads (`textById`); `build` builds it afresh
   * through a function (planned once per session rather than with every statement), for write responses and
   * events (`jsonById`), which must see the write's own changes before they commit.
   */
  document?: (view: V) => { read: SQL; build: SQL } | null;
  /** Fields no column serves as is, each as SQL over the aliased row; the view is the caller's. */
  computed?: { [K in keyof S["shape"]]?: (view: V, value: (field: string) => SQL) => SQL };
}

/**
 * Which gated values a caller sees: `all` (a credential holding a write scope), `members` (a read-only member
 * session, a viewer) or `public` (a read-only key).
 */
export type PriceAccess = "all" | "members" | "public";

/** The gated values this caller may see. */
export function priceAccess(principal: Principal): PriceAccess {
  if (!principal.readOnly) return "all";
  return principal.kind === "session" ? "members" : "public";
}

/** A JSON value a gate's condition compares with (a boolean flag, an enum's member). */
type Admitted = string | boolean;

/** The membership gate of a resource: see `ResourceSpec.gated`. */
export interface Gate {
  /** Paths into the resource's JSON: `a.b` descends into an object, `list[].a` into every element of an array. */
  paths: readonly string[];
  /**
   * Elements left out of an array rather than values set to null, where a whole element is the gated value (a
   * match's price evidence: `{ path: "reasons", field: "question", equals: "price" }`): the array at `path` keeps
   * the elements whose `field` is not `equals`.
   */
  drops?: readonly { path: string; field: string; equals: string }[];
  /**
   * When the gated values are shown all the same: the value at `field` (a path like the above, without `[]`) is
   * one that the caller's access admits. Without it, a read-only caller never sees them.
   */
  unless?: { field: string; admits: Readonly<Record<Exclude<PriceAccess, "all">, readonly Admitted[]>> };
}

/** A path (`formats[].price_cents`, `price.price_cents`) as segments, `[]` standing for every array element. */
function segmentsOf(path: string): string[] {
  return path.split(".").flatMap((part) => (part.endsWith("[]") ? [part.slice(0, -2), "[]"] : [part]));
}

function literal(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

function pathLiteral(path: readonly string[]): string {
  return `array[${path.map(literal).join(", ")}]::text[]`;
}

/**
 * Builds SQL text over jsonb values bound to names (never repeating an expression, so nesting stays linear in
 * size): `at` applies `f` to the value at a path, where present, mapping arrays element by element.
 */
class JsonbRewriter {
  private n = 0;
  fresh(): string {
    this.n += 1;
    return `g${this.n}`;
  }
  /** `f(v)` with `v` bound to a name. */
  bind(expr: string, f: (name: string) => string): string {
    const name = this.fresh();
    return `(select ${f(name)} from (select ${expr} as ${name}) ${this.fresh()})`;
  }
  at(v: string, path: readonly string[], f: (name: string) => string): string {
    const [head, ...rest] = path;
    if (head === undefined) return f(v);
    if (head === "[]") {
      const el = this.fresh();
      const n = this.fresh();
      return `(case when jsonb_typeof(${v}) = 'array' then (select coalesce(jsonb_agg(${this.at(el, rest, f)} order by ${n}), '[]'::jsonb) from jsonb_array_elements(${v}) with ordinality as ${this.fresh()}(${el}, ${n})) else ${v} end)`;
    }
    const key = literal(head);
    return `(case when jsonb_typeof(${v}) = 'object' and ${v} ? ${key} then jsonb_set(${v}, array[${key}], ${this.bind(`${v}->${key}`, (x) => this.at(x, rest, f))}) else ${v} end)`;
  }
  /** `v` with the array at `path` keeping only the elements whose `field` is not `equals`, where present. */
  dropAt(v: string, path: readonly string[], field: string, equals: string): string {
    return this.at(v, path, (x) => {
      const el = this.fresh();
      const n = this.fresh();
      return `(case when jsonb_typeof(${x}) = 'array' then (select coalesce(jsonb_agg(${el} order by ${n}), '[]'::jsonb) from jsonb_array_elements(${x}) with ordinality as ${this.fresh()}(${el}, ${n}) where (${el} ->> ${literal(field)}) is distinct from ${literal(equals)}) else ${x} end)`;
    });
  }
  /** `v` with the value at `path` set to null, where present. */
  nullAt(v: string, path: readonly string[]): string {
    const last = literal(path[path.length - 1]!);
    return this.at(
      v,
      path.slice(0, -1),
      (x) =>
        `(case when jsonb_typeof(${x}) = 'object' and ${x} ? ${last} then jsonb_set(${x}, array[${last}], 'null'::jsonb) else ${x} end)`,
    );
  }
}

/** Whether the jsonb `value` (SQL) is one of `admitted`; false when absent or null (fail closed). */
function admittedSql(value: string, admitted: readonly Admitted[]): string {
  if (admitted.length === 0) return "false";
  return `coalesce((${value} #>> '{}') in (${admitted.map((a) => literal(String(a))).join(", ")}), false)`;
}

/** Where a gated resource appears in an event's `data`: its path (segments, `[]` for array elements). */
export interface GatedLocation {
  path: readonly string[];
  gate: Gate;
}

/**
 * Where described resources with a gate appear in a schema (by their zod shape, which `.openapi()` copies
 * keep), descending through objects, arrays and nullables. A gated resource's own nested resources are its
 * gate's business (an artwork's formats follow the artwork's rule), so the walk stops at the first one.
 */
export function gatedLocations(schema: z.ZodType): GatedLocation[] {
  const gates = new Map<unknown, Gate>();
  for (const r of describedResources) {
    if (r.spec.gated) gates.set((r.spec.schema as z.ZodObject)._zod.def.shape, r.spec.gated);
  }
  const out: GatedLocation[] = [];
  const walk = (s: z.ZodType, path: string[]): void => {
    const def = s._zod.def as { type: string; [k: string]: unknown };
    if (def.type === "object") {
      const shape = def.shape as Record<string, z.ZodType>;
      const gate = gates.get(shape);
      if (gate) out.push({ path, gate });
      else for (const [key, field] of Object.entries(shape)) walk(field, [...path, key]);
    } else if (def.type === "array") walk(def.element as z.ZodType, [...path, "[]"]);
    else if (["nullable", "optional", "default", "readonly"].includes(def.type)) {
      walk(def.innerType as z.ZodType, path);
    } else if (def.type === "union") for (const option of def.options as z.ZodType[]) walk(option, path);
  };
  walk(schema, []);
  return out;
}

/**
 * SQL text: an event's jsonb `data` (`data` names it in the enclosing query) with every gated value hidden
 * from a caller of this access, at each location of a gated resource and, for an event that has them, at the
 * same place in `previous_attributes` (the former values of the object's fields). A former value is shown only
 * when both the current state and the former one admit the caller: where `previous_attributes` does not carry
 * the gate's field, it did not change and the current value stands for it; where the current value cannot be
 * found (under an array), nothing is shown.
 */
export function gatedEventData(
  data: string,
  locations: readonly GatedLocation[],
  previousAttributes: boolean,
  access: Exclude<PriceAccess, "all">,
): string {
  const w = new JsonbRewriter();
  const hide = (v: string, gate: Gate, open: (root: string) => string): string => {
    let closed = v;
    for (const path of gate.paths) closed = w.bind(closed, (x) => w.nullAt(x, segmentsOf(path)));
    for (const drop of gate.drops ?? []) {
      closed = w.bind(closed, (x) => w.dropAt(x, segmentsOf(drop.path), drop.field, drop.equals));
    }
    if (!gate.unless) return closed;
    return `(case when ${open(v)} then ${v} else ${closed} end)`;
  };
  let out = data;
  for (const { path, gate } of locations) {
    const field = gate.unless ? segmentsOf(gate.unless.field) : [];
    const admitted = gate.unless?.admits[access] ?? [];
    out = w.bind(out, (d) =>
      w.at(d, path, (root) =>
        hide(root, gate, (r) => admittedSql(`(${r} #> ${pathLiteral(field)})`, admitted)),
      ),
    );
    if (!previousAttributes || path[0] !== "object") continue;
    const rest = path.slice(1);
    const current = rest.includes("[]") ? null : `(${data} #> ${pathLiteral(["object", ...rest, ...field])})`;
    out = w.bind(out, (d) =>
      w.at(d, ["previous_attributes", ...rest], (root) =>
        hide(root, gate, (r) =>
          current === null
            ? "false"
            : `(${admittedSql(current, admitted)} and ${admittedSql(`coalesce(${r} #> ${pathLiteral(field)}, ${current})`, admitted)})`,
        ),
      ),
    );
  }
  return out;
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
      const json = spec.document?.(view)?.build ?? described.json(view);
      return sql`select ${json} from ${from(view)} where ${byId(galleryId, id)}`;
    },
    async textById(db, galleryId, id, view) {
      const json = spec.document?.(view)?.read ?? described.json(view);
      const result = await db.execute<{ body: string }>(
        sql`select ${json}::text as body from ${from(view)} where ${byId(galleryId, id)}`,
      );
      return result.rows[0]?.body ?? null;
    },
  };
  describedResources.push(described as unknown as Resource<z.ZodObject, PgTable, never>);
  return described;
}
