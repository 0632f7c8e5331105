//! The JavaScript binding: the only code that touches JS values.

use alloc::vec::Vec;
mod decode;
mod error;
mod facts;
mod read;
mod recent;
mod write;

use alloc::rc::Rc;

use wasm_bindgen::prelude::*;

use crate::core::model::{is_cancelled, Json, Text};
use crate::core::patch::Patch;
use crate::core::path::CallPath;
use crate::core::{plain_append_target, reduce_with, resumable_cut, Cut, Outcome, Session};

#[wasm_bindgen(typescript_custom_section)]
const JSON_VALUE: &'static str = r#"
/** Any JSON value: `input`, `output`, `metadata`, `data` and `agentState` are kept exactly as given. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
/** An RFC 6902 JSON Patch operation; `path` and `from` are JSON Pointers (RFC 6901). */
export type JsonPatchOperation =
  | { op: "add" | "replace" | "test"; path: string; value: JsonValue }
  | { op: "remove"; path: string }
  | { op: "move" | "copy"; from: string; path: string };
/** An RFC 6902 JSON Patch, applied all or nothing. */
export type JsonPatch = JsonPatchOperation[];
/** What the package throws: an `Error` (a `TypeError` for bad input) with a machine-readable `code`, and the
 *  `path` of what is wrong for bad input (`invalid`) and for a corrupt stored session (`corrupt`); a save
 *  given the revision it may overwrite finds a newer one stored (`conflict`, with that `rev`). */
export interface SessionReducerError extends Error {
  code: "invalid" | "internal" | "unavailable" | "quota" | "corrupt" | "version" | "conflict";
  path?: string;
  rev?: number;
}
"#;

#[wasm_bindgen(typescript_custom_section)]
const V3_TYPES: &'static str = r#"
/** A part a user message carries after its text (`send`'s `parts`, a queued message's): an
 *  attachment (a `data` part named `"file"` with `{ mediaType, url, filename? }`), sources or app data. */
export type UserPart = ({ type: "text" } & TextPart) | ({ type: "data" } & DataPart);
/** Where a step began (the AI SDK's `step-start`); not rendered. */
export interface StepPart { type: "step" }
"#;

/// Reads and checks a state the module did not make, and indexes it.
fn read_session(state: &JsValue) -> Result<Session, JsValue> {
    Ok(Session::new(Rc::new(read::session_state(state)?)))
}

/// The package's `sessionReducer` (src/main/session-reducer.js) answers what needs no Rust work
/// itself, reads the action (`read.js`), and calls this with what it found: the id of the Rust
/// session behind `state` (-1: none) and the action's encoding, its strings as `readStrings`
/// encoded them, so that the module calls back for neither. `undefined` is the empty state by
/// then. Its declaration is the package's (src/main/index.d.ts); the glue that exports it is not
/// exported itself.
#[wasm_bindgen(js_name = sessionReducer, skip_typescript)]
pub fn session_reducer_read(
    state: &JsValue,
    action: &JsValue,
    session: f64,
    codes: Vec<i32>,
    strings: Vec<u8>,
) -> Result<JsValue, JsValue> {
    let parsed = read::entry_action(&codes, &strings)?;
    reduce_read(state, action, session, parsed)
}

/// The action `sessionReducer` decodes from `readAction`'s codes and `readStrings`' bytes: the
/// package's reader, alone, for tests/wasm_interop_bench.rs (not exported to JavaScript; only
/// with `js-interop`, which the bench needs: even unused, it cost the package's wasm 22 bytes).
#[cfg(feature = "js-interop")]
#[doc(hidden)]
pub fn decode_action(
    codes: &[i32],
    strings: &[u8],
) -> Result<Option<crate::core::model::SessionAction>, JsValue> {
    Ok(read::entry_action(codes, strings)?.map(|read| read.action))
}

