// The blocking readers that followers of runs written by another instance share: one XREAD over
// up to `streamsPerReader` streams on one connection, each stream read from the lowest entry one of
// its followers still lacks, instead of a connection per follower (1,000 followers were 1,000
// connections). A follower that joins while its reader blocks unblocks it (CLIENT UNBLOCK), so it
// waits for no timeout. What a reader gets is queued per follower: a run is bounded (maxLength).

/** Stream entry ids ("ms-seq") in order. */
function compareIds(a, b) {
  const [aMs, aSeq] = a.split("-").map(Number);
  const [bMs, bSeq] = b.split("-").map(Number);
  return aMs - bMs || aSeq - bSeq;
}

/** XREAD's reply as [stream, entries] pairs: an array (RESP2), a map by stream name (RESP3, node-redis 6). */
function streamsOf(reply) {
  if (Array.isArray(reply)) return reply.map(([name, entries]) => [String(name), entries]);
  return reply instanceof Map ? [...reply] : Object.entries(reply);
}

/** Hands `entries` (read after `cursor`) to each of a stream's `followers` that has all before them. */
function deliver(followers, entries, cursor, isFrame) {
  for (const follower of followers ?? []) {
    // A follower that joined after the read began may need entries before its cursor: next read.
    if (compareIds(follower.after, cursor) < 0) continue;
    for (const [entryId, fields] of entries) {
      if (follower.ended || compareIds(entryId, follower.after) <= 0) continue;
      if (isFrame(entryId)) follower.frames.push(fields[1]);
      else follower.ended = true;
      follower.after = entryId;
    }
    follower.wake();
  }
}

/** Ends the followers of a stream Redis no longer has. */
function endStream(streams, name) {
  for (const follower of streams.get(name) ?? []) Object.assign(follower, { ended: true }).wake();
  streams.delete(name);
}

/** Where a stream is read from: after the lowest entry its followers have. */
const lowestAfter = (followers) => [...followers].map((follower) => follower.after).sort(compareIds)[0];

/** @typedef {{ after: string, frames: string[], ended: boolean, error: unknown, wake: () => void }} Follower */

/**
 * One connection's blocking XREAD loop over the streams of its followers; `closed()` is called
 * when its connection failed or closed (its followers get the error).
 * @param {{ ready: Promise<any>, duplicate: () => Promise<any> }} redis
 * @param {{ blockMs: number, streamsPerReader: number, isFrame: (entryId: string) => boolean, drop: (connection: any) => void }} options
 * @param {() => void} closed
 */
function streamReader(redis, { blockMs, streamsPerReader, isFrame, drop }, closed) {
  /** @type {Map<string, Set<Follower>>} */
  const streams = new Map();
  const connection = redis.duplicate().then(async (opened) => ({ opened, id: await opened.sendCommand(["CLIENT", "ID"]) }));
  connection.catch(() => {});
  /** The XREAD in flight: each stream's cursor in it. */
  let reading;
  let unblocked = false;

  const fail = (error) => {
    for (const followers of streams.values()) for (const follower of followers) Object.assign(follower, { error }).wake();
    streams.clear();
    closed();
    void connection.then(({ opened }) => drop(opened), () => {});
  };
  // Streams Redis no longer has (expired, or lost in a restart) end their followers.
  const endGone = async (opened, names) => {
    const exists = await Promise.all(names.map((name) => opened.sendCommand(["EXISTS", name])));
    names.forEach((name, i) => exists[i] === 0 && endStream(streams, name));
  };
  let running = false;
  async function loop() {
    running = true;
    try {
      const { opened } = await connection;
      while (streams.size > 0) {
        const cursors = new Map([...streams].map(([name, followers]) => [name, lowestAfter(followers)]));
        reading = cursors;
        unblocked = false;
        const reply = await opened.sendCommand(["XREAD", "COUNT", "100", "BLOCK", String(blockMs), "STREAMS", ...cursors.keys(), ...cursors.values()]).finally(() => (reading = undefined));
        if (reply !== null) for (const [name, entries] of streamsOf(reply)) deliver(streams.get(name), entries, cursors.get(name), isFrame);
        else if (!unblocked) await endGone(opened, [...cursors.keys()]);
        for (const [name, followers] of streams) if ([...followers].every((follower) => follower.ended)) streams.delete(name);
      }
    } catch (error) {
      fail(error);
    } finally {
      running = false;
    }
  }
  /** Wakes the XREAD in flight when it does not read what `follower` of `name` lacks (retried
   *  while Redis has not blocked it yet: CLIENT UNBLOCK answers 0 then). */
  async function unblock(name, follower) {
    const inFlight = reading;
    const cursor = inFlight?.get(name);
    if (inFlight === undefined || (cursor !== undefined && compareIds(cursor, follower.after) <= 0)) return;
    const [{ id }, shared] = await Promise.all([connection, redis.ready]);
    for (let tries = 0; tries < 20 && reading === inFlight; tries++) {
      unblocked = true;
      if ((await shared.sendCommand(["CLIENT", "UNBLOCK", String(id)])) === 1) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  const self = {
    room: () => streams.size < streamsPerReader,
    /** @param {string} name @param {Follower} follower */
    join(name, follower) {
      const followers = streams.get(name) ?? new Set();
      followers.add(follower);
      streams.set(name, followers);
      if (!running) void loop();
      else void unblock(name, follower).catch(() => {});
    },
    /** @param {string} name @param {Follower} follower */
    leave(name, follower) {
      const followers = streams.get(name);
      followers?.delete(follower);
      if (followers?.size === 0) streams.delete(name);
    },
    close: () => fail(new Error("chat-session-reducer/server: the run log closed")),
  };
  return self;
}

/**
 * @param {{ ready: Promise<any>, duplicate: () => Promise<any> }} redis
 * @param {{ blockMs: number, streamsPerReader?: number, isFrame: (entryId: string) => boolean, drop: (connection: any) => void }} options
 */
export function createStreamReaders(redis, { streamsPerReader = 200, ...options }) {
  /** @type {Set<ReturnType<typeof streamReader>>} */
  const readers = new Set();

  const readerWithRoom = () => {
    for (const existing of readers) if (existing.room()) return existing;
    const created = streamReader(redis, { streamsPerReader, ...options }, () => readers.delete(created));
    readers.add(created);
    return created;
  };

  return {
    /**
     * The frames of `stream` after entry `after` as its reader gets them, until its end entry,
     * until Redis no longer has it, or until `signal` aborts.
     * @param {string} stream @param {string} after @param {AbortSignal} [signal]
     */
    async *follow(stream, after, signal) {
      /** @type {Follower} */
      const follower = { after, frames: [], ended: false, error: undefined, wake: () => {} };
      const onAbort = () => follower.wake();
      signal?.addEventListener("abort", onAbort, { once: true });
      const at = readerWithRoom();
      at.join(stream, follower);
      try {
        for (;;) {
          const frames = follower.frames.splice(0);
          for (const frame of frames) {
            if (signal?.aborted) return;
            yield frame;
          }
          if (signal?.aborted || (follower.ended && follower.frames.length === 0)) return;
          if (follower.error !== undefined && follower.frames.length === 0) throw follower.error;
          if (follower.frames.length === 0) await new Promise((resolve) => (follower.wake = () => resolve(undefined)));
        }
      } finally {
        signal?.removeEventListener("abort", onAbort);
        at.leave(stream, follower);
      }
    },
    close() {
      for (const existing of [...readers]) existing.close();
    },
  };
}
