//! Errors that cross to JavaScript: real `Error` objects with machine-readable fields, made by
//! `error.js` (the wasm formats no messages).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/error.js")]
extern "C" {
    #[wasm_bindgen(js_name = unreadableError, catch)]
    fn unreadable_error(path: &str, problem: &str, thrown: &JsValue) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(js_name = internalError, catch)]
    fn internal_error() -> Result<JsValue, JsValue>;
}

/// The `invalid` error for a value at `path` that a step after reading it found not as read
/// (`problem`), with what was thrown.
pub fn unreadable(path: &str, problem: &str, thrown: &JsValue) -> JsValue {
    unreadable_error(path, problem, thrown).unwrap_or_else(|error| error)
}

/// The `internal` error: the core could not apply an action it had accepted.
pub fn internal() -> JsValue {
    internal_error().unwrap_or_else(|error| error)
}
