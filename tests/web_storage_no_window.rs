//! `web_storage` where there is no window (Node, as a worker or server rendering has none):
//! every function is `StorageError::Unavailable`, with no panic and no JavaScript exception
//! (gloo-storage's `raw()` would throw here; it is never reached).
#![cfg(all(feature = "web-storage", target_arch = "wasm32"))]

use std::rc::Rc;

use chat_session_reducer::core::model::SessionState;
use chat_session_reducer::web_storage::{
    clear_session, load_session, save_session, StorageArea, StorageError,
};
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn without_a_window_every_function_is_unavailable() {
    let state = Rc::new(SessionState::empty());
    for area in [StorageArea::Session, StorageArea::Local] {
        let errors = [
            save_session("chat", &state, Some("chat-1"), area).unwrap_err(),
            load_session("chat", area).unwrap_err(),
            clear_session("chat", area).unwrap_err(),
        ];
        for error in errors {
            assert!(matches!(error, StorageError::Unavailable { .. }), "{error}");
            assert_eq!(error.code(), "unavailable");
            assert!(error.to_string().contains("no window"), "{error}");
        }
    }
    // And the module still works afterwards.
    assert!(load_session("chat", StorageArea::Session).is_err());
}
