//! SPEC v2: approvals. `tool-approval-request` asks (by call id, or by tool name as `toolPhase`
//! finds a call), `tool-approval-response` answers (by call id, or by approval id), and the
//! call's `approval` keeps the question and the answer.

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
mod common;

use chat_session_reducer::core::model::ToolState;
use chat_session_reducer::core::resumable;
use common::*;
use serde_json::{json, Value};

/// `{ type: "part", part: { type: kind, ...fields } }`.
fn part_of(kind: &str, fields: Value) -> Value {
    let mut part = fields;
    part["type"] = json!(kind);
    json!({ "type": "part", "part": part })
}

fn request(fields: Value) -> Value {
    part_of("tool-approval-request", fields)
}

fn response(fields: Value) -> Value {
    part_of("tool-approval-response", fields)
}

fn calls(parts: Value) -> Value {
    streaming(json!([user("u-1", "Buy"), assistant("a-1", parts)]))
}

fn idle(parts: Value) -> Value {
    json!({ "messages": [user("u-1", "Buy"), assistant("a-1", parts)], "status": "idle" })
}

// ---- tool-approval-request ----

#[test]
fn a_request_by_id_asks_for_confirmation_with_an_approval() {
    assert_becomes(
        calls(json!([tool("c-1", "checkout", "running")])),
        request(json!({ "id": "c-1", "prompt": "Pay 12 EUR?" })),
        calls(json!([tool_with(
            "c-1",
            "checkout",
            "awaiting-confirmation",
            json!({
                "prompt": "Pay 12 EUR?", "approval": { "id": "c-1" }
            })
        )])),
    );
}

#[test]
fn a_request_keeps_its_approval_id_policy_and_details() {
    assert_becomes(
        calls(json!([tool_with(
            "c-1",
            "checkout",
            "awaiting-confirmation",
            json!({ "prompt": "Old?" })
        )])),
        request(json!({
            "id": "c-1", "name": "ignored", "approvalId": "ap-1", "automatic": true,
            "details": { "signature": "x", "toolCall": { "id": "c-1" } }
        })),
        calls(json!([tool_with(
            "c-1",
            "checkout",
            "awaiting-confirmation",
            json!({
                "approval": { "id": "ap-1", "automatic": true, "details": { "signature": "x", "toolCall": { "id": "c-1" } } }
            })
        )])),
    );
}

#[test]
fn a_request_by_name_picks_the_newest_open_call_whose_input_is_complete() {
    assert_becomes(
        calls(json!([
            tool("c-1", "checkout", "running"),
            tool("c-2", "checkout", "running"),
            { "type": "tool", "id": "c-3", "name": "checkout", "input": null, "inputText": "{", "state": "input-streaming" },
            tool("c-4", "search", "running")
        ])),
        request(json!({ "name": "checkout" })),
        calls(json!([
            tool("c-1", "checkout", "running"),
            tool_with("c-2", "checkout", "awaiting-confirmation", json!({ "approval": { "id": "c-2" } })),
            { "type": "tool", "id": "c-3", "name": "checkout", "input": null, "inputText": "{", "state": "input-streaming" },
            tool("c-4", "search", "running")
        ])),
    );
}

#[test]
fn a_request_for_no_such_call_is_ignored() {
    let streaming_input = json!({ "type": "tool", "id": "c-1", "name": "checkout", "input": null, "inputText": "{", "state": "input-streaming" });
    assert_unchanged(
        calls(json!([streaming_input])),
        request(json!({ "id": "c-1" })),
    );
    assert_unchanged(
        calls(json!([tool("c-1", "checkout", "done")])),
        request(json!({ "id": "c-1" })),
    );
    assert_unchanged(
        calls(json!([tool("c-1", "checkout", "running")])),
        request(json!({ "id": "c-9" })),
    );
    assert_unchanged(
        calls(json!([tool("c-1", "checkout", "running")])),
        request(json!({ "name": "refund" })),
    );
}

