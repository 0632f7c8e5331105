//! The model types read and write exactly the SPEC's JSON: serialize(deserialize(x)) == x,
//! with optional fields absent (never written as null) or present.

#![cfg(not(feature = "js-binding"))]
use chat_session_reducer::core::model::{SessionAction, SessionState};
use serde_json::{json, Value};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

fn state_round_trip(value: Value) {
    let state: SessionState =
        serde_json::from_value(value.clone()).unwrap_or_else(|error| panic!("{value}: {error}"));
    assert_eq!(serde_json::to_value(&state).unwrap(), value);
}

fn action_round_trip(value: Value) {
    let action: SessionAction =
        serde_json::from_value(value.clone()).unwrap_or_else(|error| panic!("{value}: {error}"));
    assert_eq!(serde_json::to_value(&action).unwrap(), value);
}

#[test]
fn states_round_trip() {
    state_round_trip(json!({ "messages": [], "status": "idle" }));
    state_round_trip(json!({ "messages": [], "status": "streaming" }));
    state_round_trip(json!({ "messages": [], "status": "error", "error": { "message": "boom" } }));
    for code in ["chat_disabled", "rate_limited", "bad_request", "network"] {
        state_round_trip(
            json!({ "messages": [], "status": "error", "error": { "message": "boom", "code": code } }),
        );
    }
    state_round_trip(json!({
        "messages": [
            { "id": "u-1", "role": "user", "parts": [{ "type": "text", "text": "Größe? 😀 \u{0} \"quoted\"" }] },
            { "id": "a-1", "role": "assistant", "parts": [
                { "type": "reasoning", "text": "plain" },
                { "type": "reasoning", "text": "signed", "metadata": { "signature": "abc", "n": [1, -2.5, 1e100, null, true] } },
                { "type": "reasoning", "text": "", "metadata": [] },
                { "type": "text", "text": "" },
                { "type": "tool", "id": "c-1", "name": "search", "input": null, "state": "running" },
                { "type": "tool", "id": "c-2", "name": "search", "input": [1, "two", { "three": 3 }], "state": "awaiting-confirmation", "prompt": "OK?" },
                { "type": "tool", "id": "c-3", "name": "search", "input": "s", "state": "done", "output": { "content": [{ "type": "text", "text": "Added." }] } },
                { "type": "tool", "id": "c-4", "name": "search", "input": 0, "state": "done", "output": false },
                { "type": "tool", "id": "c-5", "name": "search", "input": {}, "state": "error", "error": { "message": "no" } },
                { "type": "tool", "id": "c-6", "name": "search", "input": {}, "state": "cancelled", "error": { "message": "no", "code": "cancelled" }, "prompt": "Pay?" },
                { "type": "tool", "id": "c-7", "name": "delegate", "input": {}, "state": "running", "agent": {
                    "messages": [{ "id": "n-1", "role": "assistant", "parts": [
                        { "type": "tool", "id": "c-8", "name": "d", "input": {}, "state": "running", "agent": { "messages": [], "status": "streaming" } }
                    ] }],
                    "status": "error",
                    "error": { "message": "sub", "code": "network" }
                } }
            ] }
        ],
        "status": "streaming"
    }));
}

/// `null` is a JSON value like any other: an `output` or `metadata` that is `null` is present,
/// and must not be dropped (SPEC: any JSON value in them round-trips unchanged).
#[test]
fn null_in_optional_json_fields_round_trips() {
    state_round_trip(json!({
        "messages": [{ "id": "a-1", "role": "assistant", "parts": [
            { "type": "reasoning", "text": "", "metadata": null },
            { "type": "tool", "id": "c-1", "name": "search", "input": null, "state": "done", "output": null }
        ] }],
        "status": "idle"
    }));
    action_round_trip(
        json!({ "type": "part", "part": { "type": "reasoning", "text": "hmm", "metadata": null } }),
    );
}

