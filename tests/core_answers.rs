//! SPEC v2: answers outlive the run (`tool-result`, `tool-error` and `tool-approval-response`
//! apply in any status), `send` when not streaming cancels the calls left open, and `continue`.

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
mod common;

use chat_session_reducer::core::model::ToolState;
use common::*;
use serde_json::{json, Value};

fn answers(id: &str) -> Vec<Value> {
    vec![
        part(json!({ "type": "tool-result", "id": id, "output": "answer" })),
        part(json!({ "type": "tool-result", "id": id, "output": "progress", "preliminary": true })),
        part(json!({ "type": "tool-error", "id": id, "error": { "message": "failed" } })),
        part(json!({ "type": "tool-approval-response", "id": id, "approved": true })),
        part(json!({ "type": "tool-approval-response", "id": id, "approved": false })),
    ]
}

fn run_with_open_call(end: Value) -> std::rc::Rc<chat_session_reducer::core::model::SessionState> {
    replay(&[
        json!({ "type": "send", "id": "u-1", "text": "Where am I?" }),
        part(json!({ "type": "tool-call", "id": "c-1", "name": "get_location", "input": {} })),
        json!({ "type": "toolPhase", "name": "get_location", "state": "awaiting-confirmation", "prompt": "Share?" }),
        end,
    ])
}

#[test]
fn an_answer_after_finish_lands() {
    let finished = run_with_open_call(part(json!({ "type": "finish", "reason": "tool-calls" })));
    assert_eq!(to_json(&finished)["status"], json!("idle"));
    for answer in answers("c-1") {
        let after = apply(&finished, answer.clone());
        assert!(
            !std::rc::Rc::ptr_eq(&after, &finished),
            "{answer} should land"
        );
        assert_eq!(
            to_json(&after)["status"],
            json!("idle"),
            "an answer does not start a run"
        );
    }
    let after = apply(
        &finished,
        part(json!({ "type": "tool-result", "id": "c-1", "output": { "city": "Lyon" } })),
    );
    assert_eq!(call(&after, 1, 0).state, ToolState::Done);
}

#[test]
fn an_answer_after_stop_or_error_changes_nothing() {
    for end in [
        json!({ "type": "stop" }),
        part(json!({ "type": "error", "error": "boom" })),
        part(json!({ "type": "finish", "reason": "aborted" })),
    ] {
        let ended = run_with_open_call(end.clone());
        assert_eq!(
            call(&ended, 1, 0).state,
            ToolState::Cancelled,
            "after {end}"
        );
        for answer in answers("c-1") {
            assert_same_back(&ended, &action(answer));
        }
    }
}

#[test]
fn an_answer_in_an_error_status_lands_on_a_call_still_open() {
    // A failed run leaves no open call; a state given with one still gets its answer.
    let failed = json!({
        "messages": [user("u-1", "Hi"), assistant("a-1", json!([tool("c-1", "search", "running")]))],
        "status": "error",
        "error": { "message": "boom" }
    });
    let mut expected = failed.clone();
    expected["messages"][1]["parts"][0] =
        tool_with("c-1", "search", "done", json!({ "output": 1 }));
    assert_becomes(
        failed,
        part(json!({ "type": "tool-result", "id": "c-1", "output": 1 })),
        expected,
    );
}

#[test]
fn an_answer_within_a_finished_nested_run_lands() {
    let conversation = json!({
        "messages": [user("u-1", "Go"), assistant("a-1", json!([tool_with("c-1", "delegate", "running", json!({
            "agent": { "messages": [assistant("n-1", json!([tool("n-c", "ask", "awaiting-confirmation")]))], "status": "idle" }
        }))]))],
        "status": "idle"
    });
    let mut expected = conversation.clone();
    expected["messages"][1]["parts"][0]["agent"]["messages"][0]["parts"][0] =
        tool_with("n-c", "ask", "done", json!({ "output": "yes" }));
    assert_becomes(
        conversation.clone(),
        part_within(
            "c-1",
            json!({ "type": "tool-result", "id": "n-c", "output": "yes" }),
        ),
        expected.clone(),
    );
    // From the root too: the nested call is in a run below it.
    assert_becomes(
        conversation,
        part(json!({ "type": "tool-result", "id": "n-c", "output": "yes" })),
        expected,
    );
}

