//! Every JavaScript operation the binding performs on a value it did not make: field reads and
//! array reads, which may run a caller's code (getters, Proxy traps). Each is declared `catch`,
//! so whatever the caller's code throws comes back as an `Err`, never as an exception unwinding
//! through wasm frames: such an exception skips the restoring of the Rust stack pointer and of
//! wasm-bindgen's table of borrowed references, and after a few hundred of them every call is
//! broken.
//! `scripts/glue_audit.mjs` fails the build when any other import could throw.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// Any JavaScript object of the session's shapes.
    #[derive(Clone)]
    pub type Fields;

    #[wasm_bindgen(method, structural, catch, getter = "type")]
    pub fn kind(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn id(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn text(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter = "messageId")]
    pub fn message_id(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn name(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn input(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn output(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn error(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn code(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn message(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn state(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn prompt(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn reason(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn metadata(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn part(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn within(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn messages(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn status(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn role(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn parts(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn agent(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter = "inputText")]
    pub fn input_text(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn approval(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter = "approvalId")]
    pub fn approval_id(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn automatic(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn details(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn approved(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn preliminary(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn data(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn patch(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn exact(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn snapshot(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter)]
    pub fn actions(this: &Fields) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, structural, catch, getter = "agentState")]
    pub fn agent_state(this: &Fields) -> Result<JsValue, JsValue>;

    /// `this[index]` of an array.
    #[wasm_bindgen(method, structural, catch, indexing_getter)]
    pub fn at(this: &Fields, index: u32) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(method, structural, catch)]
    fn push(this: &Fields, value: &JsValue) -> Result<u32, JsValue>;
}

#[wasm_bindgen(module = "/src/wasm/fields.js")]
extern "C" {
    /// An array's `length`, or -1 for a value that is not an array; `Err` when asking threw (a
    /// revoked Proxy, a trap).
    #[wasm_bindgen(catch, js_name = arrayLength)]
    pub fn array_length(value: &JsValue) -> Result<f64, JsValue>;

    /// The escaped form of a string that is not well-formed UTF-16 or starts with U+FFFF
    /// (see `fields.js`); `None` for any other string.
    #[wasm_bindgen(catch, js_name = escapedForm)]
    pub fn escaped_form(text: &JsValue) -> Result<Option<String>, JsValue>;

    /// The frozen empty state (see `fields.js`).
    #[wasm_bindgen(catch, js_name = emptyState)]
    pub fn empty_state() -> Result<JsValue, JsValue>;
}

/// Appends `value` to an array the binding made.
pub fn append(list: &js_sys::Array, value: &JsValue) -> Result<(), JsValue> {
    list.unchecked_ref::<Fields>().push(value).map(drop)
}
