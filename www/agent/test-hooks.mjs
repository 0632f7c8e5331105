// The end-to-end tests' hooks on the demo's runs (DEMO_TEST_HOOKS=1): the connections that follow
// runs can be cut as a network failure would cut them (now, or the next run's once it has sent N
// chunks), and the next run's output can be held at chunk counts until released, so a test acts
// at the moment of a reply it chose. The runs themselves go on in chat-session-reducer/server.

export function createTestHooks() {
  // The connections that follow a run now (a chat response, a reconnect): each can be cut.
  const following = new Set();
  let nextCut;
  let nextStops = [];
  let latest;
  let started = 0;
  const records = new Set();

  /** A record of a run starting now: its chunks, its stops, what it wrote while held. */
  function startRun(name) {
    const record = { name, chunks: 0, stops: nextStops, pending: [], cutAt: nextCut, ended: false };
    nextStops = [];
    nextCut = undefined;
    latest = record;
    started += 1;
    records.add(record);
    return record;
  }

  /**
   * `response`'s body, cut (erroring, as a dropped connection does) by `disconnectAll`, and,
   * after `cutAfter` chunks when given.
   */
  function follow(response, cutAfter) {
    if (response.body === null) return response;
    const reader = response.body.getReader();
    let passed = 0;
    let controller;
    const entry = {
      cut() {
        following.delete(entry);
        controller.error(new Error("cut by the test"));
        reader.cancel().catch(() => {});
      },
    };
    following.add(entry);
    const body = new ReadableStream({
      start(given) {
        controller = given;
      },
      async pull() {
        const { done, value } = await reader.read().catch(() => ({ done: true }));
        if (!following.has(entry)) return;
        if (done) {
          following.delete(entry);
          return controller.close();
        }
        controller.enqueue(value);
        passed += 1;
        if (passed === cutAfter) entry.cut();
      },
      cancel() {
        following.delete(entry);
        reader.cancel().catch(() => {});
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  }

  return {
    startRun,
    follow,
    /** The cut the next run's connection gets (disconnectNextAt), taken by the run starting now. */
    takeCut() {
      const cut = latest?.cutAt;
      if (latest !== undefined) latest.cutAt = undefined;
      return cut;
    },
    disconnectAll() {
      const cut = following.size;
      for (const entry of following) entry.cut();
      following.clear();
      return cut;
    },
    disconnectNextAt(chunks) {
      nextCut = chunks;
    },
    holdNextAt(stops) {
      nextStops = stops;
    },
    releaseLatest() {
      latest?.moveOn?.(latest.stops.slice(1));
    },
    releaseAll() {
      nextStops = [];
      for (const record of records) record.moveOn?.([]);
    },
    latestRun: () => ({ run: started, chunks: latest?.chunks ?? 0, held: latest !== undefined && !latest.ended && (latest.isHeld?.() ?? false) }),
  };
}
