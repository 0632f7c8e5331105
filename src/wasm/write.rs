//! Applies the core's patches to the caller's JavaScript state. The patches are encoded as
//! numbers and applied by `apply.js` in one call, which copies only the objects on each
//! patch's path. The encoding, each patch its code (`protocol::patch`; apply.js gets the codes
//! from src/wasm/protocol.js, generated from it) then its fields:
//!
//! | patch | fields |
//! |---|---|
//! | PushMessage | run, the new message's kind (`protocol::new_message`) |
//! | PushPart | run, message, the new part's kind (`protocol::new_part`) |
//! | AppendText | run, message, part |
//! | SetStatus | run, status (`protocol::status`) |
//! | SetCall | call, state (`protocol::tool_state`), change (`protocol::call_change`) |
//! | StartAgent | call |
//! | Truncate | messages, 1 + parts (0: all parts) |
//! | Reset | |
//! | AppendInput | call |
//! | MergeMetadata | run, message, 1 + part (0: the message) |
//! | UpdateData | run, message, part |
//! | AgentState | run |
//! | Snapshot | run, number of slots, then per slot 1 + held index, 1 + given index (0: none) |
//! | Source | the index of the batch's action the next patches take their values from |
//! | SetAside | messages kept, forks kept, 1 when created (else 0), the trims (`Patch::SetAside`) |
//! | SwitchBranch | fork, messages kept, to, the trims |
//! | KeepForks | number kept, each fork's index |
//! | Enqueue | |
//! | SendQueue | |
//! | Unqueue | index |
//! | Load | |
//! | CutParts | run, message, keep |
//! | Prepend | number skipped, each message's index; number dropped, each fork's index; 1 when the fork at the start moved (else 0) |
//!
//! A run or a call is its depth followed by (message, part) for each call on the way down.
//! A step that parses a call's streamed input at `tool-input-end` (`parse_input`) applies its
//! patches as they are logged, in a draft that each read and the final state continue. No string
//! crosses: an assistant message's id is the part's `messageId`, or `MADE_UP_ID_PREFIX` and its
//! index (the core's `resolve_target`), which `apply.js` writes itself.
//!
//! `leaves` (a batch's actions) is `undefined` when there are none: most steps have none, and
//! each value made or copied for the call costs a crossing.

use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

use crate::core::patch::Patch;
use crate::core::path::CallPos;
use crate::core::protocol::{call_change, new_message, new_part, patch, status, tool_state};
use crate::core::Cut;

// The step's result is made and recorded in one call: `facts.js` applies the patches
// (`apply.js`) and notes what is known of the new state, which saves a crossing per step.
#[wasm_bindgen(module = "/src/wasm/facts.js")]
extern "C" {
    #[wasm_bindgen(js_name = applyStep, catch)]
    fn apply_step(
        state: &JsValue,
        action: &JsValue,
        leaves: Option<&js_sys::Array>,
        ops: &[u32],
        session: u32,
        message: i32,
        part: i32,
    ) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(js_name = finishStep, catch)]
    fn finish_step(
        state: &JsValue,
        action: &JsValue,
        draft: &JsValue,
        ops: &[u32],
        restart: bool,
        session: u32,
        message: i32,
        part: i32,
    ) -> Result<JsValue, JsValue>;
}

#[wasm_bindgen(module = "/src/wasm/apply.js")]
extern "C" {
    #[wasm_bindgen(js_name = startDraft, catch)]
    fn start_draft(
        state: &JsValue,
        action: &JsValue,
        leaves: Option<&js_sys::Array>,
    ) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(js_name = parseInput, catch)]
    fn parse_input_js(
        draft: &JsValue,
        ops: &[u32],
        restart: bool,
        call: &[u32],
    ) -> Result<bool, JsValue>;

    #[wasm_bindgen(js_name = patchSetsAgentState, catch)]
    fn patch_sets_agent_state_js(
        action: &JsValue,
        leaves: Option<&js_sys::Array>,
        leaf: u32,
    ) -> Result<bool, JsValue>;

    #[wasm_bindgen(js_name = cutMessages, catch)]
    fn cut_messages(messages: &JsValue, kept: u32, parts: u32) -> Result<JsValue, JsValue>;
}

