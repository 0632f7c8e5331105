// The Redis client is the app's optional peer (`redis`, node-redis), imported when first used;
// every command goes through `sendCommand`, whose replies are the same in node-redis 4, 5 and 6.

import { importPeer } from "../store/peer.js";
import { invalid } from "../../shared/coded-error.js";

/**
 * The connected client for `{ url }` (ours, closed by `close`) or `{ client }` (the app's, left open).
 * @param {{ url?: string, client?: any }} options @param {string} what the caller's name, for errors
 * @param {(error: unknown) => void} onError what a connection of ours reports (node-redis reconnects)
 */
export function connectRedis({ url, client }, what, onError) {
  if (client === undefined && typeof url !== "string") throw invalid(`${what}.url`, "a Redis URL (redis://…), or a client as `client`");
  if (client !== undefined && typeof client?.sendCommand !== "function") throw invalid(`${what}.client`, "a node-redis client (createClient from `redis`)");
  const ready = (async () => {
    const connection = client ?? (await importPeer("redis", () => import("redis"))).createClient({ url });
    if (client === undefined) connection.on("error", onError);
    if (!connection.isOpen) await connection.connect();
    return connection;
  })();
  // The caller sees a failed connection on its first command.
  ready.catch(() => {});
  return {
    ready,
    /** Another connection to the same server, for a blocking read or a subscription. */
    async duplicate() {
      const other = (await ready).duplicate();
      other.on("error", onError);
      await other.connect();
      return other;
    },
    async close() {
      if (client === undefined) (await ready.catch(() => undefined))?.destroy?.();
    },
  };
}

/** Closes a connection of ours at once (a blocking read in flight ends with it). */
export function drop(connection) {
  if (typeof connection.destroy === "function") connection.destroy();
  else void connection.disconnect().catch(() => {});
}