#[test]
fn actions_round_trip() {
    action_round_trip(json!({ "type": "send", "id": "u-1", "text": "Hi 👋" }));
    action_round_trip(json!({ "type": "toolPhase", "name": "checkout", "state": "running" }));
    action_round_trip(
        json!({ "type": "toolPhase", "name": "checkout", "state": "awaiting-confirmation", "prompt": "Pay?" }),
    );
    action_round_trip(json!({ "type": "stop" }));
    action_round_trip(json!({ "type": "retry" }));
    action_round_trip(json!({ "type": "reset" }));
    let parts = [
        json!({ "type": "message-start", "messageId": "a-1" }),
        json!({ "type": "text-delta", "text": "Hel" }),
        json!({ "type": "text-delta", "messageId": "a-1", "text": "lo" }),
        json!({ "type": "reasoning", "text": "hmm" }),
        json!({ "type": "reasoning", "messageId": "a-1", "text": "hmm", "metadata": { "sig": [1, 2] } }),
        json!({ "type": "tool-call", "id": "c-1", "name": "search", "input": { "q": "mug" } }),
        json!({ "type": "tool-call", "messageId": "a-1", "id": "c-1", "name": "search", "input": null }),
        json!({ "type": "tool-result", "id": "c-1", "output": { "content": [] } }),
        json!({ "type": "tool-error", "id": "c-1", "error": { "message": "no" } }),
        json!({ "type": "tool-error", "id": "c-1", "error": { "message": "no", "code": "cancelled" } }),
        json!({ "type": "step-finish" }),
        json!({ "type": "finish" }),
        json!({ "type": "finish", "reason": "stop" }),
        json!({ "type": "finish", "reason": "aborted" }),
        json!({ "type": "finish", "reason": "length" }),
        json!({ "type": "finish", "reason": "tool-calls" }),
        json!({ "type": "finish", "reason": "content-filter" }),
        json!({ "type": "finish", "reason": "other" }),
        json!({ "type": "error", "error": "boom" }),
        json!({ "type": "error", "error": "boom", "code": "chat_disabled" }),
        json!({ "type": "error", "error": "boom", "code": "rate_limited" }),
        json!({ "type": "error", "error": "boom", "code": "bad_request" }),
        json!({ "type": "error", "error": "boom", "code": "network" }),
    ];
    for part in parts {
        action_round_trip(json!({ "type": "part", "part": part }));
        action_round_trip(json!({ "type": "part", "part": part, "within": "c-9" }));
    }
}

#[test]
fn values_outside_the_types_are_rejected() {
    let actions = [
        json!({ "type": "undo" }),
        json!({ "type": "send", "text": "no id" }),
        json!({ "type": "send", "id": 1, "text": "Hi" }),
        json!({ "type": "toolPhase", "name": "checkout", "state": "done" }),
        json!({ "type": "part", "part": { "type": "tool-result", "output": 1 } }),
        json!({ "type": "part", "part": { "type": "finish", "reason": "bored" } }),
        json!({ "type": "part", "part": { "type": "error", "error": "boom", "code": "teapot" } }),
    ];
    for value in actions {
        assert!(
            serde_json::from_value::<SessionAction>(value.clone()).is_err(),
            "{value}"
        );
    }
    let states = [
        json!({ "status": "idle" }),
        json!({ "messages": [], "status": "paused" }),
        json!({ "messages": [{ "id": "s", "role": "system", "parts": [] }], "status": "idle" }),
        json!({ "messages": [{ "id": "a", "role": "assistant", "parts": [{ "type": "image" }] }], "status": "idle" }),
        json!({ "messages": [{ "id": "a", "role": "assistant", "parts": [
            { "type": "tool", "id": "c", "name": "n", "input": {}, "state": "paused" }
        ] }], "status": "idle" }),
    ];
    for value in states {
        assert!(
            serde_json::from_value::<SessionState>(value.clone()).is_err(),
            "{value}"
        );
    }
}

/// SPEC v2 part 2: data parts, metadata on messages and parts, `agentState`, and the actions and
/// parts that carry them, `null` included wherever a JSON value may be.
#[test]
fn v2_data_values_round_trip() {
    state_round_trip(json!({
        "messages": [{ "id": "a-1", "role": "assistant", "metadata": { "usage": { "output": 3 } }, "parts": [
            { "type": "text", "text": "cited", "metadata": { "citations": [1] } },
            { "type": "data", "name": "weather", "data": null },
            { "type": "data", "name": "plan", "id": "p", "data": [1], "metadata": null },
            { "type": "tool", "id": "c-1", "name": "t", "input": {}, "state": "running", "metadata": { "k": 1 } }
        ] }],
        "status": "streaming",
        "agentState": null
    }));
    for part in [
        json!({ "type": "data", "name": "n", "data": null }),
        json!({ "type": "data", "messageId": "a-1", "name": "n", "id": "i", "patch": [{ "op": "add", "path": "/a", "value": null }], "metadata": {} }),
        json!({ "type": "message-metadata", "metadata": null }),
        json!({ "type": "snapshot", "messages": [{ "id": "u-1", "role": "user", "parts": [] }], "exact": true }),
        json!({ "type": "agent-state", "snapshot": null }),
        json!({ "type": "agent-state", "patch": [{ "op": "test", "path": "", "value": 1 }] }),
        json!({ "type": "message-start", "messageId": "a-1", "metadata": null }),
        json!({ "type": "tool-result", "id": "c-1", "output": 1, "metadata": { "k": 1 } }),
    ] {
        action_round_trip(json!({ "type": "part", "part": part }));
    }
    action_round_trip(json!({ "type": "batch", "actions": [
        { "type": "stop" },
        { "type": "batch", "actions": [] }
    ] }));
}
