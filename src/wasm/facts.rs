//! What the module knows about the state objects it returned, kept beside them in JavaScript
//! (`facts.js`, which says what each fact is).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/facts.js")]
extern "C" {
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
