// SPEC v3 "Actions": branchAt, in JavaScript: a UI calls it per row per render, so it reads
// `state.forks` here and never enters the module. The rule is the core's `branch_at`
// (src/core/model.rs), for Rust values; tests/wasm_branches.rs fails when the two disagree.

/** @type {typeof import("chat-session-reducer").branchAt} */
export function branchAt(state, index) {
  const { messages, forks } = state;
  if (forks === undefined || !Number.isInteger(index) || index < 0 || index > messages.length) return undefined;
  const after = index === 0 ? null : messages[index - 1].id;
  for (const fork of forks) {
    if (fork.after === after) return { after, active: fork.active, count: fork.alternatives.length };
  }
  return undefined;
}
