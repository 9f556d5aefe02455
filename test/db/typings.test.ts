import { env } from "cloudflare:workers";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { httpDb } from "../../db/client";
import { artworkResource } from "../../db/queries/artworks";
import { artworks } from "../../db/schema";

/**
 * The project's database objects keep drizzle's parameter type hints per column (db/client.ts `rememberTypings`):
 * a statement renders exactly as drizzle's own dialect renders it, and the hints are worked out once.
 */

function insert() {
  const db = httpDb(env);
  return db.insert(artworks).values(
    artworkResource.row({
      id: "art_typings",
      gallery_id: "gal_typings",
      title: "Typed",
      price_cents: 100,
      currency: "USD",
      created_at: "2026-11-30T00:00:00.000Z",
      updated_at: "2026-11-30T00:00:00.000Z",
    }),
  );
}

const dialectOf = (db: object) => (db as { dialect: PgDialect }).dialect;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("parameter type hints", () => {
  it("renders a statement exactly as drizzle's own dialect does, hints included", () => {
    const statement = insert().getSQL();
    const ours = dialectOf(httpDb(env)).sqlToQuery(statement);
    const stock = new PgDialect().sqlToQuery(statement);
    expect(ours).toEqual(stock);
    expect(ours.typings).toContain("timestamp");
  });

  it("works out each column's hint once: a second rendering asks drizzle for none", () => {
    const dialect = dialectOf(httpDb(env));
    dialect.sqlToQuery(insert().getSQL());
    const asked = vi.spyOn(PgDialect.prototype, "prepareTyping");
    const again = dialect.sqlToQuery(insert().getSQL());
    expect(asked).not.toHaveBeenCalled();
    expect(again.params.length).toBeGreaterThan(5);
    expect(again).toEqual(new PgDialect().sqlToQuery(insert().getSQL()));
  });
});
