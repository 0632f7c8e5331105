//! The sessionStorage adapter in headless Chromium (scripts/test.sh runs this file only with
//! WASM_BINDGEN_USE_BROWSER).
#![cfg(target_arch = "wasm32")]

mod wasm_support;

use chat_session_reducer::wasm::react_helpers::{persist_session, restore_session};
use chat_session_reducer::wasm::storage::{clear_session, load_session, save_session};
use tsify::Ts;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use wasm_support::*;

wasm_bindgen_test_configure!(run_in_browser);

fn storage() -> web_sys::Storage {
    web_sys::window()
        .unwrap()
        .session_storage()
        .unwrap()
        .unwrap()
}

fn save(key: &str, state: &JsValue) -> Result<(), JsValue> {
    save_session(key, Ts::new_unchecked(state.clone()))
}

fn load(key: &str) -> Result<Option<JsValue>, JsValue> {
    load_session(key).map(|state| (!state.is_null()).then_some(state))
}

/// A conversation with a running delegate call whose sub-agent run is streaming with a
/// call of its own awaiting confirmation.
fn nested_conversation() -> JsValue {
    play(
        &js(EMPTY),
        &[
            r#"{ "type": "send", "id": "u1", "text": "Plan my trip" }"#,
            r#"{ "type": "part", "part": { "type": "text-delta", "text": "Asking the planner." } }"#,
            r#"{ "type": "part", "part": { "type": "tool-call", "id": "d1", "name": "delegate_to_planner", "input": { "city": "Lyon" } } }"#,
            r#"{ "type": "part", "within": "d1", "part": { "type": "tool-call", "id": "n1", "name": "book", "input": {} } }"#,
            r#"{ "type": "toolPhase", "name": "book", "state": "awaiting-confirmation", "prompt": "Book it?" }"#,
        ],
    )
}

