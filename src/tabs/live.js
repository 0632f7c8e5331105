// A run's frames, live to the tabs that follow it. Saves while a reply streams are at most twice a
// second, so a follower showing only what is stored trails the tab that streams and jumps; the tab
// that streams therefore posts each frame it applies on the channel, numbered (`{ key, frame:
// { from, seq, action } }`), and says in each save's announcement which number the stored session
// includes (`seq`). A follower that read that save applies the frames after it, in order, to what
// it shows; one that cannot tell where it is (no announcement yet, a gap, another writer) shows
// what is stored until the next announcement puts it back in step.

import { sessionReducer } from "chat-session-reducer";

// The frames a follower keeps to apply after the save it reads next (a save may be announced after
// frames that came later than what it stored).
const KEPT_FRAMES = 256;

/**
 * The tab that streams applied `action` (a frame of its run; undefined: another change, posted to
 * no one) and shows `session` now: the session is numbered with the frames it includes.
 * @param {{ key: string, channel: Pick<BroadcastChannel, "postMessage"> | undefined, live: { self: string, sent: number, seqOf: WeakMap<object, number> } }} t
 */
export function applied(t, session, action) {
  if (action !== undefined && t.channel !== undefined) {
    t.live.sent += 1;
    try {
      t.channel.postMessage({ key: t.key, frame: { from: t.live.self, seq: t.live.sent, action } });
    } catch {
      // A closed channel: the followers read the next save.
    }
  }
  t.live.seqOf.set(session, t.live.sent);
}

/** What a save's announcement says of where the stored `session` is in this tab's frames. */
export const stamp = (t, session) => ({ from: t.live.self, seq: t.live.seqOf.get(session) });

/** A follower applies `frame` to the session it shows, as the tab that streams applied it. */
function show(t, frame) {
  const { session, follows } = t.host.newest();
  if (!follows) return false;
  let next;
  try {
    next = sessionReducer(session, frame.action);
  } catch {
    return false;
  }
  t.live.at = frame.seq;
  t.followed.add(next);
  t.host.follow(next, undefined);
  return true;
}

/** A frame heard: applied when it is the next after what this tab shows; kept in any case. */
export function heardFrame(t, frame) {
  const { live } = t;
  live.kept.push(frame);
  if (live.kept.length > KEPT_FRAMES) live.kept.shift();
  if (live.from !== frame.from || frame.seq <= live.at) return;
  // A frame missed (or one this tab could not apply): out of step until the next save.
  if (frame.seq !== live.at + 1 || !show(t, frame)) live.from = undefined;
}

/**
 * A save was announced (`{ rev, from, seq }`, the last one heard) and this tab has adopted what is
 * stored: when that is the announced revision, the frames after it are applied, and the next ones
 * as they come.
 */
export function heardSave(t, data) {
  const { live } = t;
  live.from = undefined;
  if (data === undefined) return;
  if (data.seq === undefined || data.rev !== t.rev || !t.host.newest().follows) return;
  live.from = data.from;
  live.at = data.seq;
  const after = live.kept.filter((frame) => frame.from === data.from && frame.seq > data.seq).sort((a, b) => a.seq - b.seq);
  for (const frame of after) if (frame.seq !== live.at + 1 || !show(t, frame)) return void (live.from = undefined);
}

/** A connection's part of this: its own frames' count, and where it is in another's. */
export const liveState = () => ({ self: Math.random().toString(36).slice(2), sent: 0, seqOf: new WeakMap(), from: undefined, at: 0, kept: [], announced: undefined });
