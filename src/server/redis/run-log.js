// The run log on Redis, for several instances: each run's frames in a Redis Stream of its own, so
// any instance serves a reconnect from the client's offset and follows the run live (blocking
// XREADs that the instance's followers share, readers.js; a follower of a run this instance writes
// reads its frames from memory as Redis acknowledges them, with no read of its own). Entry ids carry the offsets (`0-1` marks the
// start, frame n is `0-(n+2)`), so trimming never renumbers a run, and the end is an entry with
// an id of Redis's own (`*`, always above them): followers read it as any frame, and a frame that
// comes after it is refused by Redis. The conversation's newest run id is a key beside it. The
// start entry holds the run's opening (its protocol and start state), so another instance can fold
// a run whose instance died from its frames; a Stop whose holder did not answer is kept beside it.
// A writer keeps its runs' frames while they stream (and a minute after), so that after Redis
// lost its data (a restart) it writes each run back whole once it is reconnected. Every run not
// ended is listed (a sorted set by the time it started), so another instance finds the run of an
// instance that died before its conversation was ever stored streaming (its first save).

import { connectRedis, drop } from "./connection.js";
import { followHeld } from "../run-log.js";
import { createStreamReaders } from "./readers.js";

// A run still streaming is kept this long at most (an instance that died mid-run leaves it).
const RUNNING_TTL_SECONDS = 24 * 3600;
// A blocking read wakes at least this often to see whether its streams still exist; under
// node-redis 6's default command timeout (5 s), which fails a read that blocks as long.
const BLOCK_MS = 2_000;
// Renews the newest-run key's expiry only while it still names this run (a newer run keeps its own).
const EXPIRE_IF_NEWEST = "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('EXPIRE', KEYS[1], ARGV[2]) end return 0";
// A writer's run written back whole when its start entry is gone (Redis lost its data): KEYS the
// stream and the newest-run key; ARGV the run id, its opening, "1" when it ended, the expiry, then its frames.
const REWRITE = `if #redis.call('XRANGE', KEYS[1], '0-1', '0-1') > 0 then return 0 end
redis.call('DEL', KEYS[1])
redis.call('XADD', KEYS[1], '0-1', 's', ARGV[2])
for i = 5, #ARGV do redis.call('XADD', KEYS[1], '0-' .. (i - 3), 'f', ARGV[i]) end
if ARGV[3] == '1' then redis.call('XADD', KEYS[1], '*', 'e', '1') end
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('SET', KEYS[2], ARGV[1], 'NX', 'EX', ARGV[4])
return 1`;
// Ends a run another instance wrote (it died) in one step: `ARGV[1]` as the frame after the last
// one there is now, then the end, then the expiry (`ARGV[2]`); nothing when the run has ended.
const ABANDON = `local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
if last == nil or string.sub(last[1], 1, 2) ~= '0-' then return 0 end
local next = tonumber(string.sub(last[1], 3)) + 1
if last[1] == '0-1' then next = 2 end
redis.call('XADD', KEYS[1], '0-' .. next, 'f', ARGV[1])
redis.call('XADD', KEYS[1], '*', 'e', '1')
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1`;
// How long a writer keeps an ended run's frames, to write it back after Redis lost it.
export const KEEP_WRITTEN_MS = 60_000;

const frameId = (offset) => `0-${offset + 2}`;
const offsetOf = (entryId) => Number(entryId.slice(2)) - 2;
const isFrame = (entryId) => entryId.startsWith("0-") && entryId !== "0-1";

/**
 * @param {{ url?: string, client?: any, maxLength?: number, ttlSeconds?: number, prefix?: string, onError?: (error: unknown) => void }} options
 */
