//! The binding as JavaScript sees it: one test body, run in Node and in headless Chromium
//! (scripts/test.sh runs it twice, the second time with WASM_BINDGEN_USE_BROWSER).
#![cfg(all(feature = "js-binding", target_arch = "wasm32"))]

mod wasm_support;

use chat_session_reducer::wasm;
use js_sys::{Array, Error};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;
use wasm_support::*;

const SEED: &[&str] = &[
    r#"{ "type": "send", "id": "u-1", "text": "Add two mugs to the cart" }"#,
    r#"{ "type": "part", "part": { "type": "message-start", "messageId": "a-1" } }"#,
    r#"{ "type": "part", "part": { "type": "tool-call", "messageId": "a-1", "id": "call-1", "name": "add_to_cart", "input": { "slug": "mug", "qty": 2 } } }"#,
    r#"{ "type": "part", "part": { "type": "tool-result", "id": "call-1", "output": { "content": [{ "type": "text", "text": "Added." }] } } }"#,
    r#"{ "type": "part", "part": { "type": "error", "error": "Couldn't reach the assistant.", "code": "network" } }"#,
];

fn resumable(messages: &JsValue) -> Array {
    wasm::resumable(messages)
        .expect("resumable")
        .unchecked_into()
}

#[wasm_bindgen_test]
fn the_seed_example_fails_and_resumes_through_the_finished_call() {
    let state = play(&js(EMPTY), SEED);
    assert_eq!(string_at(&state, "status"), "error");
    assert_eq!(
        text_of(&get(&state, "error")),
        r#"{"message":"Couldn't reach the assistant.","code":"network"}"#
    );
    assert_eq!(resumable(&get(&state, "messages")).length(), 2);
    let retried = reduce(&state, &js(r#"{ "type": "retry" }"#)).unwrap();
    assert_eq!(string_at(&retried, "status"), "streaming");
    assert!(get(&retried, "error").is_undefined());
}

#[wasm_bindgen_test]
fn an_action_that_changes_nothing_returns_the_same_object() {
    let state = play(&js(EMPTY), &SEED[..4]);
    for action in [
        r#"{ "type": "part", "part": { "type": "step-finish" } }"#,
        r#"{ "type": "part", "part": { "type": "a-newer-part", "anything": 1 } }"#,
        r#"{ "type": "part", "part": { "type": "tool-result", "id": "no-such-call", "output": 1 } }"#,
        r#"{ "type": "part", "part": { "type": "message-start", "messageId": "a-1" } }"#,
        r#"{ "type": "toolPhase", "name": "no_such_tool", "state": "running" }"#,
    ] {
        assert!(
            same(&reduce(&state, &js(action)).unwrap(), &state),
            "{action}"
        );
    }
    let stopped = reduce(&state, &js(r#"{ "type": "stop" }"#)).unwrap();
    assert!(same(
        &reduce(
            &stopped,
            &part(r#"{ "type": "text-delta", "text": "late" }"#)
        )
        .unwrap(),
        &stopped
    ));
}

#[wasm_bindgen_test]
fn untouched_messages_and_parts_keep_their_identity_while_a_reply_streams() {
    let mut state = play(&js(EMPTY), SEED);
    state = play(
        &state,
        &[r#"{ "type": "send", "id": "u-2", "text": "And a teapot" }"#],
    );
    state = play(
        &state,
        &[
            r#"{ "type": "part", "part": { "type": "tool-call", "id": "call-2", "name": "search", "input": {} } }"#,
        ],
    );
    let before = state.clone();
    let next = reduce(&state, &part(r#"{ "type": "text-delta", "text": "Here" }"#)).unwrap();
    for index in 0..3 {
        assert!(same(
            &get(&next, &format!("messages.{index}")),
            &get(&before, &format!("messages.{index}"))
        ));
    }
    let tool = get(&before, "messages.3.parts.0");
    assert!(
        same(&get(&next, "messages.3.parts.0"), &tool),
        "the call before the new text part is the same object"
    );
    let after = reduce(
        &next,
        &part(r#"{ "type": "text-delta", "text": " you go" }"#),
    )
    .unwrap();
    assert_eq!(string_at(&after, "messages.3.parts.1.text"), "Here you go");
    assert!(same(&get(&after, "messages.3.parts.0"), &tool));
    assert!(same(
        &get(&after, "messages.3.parts.0.input"),
        &get(&tool, "input")
    ));
    assert_eq!(
        string_at(&next, "messages.3.parts.1.text"),
        "Here",
        "the earlier state is unchanged"
    );
}

#[wasm_bindgen_test]
fn texts_and_json_payloads_arrive_exactly_as_given() {
    let lone_surrogates = js("\"\\ud800 and \\udfff, \\u0000, \\ud83d\\ude00\"");
    let input = js(
        r#"{ "__proto__": { "x": 1 }, "big": 12345678901234567890, "negative_zero": -0.0, "nested": [[{}], null, true, "é"] }"#,
    );
    let action = js(
        r#"{ "type": "part", "part": { "type": "tool-call", "id": "c", "name": "t", "input": null } }"#,
    );
    js_sys::Reflect::set(&get(&action, "part"), &"input".into(), &input).unwrap();
    let delta = js(r#"{ "type": "part", "part": { "type": "text-delta", "text": "" } }"#);
    js_sys::Reflect::set(&get(&delta, "part"), &"text".into(), &lone_surrogates).unwrap();
    let state = play(
        &js(EMPTY),
        &[r#"{ "type": "send", "id": "u", "text": "hi" }"#],
    );
    let state = reduce(&reduce(&state, &action).unwrap(), &delta).unwrap();
    let state = reduce(&state, &delta).unwrap();
    assert!(
        same(&get(&state, "messages.1.parts.0.input"), &input),
        "input is the caller's own value"
    );
    let text: js_sys::JsString = get(&state, "messages.1.parts.1.text").unchecked_into();
    let expected = js_sys::JsString::from(lone_surrogates.clone()).concat(&lone_surrogates);
    assert!(text == expected, "lone surrogates survive");
}

#[wasm_bindgen_test]
fn frozen_inputs_are_never_mutated() {
    let state = play(&js(EMPTY), &SEED[..3]);
    deep_freeze(&state);
    let snapshot = text_of(&state);
    for action in [
        r#"{ "type": "part", "part": { "type": "text-delta", "text": "x" } }"#,
        r#"{ "type": "toolPhase", "name": "add_to_cart", "state": "awaiting-confirmation", "prompt": "Sure?" }"#,
        r#"{ "type": "part", "part": { "type": "tool-call", "id": "d", "name": "delegate_to_x", "input": {} } }"#,
        r#"{ "type": "stop" }"#,
        r#"{ "type": "retry" }"#,
        r#"{ "type": "reset" }"#,
    ] {
        let action = js(action);
        deep_freeze(&action);
        reduce(&state, &action).expect("applies to frozen values");
    }
    assert_eq!(text_of(&state), snapshot);
}

#[wasm_bindgen_test]
fn bad_input_throws_a_type_error_naming_the_path() {
    let state = play(&js(EMPTY), &SEED[..2]);
    let cases = [
        (
            EMPTY,
            r#"{ "type": "part", "part": { "type": "tool-result", "id": 7, "output": 1 } }"#,
            "action.part.id",
            "expected a string",
        ),
        (
            EMPTY,
            r#"{ "type": "part", "part": { "type": "tool-result", "id": "c" } }"#,
            "action.part.output",
            "expected a JSON value",
        ),
        (
            EMPTY,
            // A string type this version does not know is Redux's and returns the state.
            r#"{ "type": 7 }"#,
            "action.type",
            "expected one of",
        ),
        (
            EMPTY,
            r#"{ "type": "toolPhase", "name": "t", "state": "done" }"#,
            "action.state",
            "expected one of",
        ),
        (EMPTY, r#"[]"#, "action", "expected an object"),
        (
            r#"{ "messages": [{ "id": "m", "role": "user", "parts": [{ "type": "text", "text": 1 }] }], "status": "idle" }"#,
            r#"{ "type": "stop" }"#,
            "state.messages[0].parts[0].text",
            "expected a string",
        ),
        (
            r#"{ "messages": [], "status": "error" }"#,
            r#"{ "type": "stop" }"#,
            "state.error",
            "required",
        ),
        (
            r#"{ "messages": [], "status": "idle", "error": { "message": "x" } }"#,
            r#"{ "type": "stop" }"#,
            "state.error",
            "present only",
        ),
        (
            r#"{ "messages": {}, "status": "idle" }"#,
            r#"{ "type": "stop" }"#,
            "state.messages",
            "expected an array",
        ),
    ];
    for (state_json, action, path, problem) in cases {
        let thrown = reduce(&js(state_json), &js(action)).expect_err(action);
        let error: &Error = thrown.dyn_ref().expect("an Error object");
        assert_eq!(String::from(error.name()), "TypeError");
        assert_eq!(error_field(&thrown, "code"), "invalid");
        assert_eq!(error_field(&thrown, "path"), path);
        let message = String::from(error.message());
        assert!(
            message.starts_with(&format!("{path}: ")) && message.contains(problem),
            "{message}"
        );
    }
    let after = reduce(
        &state,
        &part(r#"{ "type": "text-delta", "text": "still works" }"#),
    )
    .unwrap();
    assert_eq!(string_at(&after, "messages.1.parts.0.text"), "still works");
}

#[wasm_bindgen_test]
fn a_throwing_getter_is_an_error_not_a_crash() {
    let action = js(r#"{ "type": "stop" }"#);
    let getter = js_sys::Function::new_no_args("throw new Error('boom')");
    let descriptor = js_sys::Object::new();
    js_sys::Reflect::set(&descriptor, &"get".into(), &getter).unwrap();
    let state = js(EMPTY);
    js_sys::Object::define_property(
        state.unchecked_ref::<js_sys::Object>(),
        &"messages".into(),
        &descriptor,
    );
    let thrown = reduce(&state, &action).expect_err("a getter that throws");
    assert_eq!(error_field(&thrown, "path"), "state.messages");
    assert!(reduce(&js(EMPTY), &action).is_ok());
}

#[wasm_bindgen_test]
fn is_cancelled_reads_the_code() {
    assert!(wasm::is_cancelled_js(&js(r#"{ "message": "no", "code": "cancelled" }"#)).unwrap());
    assert!(!wasm::is_cancelled_js(&js(r#"{ "message": "no", "code": "timeout" }"#)).unwrap());
    assert!(!wasm::is_cancelled_js(&js(r#"{ "message": "no" }"#)).unwrap());
}

#[wasm_bindgen_test]
fn resumable_returns_a_new_array_sharing_the_kept_messages() {
    let state = play(&js(EMPTY), SEED);
    let messages = get(&state, "messages");
    let kept = resumable(&messages);
    assert!(!same(&kept.clone().into(), &messages));
    assert!(same(&kept.get(0), &get(&messages, "0")));
    let thrown = wasm::resumable(&js(r#"{ "messages": [] }"#)).expect_err("not an array");
    assert_eq!(error_field(&thrown, "path"), "messages");
    let no_user = js(r#"[{ "id": "a", "role": "assistant", "parts": [] }]"#);
    assert_eq!(text_of(&resumable(&no_user).into()), text_of(&no_user));
}

#[wasm_bindgen_test]
fn calling_again_with_the_same_state_and_action_gives_the_same_state() {
    // React Strict Mode calls a reducer twice with the same arguments.
    let state = play(&js(EMPTY), &SEED[..2]);
    let action = part(r#"{ "type": "text-delta", "text": "once" }"#);
    let first = reduce(&state, &action).unwrap();
    assert!(same(&reduce(&state, &action).unwrap(), &first));
    let other = reduce(
        &state,
        &part(r#"{ "type": "text-delta", "text": "other" }"#),
    )
    .unwrap();
    assert_eq!(string_at(&other, "messages.1.parts.0.text"), "other");
    assert_eq!(string_at(&first, "messages.1.parts.0.text"), "once");
}

#[wasm_bindgen_test]
fn a_state_changed_in_place_after_the_reducer_made_it_is_an_error_not_a_crash() {
    let state = play(&js(EMPTY), &SEED[..3]);
    // Against the rules (states are immutable), the caller drops the assistant's message.
    get(&state, "messages")
        .unchecked_into::<Array>()
        .set_length(1);
    let result = part(r#"{ "type": "tool-result", "id": "call-1", "output": 1 }"#);
    let thrown = reduce(&state, &result).expect_err("the state no longer has the call");
    assert!(thrown.is_instance_of::<js_sys::TypeError>());
    assert_eq!(error_field(&thrown, "code"), "invalid");
    assert_eq!(error_field(&thrown, "path"), "state");
    let fresh = play(&js(EMPTY), &SEED[..3]);
    let done = reduce(&fresh, &result).expect("the module keeps working");
    assert_eq!(string_at(&done, "messages.1.parts.0.state"), "done");
}

#[wasm_bindgen_test]
fn check_action_returns_a_valid_action_and_throws_what_the_reducer_would() {
    let action = part(r#"{ "type": "text-delta", "text": "hi" }"#);
    assert!(same(&check_action(&action).unwrap(), &action));
    let thrown = check_action(&part(
        r#"{ "type": "tool-call", "id": "c", "name": 1, "input": {} }"#,
    ))
    .unwrap_err();
    assert_eq!(error_field(&thrown, "code"), "invalid");
    assert_eq!(error_field(&thrown, "path"), "action.part.name");
}
