// The stores' databases are optional peer dependencies, imported when a store is first used.

import { codedError } from "../../shared/coded-error.js";

/** The optional peer `name`, or an Error saying to install it. */
export async function importPeer(name, load) {
  try {
    return await load();
  } catch (error) {
    if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes(`'${name}'`)) throw error;
    throw codedError(new Error(`store: this store needs the package ${name}: npm install ${name}`, { cause: error }), "missing_dependency");
  }
}
