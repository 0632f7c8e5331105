// Runs whose instance died (several instances, issue 32 item 3): with leases, a conversation stored
// streaming whose run no instance holds is stored as its run's log has it (every frame its client
// may have shown, then the interruption, or the Stop a client sent that nobody carried out), and
// the log is ended with that frame, so the run's followers end as the store has it. So is a run the
// log lists unended whose instance died before its first save (the store still has the state
// before it, or nothing). The sweep runs every `checkAbandonedMs`; a new request and a Stop nobody
// answered check their conversation first.

import { createRunFold, foldStopped } from "./fold.js";
import { INTERRUPTED, interrupt } from "./recover.js";
import { keyOf } from "./keys.js";

/**
 * @param {{ store: any, log: any, leases: any, protocol: any, protocols: Record<string, any>, runs: Map<string, any>, serialized: (key: string, task: () => Promise<unknown>) => Promise<unknown>, onError: (error: unknown) => void }} server
 */
export function createAbandonedRuns({ store, log, leases, protocol, protocols: PROTOCOLS, runs, serialized, onError }) {
  /** The sweep, while one goes on. @type {Promise<void> | undefined} */
  let sweeping;
  /** When each run the log lists unended was first seen with no lease. @type {Map<string, number>} */
  const unheldSince = new Map();

  /**
   * Stores as interrupted every conversation stored streaming whose run no instance holds (its
   * lease ran out: the instance died), and ends that run's log so its followers get the end.
   */
  function sweep() {
    sweeping ??= (async () => {
      for (const { owner, id } of await store.streaming()) {
        const key = keyOf(owner, id);
        // Saved within the lease's time: perhaps a live run whose lease Redis lost (it takes it back).
        await serialized(key, () => interruptIfAbandoned(key, owner, id, { quietMs: leases?.leaseMs }));
      }
      // Started over a lease's time ago: a live run has renewed its lease (or taken back one Redis lost) by then.
      const listed = (await log.unended?.(leases?.leaseMs ?? 0)) ?? [];
      // A run no longer listed (another instance ended it) needs no first sighting.
      const stillListed = new Set(listed.map(({ runId }) => runId));
      for (const runId of unheldSince.keys()) if (!stillListed.has(runId)) unheldSince.delete(runId);
      for (const { key, runId } of listed) {
        const [owner, id] = JSON.parse(key);
        await serialized(key, () => interruptIfAbandoned(key, owner, id, { listed: runId }));
      }
    })()
      .catch(onError)
      .finally(() => (sweeping = undefined));
    return sweeping;
  }

  /**
   * A conversation stored streaming whose run no instance holds: stored as its run's log has it
   * (every frame its client may have shown, then the interruption, or the Stop a client sent
   * that nobody carried out), and the log ended with that frame, so its followers end the same.
   */
  async function interruptIfAbandoned(key, owner, id, { quietMs = 0, listed = undefined } = {}) {
    const held = runs.get(key);
    if (held !== undefined && !held.ended) return;
    // A run of this instance that just ended writes its last state now.
    await held?.saver.written();
    if (await leases?.held(key)) {
      if (listed !== undefined) unheldSince.delete(listed);
      return;
    }
    if (listed !== undefined) {
      if (!(await stillUnended(key, listed)) || !unheldForALease(listed)) return;
      unheldSince.delete(listed);
    }
    const stored = await store.load(owner, id);
    if (listed === undefined) {
      if (stored?.state.status !== "streaming") return;
      if (Date.now() - Date.parse(stored.updatedAt ?? "") < quietMs) return;
    }
    // Judged dead from here: its lease is taken over, so a run alive after all stops at its next renewal.
    if (leases?.takeOver !== undefined && !(await leases.takeOver(key))) return;
    let newest = await log.newest(key);
    const cut = newest === undefined ? undefined : await log.stopOf?.(newest.id);
    const opening = newest === undefined ? undefined : await log.opening?.(newest.id);
    if (newest !== undefined && !newest.ended && log.abandon !== undefined) {
      // The log is ended first, in one step after whatever its last frame is then (a stalled
      // writer's last frames among them), so the fold below reads what its followers get.
      await log.abandon(key, newest.id, JSON.stringify(endFrameOf(opening, cut) ?? protocol.failedFrame(INTERRUPTED)));
      newest = await log.newest(key);
    }
    const folded = newest === undefined ? undefined : await foldLogged(newest, cut, opening);
    if (newest === undefined || folded === undefined) {
      await interrupt(store, owner, id);
      return;
    }
    await store.save(owner, id, folded.state, stored?.state);
  }

  /** Whether the run the log lists unended is still its conversation's newest and unended; if not, it is unlisted. */
  async function stillUnended(key, runId) {
    const newest = await log.newest(key);
    if (newest?.id === runId && !newest.ended) return true;
    unheldSince.delete(runId);
    await log.unlist?.(key, runId);
    return false;
  }

  /**
   * Whether a listed run has been seen with no lease and no end for a lease's time: a run that
   * just ended may have let go of its lease before Redis has its end entry (another connection).
   */
  function unheldForALease(runId) {
    const since = unheldSince.get(runId);
    if (since === undefined) unheldSince.set(runId, Date.now());
    return since !== undefined && Date.now() - since >= (leases?.leaseMs ?? 0);
  }

  /** The protocol a run's opening (as the log keeps it) names; undefined when the log lost it. */
  const protocolOf = (opening) => (opening === undefined ? undefined : PROTOCOLS[opening.protocol]);

  /** The frame that ends a run whose instance died: the stopped frame where a client's Stop was kept, else the failure; undefined when the log lost its opening. */
  function endFrameOf(opening, cut) {
    const runProtocol = protocolOf(opening);
    if (runProtocol === undefined) return undefined;
    return cut !== undefined ? runProtocol.stoppedFrame : runProtocol.failedFrame(INTERRUPTED);
  }

  /**
   * The state a run leaves as its log has it, from its `opening` (undefined when the log lost it):
   * stopped at `cut` when a client stopped it there, else its end, or, unended, interrupted.
   */
  async function foldLogged(run, cut, opening) {
    const runProtocol = protocolOf(opening);
    if (runProtocol === undefined) return undefined;
    const start = /** @type {import("chat-session-reducer").SessionState} */ (opening.start);
    const frames = (await log.slice(run.id, 0, run.length)).map((json) => JSON.parse(json));
    if (cut !== undefined && (!run.ended || cut < frames.length)) return { state: foldStopped(runProtocol, start, frames, cut) };
    const fold = createRunFold(runProtocol, start);
    for (const frame of frames) fold.push(frame);
    if (!run.ended) fold.push(JSON.parse(JSON.stringify(runProtocol.failedFrame(INTERRUPTED))));
    fold.end();
    return { state: fold.state };
  }

  /**
   * A Stop nobody carried out (the run's instance died), of a run that has ended since (another
   * instance stored it interrupted): cut where the client stopped, if the store still has that end.
   */
  async function stopEnded(owner, id, run, cut) {
    if (cut === undefined || cut >= run.length || (await leases?.held(keyOf(owner, id)))) return;
    const opening = await log.opening?.(run.id);
    const [whole, stopped, stored] = await Promise.all([foldLogged(run, undefined, opening), foldLogged(run, cut, opening), store.load(owner, id)]);
    if (stopped === undefined || stored === undefined || JSON.stringify(stored.state) !== JSON.stringify(whole?.state)) return;
    await store.save(owner, id, stopped.state, stored.state);
  }

  return { sweep, interruptIfAbandoned, stopEnded };
}
