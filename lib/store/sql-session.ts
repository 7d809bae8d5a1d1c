import type { PGlite } from "@electric-sql/pglite";
import type { Client } from "pg";

/** The little the migrator needs from a database connection, whichever backend it is. */
export interface SqlSession {
  /** Runs one or more statements with no parameters. */
  exec(sql: string): Promise<void>;
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
}

export function pgliteSession(db: PGlite): SqlSession {
  return {
    exec: async (sql) => {
      await db.exec(sql);
    },
    query: async <Row>(sql: string, params: unknown[] = []) => (await db.query<Row>(sql, params)).rows,
  };
}

export function pgSession(client: Client): SqlSession {
  return {
    exec: async (sql) => {
      await client.query(sql);
    },
    query: async <Row>(sql: string, params: unknown[] = []) =>
      (await client.query(sql, params)).rows as Row[],
  };
}
