// After a restart, no run of the previous process goes on: a conversation stored while its reply
// streamed is stored again as interrupted (the partial reply kept, an error part saying so), so
// nobody waits on a reply that will never come. Once per store per process, before any request.

import { sessionReducer } from "chat-session-reducer";

export const INTERRUPTED = "The reply was interrupted: the server restarted before it finished.";
// (A graceful shutdown, ChatServer.close, ends the runs in flight with the same words.)

const recovered = new WeakMap();

/** Marks every conversation `store` holds as streaming interrupted (once per store). */
export function recoverInterrupted(store, onError) {
  if (!recovered.has(store)) recovered.set(store, interruptAll(store, onError));
  return recovered.get(store);
}

async function interruptAll(store, onError) {
  let streaming;
  try {
    streaming = await store.streaming();
  } catch (error) {
    onError(error);
    return;
  }
  for (const { owner, id } of streaming) {
    try {
      await interrupt(store, owner, id);
    } catch (error) {
      onError(error);
    }
  }
}

/** Stores the conversation, if still stored streaming, as interrupted; true when it did. */
export async function interrupt(store, owner, id) {
  const stored = await store.load(owner, id);
  if (stored?.state.status !== "streaming") return false;
  const state = sessionReducer(stored.state, { type: "part", part: { type: "error", error: INTERRUPTED } });
  await store.save(owner, id, state, stored.state);
  return true;
}
