//! The v2 call parts through the binding, as JavaScript sees them: a streamed input is parsed
//! once, by `JSON.parse`, in JavaScript; payloads (`details`, `output`, `input`) arrive by
//! reference; untouched objects keep their identity; malformed parts throw with their path.
#![cfg(all(feature = "js-binding", target_arch = "wasm32"))]

mod wasm_support;

use js_sys::{Reflect, JSON};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;
use wasm_support::*;

const ASKED: &[&str] = &[
    r#"{ "type": "send", "id": "u-1", "text": "Buy two mugs" }"#,
    r#"{ "type": "part", "part": { "type": "message-start", "messageId": "a-1" } }"#,
    r#"{ "type": "part", "part": { "type": "text-delta", "text": "Checking out." } }"#,
    r#"{ "type": "part", "part": { "type": "tool-input-delta", "id": "c-1", "name": "checkout", "text": "{\"qty\":" } }"#,
    r#"{ "type": "part", "part": { "type": "tool-input-delta", "id": "c-1", "text": " 2}" } }"#,
    r#"{ "type": "part", "part": { "type": "tool-input-end", "id": "c-1" } }"#,
    r#"{ "type": "part", "part": { "type": "tool-approval-request", "id": "c-1", "approvalId": "ap-1", "prompt": "Pay 24 EUR?" } }"#,
    r#"{ "type": "part", "part": { "type": "finish", "reason": "tool-calls" } }"#,
];