/// A new list: `messages` cut as `cut` says (the last message kept copied when it loses parts).
pub fn cut(messages: &JsValue, cut: Cut) -> Result<JsValue, JsValue> {
    let (kept, parts) = truncate_fields(cut);
    cut_messages(messages, kept, parts)
}

/// Truncate's fields: the messages kept, then 1 + the parts kept of the last one (0: all).
fn truncate_fields(cut: Cut) -> (u32, u32) {
    (
        index(cut.messages),
        cut.parts.map_or(0, |parts| index(parts) + 1),
    )
}

/// A step's patches applied in JavaScript as far as the core had logged them at the last
/// `parse_input`, and the inputs parsed on the way.
pub struct Draft {
    handle: JsValue,
    applied: usize,
}

impl Draft {
    /// The patches logged since the draft's last ones, and whether the draft must start over
    /// because the core took back some it had (a sub-agent run started for nothing).
    fn next_ops(&mut self, patches: &[Patch]) -> (Vec<u32>, bool) {
        let restart = self.applied > patches.len();
        let from = if restart { 0 } else { self.applied };
        self.applied = patches.len();
        (encode(&patches[from..]), restart)
    }
}

/// What is known of the next state, recorded with it: the id of the Rust session behind it, and
/// where a plain text delta appends in it (`message` -1: nowhere simple).
pub struct Facts {
    pub session: u32,
    pub message: i32,
    pub part: i32,
}

/// The next state: `state` with `patches` applied (the same `state` when the values they
/// carry change nothing), by way of `draft` when a call's input was parsed in this step, and
/// recorded with its `facts`. `leaves`: a batch's actions, which the `Source` patches refer
/// to. `state` itself is not touched. Fails only when `state` is not what the module made of
/// it (changed in place since, or not plain data).
pub fn apply(
    state: &JsValue,
    action: &JsValue,
    leaves: Option<&js_sys::Array>,
    patches: &[Patch],
    draft: Option<Draft>,
    facts: Facts,
) -> Result<JsValue, JsValue> {
    let Facts {
        session,
        message,
        part,
    } = facts;
    match draft {
        Some(mut draft) => {
            let (ops, restart) = draft.next_ops(patches);
            finish_step(
                state,
                action,
                &draft.handle,
                &ops,
                restart,
                session,
                message,
                part,
            )
        }
        None => apply_step(
            state,
            action,
            leaves,
            &encode(patches),
            session,
            message,
            part,
        ),
    }
}

/// Parses the streamed input of the call at `call`, in `state` with `patches` applied, as
/// `JSON.parse` parses it (blank text as `{}`), and keeps it in `draft` (made on the first
/// call) for the patch that sets it: `Ok(false)` when it is not JSON. The text is read and
/// parsed in JavaScript, where it is held; only the outcome crosses. Fails as `apply` fails.
pub fn parse_input(
    draft: &mut Option<Draft>,
    state: &JsValue,
    action: &JsValue,
    leaves: Option<&js_sys::Array>,
    patches: &[Patch],
    call: &[CallPos],
) -> Result<bool, JsValue> {
    let draft = match draft {
        Some(draft) => draft,
        None => draft.insert(Draft {
            handle: start_draft(state, action, leaves)?,
            applied: 0,
        }),
    };
    let mut at = Vec::with_capacity(1 + 2 * call.len());
    path(&mut at, call);
    let (ops, restart) = draft.next_ops(patches);
    parse_input_js(&draft.handle, &ops, restart, &at)
}

/// Whether the agent-state patch of `action` (of its batch leaf `leaf`) gives a run without
/// an `agentState` one. `None` when it cannot be read: applying it then fails as `apply` does.
pub fn patch_sets_agent_state(
    action: &JsValue,
    leaves: Option<&js_sys::Array>,
    leaf: usize,
) -> Option<bool> {
    patch_sets_agent_state_js(action, leaves, index(leaf)).ok()
}

