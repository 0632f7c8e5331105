//! Helpers for the common React pattern, without making React a dependency:
//! `useReducer(sessionReducer, key, restoreSession)` and `persistSession(key, state)` in an
//! effect. Saving never happens inside the reducer (Strict Mode calls reducers twice).

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::fields::Fields;
use super::storage::{load, save_session, session_storage};
use crate::core::model::SessionState;

/// What `restoreSession` gave for a key, and the stored text it was made from.
struct Restored {
    key: String,
    stored: Option<String>,
    state: JsValue,
}

thread_local! {
    /// So that `restoreSession` called again on an unchanged entry (React Strict Mode calls an
    /// initializer twice and keeps the first result) gives the same object, and so that
    /// `persistSession` does not overwrite an entry before the conversation has changed, even
    /// one it could not read.
    static RESTORED: RefCell<Vec<Restored>> = const { RefCell::new(Vec::new()) };
}

/// For `useReducer(sessionReducer, key, restoreSession)`: the stored session with `stop`
/// applied, or a new empty one when nothing usable is stored. Never throws; a failure is
/// reported with `console.warn` and leaves the stored entry as it is.
#[wasm_bindgen(js_name = restoreSession)]
pub fn restore_session(key: &str) -> tsify::Ts<SessionState> {
    let stored = session_storage()
        .ok()
        .and_then(|storage| storage.get_item(key).ok().flatten());
    let again = RESTORED.with(|restored| {
        let restored = restored.borrow();
        restored
            .iter()
            .find(|entry| entry.key == key && entry.stored == stored)
            .map(|entry| entry.state.clone())
    });
    if let Some(state) = again {
        return tsify::Ts::new_unchecked(state);
    }
    let state: JsValue = match load(key) {
        Ok(Some(state)) => state,
        Ok(None) => empty_state(),
        Err(error) => {
            web_sys::console::warn_2(
                &"chat-session-reducer: starting a new session:".into(),
                &error,
            );
            empty_state()
        }
    };
    RESTORED.with(|restored| {
        let mut restored = restored.borrow_mut();
        restored.retain(|entry| entry.key != key);
        restored.push(Restored {
            key: key.to_owned(),
            stored,
            state: state.clone(),
        });
    });
    tsify::Ts::new_unchecked(state)
}

/// For an effect after each change: saves `state` under `key` and returns the failure as an
/// `Error` instead of throwing. Skips the state `restoreSession` returned for this key, which
/// is already what is stored (or what could not be read, which is kept).
#[wasm_bindgen(js_name = persistSession)]
pub fn persist_session(key: &str, state: tsify::Ts<SessionState>) -> Option<js_sys::Error> {
    let unchanged = RESTORED.with(|restored| {
        restored
            .borrow()
            .iter()
            .any(|entry| entry.key == key && entry.state == state.js_value())
    });
    if unchanged {
        return None;
    }
    save_session(key, state)
        .err()
        .map(|error| error.unchecked_into())
}

/// `{ messages: [], status: "idle" }`
fn empty_state() -> JsValue {
    let state = Fields::new();
    state.set_messages(&js_sys::Array::new());
    state.set_status("idle");
    state.into()
}
