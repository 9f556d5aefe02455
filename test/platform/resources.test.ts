import { getTableName } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import "../../functions/api";
import { describedResources, resource } from "../../db/resource";
import { artworks } from "../../db/schema";

/**
 * Parity between each resource's one description (its zod output schema) and the table behind it: every field
 * is served by a column of the same name or by a declared computed value, and a nullable column is never
 * served as a field the schema says cannot be null.
 */
describe("resource descriptions", () => {
  it("describes every resource the API serves", () => {
    const tables = describedResources.map((r) => getTableName(r.spec.table));
    for (const table of ["artworks", "artwork_formats", "domain_events", "webhook_endpoints", "api_keys"]) {
      expect(tables).toContain(table);
    }
  });

  describe.each(
    describedResources.map((r) => [`${getTableName(r.spec.table)} as ${r.spec.alias}`, r] as const),
  )("%s", (_, r) => {
    it("serves every schema field from a column or a declared computed value", () => {
      expect(r.unserved).toEqual([]);
      expect(r.fields.length).toBeGreaterThan(0);
    });

    it("serves no nullable column as a field that cannot be null", () => {
      const mismatched = [...r.columns].filter(
        ([field, column]) => !column.notNull && !r.spec.schema.shape[field]!.safeParse(null).success,
      );
      expect(mismatched.map(([field]) => field)).toEqual([]);
    });
  });

  it("reports a field with neither a column nor a computed value, and refuses to build its JSON", () => {
    const drifted = resource({
      schema: z.object({ id: z.string(), title: z.string(), not_a_column: z.string() }),
      table: artworks,
      alias: "a",
    });
    expect(drifted.unserved).toEqual(["not_a_column"]);
    expect(() => drifted.json({})).toThrow(/not_a_column/);
    describedResources.splice(describedResources.indexOf(drifted as never), 1);
  });
});