/// The state after streaming one call's input as `pieces`, one delta each, without its end.
fn streaming_input(pieces: &[JsValue]) -> JsValue {
    let mut state = play(&js(EMPTY), &ASKED[..3]);
    for (index, piece) in pieces.iter().enumerate() {
        let action = part(r#"{ "type": "tool-input-delta", "id": "c-1", "text": "" }"#);
        let delta = get(&action, "part");
        Reflect::set(&delta, &"text".into(), piece).unwrap();
        if index == 0 {
            Reflect::set(&delta, &"name".into(), &"write".into()).unwrap();
        }
        state = reduce(&state, &action).unwrap();
    }
    state
}

fn end_input(state: &JsValue) -> JsValue {
    reduce(state, &part(r#"{ "type": "tool-input-end", "id": "c-1" }"#)).unwrap()
}

#[wasm_bindgen_test]
fn a_streamed_call_asks_and_is_approved_after_its_run() {
    let asked = play(&js(EMPTY), ASKED);
    assert_eq!(string_at(&asked, "status"), "idle");
    assert_eq!(
        text_of(&get(&asked, "messages.1.parts.1")),
        r#"{"type":"tool","id":"c-1","name":"checkout","input":{"qty":2},"inputText":"{\"qty\": 2}","state":"awaiting-confirmation","prompt":"Pay 24 EUR?","approval":{"id":"ap-1"}}"#
    );
    let approved = reduce(
        &asked,
        &part(r#"{ "type": "tool-approval-response", "approvalId": "ap-1", "approved": true }"#),
    )
    .unwrap();
    assert_eq!(string_at(&approved, "messages.1.parts.1.state"), "running");
    assert_eq!(
        text_of(&get(&approved, "messages.1.parts.1.approval")),
        r#"{"id":"ap-1","approved":true}"#
    );
    assert!(get(&approved, "messages.1.parts.1.prompt").is_undefined());
    assert!(same(
        &get(&approved, "messages.0"),
        &get(&asked, "messages.0")
    ));
    assert!(same(
        &get(&approved, "messages.1.parts.0"),
        &get(&asked, "messages.1.parts.0")
    ));
    assert!(same(
        &get(&approved, "messages.1.parts.1.input"),
        &get(&asked, "messages.1.parts.1.input")
    ));
    let continued = reduce(&approved, &js(r#"{ "type": "continue" }"#)).unwrap();
    assert_eq!(string_at(&continued, "status"), "streaming");
    assert!(same(
        &get(&continued, "messages"),
        &get(&approved, "messages")
    ));
    assert!(same(
        &reduce(&continued, &js(r#"{ "type": "continue" }"#)).unwrap(),
        &continued
    ));
}

#[wasm_bindgen_test]
fn the_input_is_what_json_parse_makes_of_the_text() {
    // Numbers as JavaScript reads them, a lone surrogate escaped in a string, "__proto__" as
    // a plain key: exactly JSON.parse.
    let pieces = [
        r#"{"n": 1.50, "big": 12345678901234567890, "#,
        r#""s": "\ud800", "#,
        r#""__proto__": {"x": 1}}"#,
    ];
    let text: String = pieces.concat();
    let state = end_input(&streaming_input(&pieces.map(JsValue::from)));
    let input = get(&state, "messages.1.parts.1.input");
    assert_eq!(text_of(&input), text_of(&JSON::parse(&text).unwrap()));
    assert!(
        Reflect::get_own_property_descriptor(&input.clone().into(), &"__proto__".into())
            .map(|descriptor| !descriptor.is_undefined())
            .unwrap_or(false)
    );
    assert_eq!(string_at(&state, "messages.1.parts.1.inputText"), text);
    assert_eq!(string_at(&state, "messages.1.parts.1.state"), "running");
}

#[wasm_bindgen_test]
fn input_text_keeps_any_string_as_given() {
    // A lone surrogate split across deltas stays exactly as sent (it is never converted).
    let high = JSON::parse(r#""\"\ud83d""#).unwrap();
    let low = JSON::parse(r#""\ude00\"""#).unwrap();
    let streamed = streaming_input(&[high, low]);
    let text = get(&streamed, "messages.1.parts.1.inputText");
    assert_eq!(text_of(&text), r#""\"😀\"""#);
    let state = end_input(&streamed);
    assert_eq!(string_at(&state, "messages.1.parts.1.input"), "😀");
}

#[wasm_bindgen_test]
fn blank_text_is_an_empty_object_and_text_that_is_not_json_an_invalid_input_error() {
    let blank = end_input(&streaming_input(&[" \n".into()]));
    assert_eq!(text_of(&get(&blank, "messages.1.parts.1.input")), "{}");
    let invalid = end_input(&streaming_input(&["{\"a\": ".into(), "undefined}".into()]));
    assert_eq!(
        text_of(&get(&invalid, "messages.1.parts.1")),
        r#"{"type":"tool","id":"c-1","name":"write","input":null,"inputText":"{\"a\": undefined}","state":"error","error":{"message":"The tool input is not valid JSON","code":"invalid_input"}}"#
    );
}

#[wasm_bindgen_test]
fn a_state_the_module_did_not_make_has_its_input_parsed_too() {
    let literal = js(
        r#"{ "messages": [{ "id": "a-1", "role": "assistant", "parts": [
        { "type": "tool", "id": "c-1", "name": "f", "input": null, "inputText": "[1, 2]", "state": "input-streaming" }
    ] }], "status": "streaming" }"#,
    );
    let state = end_input(&literal);
    assert_eq!(text_of(&get(&state, "messages.0.parts.0.input")), "[1,2]");
    // An input-streaming call without inputText has streamed nothing: blank.
    let without = js(
        r#"{ "messages": [{ "id": "a-1", "role": "assistant", "parts": [
        { "type": "tool", "id": "c-1", "name": "f", "input": null, "state": "input-streaming" }
    ] }], "status": "streaming" }"#,
    );
    let appended = reduce(
        &without,
        &part(r#"{ "type": "tool-input-delta", "id": "c-1", "text": "[" }"#),
    )
    .unwrap();
    assert_eq!(string_at(&appended, "messages.0.parts.0.inputText"), "[");
    assert_eq!(
        text_of(&get(&end_input(&without), "messages.0.parts.0.input")),
        "{}"
    );
}

#[wasm_bindgen_test]
fn a_delta_copies_only_the_path_to_its_call() {
    let before = streaming_input(&["[".into()]);
    let after = reduce(
        &before,
        &part(r#"{ "type": "tool-input-delta", "id": "c-1", "text": "1" }"#),
    )
    .unwrap();
    assert!(same(
        &get(&after, "messages.0"),
        &get(&before, "messages.0")
    ));
    assert!(same(
        &get(&after, "messages.1.parts.0"),
        &get(&before, "messages.1.parts.0")
    ));
    assert!(!same(
        &get(&after, "messages.1.parts.1"),
        &get(&before, "messages.1.parts.1")
    ));
    assert_eq!(string_at(&before, "messages.1.parts.1.inputText"), "[");
    assert_eq!(string_at(&after, "messages.1.parts.1.inputText"), "[1");
    let empty = part(r#"{ "type": "tool-input-delta", "id": "c-1", "text": "" }"#);
    assert!(same(&reduce(&after, &empty).unwrap(), &after));
}

#[wasm_bindgen_test]
fn payloads_arrive_by_reference_and_frozen_inputs_are_never_mutated() {
    let asked = play(&js(EMPTY), &ASKED[..6]);
    deep_freeze(&asked);
    let request = part(
        r#"{ "type": "tool-approval-request", "id": "c-1", "automatic": true, "details": { "signature": "s" } }"#,
    );
    deep_freeze(&request);
    let requested = reduce(&asked, &request).unwrap();
    assert!(same(
        &get(&requested, "messages.1.parts.1.approval.details"),
        &get(&request, "part.details")
    ));
    assert_eq!(
        text_of(&get(&requested, "messages.1.parts.1.approval")),
        r#"{"id":"c-1","automatic":true,"details":{"signature":"s"}}"#
    );
    let response = part(
        r#"{ "type": "tool-approval-response", "id": "c-1", "approved": true, "input": { "qty": 1 }, "output": { "paid": true } }"#,
    );
    deep_freeze(&response);
    let done = reduce(&requested, &response).unwrap();
    assert_eq!(string_at(&done, "messages.1.parts.1.state"), "done");
    assert!(same(
        &get(&done, "messages.1.parts.1.input"),
        &get(&response, "part.input")
    ));
    assert!(same(
        &get(&done, "messages.1.parts.1.output"),
        &get(&response, "part.output")
    ));
    let progress = part(
        r#"{ "type": "tool-result", "id": "c-1", "output": { "step": 1 }, "preliminary": true }"#,
    );
    let running = reduce(&asked, &progress).unwrap();
    assert_eq!(string_at(&running, "messages.1.parts.1.state"), "running");
    assert!(same(
        &get(&running, "messages.1.parts.1.output"),
        &get(&progress, "part.output")
    ));
}

#[wasm_bindgen_test]
fn answers_land_after_the_run_and_send_cancels_what_still_waits() {
    let asked = play(&js(EMPTY), ASKED);
    let denied = reduce(
        &asked,
        &part(r#"{ "type": "tool-approval-response", "id": "c-1", "approved": false, "reason": "Too much" }"#),
    )
    .unwrap();
    assert_eq!(
        text_of(&get(&denied, "messages.1.parts.1.error")),
        r#"{"message":"Too much","code":"denied"}"#
    );
    let sent = reduce(
        &asked,
        &js(r#"{ "type": "send", "id": "u-2", "text": "Cancel that" }"#),
    )
    .unwrap();
    assert_eq!(string_at(&sent, "messages.1.parts.1.state"), "cancelled");
    assert_eq!(string_at(&sent, "messages.1.parts.1.prompt"), "Pay 24 EUR?");
    assert_eq!(string_at(&sent, "messages.2.id"), "u-2");
    let stopped = reduce(&asked, &js(r#"{ "type": "stop" }"#)).unwrap();
    let late = part(r#"{ "type": "tool-result", "id": "c-1", "output": 1 }"#);
    assert!(same(&reduce(&stopped, &late).unwrap(), &stopped));
}

#[wasm_bindgen_test]
fn a_reasoning_delta_appends_to_the_reasoning_part() {
    let state = play(
        &js(EMPTY),
        &[
            r#"{ "type": "send", "id": "u-1", "text": "Hi" }"#,
            r#"{ "type": "part", "part": { "type": "reasoning-delta", "text": "Let me ", "metadata": { "m": 1 } } }"#,
            r#"{ "type": "part", "part": { "type": "reasoning-delta", "text": "think." } }"#,
            r#"{ "type": "part", "part": { "type": "text-delta", "text": "Hello" } }"#,
        ],
    );
    assert_eq!(
        text_of(&get(&state, "messages.1.parts")),
        r#"[{"type":"reasoning","text":"Let me think.","metadata":{"m":1}},{"type":"text","text":"Hello"}]"#
    );
}

#[wasm_bindgen_test]
fn malformed_call_parts_throw_with_their_path() {
    let streaming = play(&js(EMPTY), &ASKED[..2]);
    for (action, path, problem) in [
        (
            r#"{ "type": "tool-approval-request", "prompt": "?" }"#,
            "action.part.id",
            "required when there is no name",
        ),
        (
            r#"{ "type": "tool-approval-response", "approved": true }"#,
            "action.part.id",
            "required when there is no approvalId",
        ),
        (
            r#"{ "type": "tool-approval-response", "id": "c", "approved": "yes" }"#,
            "action.part.approved",
            "expected a boolean",
        ),
        (
            r#"{ "type": "tool-approval-request", "id": "c", "automatic": 1 }"#,
            "action.part.automatic",
            "expected a boolean",
        ),
        (
            r#"{ "type": "tool-result", "id": "c", "output": 1, "preliminary": null }"#,
            "action.part.preliminary",
            "expected a boolean",
        ),
        (
            r#"{ "type": "tool-input-delta", "id": "c", "text": 5 }"#,
            "action.part.text",
            "expected a string",
        ),
        (
            r#"{ "type": "tool-input-delta", "id": "c", "name": 5, "text": "" }"#,
            "action.part.name",
            "expected a string",
        ),
        (
            r#"{ "type": "tool-input-end" }"#,
            "action.part.id",
            "expected a string",
        ),
        (
            r#"{ "type": "reasoning-delta", "text": null }"#,
            "action.part.text",
            "expected a string",
        ),
    ] {
        let thrown = reduce(&streaming, &part(action)).expect_err(action);
        assert_eq!(error_field(&thrown, "path"), path, "{action}");
        let message = error_field(&thrown, "message");
        assert!(
            message.starts_with(&format!("{path}: {problem}")),
            "{message}"
        );
    }
    for (state, path) in [
        (
            r#"{ "messages": [{ "id": "a", "role": "assistant", "parts": [{ "type": "tool", "id": "c", "name": "f", "input": null, "state": "input-streaming", "inputText": 1 }] }], "status": "idle" }"#,
            "state.messages[0].parts[0].inputText",
        ),
        (
            r#"{ "messages": [{ "id": "a", "role": "assistant", "parts": [{ "type": "tool", "id": "c", "name": "f", "input": 1, "state": "running", "approval": {} }] }], "status": "idle" }"#,
            "state.messages[0].parts[0].approval.id",
        ),
        (
            r#"{ "messages": [{ "id": "a", "role": "assistant", "parts": [{ "type": "tool", "id": "c", "name": "f", "input": 1, "state": "running", "approval": { "id": "x", "approved": "no" } }] }], "status": "idle" }"#,
            "state.messages[0].parts[0].approval.approved",
        ),
    ] {
        let thrown = reduce(&js(state), &js(r#"{ "type": "stop" }"#)).expect_err(state);
        assert_eq!(error_field(&thrown, "path"), path);
    }
    // The module keeps working.
    assert_eq!(string_at(&play(&streaming, &ASKED[2..]), "status"), "idle");
}
