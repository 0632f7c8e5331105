import type { SessionState } from "chat-session-reducer";

/** Stand-ins for the browser's BroadcastChannel and Web Locks (tests, other hosts). */
export interface TabsOptions {
  /** Default `new BroadcastChannel("chat-session-reducer")` (without one: localStorage's `storage` event). */
  channel?: Pick<BroadcastChannel, "postMessage" | "addEventListener" | "removeEventListener">;
  /** Default `navigator.locks` (without: no takeover of a closed tab's run). */
  locks?: Pick<LockManager, "request" | "query">;
}

/** What useAgentSession gives the coordinator of a conversation. */
export interface TabsHost {
  /** `runStart`: the session the streaming run started from, saved with it (a reload resumes onto it). */
  newest(): { options: { id?: string }; session: SessionState; id: string; follows: boolean; runStart?: SessionState };
  /** `runStart`, with `resume`: the session the run a closed tab left started from, as stored with it. */
  follow(session: SessionState, id: string | undefined, resume?: boolean, runStart?: SessionState): void;
  resumes(): boolean;
  actions(): Record<string, (...args: any[]) => unknown>;
}

/** What useAgentSession's `tabs` option takes: `connect` is the hook's, called once per key and storage. */
export interface TabCoordination {
  connect(key: string, storage: unknown, host: TabsHost): unknown;
  forward<Actions extends Record<string, (...args: any[]) => unknown>>(actions: Actions, connected: () => unknown): Actions;
}

/**
 * Several tabs on one conversation, for useAgentSession's `tabs` with a storage the tabs share
 * (`storage: localStorage`): one request per run (the other tabs follow it live and forward what
 * their user does to the tab that streams), a save never overwrites a newer one (storageError
 * `conflict`, the newer shown), the run of a closed tab resumed (with `resume`) or stopped.
 * Nothing is coordinated with sessionStorage (each tab's own) or a session store.
 */
export function coordinateTabs(options?: TabsOptions): TabCoordination;