#[test]
fn the_same_request_again_changes_nothing() {
    let asked = apply(
        &state(calls(json!([tool("c-1", "checkout", "running")]))),
        request(json!({ "id": "c-1", "approvalId": "ap-1", "prompt": "Pay?" })),
    );
    assert_same_back(
        &asked,
        &action(request(
            json!({ "id": "c-1", "approvalId": "ap-1", "prompt": "Pay?" }),
        )),
    );
}

#[test]
fn a_request_is_ignored_unless_the_run_streams() {
    assert_unchanged(
        idle(json!([tool("c-1", "checkout", "running")])),
        request(json!({ "id": "c-1" })),
    );
}

// ---- tool-approval-response ----

#[test]
fn approved_the_call_runs_and_the_question_goes() {
    assert_becomes(
        calls(json!([tool_with(
            "c-1",
            "checkout",
            "awaiting-confirmation",
            json!({
                "prompt": "Pay?", "approval": { "id": "ap-1", "details": { "k": 1 } }
            })
        )])),
        response(json!({ "id": "c-1", "approved": true, "reason": "Fine" })),
        calls(json!([tool_with(
            "c-1",
            "checkout",
            "running",
            json!({
                "approval": { "id": "ap-1", "details": { "k": 1 }, "approved": true, "reason": "Fine" }
            })
        )])),
    );
}

#[test]
fn approved_with_edits_replaces_the_input_and_with_an_output_is_done() {
    assert_becomes(
        calls(json!([tool_with(
            "c-1",
            "checkout",
            "awaiting-confirmation",
            json!({ "approval": { "id": "c-1" } })
        )])),
        response(json!({ "id": "c-1", "approved": true, "input": { "qty": 1 } })),
        calls(json!([{
            "type": "tool", "id": "c-1", "name": "checkout", "input": { "qty": 1 }, "state": "running",
            "approval": { "id": "c-1", "approved": true }
        }])),
    );
    assert_becomes(
        calls(json!([tool_with(
            "c-1",
            "ask_user",
            "awaiting-confirmation",
            json!({ "prompt": "Which size?" })
        )])),
        response(json!({ "id": "c-1", "approved": true, "output": { "size": "L" } })),
        calls(json!([tool_with(
            "c-1",
            "ask_user",
            "done",
            json!({
                "output": { "size": "L" }, "approval": { "id": "c-1", "approved": true }
            })
        )])),
    );
}

#[test]
fn refused_the_call_is_a_denied_error_that_resumable_keeps() {
    assert_becomes(
        calls(json!([tool_with(
            "c-1",
            "checkout",
            "awaiting-confirmation",
            json!({ "prompt": "Pay?", "approval": { "id": "c-1" } })
        )])),
        response(json!({ "id": "c-1", "approved": false })),
        calls(json!([tool_with(
            "c-1",
            "checkout",
            "error",
            json!({
                "error": { "message": "Denied by the user", "code": "denied" },
                "approval": { "id": "c-1", "approved": false }
            })
        )])),
    );
    let denied = apply(
        &state(calls(json!([
            tool("c-1", "checkout", "awaiting-confirmation"),
            text("So…")
        ]))),
        response(json!({ "id": "c-1", "approved": false, "reason": "Too expensive" })),
    );
    let call = call(&denied, 1, 0);
    assert_eq!(call.state, ToolState::Error);
    assert_eq!(
        call.error.as_ref().map(|error| error.message.as_str()),
        Some("Too expensive")
    );
    let kept = resumable(&denied.messages);
    assert_eq!(
        kept[1].parts.len(),
        1,
        "a denial is finished: kept, and what follows goes"
    );
}

