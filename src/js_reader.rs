//! The package's own reader (src/wasm/read.js) as the checker of JavaScript values for
//! `js_interop` and `web_storage`: the same rules, paths and messages as the npm package, and
//! a caller's getter or Proxy that throws caught in JavaScript, never unwinding through wasm.

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

use crate::Error;

// read.js's own imports are shipped by `crate::js_modules`.
#[wasm_bindgen(module = "/src/wasm/read.js")]
extern "C" {
    #[cfg(feature = "js-interop")]
    #[wasm_bindgen(js_name = readAction, catch)]
    fn read_action(action: &JsValue, refuse: bool) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(js_name = readState, catch)]
    fn read_state(state: &JsValue) -> Result<JsValue, JsValue>;
}

/// Checks `value` as the package checks an action (a type it does not know refused, as
/// `checkAction` refuses it): `Error::Invalid` with the path (`action.part.id`) if it is not one.
#[cfg(feature = "js-interop")]
pub fn check_action(value: &JsValue) -> Result<(), Error> {
    read_action(value, true).map(drop).map_err(invalid)
}

/// Checks `value` as the package checks a state: paths start with `state`.
pub fn check_state(value: &JsValue) -> Result<(), Error> {
    read_state(value).map(drop).map_err(invalid)
}

/// The reader's coded `TypeError` as an `Error`: its `path`, and its message after the path.
fn invalid(thrown: JsValue) -> Error {
    let field = |name: &str| {
        Reflect::get(&thrown, &JsValue::from_str(name))
            .ok()
            .and_then(|value| value.as_string())
    };
    let message = field("message").unwrap_or_default();
    match field("path") {
        Some(path) => {
            let problem = message
                .strip_prefix(&format!("{path}: "))
                .unwrap_or(&message);
            Error::invalid(path.clone(), problem)
        }
        // The reader throws only its coded errors; anything else is not the input's fault.
        None => Error::Internal,
    }
}
