//! The sessionStorage adapter where there is no window (Node, server rendering): every
//! function fails with code "unavailable", and the reducer keeps working.
#![cfg(target_arch = "wasm32")]

mod wasm_support;

use chat_session_reducer::wasm::react_helpers::{persist_session, restore_session};
use chat_session_reducer::wasm::storage::{clear_session, load_session, save_session};
use tsify::Ts;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use wasm_support::*;

wasm_bindgen_test_configure!(run_in_node_experimental);

#[wasm_bindgen_test]
fn without_a_window_every_function_is_unavailable_and_the_reducer_keeps_working() {
    let state = play(
        &js(EMPTY),
        &[r#"{ "type": "send", "id": "u", "text": "hi" }"#],
    );
    let errors: [JsValue; 4] = [
        save_session("k", Ts::new_unchecked(state.clone())).expect_err("save"),
        load_session("k").expect_err("load"),
        clear_session("k").expect_err("clear"),
        persist_session("k", Ts::new_unchecked(state.clone()))
            .expect("persist returns the failure")
            .into(),
    ];
    for error in errors {
        assert!(error.is_instance_of::<js_sys::Error>());
        assert_eq!(error_field(&error, "code"), "unavailable");
        assert!(
            error_field(&error, "message").contains("no window"),
            "{}",
            error_field(&error, "message")
        );
    }
    assert_eq!(
        text_of(&restore_session("k").into()),
        r#"{"messages":[],"status":"idle"}"#
    );
    let next = reduce(
        &state,
        &part(r#"{ "type": "text-delta", "text": "still here" }"#),
    )
    .unwrap();
    assert_eq!(string_at(&next, "messages.1.parts.0.text"), "still here");
}
