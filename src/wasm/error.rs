//! Errors that cross to JavaScript: real `Error` objects with machine-readable fields, made by
//! `error.js` (the wasm formats no messages).

use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/error.js")]
extern "C" {
    #[wasm_bindgen(js_name = unreadableError, catch)]
    fn unreadable_error(path: &str, problem: &str, thrown: &JsValue) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(js_name = internalError, catch)]
    fn internal_error() -> Result<JsValue, JsValue>;

    #[wasm_bindgen(js_name = refusedError, catch)]
    fn refused_error(leaf: i32, call: &[u32], problem: &str) -> Result<JsValue, JsValue>;
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

/// v4: the `invalid` error of an action the state refuses (`core::Refusal`), its path made in
/// JavaScript.
pub fn refused(refusal: &crate::core::Refusal) -> JsValue {
    // Positions and leaves are far below 2^31 (a wasm32 memory holds fewer items).
    let leaf = refusal.leaf.map_or(-1, |leaf| leaf as i32);
    let mut call = Vec::with_capacity(refusal.call.len() * 2);
    for pos in &refusal.call {
        call.extend([pos.message as u32, pos.part as u32]);
    }
    refused_error(leaf, &call, refusal.problem).unwrap_or_else(|error| error)
}
