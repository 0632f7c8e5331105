//! What the module knows about the state objects it returned, kept beside them in JavaScript
//! (`state_facts.js`, which says what each fact is).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/state_facts.js")]
extern "C" {
    /// The next state when it needs no Rust work (the same action again, or a plain text
    /// delta appended where the core said it goes); otherwise the id of the Rust session
    /// behind `state` (a number, -1 for none). The package's entry asks this itself before it
    /// calls the module; `session_reducer` (the crate's tests) asks here.
    #[wasm_bindgen(catch)]
    pub fn lookup(state: &JsValue, action: &JsValue) -> Result<JsValue, JsValue>;

    /// The frozen empty state (see `state_facts.js`).
    #[wasm_bindgen(js_name = emptyState, catch)]
    pub fn empty_state() -> Result<JsValue, JsValue>;

    /// Records that `action` made `next` from `state`, the session behind `next`, and where a
    /// plain text delta appends in `next` (`message` -1: nowhere simple). A step that changed
    /// the state is recorded where its patches are applied (`write::apply`).
    #[wasm_bindgen(catch)]
    pub fn remember(
        state: &JsValue,
        action: &JsValue,
        next: &JsValue,
        session: u32,
        message: i32,
        part: i32,
    ) -> Result<(), JsValue>;
}