export function createRedisRunLog(options = {}) {
  const { maxLength = 100_000, ttlSeconds = 600, prefix = "chat-session-reducer:" } = options;
  const onError = options.onError ?? ((error) => console.error("chat-session-reducer/server (redis run log):", error));
  const redis = connectRedis(options, "createRedisRunLog", onError);
  const readers = createStreamReaders(redis, { blockMs: BLOCK_MS, isFrame, drop });
  const streamKey = (runId) => `${prefix}run:${runId}`;
  const newestKey = (key) => `${prefix}newest:${key}`;
  const stopKey = (runId) => `${prefix}stop:${runId}`;
  const unendedKey = `${prefix}unended`;
  const unendedMember = (key, runId) => JSON.stringify([key, runId]);
  /**
   * The runs this instance writes: their key, opening and frames (the next offset is their
   * count), how many frames Redis has acknowledged, whether it holds their end, and whether a
   * write failed (then followers here stop and the client resumes from what Redis holds).
   * @typedef {{ key: string, opening: string, frames: string[], ended: boolean, acked: number, endAcked: boolean, failed: boolean, handedOver?: boolean, waiters: Set<() => void> }} WrittenRun
   * @type {Map<string, WrittenRun>}
   */
  const writing = new Map();
  /** @param {WrittenRun} run */
  const wake = (run) => {
    for (const waiter of run.waiters) waiter();
    run.waiters.clear();
  };
  // Redis answers one connection's commands in order, so each reply acknowledges every frame before it.
  /** @param {WrittenRun} run @param {(reply: unknown) => void} acknowledge */
  const written = (run, args, acknowledge) => {
    command(args).then(
      (reply) => {
        acknowledge(reply);
        wake(run);
      },
      (error) => {
        run.failed = true;
        wake(run);
        onError(error);
      },
    );
  };
  /** Sends one command in the order it was asked (node-redis keeps one connection's order). */
  const command = async (args) => (await redis.ready).sendCommand(args);
  const fire = (args) => void command(args).catch(onError);
  // After a reconnect, before any command asked since, each run whose stream is gone is written back.
  const rewrite = () => {
    for (const [runId, run] of writing) {
      const ttl = String(run.ended ? ttlSeconds : RUNNING_TTL_SECONDS);
      fire(["EVAL", REWRITE, "2", streamKey(runId), newestKey(run.key), runId, run.opening, run.ended ? "1" : "0", ttl, ...run.frames]);
      // Listed as of now: its lease, lost with the data, is taken back within a lease's time.
      if (!run.ended) fire(["ZADD", unendedKey, String(Date.now()), unendedMember(run.key, runId)]);
    }
  };
  redis.ready.then((connection) => connection.on("ready", rewrite)).catch(() => {});
  // The end entry (a frame after it is refused), and the expiry of the run and of its newest-run key.
  const expireNewest = (key, runId) => ["EVAL", EXPIRE_IF_NEWEST, "1", newestKey(key), runId, String(ttlSeconds)];
  const unlisted = (key, runId) => ["ZREM", unendedKey, unendedMember(key, runId)];
  const endCommands = (key, runId) => [
    ["XADD", streamKey(runId), "NOMKSTREAM", "*", "e", "1"],
    ["EXPIRE", streamKey(runId), String(ttlSeconds)],
    expireNewest(key, runId),
    unlisted(key, runId),
  ];

  return {
    /** A new run of the conversation `key`; `opening` (its protocol and start state) is kept with it. */
    async start(key, runId, opening = {}) {
      const text = JSON.stringify(opening);
      writing.set(runId, { key, opening: text, frames: [], ended: false, acked: 0, endAcked: false, failed: false, waiters: new Set() });
      const stream = streamKey(runId);
      await command(["XADD", stream, "0-1", "s", text]);
      await Promise.all([
        command(["EXPIRE", stream, String(RUNNING_TTL_SECONDS)]),
        command(["SET", newestKey(key), runId, "EX", String(RUNNING_TTL_SECONDS)]),
        command(["ZADD", unendedKey, String(Date.now()), unendedMember(key, runId)]),
      ]);
    },
    /** Appends a frame of a run this instance writes; returns its offset (-1 when it does not). */
    append(runId, frame) {
      const run = writing.get(runId);
      if (run === undefined || run.ended) return -1;
      const offset = run.frames.push(frame) - 1;
      written(run, ["XADD", streamKey(runId), "MAXLEN", "~", String(maxLength), frameId(offset), "f", frame], () => {
        run.acked = Math.max(run.acked, offset + 1);
      });
      return offset;
    },
    /** The run wrote its last frame. */
    end(key, runId) {
      const run = writing.get(runId);
      if (run === undefined || run.ended) return;
      run.ended = true;
      setTimeout(() => writing.delete(runId), KEEP_WRITTEN_MS).unref?.();
      const [endEntry, ...expiries] = endCommands(key, runId);
      // NOMKSTREAM answers null when Redis lost the stream: its followers resume once it is written back.
      written(run, endEntry, (reply) => {
        if (reply === null) run.failed = true;
        else run.endAcked = true;
      });
      for (const args of expiries) fire(args);
    },
    /** Another instance took the run over (this one lost its lease): its followers here go on reading Redis, where the taker ends it. */
    handOver(runId) {
      const run = writing.get(runId);
      if (run === undefined) return;
      writing.delete(runId);
      run.handedOver = true;
      wake(run);
    },
    /** The run's opening as `start` was given it, or undefined when Redis no longer has it. */
    async opening(runId) {
      const [entry] = await command(["XRANGE", streamKey(runId), "0-1", "0-1"]);
      return entry === undefined ? undefined : JSON.parse(entry[1][1]);
    },
    /** The conversation was deleted: it has no newest run any more. */
    async forget(key) {
      await command(["DEL", newestKey(key)]);
    },
    /** Keeps a Stop the run's instance may not carry out (it died): where the client stopped. */
    async stopAt(runId, offset) {
      await command(["SET", stopKey(runId), String(offset), "EX", String(RUNNING_TTL_SECONDS)]);
    },
    /** Where a Stop kept for the run cut it, or undefined. */
    async stopOf(runId) {
      const offset = await command(["GET", stopKey(runId)]);
      return offset === null ? undefined : Number(offset);
    },
    /**
     * Ends a run another instance wrote and can no longer end (it died mid-run): `frame` (the
     * protocol's failure) after its last frame, then the end, so its followers get both.
     */
    async abandon(key, runId, frame) {
      // In one script: a writer that is only late cannot slip a frame in between.
      const ended = await command(["EVAL", ABANDON, "1", streamKey(runId), frame, String(ttlSeconds)]);
      await Promise.all([ended === 0 ? undefined : command(expireNewest(key, runId)), command(unlisted(key, runId))]);
    },
    /** The runs not ended that started over `ageMs` ago, of any instance: `{ key, runId }`. */
    async unended(ageMs) {
      const members = await command(["ZRANGEBYSCORE", unendedKey, "-inf", `(${Date.now() - ageMs}`]);
      return members.map((member) => {
        const [key, runId] = JSON.parse(String(member));
        return { key, runId };
      });
    },
    /** The run is no longer one to look for (it ended, or its conversation was deleted). */
    async unlist(key, runId) {
      await command(unlisted(key, runId));
    },
    /** The conversation's newest run: `{ id, length, ended }`, or undefined. */
    async newest(key) {
      const id = await command(["GET", newestKey(key)]);
      if (id === null) return undefined;
      const last = await command(["XREVRANGE", streamKey(id), "+", "-", "COUNT", "2"]);
      if (last.length === 0) return undefined;
      const ended = !isFrame(last[0][0]);
      const frame = last.find(([entryId]) => isFrame(entryId));
      return { id, length: frame === undefined ? 0 : offsetOf(frame[0]) + 1, ended };
    },
    /** The run's frames `[from, to)` as they are now. */
    async slice(runId, from, to) {
      if (to <= from) return [];
      const entries = await command(["XRANGE", streamKey(runId), frameId(from), frameId(to - 1)]);
      return entries.map(([, fields]) => fields[1]);
    },
    /**
     * The run's frames from offset `from`, then each one as it is appended, until the run ends or
     * `signal` aborts (a closed connection stops following; the run goes on).
     * @param {string} runId @param {number} from @param {AbortSignal} [signal]
     */
    async *follow(runId, from, signal) {
      const run = writing.get(runId);
      if (run !== undefined && !run.failed) {
        from = yield* followWritten(run, from, signal);
        if (!run.handedOver || signal?.aborted) return;
      }
      const stream = streamKey(runId);
      // What is there already, on the shared connection: a run that ended needs no blocking read.
      let after = `0-${from + 1}`;
      const present = await command(["XRANGE", stream, `(${after}`, "+"]);
      if (present.length === 0 && (await command(["EXISTS", stream])) === 0) return;
      for (const [entryId, fields] of present) {
        if (!isFrame(entryId)) return;
        yield fields[1];
        after = entryId;
      }
      if (signal?.aborted) return;
      yield* readers.follow(stream, after, signal);
    },
    /** Closes the connections this log opened. */
    close() {
      readers.close();
      return redis.close();
    },
  };
}

/**
 * A run this instance writes, followed from memory: each frame once Redis holds it, until Redis
 * holds its end, so a follower here sees what one on another instance sees. A failed write ends
 * it with an error, as a failed read does: the client resumes from its offset on what Redis holds.
 * A run handed over to another instance ends here at the offset it reached (returned).
 * @param {{ frames: string[], acked: number, endAcked: boolean, failed: boolean, handedOver?: boolean, waiters: Set<() => void> }} run
 * @param {number} from @param {AbortSignal} [signal]
 */
function followWritten(run, from, signal) {
  const ended = () => {
    if (run.failed) throw new Error("chat-session-reducer/server: the run's frames could not be written to Redis");
    return run.endAcked || run.handedOver === true;
  };
  return followHeld(run, from, signal, () => run.acked, ended);
}
