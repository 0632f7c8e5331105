//! The JavaScript binding: the only code that touches JS values.

mod error;
mod fields;
mod read;
mod recent;
pub mod storage;
mod write;

use std::rc::Rc;

use tsify::Ts;
use wasm_bindgen::prelude::*;

use crate::core::model::{is_cancelled, AgentMessage, SessionAction, SessionState, ToolError};
use crate::core::{reduce, resumable_cut, Session};
use error::Path;

#[wasm_bindgen(typescript_custom_section)]
const JSON_VALUE: &'static str = r#"
/** Any JSON value: `input`, `output` and `metadata` are kept exactly as given. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
"#;

/// The indexed session behind a JavaScript state: remembered, or read and checked in full.
fn session_of(state: &JsValue, path: &Path) -> Result<Session, JsValue> {
    match recent::find(state) {
        Some(session) => Ok(session),
        None => {
            let session = Session::new(Rc::new(read::session_state(state, path)?));
            recent::remember(state, session.clone());
            Ok(session)
        }
    }
}

/// The next session state. Returns `state` itself when the action changes nothing; otherwise
/// a new state that shares every untouched message, part and nested object with `state`.
/// Throws a `TypeError` with `code: "invalid"` and `path` when `state` or `action` is not
/// of its type; nothing is changed then.
#[wasm_bindgen(js_name = sessionReducer)]
pub fn session_reducer(
    state: Ts<SessionState>,
    action: Ts<SessionAction>,
) -> Result<Ts<SessionState>, JsValue> {
    let (state, action) = (state.js_value(), action.js_value());
    let parsed = read::session_action(&action, &Path::Root("action"))?;
    let session = session_of(&state, &Path::Root("state"))?;
    let Some(step) = reduce(&session, &parsed) else {
        return Ok(Ts::new_unchecked(state));
    };
    let next = write::apply(&state, &action, &step.patches);
    recent::remember(&next, step.session);
    Ok(Ts::new_unchecked(next))
}

/// What Retry sends: a new array, through the last finished call after the last user
/// message, else through that user message; `messages` unchanged when there is none.
#[wasm_bindgen]
pub fn resumable(messages: Vec<Ts<AgentMessage>>) -> Result<Vec<Ts<AgentMessage>>, JsValue> {
    let list: js_sys::Array = messages.into_iter().map(JsValue::from).collect();
    let parsed = read::messages(&list, &Path::Root("messages"))?;
    let mut kept: Vec<JsValue> = list.iter().collect();
    if let Some(cut) = resumable_cut(&parsed) {
        kept.truncate(cut.messages);
        if let (Some(parts), Some(last)) = (cut.parts, kept.last_mut()) {
            let message: &fields::Fields = last.unchecked_ref();
            let all: js_sys::Array = message.parts().unwrap_or_default().unchecked_into();
            if (parts as u32) < all.length() {
                let copy = message.copy();
                copy.set_parts(&all.slice(0, parts as u32));
                *last = copy.into();
            }
        }
    }
    Ok(kept.into_iter().map(Ts::new_unchecked).collect())
}

/// Whether a tool error means the user cancelled the call (`code === "cancelled"`).
#[wasm_bindgen(js_name = isCancelled)]
pub fn is_cancelled_js(error: Ts<ToolError>) -> Result<bool, JsValue> {
    Ok(is_cancelled(&read::tool_error(
        &error.js_value(),
        &Path::Root("error"),
    )?))
}