#[wasm_bindgen_test]
fn a_saved_session_loads_with_stop_applied_to_nested_calls() {
    let key = "round-trip";
    let state = nested_conversation();
    save(key, &state).unwrap();
    let loaded = load(key).unwrap().expect("stored");
    assert_eq!(string_at(&loaded, "status"), "idle");
    assert_eq!(string_at(&loaded, "messages.1.parts.1.state"), "cancelled");
    assert_eq!(
        string_at(&loaded, "messages.1.parts.1.agent.status"),
        "idle"
    );
    assert_eq!(
        string_at(&loaded, "messages.1.parts.1.agent.messages.0.parts.0.state"),
        "cancelled"
    );
    assert_eq!(
        string_at(
            &loaded,
            "messages.1.parts.1.agent.messages.0.parts.0.prompt"
        ),
        "Book it?"
    );
    assert_eq!(
        text_of(&get(&loaded, "messages.1.parts.1.input")),
        r#"{"city":"Lyon"}"#
    );
    assert_eq!(
        string_at(&state, "messages.1.parts.1.state"),
        "running",
        "the saved state is unchanged"
    );
    let again = reduce(
        &loaded,
        &js(r#"{ "type": "send", "id": "u2", "text": "Again" }"#),
    )
    .unwrap();
    assert_eq!(string_at(&again, "status"), "streaming");
    clear_session(key).unwrap();
    assert!(load(key).unwrap().is_none());
}

#[wasm_bindgen_test]
fn nothing_stored_loads_as_null() {
    assert!(load("never-saved").unwrap().is_none());
}

fn load_error(key: &str, stored: &str) -> JsValue {
    storage().set_item(key, stored).unwrap();
    let error = load(key).expect_err(stored);
    assert!(error.is_instance_of::<js_sys::Error>());
    assert_eq!(
        storage().get_item(key).unwrap().as_deref(),
        Some(stored),
        "a read never destroys what is stored"
    );
    error
}

#[wasm_bindgen_test]
fn corrupt_json_is_a_corrupt_error() {
    let error = load_error("corrupt-json", "{ not json");
    assert_eq!(error_field(&error, "code"), "corrupt");
    assert!(error_field(&error, "message").contains("not JSON"));
}

#[wasm_bindgen_test]
fn json_that_is_not_a_session_is_a_corrupt_error() {
    let error = load_error("someone-else", r#"{ "theme": "dark" }"#);
    assert_eq!(error_field(&error, "code"), "corrupt");
    let error = load_error(
        "bad-state",
        r#"{ "format": "chat-session-reducer", "version": 1, "state": { "messages": [{ "id": 1 }], "status": "idle" } }"#,
    );
    assert_eq!(error_field(&error, "code"), "corrupt");
    assert!(
        error_field(&error, "message").contains("stored.state.messages[0].id"),
        "{}",
        error_field(&error, "message")
    );
}

#[wasm_bindgen_test]
fn a_newer_version_is_a_version_error() {
    let error = load_error(
        "newer",
        r#"{ "format": "chat-session-reducer", "version": 2, "state": {} }"#,
    );
    assert_eq!(error_field(&error, "code"), "version");
}

#[wasm_bindgen_test]
fn a_full_storage_refuses_the_save_and_keeps_everything() {
    let storage = storage();
    storage.clear().unwrap();
    let small = nested_conversation();
    save("earlier", &small).unwrap();
    // Fill the storage (about 5 MB per origin in Chromium) with 512 KB entries.
    let chunk = "x".repeat(512 * 1024);
    let mut filled = 0;
    while storage
        .set_item(&format!("filler-{filled}"), &chunk)
        .is_ok()
    {
        filled += 1;
    }
    let big_text = format!("\"{}\"", "y".repeat(1024 * 1024));
    let big = play(
        &js(EMPTY),
        &[&format!(
            r#"{{ "type": "send", "id": "u", "text": {big_text} }}"#
        )],
    );
    let before = text_of(&big);
    let error = save("big", &big).expect_err("over quota");
    assert_eq!(
        error_field(&error, "code"),
        "quota",
        "{}",
        error_field(&error, "message")
    );
    assert_eq!(text_of(&big), before, "the state in memory is unchanged");
    let earlier = load("earlier")
        .unwrap()
        .expect("the earlier save is intact");
    assert_eq!(
        string_at(&earlier, "messages.0.parts.0.text"),
        "Plan my trip"
    );
    assert!(load("big").unwrap().is_none());
    let quiet = persist_session("big", Ts::new_unchecked(big.clone()))
        .expect("persist returns the failure");
    assert_eq!(error_field(&quiet.into(), "code"), "quota");
    storage.clear().unwrap();
}

#[wasm_bindgen_test]
fn restore_then_persist_does_not_overwrite_what_could_not_be_read() {
    let key = "unreadable";
    storage().set_item(key, "{ not json").unwrap();
    let restored: JsValue = restore_session(key).into();
    assert_eq!(text_of(&restored), r#"{"messages":[],"status":"idle"}"#);
    assert!(persist_session(key, Ts::new_unchecked(restored.clone())).is_none());
    assert_eq!(
        storage().get_item(key).unwrap().as_deref(),
        Some("{ not json")
    );
    let changed = reduce(
        &restored,
        &js(r#"{ "type": "send", "id": "u", "text": "new start" }"#),
    )
    .unwrap();
    assert!(persist_session(key, Ts::new_unchecked(changed)).is_none());
    let loaded = load(key).unwrap().unwrap();
    assert_eq!(string_at(&loaded, "messages.0.parts.0.text"), "new start");
}

#[wasm_bindgen_test]
fn storage_that_throws_on_access_is_unavailable() {
    // What privacy settings and sandboxed frames do: reading `window.sessionStorage` throws
    // a SecurityError.
    let window: JsValue = web_sys::window().unwrap().into();
    let getter =
        js_sys::Function::new_no_args("throw new DOMException('blocked', 'SecurityError')");
    let descriptor = js_sys::Object::new();
    js_sys::Reflect::set(&descriptor, &"get".into(), &getter).unwrap();
    js_sys::Reflect::set(&descriptor, &"configurable".into(), &true.into()).unwrap();
    let original = js_sys::Object::get_own_property_descriptor(
        window.unchecked_ref::<js_sys::Object>(),
        &"sessionStorage".into(),
    );
    js_sys::Object::define_property(
        window.unchecked_ref::<js_sys::Object>(),
        &"sessionStorage".into(),
        &descriptor,
    );
    let state = nested_conversation();
    let results = [
        save("blocked", &state).expect_err("save"),
        load("blocked").expect_err("load"),
        clear_session("blocked").expect_err("clear"),
    ];
    if original.is_undefined() {
        js_sys::Reflect::delete_property(
            window.unchecked_ref::<js_sys::Object>(),
            &"sessionStorage".into(),
        )
        .unwrap();
    } else {
        js_sys::Object::define_property(
            window.unchecked_ref::<js_sys::Object>(),
            &"sessionStorage".into(),
            original.unchecked_ref(),
        );
    }
    for error in results {
        assert_eq!(error_field(&error, "code"), "unavailable");
        assert!(
            error_field(&error, "message").contains("SecurityError"),
            "{}",
            error_field(&error, "message")
        );
    }
    assert_eq!(
        get(&restore_session("blocked").into(), "status")
            .as_string()
            .unwrap(),
        "idle"
    );
}

#[wasm_bindgen_test]
fn the_v2_call_fields_round_trip_and_a_streaming_input_is_cancelled_on_load() {
    let key = "v2-calls";
    let state = play(
        &js(EMPTY),
        &[
            r#"{ "type": "send", "id": "u1", "text": "Buy" }"#,
            r#"{ "type": "part", "part": { "type": "tool-input-delta", "id": "c1", "name": "checkout", "text": "{}" } }"#,
            r#"{ "type": "part", "part": { "type": "tool-input-end", "id": "c1" } }"#,
            r#"{ "type": "part", "part": { "type": "tool-approval-request", "id": "c1", "approvalId": "ap1", "automatic": false, "details": { "d": 1 } } }"#,
            r#"{ "type": "part", "part": { "type": "tool-approval-response", "id": "c1", "approved": true, "reason": "ok" } }"#,
            r#"{ "type": "part", "part": { "type": "tool-input-delta", "id": "c2", "name": "search", "text": "{\"q\"" } }"#,
        ],
    );
    save(key, &state).unwrap();
    let loaded = load(key).unwrap().expect("stored");
    assert_eq!(
        text_of(&get(&loaded, "messages.1.parts")),
        r#"[{"type":"tool","id":"c1","name":"checkout","input":{},"inputText":"{}","state":"cancelled","approval":{"id":"ap1","automatic":false,"details":{"d":1},"approved":true,"reason":"ok"}},{"type":"tool","id":"c2","name":"search","input":null,"inputText":"{\"q\"","state":"cancelled"}]"#
    );
    clear_session(key).unwrap();
}
