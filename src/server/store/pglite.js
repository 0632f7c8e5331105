// The embedded SessionStore: PostgreSQL compiled to WebAssembly (@electric-sql/pglite), in a data
// directory or in memory, so an app needs no database server. The package is an optional peer
// dependency, imported when the store is first used.

import { codedError, invalid } from "../../shared/coded-error.js";
import { createSqlStore } from "./sql-store.js";

/**
 * @param {{ dataDir?: string, pglite?: any }} [options] `pglite`: an open PGlite the app owns
 *   (close() leaves it open); else one in `dataDir`, or in memory when neither is given.
 */
export function createPgliteStore(options = {}) {
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

/** The optional peer `name`, or an Error saying to install it. */
export async function importPeer(name, load) {
  try {
    return await load();
  } catch (error) {
    if (error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
    throw codedError(new Error(`store: this store needs the package ${name}: npm install ${name}`, { cause: error }), "missing_dependency");
  }
}
