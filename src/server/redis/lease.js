// A lease per conversation's run (Redis SET NX PX): the instance running it renews it while it
// runs, so an instance that died (killed, crashed, cut off) loses it within `leaseMs`, and another
// can tell a dead run from a live one elsewhere. A renewal that finds the lease gone (Redis lost
// it: a restart) takes it again; one that finds another instance's token tells the run it lost it.
// After a reconnect, no lease is judged gone for `leaseMs`: their holders take theirs back meanwhile.

import { connectRedis } from "./connection.js";

// A lease another instance took over (it judged the run dead and ended it) holds this prefix: a
// new run takes it at once, the run it was taken from finds it lost at its next renewal.
const TAKEN = "taken:";
// Renews the lease while it is this holder's, takes it again when it is gone: 1; another's, or
// taken over: 0.
const RENEW = `local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if not holder then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;
// Takes the lease when no run holds it (none, or one taken over): 1, else 0. ARGV: the token, its PX.
const TAKE = `local holder = redis.call('GET', KEYS[1])
if holder and string.sub(holder, 1, ${TAKEN.length}) ~= '${TAKEN}' then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;
// Releases (DEL) the lease only while it is still this holder's.
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
  /** The renewals of the leases this instance holds: each renews its lease now. @type {Map<ReturnType<typeof setInterval>, () => void>} */
  const renewals = new Map();
  /** When the connection last came back after it broke (0: it never broke). */
  let reconnectedAt = 0;
  redis.ready
    .then((connection) =>
      connection.on("ready", () => {
        reconnectedAt = Date.now();
        for (const renew of renewals.values()) renew();
      }),
    )
    .catch(() => {});

  return {
    leaseMs,
    /**
     * Takes the conversation's lease, waiting at most `leaseMs` for a holder's to run out;
     * a handle to release it, or undefined when another instance still holds it. `lost()` is
     * called if another instance takes it meanwhile (this one's renewals failed for `leaseMs`).
     * @param {string} key @param {() => void} [lost]
     */
    async acquire(key, lost = () => {}) {
      const token = crypto.randomUUID();
      const deadline = Date.now() + leaseMs;
      while ((await command(["EVAL", TAKE, "1", leaseKey(key), token, String(leaseMs)])) === 0) {
        if (Date.now() > deadline) return undefined;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const renew = () =>
        void command(["EVAL", RENEW, "1", leaseKey(key), token, String(leaseMs)])
          .then((renewed) => {
            if (renewed !== 0 || !renewals.has(renewal)) return;
            clearInterval(renewal);
            renewals.delete(renewal);
            lost();
          })
          .catch(onError);
      const renewal = setInterval(renew, leaseMs / 3);
      renewal.unref?.();
      renewals.set(renewal, renew);
      return {
        async release() {
          clearInterval(renewal);
          renewals.delete(renewal);
          await command(["EVAL", RELEASE, "1", leaseKey(key), token]);
        },
      };
    },
    /** Whether some instance holds the conversation's lease now (for a run: not one taken over). */
    async held(key) {
      const holder = await command(["GET", leaseKey(key)]);
      // Asked before a reconnect, answered after it (by a Redis that may have lost every lease).
      return (holder !== null && !holder.startsWith(TAKEN)) || Date.now() - reconnectedAt < leaseMs;
    },
    /**
     * Takes over the lease of a run judged dead (no instance renewed it), before it is ended
     * elsewhere: true when taken. Were that run alive after all (its instance stalled past the
     * lease), its next renewal finds the lease lost and it stops, rather than taking it back and
     * writing on after its end. The mark lasts ten leases; a new run takes it at once.
     */
    async takeOver(key) {
      if (Date.now() - reconnectedAt < leaseMs) return false;
      return (await command(["EVAL", TAKE, "1", leaseKey(key), `${TAKEN}${crypto.randomUUID()}`, String(leaseMs * 10)])) === 1;
    },
    /** Stops renewing (the leases run out, as an instance's that died) and closes the connection. */
    async close() {
      for (const renewal of renewals.keys()) clearInterval(renewal);
      renewals.clear();
      await redis.close();
    },
  };
}
