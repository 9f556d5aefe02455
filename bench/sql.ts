import type { SQLWrapper } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

/** The benches' statements, rendered by drizzle's dialect as the Worker's driver sends them. */
export const dialect = new PgDialect();

export interface Query {
  sql: string;
  params: unknown[];
}

export const toQuery = (q: SQLWrapper): Query => {
  const { sql, params } = dialect.sqlToQuery(q.getSQL());
  return { sql, params };
};
