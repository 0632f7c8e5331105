// createChatServer: one protocol's routes over a store of conversations and a run log. A request
// finds its conversation (by owner and id), applies what the user did to the stored state
// (request.js), and starts the run (run.js) the app's `run` produces; resume and stop find the
// conversation's run in the log, wherever the client's first connection went. One run per
// conversation: a newer request stops the one in flight first. Requests of one conversation are
// handled one at a time, so the state each applies to is the one the previous left.

import { aiSdkProtocol } from "chat-session-reducer/ai-sdk";
import { agUiProtocol } from "chat-session-reducer/ag-ui";
import { actionsProtocol, chatStreamProtocol } from "chat-session-reducer/chat-stream";
import { json, noContent, readJson, refuse } from "./http.js";
import { pageBody, pageOf, pagingOf } from "./page.js";
import { applyRequest, checkConversationId, conversationIdOf, modelInput } from "./request.js";
import { createMemoryRunLog } from "./run-log.js";
import { startRun } from "./run.js";
import { createAbandonedRuns } from "./abandoned.js";
import { KEEP_WRITTEN_MS } from "./redis/run-log.js";
import { createSaver } from "./saver.js";
import { INTERRUPTED, recoverInterrupted } from "./recover.js";
import { keyOf } from "./keys.js";
import { createPgliteStore } from "./store/index.js";
import { RUN_HEADERS } from "../session/run.js";
import { invalid } from "../shared/coded-error.js";

const PROTOCOLS = { "ai-sdk": aiSdkProtocol, "ag-ui": agUiProtocol, actions: actionsProtocol, "chat-stream": chatStreamProtocol };

// How long a new run's response waits for its first save (several instances).
const FIRST_SAVE_WAIT_MS = 5_000;

/** The 503 for a new run while another instance still holds the conversation's (several instances). */
const runElsewhere = (headers) => refuse(503, "run_elsewhere", "another instance still runs this conversation; try again", undefined, headers);

/** The frames the client says it applied of the run it names (`chat-run-offset`), or undefined when it says none. */
function offsetOf(request) {
  if (!request.headers.has(RUN_HEADERS.offset)) return undefined;
  const offset = Number(request.headers.get(RUN_HEADERS.offset));
  return Number.isInteger(offset) && offset >= 0 ? offset : undefined;
}

/** The 400 for a conversation id the server does not accept (request.js's rule), or undefined. */
function refusedId(id, headers) {
  const refused = checkConversationId(id);
  return refused && refuse(400, refused.error.code, refused.error.message, refused.error.path, headers);
}

/** Runs `task` after every earlier task of the same key (one request of a conversation at a time). */
function createQueues() {
  const tails = new Map();
  return (key, task) => {
    const run = (tails.get(key) ?? Promise.resolve()).then(task);
    const tail = run.catch(() => {});
    tails.set(key, tail);
    void tail.then(() => tails.get(key) === tail && tails.delete(key));
    return run;
  };
}

function checkOptions(options) {
  if (options === null || typeof options !== "object") throw invalid("options", "an object");
  if (!Object.hasOwn(PROTOCOLS, options.protocol)) throw invalid("options.protocol", `one of ${Object.keys(PROTOCOLS).join(", ")}`);
  if (typeof options.run !== "function") throw invalid("options.run", "a function giving the model's stream");
  if (typeof options.authorize !== "function") throw invalid("options.authorize", "a function giving the request's owner (or null to refuse)");
  if (options.store !== undefined && typeof options.store?.load !== "function") throw invalid("options.store", "a SessionStore (createPgliteStore, createPostgresStore)");
}

