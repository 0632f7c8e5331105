//! The crate's JavaScript modules that its other modules import but Rust need not call:
//! wasm-bindgen ships a module of the crate only when Rust declares an import from it, and
//! read.js (the package's reader, and `js_reader`'s) and apply.js import these.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/error.js")]
extern "C" {
    #[allow(dead_code)]
    #[wasm_bindgen(js_name = internalError, catch)]
    fn internal_error() -> Result<JsValue, JsValue>;
}

// error.js's and read.js's coded errors, the same module as the subpaths'.
#[wasm_bindgen(module = "/src/shared/coded-error.js")]
extern "C" {
    #[allow(dead_code)]
    #[wasm_bindgen(js_name = codedError, catch)]
    fn coded_error(error: &JsValue, code: &str) -> Result<JsValue, JsValue>;
}

#[wasm_bindgen(module = "/src/wasm/json.js")]
extern "C" {
    #[allow(dead_code)]
    #[wasm_bindgen(js_name = jsonEqual, catch)]
    fn json_equal(a: &JsValue, b: &JsValue) -> Result<bool, JsValue>;
}

// protocol.js: the codes and constants generated from `crate::core::protocol`.
#[wasm_bindgen(module = "/src/wasm/protocol.js")]
extern "C" {
    #[allow(dead_code)]
    #[wasm_bindgen(thread_local_v2, js_name = MAX_NESTING)]
    static PROTOCOL_MAX_NESTING: JsValue;
}
