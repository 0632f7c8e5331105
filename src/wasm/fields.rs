//! Field access on plain JavaScript objects, by name, without building key strings.
//! Reads go through `catch` so that a throwing getter becomes an error, never an exception
//! unwinding through Rust frames.

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

    #[wasm_bindgen(method, structural, setter)]
    pub fn set_messages(this: &Fields, value: &JsValue);
    #[wasm_bindgen(method, structural, setter)]
    pub fn set_status(this: &Fields, value: &str);
    #[wasm_bindgen(method, structural, setter)]
    pub fn set_parts(this: &Fields, value: &JsValue);
}

impl Fields {
    /// A new empty plain object.
    pub fn new() -> Fields {
        js_sys::Object::new().unchecked_into()
    }

    /// A shallow copy, keeping any extra fields a caller put on the object.
    pub fn copy(&self) -> Fields {
        js_sys::Object::assign(&js_sys::Object::new(), self.unchecked_ref()).unchecked_into()
    }
}