#[test]
fn a_response_by_approval_id_finds_a_nested_call() {
    let nested = tool_with(
        "c-1",
        "delegate",
        "running",
        json!({ "agent": streaming(json!([assistant("n-1", json!([
            tool_with("n-c", "charge", "awaiting-confirmation", json!({ "prompt": "Charge?", "approval": { "id": "interrupt-7" } }))
        ]))])) }),
    );
    let after = apply(
        &state(calls(json!([nested]))),
        response(json!({ "approvalId": "interrupt-7", "approved": true })),
    );
    let agent = call(&after, 1, 0).agent.clone().expect("the nested run");
    assert_eq!(
        to_json(&agent)["messages"][0]["parts"][0],
        tool_with(
            "n-c",
            "charge",
            "running",
            json!({
                "approval": { "id": "interrupt-7", "approved": true }
            })
        )
    );
}

#[test]
fn a_response_without_a_request_makes_the_approval() {
    assert_becomes(
        calls(json!([tool("c-1", "checkout", "running")])),
        response(json!({ "id": "c-1", "approved": true })),
        calls(json!([tool_with(
            "c-1",
            "checkout",
            "running",
            json!({ "approval": { "id": "c-1", "approved": true } })
        )])),
    );
}

#[test]
fn a_response_for_no_open_call_is_ignored() {
    assert_unchanged(
        calls(json!([tool("c-1", "checkout", "done")])),
        response(json!({ "id": "c-1", "approved": true })),
    );
    assert_unchanged(
        calls(json!([tool("c-1", "checkout", "running")])),
        response(json!({ "id": "c-9", "approved": false })),
    );
    assert_unchanged(
        calls(json!([tool_with(
            "c-1",
            "checkout",
            "awaiting-confirmation",
            json!({ "approval": { "id": "ap-1" } })
        )])),
        response(json!({ "approvalId": "ap-9", "approved": true })),
    );
    // The same answer twice: the second changes nothing.
    let answered = apply(
        &state(calls(json!([tool("c-1", "checkout", "running")]))),
        response(json!({ "id": "c-1", "approved": true })),
    );
    assert_same_back(
        &answered,
        &action(response(json!({ "id": "c-1", "approved": true }))),
    );
}

#[test]
fn an_answer_that_finishes_a_call_ends_its_streaming_sub_agent_run() {
    let nested = tool_with(
        "c-1",
        "delegate",
        "awaiting-confirmation",
        json!({ "agent": streaming(json!([assistant("n-1", json!([tool("n-c", "search", "running")]))])) }),
    );
    let after = apply(
        &state(calls(json!([nested]))),
        response(json!({ "id": "c-1", "approved": false })),
    );
    let agent = call(&after, 1, 0).agent.clone().expect("the nested run");
    assert_eq!(to_json(&agent)["status"], json!("idle"));
    assert_eq!(call(&agent, 0, 0).state, ToolState::Cancelled);
}

#[test]
fn a_streamed_call_asks_and_is_approved() {
    let state = replay(&[
        json!({ "type": "send", "id": "u-1", "text": "Buy two mugs" }),
        part(json!({ "type": "message-start", "messageId": "a-1" })),
        part(
            json!({ "type": "tool-input-delta", "id": "c-1", "name": "checkout", "text": "{\"qty\":" }),
        ),
        part(json!({ "type": "tool-input-delta", "id": "c-1", "text": " 2}" })),
        part(json!({ "type": "tool-input-end", "id": "c-1" })),
        request(json!({ "id": "c-1", "approvalId": "ap-1", "prompt": "Pay 24 EUR?" })),
        part(json!({ "type": "finish", "reason": "tool-calls" })),
        response(json!({ "approvalId": "ap-1", "approved": true })),
        json!({ "type": "continue" }),
        part(json!({ "type": "tool-result", "id": "c-1", "output": "Paid." })),
    ]);
    assert_eq!(
        to_json(&state)["messages"][1]["parts"][0],
        json!({
            "type": "tool", "id": "c-1", "name": "checkout", "input": { "qty": 2 }, "inputText": "{\"qty\": 2}",
            "state": "done", "output": "Paid.", "approval": { "id": "ap-1", "approved": true }
        })
    );
    assert_eq!(to_json(&state)["status"], json!("streaming"));
}