#[test]
fn an_answer_within_a_call_that_is_not_open_is_ignored() {
    let conversation = json!({
        "messages": [assistant("a-1", json!([tool_with("c-1", "delegate", "done", json!({
            "agent": { "messages": [assistant("n-1", json!([tool("n-c", "ask", "running")]))], "status": "idle" }
        }))]))],
        "status": "idle"
    });
    assert_unchanged(
        conversation,
        part_within(
            "c-1",
            json!({ "type": "tool-result", "id": "n-c", "output": 1 }),
        ),
    );
}

// ---- send ----

#[test]
fn send_while_a_call_waits_cancels_it_first() {
    let finished = run_with_open_call(part(json!({ "type": "finish" })));
    let after = apply(
        &finished,
        json!({ "type": "send", "id": "u-2", "text": "Never mind" }),
    );
    assert_eq!(
        to_json(&after),
        json!({
            "messages": [
                user("u-1", "Where am I?"),
                assistant("assistant-1", json!([tool_with("c-1", "get_location", "cancelled", json!({ "prompt": "Share?" }))])),
                user("u-2", "Never mind")
            ],
            "status": "streaming"
        })
    );
}

#[test]
fn send_when_not_streaming_cancels_nested_open_calls_too() {
    let conversation = json!({
        "messages": [assistant("a-1", json!([tool_with("c-1", "delegate", "running", json!({
            "agent": { "messages": [assistant("n-1", json!([tool("n-c", "ask", "running")]))], "status": "streaming" }
        }))]))],
        "status": "error",
        "error": { "message": "boom" }
    });
    let after = apply(
        &state(conversation),
        json!({ "type": "send", "id": "u-2", "text": "Again" }),
    );
    let holder = call(&after, 0, 0);
    assert_eq!(holder.state, ToolState::Cancelled);
    let agent = holder.agent.clone().expect("the nested run");
    assert_eq!(call(&agent, 0, 0).state, ToolState::Cancelled);
    assert_eq!(to_json(&agent)["status"], json!("idle"));
}

#[test]
fn send_while_streaming_cancels_nothing() {
    // v3: the message is queued (core_queue.rs); the run and its calls go on.
    let messages = json!([
        user("u-1", "Hi"),
        assistant("a-1", json!([tool("c-1", "search", "running")]))
    ]);
    assert_becomes(
        streaming(messages.clone()),
        json!({ "type": "send", "id": "u-2", "text": "And also…" }),
        json!({
            "messages": messages,
            "status": "streaming",
            "queue": [{ "id": "u-2", "text": "And also…" }]
        }),
    );
}

// ---- continue ----

#[test]
fn continue_streams_again_without_a_new_message() {
    let messages = json!([
        user("u-1", "Hi"),
        assistant("a-1", json!([tool("c-1", "search", "done")]))
    ]);
    assert_becomes(
        json!({ "messages": messages, "status": "idle" }),
        json!({ "type": "continue" }),
        json!({ "messages": messages, "status": "streaming" }),
    );
    assert_becomes(
        json!({ "messages": messages, "status": "error", "error": { "message": "boom", "code": "network" } }),
        json!({ "type": "continue" }),
        json!({ "messages": messages, "status": "streaming" }),
    );
    assert_unchanged(
        json!({ "messages": messages, "status": "streaming" }),
        json!({ "type": "continue" }),
    );
}

#[test]
fn continue_keeps_the_calls_that_wait() {
    let finished = run_with_open_call(part(json!({ "type": "finish" })));
    let continued = apply(&finished, json!({ "type": "continue" }));
    assert_eq!(
        call(&continued, 1, 0).state,
        ToolState::AwaitingConfirmation
    );
    assert!(std::rc::Rc::ptr_eq(
        &finished.messages[1],
        &continued.messages[1]
    ));
}