/// The patches as numbers: each one's code (`protocol::patch`), then its fields.
fn encode(patches: &[Patch]) -> Vec<u32> {
    let mut ops = Vec::with_capacity(16);
    for patch in patches {
        match patch {
            Patch::PushMessage { run, message } => {
                ops.push(patch::PUSH_MESSAGE);
                path(&mut ops, run);
                ops.push(new_message::code(message));
            }
            Patch::PushPart { run, message, part } => {
                ops.push(patch::PUSH_PART);
                path(&mut ops, run);
                ops.extend([index(*message), new_part::code(part)]);
            }
            Patch::AppendText { run, message, part } => {
                ops.push(patch::APPEND_TEXT);
                path(&mut ops, run);
                ops.extend([index(*message), index(*part)]);
            }
            Patch::SetStatus { run, status } => {
                ops.push(patch::SET_STATUS);
                path(&mut ops, run);
                ops.push(status::code(*status));
            }
            Patch::SetCall {
                call,
                state,
                change,
            } => {
                ops.push(patch::SET_CALL);
                path(&mut ops, call);
                ops.extend([tool_state::code(*state), call_change::code(change)]);
            }
            Patch::StartAgent { call } => {
                ops.push(patch::START_AGENT);
                path(&mut ops, call);
            }
            Patch::Truncate { messages, parts } => {
                let (kept, parts) = truncate_fields(Cut {
                    messages: *messages,
                    parts: *parts,
                });
                ops.extend([patch::TRUNCATE, kept, parts]);
            }
            Patch::Reset => ops.push(patch::RESET),
            Patch::AppendInput { call } => {
                ops.push(patch::APPEND_INPUT);
                path(&mut ops, call);
            }
            Patch::MergeMetadata { run, message, part } => {
                ops.push(patch::MERGE_METADATA);
                path(&mut ops, run);
                ops.extend([index(*message), part.map_or(0, |part| index(part) + 1)]);
            }
            Patch::UpdateData { run, message, part } => {
                ops.push(patch::UPDATE_DATA);
                path(&mut ops, run);
                ops.extend([index(*message), index(*part)]);
            }
            Patch::AgentState { run } => {
                ops.push(patch::AGENT_STATE);
                path(&mut ops, run);
            }
            Patch::Snapshot { run, slots } => {
                ops.push(patch::SNAPSHOT);
                path(&mut ops, run);
                ops.push(index(slots.len()));
                let code = |at: Option<usize>| at.map_or(0, |at| index(at) + 1);
                for (held, given) in slots {
                    ops.extend([code(*held), code(*given)]);
                }
            }
            Patch::Source { action } => ops.extend([patch::SOURCE, index(*action)]),
            Patch::SetAside {
                messages,
                forks,
                created,
                trims,
            } => {
                ops.extend([patch::SET_ASIDE, index(*messages), index(*forks)]);
                ops.push(u32::from(*created));
                each_index(&mut ops, trims);
            }
            Patch::SwitchBranch {
                fork,
                messages,
                to,
                trims,
            } => {
                ops.extend([patch::SWITCH_BRANCH, index(*fork), index(*messages)]);
                ops.push(index(*to));
                each_index(&mut ops, trims);
            }
            Patch::KeepForks { forks } => {
                ops.push(patch::KEEP_FORKS);
                indexes(&mut ops, forks);
            }
            Patch::Enqueue => ops.push(patch::ENQUEUE),
            Patch::SendQueue => ops.push(patch::SEND_QUEUE),
            Patch::Unqueue { index: at } => ops.extend([patch::UNQUEUE, index(*at)]),
            Patch::Load => ops.push(patch::LOAD),
            Patch::CutParts { run, message, keep } => {
                ops.push(patch::CUT_PARTS);
                path(&mut ops, run);
                ops.extend([index(*message), index(*keep)]);
            }
            Patch::Prepend {
                skipped,
                dropped,
                after_moved,
            } => {
                ops.push(patch::PREPEND);
                indexes(&mut ops, skipped);
                indexes(&mut ops, dropped);
                ops.push(u32::from(*after_moved));
            }
        }
    }
    ops
}

fn index(value: usize) -> u32 {
    value as u32
}

/// A list of indexes: its length, then each.
fn indexes(ops: &mut Vec<u32>, list: &[usize]) {
    ops.push(index(list.len()));
    each_index(ops, list);
}

/// Each of the indexes (one copy of the loop for every list of them).
fn each_index(ops: &mut Vec<u32>, list: &[usize]) {
    for &at in list {
        ops.push(index(at));
    }
}

fn path(ops: &mut Vec<u32>, path: &[CallPos]) {
    ops.push(index(path.len()));
    for pos in path {
        ops.extend([index(pos.message), index(pos.part)]);
    }
}
