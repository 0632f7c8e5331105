// A lease per conversation's run (Redis SET NX PX): the instance running it renews it while it
// runs, so an instance that died (killed, crashed, cut off) loses it within `leaseMs`, and another
// can tell a dead run from a live one elsewhere.

import { connectRedis } from "./connection.js";

// Renews (PEXPIRE) or releases (DEL) the lease only while it is still this holder's.
const RENEW = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0";
const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/**
 * @param {{ url?: string, client?: any, leaseMs?: number, prefix?: string, onError?: (error: unknown) => void }} options
 */
export function createRedisLeases(options = {}) {
  const { leaseMs = 5_000, prefix = "chat-session-reducer:" } = options;
  const onError = options.onError ?? ((error) => console.error("chat-session-reducer/server (redis leases):", error));
  const redis = connectRedis(options, "createRedisLeases", onError);
  const leaseKey = (key) => `${prefix}lease:${key}`;
  const command = async (args) => (await redis.ready).sendCommand(args);
  /** The renewals of the leases this instance holds. @type {Set<ReturnType<typeof setInterval>>} */
  const renewals = new Set();

  return {
    leaseMs,
    /**
     * Takes the conversation's lease, waiting at most `leaseMs` for a holder's to run out;
     * a handle to release it, or undefined when another instance still holds it.
     */
    async acquire(key) {
      const token = crypto.randomUUID();
      const deadline = Date.now() + leaseMs;
      while ((await command(["SET", leaseKey(key), token, "NX", "PX", String(leaseMs)])) === null) {
        if (Date.now() > deadline) return undefined;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const renewal = setInterval(() => void command(["EVAL", RENEW, "1", leaseKey(key), token, String(leaseMs)]).catch(onError), leaseMs / 3);
      renewal.unref?.();
      renewals.add(renewal);
      return {
        async release() {
          clearInterval(renewal);
          renewals.delete(renewal);
          await command(["EVAL", RELEASE, "1", leaseKey(key), token]);
        },
      };
    },
    /** Whether some instance holds the conversation's lease now. */
    async held(key) {
      return (await command(["EXISTS", leaseKey(key)])) === 1;
    },
    /** Stops renewing (the leases run out, as an instance's that died) and closes the connection. */
    async close() {
      for (const renewal of renewals) clearInterval(renewal);
      renewals.clear();
      await redis.close();
    },
  };
}
