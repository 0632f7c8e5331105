// The SessionStore on a PostgreSQL server through `pg` (node-postgres), a pool of connections:
// every instance of the app reads the same conversations. `pg` is an optional peer dependency,
// imported when the store is first used.

import { invalid } from "../../shared/coded-error.js";
import { importPeer } from "./peer.js";
import { createSqlStore } from "./sql-store.js";

/**
 * @param {{ connectionString?: string, pool?: any, max?: number }} [options] `pool`: a pg Pool the
 *   app owns (close() leaves it open); else a pool of at most `max` (10) connections to
 *   `connectionString`, or where pg's PGHOST, PGDATABASE… variables say when it is absent.
 */
export function createPostgresStore(options = {}) {
  if (options === null || typeof options !== "object") throw invalid("options", "an object");
  const { connectionString, pool, max = 10 } = options;
  if (connectionString !== undefined && typeof connectionString !== "string") throw invalid("options.connectionString", "a string");
  if (pool !== undefined && typeof pool?.connect !== "function") throw invalid("options.pool", "a pg Pool");
  if (!Number.isInteger(max) || max < 1) throw invalid("options.max", "a positive integer");
  return createSqlStore(async () => {
    const db = pool ?? (await openPool(connectionString, max));
    return {
      query: async (sql, params) => (await db.query(sql, params)).rows,
      transaction: (fn) => inTransaction(db, fn),
      close: async () => {
        if (!pool) await db.end();
      },
    };
  });
}

async function openPool(connectionString, max) {
  const { default: pg } = await importPeer("pg", () => import("pg"));
  const pool = new pg.Pool({ connectionString, max });
  // An idle connection's error (the server restarted) would crash the process unheard; the next
  // query on the pool reports the outage instead.
  pool.on("error", () => {});
  return pool;
}

/** `fn` on one connection between begin and commit; rolled back when anything in it fails. */
async function inTransaction(pool, fn) {
  const client = await pool.connect();
  let broken;
  try {
    await client.query("begin");
    const result = await fn(async (sql, params) => (await client.query(sql, params)).rows);
    await client.query("commit");
    return result;
  } catch (error) {
    // A connection that cannot even roll back is dropped, not handed to the next save.
    await client.query("rollback").catch((rollbackError) => (broken = rollbackError));
    throw error;
  } finally {
    client.release(broken);
  }
}
