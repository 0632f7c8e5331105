// The entry's own declarations: the build appends them to wasm-bindgen's, which declare the
// types used here, in the package's index.d.ts.

/**
 * The next session state. Returns `state` itself when the action changes nothing; otherwise
 * a new state that shares every untouched message, part and nested object with `state`.
 * `undefined` is the empty session, and an action whose `type` is a string this version does
 * not know returns `state` (as Redux requires of a reducer). Throws a `TypeError` with
 * `code: "invalid"` and `path` when `state` or `action` is not of its type; nothing is
 * changed then.
 */
export function sessionReducer(state: SessionState | undefined, action: SessionAction): SessionState;

/** Where a UI draws "< active+1 / count >": the fork that `messages[index]` begins an alternative of. */
export interface BranchAt {
  /** The id of `messages[index - 1]`; null for index 0. */
  after: string | null;
  /** The index of the alternative the path shows. */
  active: number;
  /** How many alternatives the fork has. */
  count: number;
}

/**
 * The fork that `state.messages[index]` begins an alternative of, or `undefined` when it begins
 * none. `index` may be `messages.length`: the fork after the last message (a regenerate whose
 * reply has not begun). It reads `state.forks` in JavaScript, without a call into the module.
 */
export function branchAt(state: SessionState, index: number): BranchAt | undefined;

/**
 * Whether the tool part `part` of `state` waits on the app, for a UI to tell a call it must act
 * on from one the agent is working on: `"confirmation"`, a call awaiting the user's approval or
 * answer to a question (`approve`, `deny`, `answer`); `"result"`, a client-side tool whose result
 * the app must give (`running` after every run holding it stopped streaming, not approved, with
 * no sub-agent run); `undefined`, the agent is working on it, or it is done. It reads the state in
 * JavaScript, without a call into the module.
 */
export function waitsOnApp(state: SessionState, part: AgentPart): "confirmation" | "result" | undefined;