/** @param {import("./index.js").ChatServerOptions} options */
export function createChatServer(options) {
  checkOptions(options);
  const { authorize, run: produce } = options;
  const store = options.store ?? createPgliteStore();
  const protocol = PROTOCOLS[options.protocol];
  /** @type {import("./index.js").RunLog} */
  const log = options.log ?? createMemoryRunLog();
  const maxBodyBytes = options.maxBodyBytes ?? 1_000_000;
  const onError = options.onError ?? ((error) => console.error("chat-session-reducer/server:", error));
  const errorMessage = options.errorMessage ?? (() => "The agent failed to answer. Try again.");
  const api = (options.api ?? "/api/chat").replace(/\/+$/, "");
  const conversationsPath = (options.conversations ?? "/api/conversations").replace(/\/+$/, "");
  const serialized = createQueues();
  const keepEndedMs = options.keepEndedMs ?? 60_000;
  /** The newest run of each conversation this process holds, by key. */
  const runs = new Map();
  /** Several instances: how a stop reaches the instance holding the run (createRedisControl). */
  const control = options.control;
  /** Several instances: a lease per conversation's run, by which a run whose instance died is told (createRedisLeases). */
  const leases = options.leases;
  const { sweep, interruptIfAbandoned, stopEnded } = createAbandonedRuns({ store, log, leases, protocol, protocols: PROTOCOLS, runs, serialized, onError });
  const ready = leases === undefined ? recoverInterrupted(store, onError) : sweep();
  const checking = leases && setInterval(() => void sweep(), options.checkAbandonedMs ?? leases.leaseMs);
  if (checking) checking.unref?.();
  control?.listen(async (command) => command?.type === "stop" && typeof command.key === "string" && serialized(command.key, () => stopHeld(command.key, command.run, command.offset)));

  /**
   * Lets go of a run some time after it ended and its state was written (a late Stop that names
   * fewer frames than the run had still finds it meanwhile); the store has the conversation.
   */
  function forgetWhenDone(key, held) {
    void held.done
      .then(() => held.saver.written())
      .then(() => {
        const timer = setTimeout(() => runs.get(key) === held && runs.delete(key), keepEndedMs);
        timer.unref?.();
      });
  }

  /**
   * The conversation's run this instance holds, if it is the newest: with several instances
   * (`control`) a later run may have been another's, and then the store has the state.
   */
  async function heldNewest(key) {
    const held = runs.get(key);
    if (held === undefined || control === undefined) return held;
    return (await log.newest(key))?.id === held.id ? held : undefined;
  }

  /** The owner of a request, or the 401 to answer. */
  async function ownerOf(request) {
    await ready;
    const answer = await authorize(request);
    if (typeof answer === "string" && answer !== "") return { owner: answer, headers: undefined };
    if (answer && typeof answer.owner === "string" && answer.owner !== "") return { owner: answer.owner, headers: answer.headers };
    return { refusal: refuse(401, "unauthorized", "not signed in, or the session is not valid") };
  }

  /** The conversation's state now: its run's, else the store's (undefined when unknown). */
  async function stateOf(owner, id) {
    const held = await heldNewest(keyOf(owner, id));
    if (held !== undefined) return held.ended ? held.last : held.state;
    return (await store.load(owner, id))?.state;
  }

  function stream(runId, from, signal, headers) {
    const encoder = new TextEncoder();
    const frames = log.follow(runId, from, signal);
    const body = new ReadableStream({
      async pull(controller) {
        const { done, value } = await frames.next();
        if (done) {
          if (protocol.end !== "") controller.enqueue(encoder.encode(protocol.end));
          controller.close();
        } else controller.enqueue(encoder.encode(protocol.writeJson(value)));
      },
      cancel: () => void frames.return(undefined),
    });
    return new Response(body, { status: 200, headers: { ...protocol.headers, [RUN_HEADERS.id]: runId, [RUN_HEADERS.offset]: String(from), ...headers } });
  }

  /**
   * The state a new request of the conversation applies to: its run in flight stopped (here, or
   * through `control` on the instance holding it), a run whose instance died stored interrupted
   * (`leases`), else the store's. `elsewhere` when another instance still holds a run it did not stop.
   */
  async function stateBefore(key, owner, id) {
    const previous = await heldNewest(key);
    if (previous !== undefined) {
      const state = previous.ended ? previous.last : await previous.stop();
      await previous.saver.written();
      return { state, saved: previous.saver.saved };
    }
    await stopElsewhere(key, undefined, undefined);
    if (leases !== undefined) await interruptIfAbandoned(key, owner, id);
    const state = (await store.load(owner, id))?.state;
    return { state, saved: state, elsewhere: leases !== undefined && state?.status === "streaming" };
  }

  /** The owner, the JSON body and the conversation it names (`id`, `key`), or the refusal to answer. */
  async function bodyConversation(request) {
    const who = await ownerOf(request);
    if (who.refusal) return { refusal: who.refusal };
    const read = await readJson(request, maxBodyBytes);
    if (read.refusal) return { refusal: read.refusal };
    // A string once refusedId has passed it.
    const id = /** @type {string} */ (conversationIdOf(options.protocol, read.body));
    const refusal = refusedId(id, who.headers);
    if (refusal) return { refusal };
    return { who, body: read.body, id, key: keyOf(who.owner, id) };
  }

  async function chat(request) {
    const conversation = await bodyConversation(request);
    if (conversation.refusal) return conversation.refusal;
    const { who, id, key, body } = conversation;
    return serialized(key, async () => {
      const { state, saved, elsewhere } = await stateBefore(key, who.owner, id);
      if (elsewhere) return runElsewhere(who.headers);
      const applied = applyRequest(options.protocol, body, state);
      if (!applied.ok) return refuse(applied.status, applied.error.code, applied.error.message, applied.error.path, who.headers, applied.status === 409 ? { state: applied.state } : undefined);
      const saver = createSaver({ store, owner: who.owner, id, saved, onError, everyMs: options.saveEveryMs });
      if (applied.state.status !== "streaming") {
        saver.save(applied.state, { now: true });
        await saver.written();
        return noContent(who.headers);
      }
      const runId = crypto.randomUUID();
      const lease = await leases?.acquire(key, () => lostRun(key, runId));
      if (leases !== undefined && lease === undefined) return runElsewhere(who.headers);
      // A run that cannot start lets go of its lease (it would be renewed for nothing).
      await Promise.resolve(log.start(key, runId, { protocol: options.protocol, start: applied.state })).catch(async (error) => {
        await lease?.release();
        throw error;
      });
      const context = { id, owner: who.owner, messages: modelInput(options.protocol, applied.state, { id }), state: applied.state, body, request };
      const firstSave = saver.nextWrite();
      const started = startRun({
        key,
        id: runId,
        protocol,
        start: applied.state,
        produce: (signal) => produce({ ...context, signal }),
        log,
        saver,
        onError,
        errorMessage,
      });
      runs.set(key, Object.assign(started, { saver }));
      forgetWhenDone(key, started);
      if (lease !== undefined) void started.settled().then(() => lease.release()).catch(onError);
      // Several instances: stored streaming before its stream is answered, so an instance that dies
      // from now on leaves a conversation the others' sweep finds (bounded: a store that is down
      // delays no reply).
      if (leases !== undefined) await Promise.race([firstSave, new Promise((resolve) => setTimeout(resolve, FIRST_SAVE_WAIT_MS).unref?.())]);
      return stream(runId, 0, request.signal, who.headers);
    });
  }

  /** The conversation's run here lost its lease to another instance: it stops, and the other ends it. */
  function lostRun(key, runId) {
    const held = runs.get(key);
    if (held?.id !== runId) return;
    runs.delete(key);
    held.lost();
  }

  /**
   * Whether a conversation the log does not know may be in it again soon (several instances):
   * stored streaming, or saved within the minute its writer keeps a run's frames, while the client
   * names a run, is one Redis lost (a restart) and its instance writes back; the client tries again.
   */
  async function lostByTheLog(owner, id, request) {
    if (leases === undefined) return false;
    const stored = await store.load(owner, id);
    if (stored === undefined) return false;
    if (stored.state.status === "streaming") return true;
    return request.headers.has(RUN_HEADERS.id) && Date.now() - Date.parse(stored.updatedAt ?? "") < KEEP_WRITTEN_MS;
  }

  /** A reconnect: what the client lacks of the conversation's newest run, then its live tail; 204 when there is none. */
  async function resume(request, id) {
    const who = await ownerOf(request);
    if (who.refusal) return who.refusal;
    if (id === undefined) {
      const read = await readJson(request, maxBodyBytes);
      if (read.refusal) return read.refusal;
      id = /** @type {string} */ (conversationIdOf(options.protocol, read.body));
    }
    const badId = refusedId(id, who.headers);
    if (badId) return badId;
    const newest = await log.newest(keyOf(who.owner, id));
    if (newest === undefined && (await lostByTheLog(who.owner, id, request))) return runElsewhere(who.headers);
    if (newest === undefined) return noContent(who.headers);
    const offset = offsetOf(request);
    const sameRun = request.headers.get(RUN_HEADERS.id) === newest.id;
    const from = sameRun && offset !== undefined ? Math.min(offset, newest.length) : 0;
    return stream(newest.id, from, request.signal, who.headers);
  }

  /** Stop: the conversation's run is cut where the client says it stopped, and stored so. */
  async function stop(request) {
    const conversation = await bodyConversation(request);
    if (conversation.refusal) return conversation.refusal;
    const { who, key, id } = conversation;
    return serialized(key, async () => {
      const held = await heldNewest(key);
      const named = request.headers.get(RUN_HEADERS.id) ?? undefined;
      const cut = offsetOf(request);
      if (held !== undefined) await stopHeld(key, named, cut);
      else await stopAnywhere(key, who.owner, id, named, cut);
      return noContent(who.headers);
    });
  }

  /**
   * A Stop of a run this instance does not hold: kept in the log (the instance that ends the run,
   * should its own have died, cuts it there too), then sent to the holder; unanswered, carried out here.
   */
  async function stopAnywhere(key, owner, id, named, cut) {
    if (control === undefined) return;
    const newest = await log.newest(key);
    if (newest === undefined || (named !== undefined && named !== newest.id)) return;
    await log.stopAt?.(newest.id, cut ?? newest.length);
    if ((await stopElsewhere(key, named, cut)) || leases === undefined) return;
    const now = await log.newest(key);
    if (now?.id === newest.id && now.ended) await stopEnded(owner, id, now, cut ?? newest.length);
    else await interruptIfAbandoned(key, owner, id);
  }

  /** Stops the conversation's run this instance holds (the one named, when named); false when it holds none. */
  async function stopHeld(key, named, cut) {
    const held = runs.get(key);
    if (held === undefined || (named !== undefined && named !== held.id)) return false;
    await held.stop(cut);
    await held.saver.written();
    return true;
  }

  /**
   * Asks the instance holding the conversation's run to stop it (several instances, `control`):
   * true once that one has stored it, false when the control's wait ran out (or there is no run).
   * Nothing to ask when the run ended, unless the client stopped before its end (a late Stop
   * that cuts it shorter).
   */
  async function stopElsewhere(key, named, cut) {
    if (control === undefined) return false;
    const newest = await log.newest(key);
    if (newest === undefined || (named !== undefined && named !== newest.id)) return false;
    if (newest.ended && (cut === undefined || cut >= newest.length)) return true;
    return control.send({ type: "stop", key, run: newest.id, offset: cut });
  }

  async function list(request) {
    const who = await ownerOf(request);
    if (who.refusal) return who.refusal;
    const limit = Number(new URL(request.url).searchParams.get("limit") ?? 100);
    return json(200, { conversations: await store.list(who.owner, { limit: Number.isInteger(limit) && limit > 0 ? Math.min(limit, 1000) : 100 }) }, who.headers);
  }

  async function read(request, id) {
    const who = await ownerOf(request);
    if (who.refusal) return who.refusal;
    const notFound = refuse(404, "not_found", "no such conversation", undefined, who.headers);
    if (checkConversationId(id) !== undefined) return notFound;
    const paging = pagingOf(new URL(request.url).searchParams);
    if (paging?.refusal) return refuse(400, "invalid", `${paging.refusal.path}: ${paging.refusal.problem}`, paging.refusal.path, who.headers);
    if (paging === undefined) {
      const state = await stateOf(who.owner, id);
      return state === undefined ? notFound : json(200, { id, state, older: null }, who.headers);
    }
    const found = await pageFrom(who.owner, id, paging);
    if (found === undefined) return notFound;
    if (found.page === undefined) return refuse(400, "invalid", "before: expected the id of a message of the conversation", "before", who.headers);
    return json(200, pageBody(id, found.state, found.page, paging), who.headers);
  }

  /** The page of a conversation: from a run held here, else from the store (its own `page` when it has one, which reads only the page). */
  async function pageFrom(owner, id, paging) {
    const held = await heldNewest(keyOf(owner, id));
    if (held === undefined && typeof store.page === "function") return store.page(owner, id, paging);
    const state = held === undefined ? (await store.load(owner, id))?.state : held.ended ? held.last : held.state;
    return state === undefined ? undefined : { state, page: pageOf(state, paging) };
  }

  async function remove(request, id) {
    const who = await ownerOf(request);
    if (who.refusal) return who.refusal;
    if (checkConversationId(id) !== undefined) return refuse(404, "not_found", "no such conversation", undefined, who.headers);
    const key = keyOf(who.owner, id);
    return serialized(key, async () => {
      const held = runs.get(key);
      if (held !== undefined) {
        if (!held.ended) await held.stop();
        await held.saver.written();
        runs.delete(key);
      } else await stopElsewhere(key, undefined, undefined);
      // No instance serves it from its run any more (one that held it reads the store after this).
      await log.forget?.(key);
      const deleted = await store.delete(who.owner, id);
      return deleted ? noContent(who.headers) : refuse(404, "not_found", "no such conversation", undefined, who.headers);
    });
  }

  /** Every route, by the request's path under `api` and `conversations`. */
  async function route(request) {
    const path = new URL(request.url).pathname.replace(/\/+$/, "");
    const { method } = request;
    if (path === api && method === "POST") return chat(request);
    if (path === `${api}/stop` && method === "POST") return stop(request);
    if (path === `${api}/connect` && method === "POST") return resume(request);
    const streamOf = path.startsWith(`${api}/`) && path.endsWith("/stream") ? path.slice(api.length + 1, -"/stream".length) : undefined;
    if (streamOf !== undefined && !streamOf.includes("/") && method === "GET") return resume(request, decodeURIComponent(streamOf));
    if (path === conversationsPath && method === "GET") return list(request);
    const conversation = path.startsWith(`${conversationsPath}/`) ? decodeURIComponent(path.slice(conversationsPath.length + 1)) : undefined;
    if (conversation !== undefined && method === "GET") return read(request, conversation);
    if (conversation !== undefined && method === "DELETE") return remove(request, conversation);
    return refuse(404, "not_found", "no such route");
  }

  /** Every route, never throwing: what went wrong inside is the app's onError and a 500. */
  async function handle(request) {
    try {
      return await route(request);
    } catch (error) {
      onError(error);
      return refuse(500, "internal", "the server failed");
    }
  }

  return {
    fetch: handle,
    chat,
    resume,
    stop,
    conversations: { list, read, delete: remove },
    /**
     * A graceful shutdown: the sweep for runs whose instance died (`leases`) stops, every run in
     * flight ends now as interrupted (its followers get the same failure frame the store folds),
     * and resolves once every state is written. A crash instead leaves them to the next start's
     * recovery (or, with `leases`, to another instance's sweep).
     */
    async close() {
      clearInterval(checking);
      for (const held of runs.values()) held.interrupt(INTERRUPTED);
      for (const held of runs.values()) await held.saver.written();
    },
    /** Resolves once every run in flight has ended and its state is written. */
    async idle() {
      for (const held of runs.values()) {
        await held.done;
        await held.saver.written();
      }
    },
  };
}