/// The next state for an action read as `parsed` (`None`: of a type this version does not
/// know), from `state` and the Rust session with this id, if the module still holds it.
fn reduce_read(
    state: &JsValue,
    action: &JsValue,
    session: f64,
    parsed: Option<read::ReadAction>,
) -> Result<JsValue, JsValue> {
    let Some(parsed) = parsed else {
        return Ok(state.clone());
    };
    let session = match recent::take(session) {
        Some(session) => session,
        None => read_session(state)?,
    };
    advance(state, action, &parsed, session)
}

/// Applies `parsed` (read from `action`) to `session`, the session of `state`, and keeps the
/// result as the conversation's head.
fn advance(
    state: &JsValue,
    action: &JsValue,
    parsed: &read::ReadAction,
    mut session: Session,
) -> Result<JsValue, JsValue> {
    let changed_state = |thrown: JsValue| {
        error::unreadable(
            "state",
            "changed since the reducer made it, or not plain data",
            &thrown,
        )
    };
    // A streamed tool input is parsed in JavaScript, where its text is: the core learns only
    // whether it is JSON, and the parsed inputs stay in the draft that applies the patches.
    let mut draft = None;
    let leaves = parsed.leaves.as_ref();
    let mut unreadable = None;
    let outcome = {
        let mut parse_input = |call: &CallPath, _: &Text, patches: &[Patch]| -> Option<Json> {
            match write::parse_input(&mut draft, state, action, leaves, patches, call) {
                Ok(true) => Some(Json::Null),
                Ok(false) => None,
                Err(thrown) => {
                    unreadable.get_or_insert(thrown);
                    None
                }
            }
        };
        let mut patch_sets_state =
            |_: &Json, leaf: usize| write::patch_sets_agent_state(action, leaves, leaf);
        reduce_with(
            &mut session,
            &parsed.action,
            &mut parse_input,
            &mut patch_sets_state,
        )
    };
    if let Some(thrown) = unreadable {
        return Err(changed_state(thrown));
    }
    let (message, part) = plain_append_target(&session).map_or((-1, -1), |(message, part)| {
        (position(message), position(part))
    });
    let id = recent::new_id();
    let next = match outcome {
        Outcome::Changed(patches) => {
            let facts = write::Facts {
                session: id,
                message,
                part,
            };
            write::apply(state, action, leaves, &patches, draft, facts).map_err(changed_state)?
        }
        Outcome::Unchanged => {
            // It only records what is known; failing, it would only cost a later read.
            let _ = facts::remember(state, action, state, id, message, part);
            state.clone()
        }
        Outcome::Refused(refusal) => return Err(error::refused(&refusal)),
        Outcome::Broken => return Err(error::internal()),
    };
    recent::keep(id, session);
    Ok(next)
}

fn position(value: usize) -> i32 {
    i32::try_from(value).unwrap_or(-1)
}

/// What Retry sends: a new array, through the last finished call after the last user
/// message, else through that user message; `messages` unchanged when there is none.
#[wasm_bindgen(unchecked_return_type = "AgentMessage[]")]
pub fn resumable(
    #[wasm_bindgen(unchecked_param_type = "AgentMessage[]")] messages: &JsValue,
) -> Result<JsValue, JsValue> {
    let parsed = read::messages(messages)?;
    let cut = resumable_cut(&parsed).unwrap_or(Cut {
        messages: parsed.len(),
        parts: None,
    });
    // Only a getter or Proxy that answers differently the second time fails here.
    write::cut(messages, cut)
        .map_err(|thrown| error::unreadable("messages", "could not be copied", &thrown))
}

/// Whether a tool error means the user cancelled the call (`code === "cancelled"`).
#[wasm_bindgen(js_name = isCancelled)]
pub fn is_cancelled_js(
    #[wasm_bindgen(unchecked_param_type = "ToolError")] error: &JsValue,
) -> Result<bool, JsValue> {
    Ok(is_cancelled(&read::tool_error(error)?))
}
