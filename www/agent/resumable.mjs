// Runs that outlive their connection, for the protocols whose clients reconnect (the AI SDK's
// GET {api}/{id}/stream, an AG-UI connect): a run writes into a recording rather than into the
// response, and the POST and every reconnect replay the recording from its first byte, then
// follow it live, as `resumable-stream` does for the AI SDK. A closed connection only stops
// following; Stop (the hook's `stopApi`) cancels the run. One active run per conversation; one
// that ended is replayed whole until the next one starts.

// The end of a run held before it ended (holdNextAt), among the chunks it wrote meanwhile.
const END = Symbol("end");

/** The active runs (and those that ended, until the next), keyed by protocol and conversation id. */
export function createRunRegistry() {
  const runs = new Map();
  // The chunk after which the next run's connections are cut (disconnectNextAt), if any.
  let nextCut;
  // The chunk counts at which the next run's output stops until released (holdNextAt).
  let nextStops = [];
  // The run started last and how many have started (the test hooks count its chunks).
  let latest;
  let started = 0;

  /**
   * A new run for `key` (an active one is cancelled first: a new request replaces it). `run.res`
   * is what the wire writes to, in place of a response; `run.signal` aborts on `cancel()`.
   */
  function start(key) {
    runs.get(key)?.cancel();
    const abort = new AbortController();
    const followers = new Set();
    // `pending`: what the run wrote while held at `stops[0]` chunks, delivered when released.
    const run = { chunks: [], status: 200, headers: {}, signal: abort.signal, followers, cutAt: nextCut, stops: nextStops, pending: [] };
    nextCut = undefined;
    nextStops = [];
    const finish = (how) => {
      // A run that ended stays replayable until the conversation's next run: a page that stored
      // it still streaming (a tab closed as it ended) reconnects and gets its end, not a 204.
      if (runs.get(key) === run && how !== "end") runs.delete(key);
      run.finished = how;
      for (const res of followers) how === "end" ? res.end() : res.destroy();
      followers.clear();
    };
    run.res = {
      destroyed: false,
      writeHead(status, headers) {
        Object.assign(run, { status, headers });
      },
      write(chunk) {
        if (isHeld(run)) run.pending.push(chunk);
        else deliver(run, chunk);
        return true;
      },
      end: () => (isHeld(run) ? run.pending.push(END) : finish("end")),
      // The scenario's own drop (a network failure mid-reply): nothing is left to resume.
      destroy() {
        run.res.destroyed = true;
        finish("drop");
      },
    };
    run.cancel = () => {
      run.res.destroyed = true;
      abort.abort(new Error("stopped by the user"));
      finish("drop");
    };
    run.finish = finish;
    runs.set(key, run);
    latest = run;
    started += 1;
    return run;
  }

  /** Replays what `run` wrote to `res`, then follows it until it ends or `res` closes. */
  function follow(run, res) {
    res.writeHead(run.status, run.headers);
    for (const chunk of run.chunks) res.write(chunk);
    if (run.finished) return run.finished === "end" ? res.end() : res.destroy();
    run.followers.add(res);
    res.on("close", () => run.followers.delete(res));
  }

  function deliver(run, chunk) {
    run.chunks.push(chunk);
    for (const res of run.followers) res.write(chunk);
    if (run.chunks.length === run.cutAt) disconnect(run);
  }

  // Held: the run has delivered the chunks of its next stop (or is still writing what was held).
  const isHeld = (run) => run.pending.length > 0 || run.chunks.length === run.stops[0];

  // Moves `run` on from its stop: what it wrote meanwhile goes out, up to its next stop.
  function moveOn(run, stops) {
    run.stops = stops;
    while (run.pending.length > 0 && run.chunks.length !== run.stops[0] && run.finished === undefined) {
      const chunk = run.pending.shift();
      if (chunk === END) run.finish("end");
      else deliver(run, chunk);
    }
  }

  // Cuts the connections that follow `run`, as a network failure would; the run goes on.
  function disconnect(run) {
    const cut = run.followers.size;
    for (const res of run.followers) res.destroy();
    run.followers.clear();
    return cut;
  }

  return {
    start,
    follow,
    /** The conversation's active run, or the one that ended last, or undefined. */
    active: (key) => runs.get(key),
    /** Cuts every connection that follows a run; returns how many. */
    disconnectAll: () => [...runs.values()].reduce((cut, run) => cut + disconnect(run), 0),
    /** The number of the run started last (1 for the first, 0 before any), how many chunks it has written, and whether it is held. */
    latestRun: () => ({ run: started, chunks: latest?.chunks.length ?? 0, held: latest !== undefined && latest.finished === undefined && isHeld(latest) }),
    /** Cuts the connections of the next run to start once it has written `chunks` chunks. */
    disconnectNextAt(chunks) {
      nextCut = chunks;
    },
    /** Stops the next run's output once it has written each of `stops` (ascending chunk counts), until released. */
    holdNextAt(stops) {
      nextStops = stops;
    },
    /** Moves the run started last on to its next stop. */
    releaseLatest() {
      if (latest !== undefined) moveOn(latest, latest.stops.slice(1));
    },
    /** Releases every run's stops and the next run's. */
    releaseAll() {
      nextStops = [];
      for (const run of new Set([...runs.values(), latest].filter(Boolean))) moveOn(run, []);
    },
  };
}
