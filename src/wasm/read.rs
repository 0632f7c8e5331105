//! Reads the caller's actions, states and message lists: `read.js` walks and checks them in
//! JavaScript and throws the coded error for bad input; `decode` turns its encoding into the
//! core's types. Every call is `catch`, so nothing thrown unwinds through wasm frames.

use alloc::rc::Rc;
use alloc::{string::String, vec::Vec};

use wasm_bindgen::prelude::*;

use super::decode::Decoder;
use crate::core::model::{AgentMessage, SessionAction, SessionState, ToolError};

#[wasm_bindgen(module = "/src/wasm/read.js")]
extern "C" {
    #[wasm_bindgen(js_name = readState, catch)]
    fn read_state(state: &JsValue) -> Result<Vec<i32>, JsValue>;

    #[wasm_bindgen(js_name = readMessages, catch)]
    fn read_messages(messages: &JsValue) -> Result<Vec<i32>, JsValue>;

    #[wasm_bindgen(js_name = readToolError, catch)]
    fn read_tool_error(error: &JsValue) -> Result<Vec<i32>, JsValue>;

    #[wasm_bindgen(js_name = readStrings, catch)]
    fn read_strings() -> Result<Vec<u8>, JsValue>;

    #[wasm_bindgen(js_name = readLeaves, catch)]
    fn read_leaves() -> Result<Option<js_sys::Array>, JsValue>;
}

/// Decodes what a `read_*` call returned, fetching its strings when it has any.
fn decode<T>(codes: Vec<i32>, decode: impl FnOnce(&mut Decoder) -> T) -> Result<T, JsValue> {
    let strings = if codes.first().is_some_and(|count| *count > 0) {
        let bytes = read_strings()?;
        // SAFETY: the bytes are TextEncoder's output, UTF-8 by its definition, as the bytes
        // wasm-bindgen hands over for a `String` are (it trusts them the same way).
        unsafe { String::from_utf8_unchecked(bytes) }
    } else {
        String::new()
    };
    Ok(decode(&mut Decoder::new(&codes, &strings)))
}

/// An action as the core applies it, and the JavaScript actions its values come from: the
/// action itself, or for a batch the list of its actions (nested batches flattened), in the
/// order of the core's `Patch::Source` numbers.
pub struct ReadAction {
    pub action: SessionAction,
    pub leaves: Option<js_sys::Array>,
}

/// An action the package's entry read (`readAction`, then `readStrings` for its strings), so
/// that the module makes no call back for it; `None` for one of a type this version does not
/// know.
pub fn entry_action(codes: &[i32], strings: &[u8]) -> Result<Option<ReadAction>, JsValue> {
    // SAFETY: the bytes are `readStrings`' output, TextEncoder's, UTF-8 by its definition: the
    // `sessionReducer` wrapper (src/main/session-reducer.js) is the only caller of the export they
    // come through (the glue that exports it is bundled, not exported), as it is of
    // `read_strings`.
    let strings = unsafe { core::str::from_utf8_unchecked(strings) };
    with_leaves(Decoder::new(codes, strings).action())
}

/// A batch's actions, which the read kept aside, joined to it.
fn with_leaves(action: Option<SessionAction>) -> Result<Option<ReadAction>, JsValue> {
    let Some(action) = action else {
        return Ok(None);
    };
    let leaves = match action {
        SessionAction::Batch { .. } => read_leaves()?,
        _ => None,
    };
    Ok(Some(ReadAction { action, leaves }))
}

pub fn session_state(value: &JsValue) -> Result<SessionState, JsValue> {
    decode(read_state(value)?, |decoder| decoder.session_state())
}

pub fn messages(value: &JsValue) -> Result<Vec<Rc<AgentMessage>>, JsValue> {
    decode(read_messages(value)?, |decoder| decoder.messages())
}

pub fn tool_error(value: &JsValue) -> Result<ToolError, JsValue> {
    decode(read_tool_error(value)?, |decoder| decoder.tool_error())
}
