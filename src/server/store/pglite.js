// The embedded SessionStore: PostgreSQL compiled to WebAssembly (@electric-sql/pglite), in a data
// directory or in memory, so an app needs no database server. The package is an optional peer
// dependency, imported when the store is first used.

import { invalid } from "../../shared/coded-error.js";
import { importPeer } from "./peer.js";
import { createSqlStore } from "./sql-store.js";

/**
 * @param {{ dataDir?: string, pglite?: any }} [options] `pglite`: an open PGlite the app owns
 *   (close() leaves it open); else one in `dataDir`, or in memory when neither is given.
 */
export function createPgliteStore(options = {}) {
  if (options === null || typeof options !== "object") throw invalid("options", "an object");
  const { dataDir, pglite } = options;
  if (dataDir !== undefined && typeof dataDir !== "string") throw invalid("options.dataDir", "a string");
  if (pglite !== undefined && typeof pglite?.query !== "function") throw invalid("options.pglite", "a PGlite instance");
  return createSqlStore(async () => {
    const db = pglite ?? (await openPglite(dataDir));
    return {
      query: async (sql, params) => (await db.query(sql, params)).rows,
      transaction: (fn) => db.transaction((tx) => fn(async (sql, params) => (await tx.query(sql, params)).rows)),
      close: async () => {
        if (!pglite) await db.close();
      },
    };
  });
}

async function openPglite(dataDir) {
  const { PGlite } = await importPeer("@electric-sql/pglite", () => import("@electric-sql/pglite"));
  return PGlite.create(dataDir);
}
