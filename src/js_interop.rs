//! Actions and states to and from JavaScript values (feature `js-interop`), for a Rust app that
//! reuses the package's JavaScript protocol adapters (their actions come in as `JsValue`s) or
//! hands its state to a JavaScript component.
//!
//! A value from JavaScript is checked by the package's own reader first (src/wasm/read.js): the
//! same rules, paths and messages as the npm package (`action.part.id: expected a string`), and
//! a getter or Proxy of the caller's that throws is caught there. It is then copied as JSON (so
//! nothing of the caller's runs again) and converted with serde-wasm-bindgen, payloads
//! included. Values go out as plain JavaScript objects and arrays, JSON's `null` as `null`.
//!
//! ```no_run
//! use chat_session_reducer::core::model::SessionAction;
//! use chat_session_reducer::js_interop::{action_from_js, action_to_js};
//! use wasm_bindgen::JsValue;
//!
//! # fn adapter_output() -> JsValue { JsValue::NULL }
//! // An action an adapter of the package made, in JavaScript:
//! let action: SessionAction = action_from_js(&adapter_output())?;
//! let back: JsValue = action_to_js(&action)?;
//! # Ok::<(), chat_session_reducer::Error>(())
//! ```

use std::rc::Rc;

use js_sys::JSON;
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::JsValue;

use crate::core::model::{SessionAction, SessionState};
use crate::{js_reader, Error};

/// The action `value` is, checked as the package's `checkAction` checks it (a type this version
/// does not know is refused; an unknown stream part type is `AgentStreamPart::Unknown`).
pub fn action_from_js(value: &JsValue) -> Result<SessionAction, Error> {
    js_reader::check_action(value)?;
    converted(value, "action")
}

/// The state `value` is, checked as the package checks a state it did not make (`state…`
/// paths).
pub fn state_from_js(value: &JsValue) -> Result<Rc<SessionState>, Error> {
    js_reader::check_state(value)?;
    converted(value, "state").map(Rc::new)
}

/// `action` as a JavaScript value, in the SPEC's JSON shape.
pub fn action_to_js(action: &SessionAction) -> Result<JsValue, Error> {
    to_js(action, "action")
}

/// `state` as a JavaScript value, in the SPEC's JSON shape: what the package's
/// `sessionReducer`, `saveSession` or a JavaScript component takes.
pub fn state_to_js(state: &SessionState) -> Result<JsValue, Error> {
    to_js(state, "state")
}

/// A checked value as Rust's: copied as JSON first, so that serde-wasm-bindgen reads plain
/// data only (its reads are not `catch`: a getter that threw now would unwind through wasm).
fn converted<T: DeserializeOwned>(value: &JsValue, path: &str) -> Result<T, Error> {
    let copy = JSON::stringify(value)
        .and_then(|text| JSON::parse(&String::from(text)))
        .map_err(|_| Error::invalid(path, "could not be copied as JSON"))?;
    serde_wasm_bindgen::from_value(copy).map_err(|error| Error::invalid(path, error.to_string()))
}

fn to_js<T: Serialize>(value: &T, path: &str) -> Result<JsValue, Error> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|error| Error::invalid(path, error.to_string()))
}
