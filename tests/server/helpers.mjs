// What the server's tests share: a store in memory (the SessionStore contract, JSON in and out),
// fetch routed to a server's handler, and a scripted model whose frames the test releases.

/** A SessionStore in memory: what it holds is JSON text, so a test sees exactly what a database would
 *  give back. Two stores on the same `rows` are two processes on one database. */
export function memoryStore(rows = new Map()) {
  const keyOf = (owner, id) => JSON.stringify([owner, id]);
  return {
    rows,
    async load(owner, id) {
      const row = rows.get(keyOf(owner, id));
      return row === undefined ? undefined : { ...row, state: JSON.parse(row.state) };
    },
    async save(owner, id, state) {
      rows.set(keyOf(owner, id), { id, owner, state: JSON.stringify(state), title: "", status: state.status, updatedAt: new Date().toISOString() });
    },
    async list(owner) {
      return [...rows.values()].filter((row) => row.owner === owner).map(({ id, title, status, updatedAt }) => ({ id, title, status, updatedAt }));
    },
    async delete(owner, id) {
      return rows.delete(keyOf(owner, id));
    },
    async streaming() {
      return [...rows.values()].filter((row) => row.status === "streaming").map(({ owner, id }) => ({ owner, id }));
    },
    async close() {},
  };
}

/** Routes the global fetch to `handler` (relative URLs against http://app.test); returns the undo. */
export function routeFetch(handler) {
  const original = globalThis.fetch;
  globalThis.fetch = (url, init) => handler(new Request(new URL(String(url), "http://app.test"), init));
  return () => (globalThis.fetch = original);
}

/**
 * A model whose frames the test pushes: `stream` is what the app's run returns, `push(frame)`,
 * `fail(error)`, `end()`; `aborted` once the server aborted it.
 */
export function scriptedModel() {
  const queue = [];
  let wake;
  let closed;
  const model = {
    signal: undefined,
    push(frame) {
      queue.push({ frame });
      wake?.();
    },
    fail(error) {
      queue.push({ error });
      wake?.();
    },
    end() {
      queue.push({ end: true });
      wake?.();
    },
    async *stream() {
      for (;;) {
        while (queue.length > 0) {
          const next = queue.shift();
          if (next.error) throw next.error;
          if (next.end) return;
          yield next.frame;
        }
        if (closed) return;
        await new Promise((resolve) => (wake = resolve));
      }
    },
  };
  return model;
}

/** A server's `run` for the tests: each run a new scriptedModel, given the run's signal and pushed onto `models`. */
export function scriptedRun(models) {
  return ({ signal }) => {
    const model = scriptedModel();
    model.signal = signal;
    models.push(model);
    return model.stream();
  };
}

/** Resolves once `check()` holds, polling (bounded: fails after 5 s). */
export async function until(check, what) {
  for (let waited = 0; !(await check()); waited += 5) {
    if (waited > 5000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** `response` whose body fails ("network error", as fetch's does) after `chunks` chunks. */
export function dropAfter(response, chunks) {
  let passed = 0;
  const body = response.body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        if (passed++ >= chunks) controller.error(new TypeError("network error"));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(body, { status: response.status, headers: response.headers });
}
