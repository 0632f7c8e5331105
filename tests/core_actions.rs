//! SPEC "Actions": send, part (status gate), toolPhase, stop, retry, reset.
//! `within` and nesting live in core_within.rs; `resumable` in core_resumable.rs.

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
mod common;

use common::*;
use serde_json::json;

// ---- send ----

#[test]
fn send_appends_a_user_message_and_starts_streaming() {
    assert_becomes(
        json!({ "messages": [], "status": "idle" }),
        json!({ "type": "send", "id": "u-1", "text": "Add two mugs to the cart" }),
        json!({
            "messages": [user("u-1", "Add two mugs to the cart")],
            "status": "streaming"
        }),
    );
}

#[test]
fn send_after_a_failure_clears_the_error_and_keeps_the_conversation() {
    assert_becomes(
        json!({
            "messages": [user("u-1", "Hi"), assistant("a-1", json!([{ "type": "text", "text": "Hel" }]))],
            "status": "error",
            "error": { "message": "Couldn't reach the assistant.", "code": "network" }
        }),
        json!({ "type": "send", "id": "u-2", "text": "Again" }),
        json!({
            "messages": [
                user("u-1", "Hi"),
                assistant("a-1", json!([{ "type": "text", "text": "Hel" }])),
                user("u-2", "Again")
            ],
            "status": "streaming"
        }),
    );
}

// v3 replaced this row: a send while streaming is queued, not appended (core_queue.rs).
#[test]
fn send_while_streaming_is_queued_and_keeps_streaming() {
    assert_becomes(
        streaming(json!([user("u-1", "Hi")])),
        json!({ "type": "send", "id": "u-2", "text": "" }),
        json!({
            "messages": [user("u-1", "Hi")],
            "status": "streaming",
            "queue": [{ "id": "u-2", "text": "" }]
        }),
    );
}

// ---- part: only while streaming, answers excepted (core_answers.rs) ----

/// Every part type but the answers (`tool-result`, `tool-error`, `tool-approval-response`).
fn late_parts() -> Vec<serde_json::Value> {
    vec![
        json!({ "type": "message-start", "messageId": "a-9" }),
        json!({ "type": "text-delta", "text": "late" }),
        json!({ "type": "reasoning", "text": "late" }),
        json!({ "type": "reasoning-delta", "text": "late" }),
        json!({ "type": "tool-call", "id": "c-9", "name": "search", "input": {} }),
        json!({ "type": "tool-input-delta", "id": "c-9", "name": "search", "text": "{" }),
        json!({ "type": "tool-input-end", "id": "c-1" }),
        json!({ "type": "tool-approval-request", "id": "c-1", "prompt": "Late?" }),
        json!({ "type": "step-finish" }),
        json!({ "type": "finish", "reason": "aborted" }),
        json!({ "type": "error", "error": "late", "code": "network" }),
    ]
}

#[test]
fn parts_after_a_stopped_run_change_nothing() {
    // An idle state that still has an open call (a `finish` without "aborted" leaves it).
    let idle = json!({
        "messages": [user("u-1", "Hi"), assistant("a-1", json!([tool("c-1", "search", "running")]))],
        "status": "idle"
    });
    for late in late_parts() {
        assert_unchanged(idle.clone(), part(late.clone()));
        assert_unchanged(idle.clone(), part_within("c-1", late));
    }
}

#[test]
fn parts_after_a_failed_run_change_nothing() {
    let failed = json!({
        "messages": [user("u-1", "Hi"), assistant("a-1", json!([tool("c-1", "search", "running")]))],
        "status": "error",
        "error": { "message": "boom" }
    });
    for late in late_parts() {
        assert_unchanged(failed.clone(), part(late.clone()));
        assert_unchanged(failed.clone(), part_within("c-1", late));
    }
}

// ---- toolPhase ----

#[test]
fn tool_phase_asks_for_confirmation_on_the_open_call_of_that_name() {
    assert_becomes(
        streaming(json!([
            user("u-1", "Buy"),
            assistant("a-1", json!([tool("c-1", "checkout", "running")]))
        ])),
        json!({ "type": "toolPhase", "name": "checkout", "state": "awaiting-confirmation", "prompt": "Pay 12 EUR?" }),
        streaming(json!([
            user("u-1", "Buy"),
            assistant(
                "a-1",
                json!([tool_with(
                    "c-1",
                    "checkout",
                    "awaiting-confirmation",
                    json!({ "prompt": "Pay 12 EUR?" })
                )])
            )
        ])),
    );
}

#[test]
fn tool_phase_without_a_prompt_removes_the_prompt() {
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "checkout",
                "awaiting-confirmation",
                json!({ "prompt": "Pay?" })
            )])
        )])),
        json!({ "type": "toolPhase", "name": "checkout", "state": "running" }),
        streaming(json!([assistant(
            "a-1",
            json!([tool("c-1", "checkout", "running")])
        )])),
    );
    // Same state, prompt dropped: still a change.
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "checkout",
                "awaiting-confirmation",
                json!({ "prompt": "Pay?" })
            )])
        )])),
        json!({ "type": "toolPhase", "name": "checkout", "state": "awaiting-confirmation" }),
        streaming(json!([assistant(
            "a-1",
            json!([tool("c-1", "checkout", "awaiting-confirmation")])
        )])),
    );
}

#[test]
fn tool_phase_changes_the_prompt_alone() {
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "checkout",
                "awaiting-confirmation",
                json!({ "prompt": "Pay?" })
            )])
        )])),
        json!({ "type": "toolPhase", "name": "checkout", "state": "awaiting-confirmation", "prompt": "Pay now?" }),
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "checkout",
                "awaiting-confirmation",
                json!({ "prompt": "Pay now?" })
            )])
        )])),
    );
}

#[test]
fn tool_phase_sets_the_newest_open_call_of_that_name_only() {
    assert_becomes(
        streaming(json!([
            assistant("a-1", json!([tool("c-1", "checkout", "running")])),
            assistant(
                "a-2",
                json!([
                    tool("c-2", "checkout", "running"),
                    tool("c-3", "search", "running")
                ])
            )
        ])),
        json!({ "type": "toolPhase", "name": "checkout", "state": "awaiting-confirmation", "prompt": "Pay?" }),
        streaming(json!([
            assistant("a-1", json!([tool("c-1", "checkout", "running")])),
            assistant(
                "a-2",
                json!([
                    tool_with(
                        "c-2",
                        "checkout",
                        "awaiting-confirmation",
                        json!({ "prompt": "Pay?" })
                    ),
                    tool("c-3", "search", "running")
                ])
            )
        ])),
    );
}

#[test]
fn tool_phase_skips_newer_calls_that_are_no_longer_open() {
    for closed in ["done", "error", "cancelled"] {
        assert_becomes(
            streaming(json!([assistant(
                "a-1",
                json!([
                    tool("c-1", "checkout", "running"),
                    tool("c-2", "checkout", closed)
                ])
            )])),
            json!({ "type": "toolPhase", "name": "checkout", "state": "awaiting-confirmation" }),
            streaming(json!([assistant(
                "a-1",
                json!([
                    tool("c-1", "checkout", "awaiting-confirmation"),
                    tool("c-2", "checkout", closed)
                ])
            )])),
        );
    }
}

#[test]
fn tool_phase_with_no_open_call_of_that_name_changes_nothing() {
    let calls = streaming(json!([assistant(
        "a-1",
        json!([
            tool("c-1", "search", "running"),
            tool("c-2", "checkout", "done"),
            tool("c-3", "checkout", "error"),
            tool("c-4", "checkout", "cancelled")
        ])
    )]));
    assert_unchanged(
        calls.clone(),
        json!({ "type": "toolPhase", "name": "checkout", "state": "running" }),
    );
    assert_unchanged(
        calls,
        json!({ "type": "toolPhase", "name": "unknown", "state": "awaiting-confirmation", "prompt": "?" }),
    );
    assert_unchanged(
        json!({ "messages": [], "status": "idle" }),
        json!({ "type": "toolPhase", "name": "checkout", "state": "running" }),
    );
}

#[test]
fn tool_phase_that_would_change_nothing_returns_the_same_state() {
    assert_unchanged(
        streaming(json!([assistant(
            "a-1",
            json!([tool("c-1", "checkout", "running")])
        )])),
        json!({ "type": "toolPhase", "name": "checkout", "state": "running" }),
    );
    assert_unchanged(
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "checkout",
                "awaiting-confirmation",
                json!({ "prompt": "Pay?" })
            )])
        )])),
        json!({ "type": "toolPhase", "name": "checkout", "state": "awaiting-confirmation", "prompt": "Pay?" }),
    );
}

#[test]
fn tool_phase_applies_in_any_status() {
    for (status, error) in [
        ("idle", None),
        ("error", Some(json!({ "message": "boom" }))),
    ] {
        let mut before = json!({
            "messages": [assistant("a-1", json!([tool("c-1", "checkout", "running")]))],
            "status": status
        });
        let mut after = json!({
            "messages": [assistant("a-1", json!([tool("c-1", "checkout", "awaiting-confirmation")]))],
            "status": status
        });
        if let Some(error) = error {
            before["error"] = error.clone();
            after["error"] = error;
        }
        assert_becomes(
            before,
            json!({ "type": "toolPhase", "name": "checkout", "state": "awaiting-confirmation" }),
            after,
        );
    }
}

// ---- stop ----

#[test]
fn stop_ends_the_run_and_cancels_every_open_call() {
    assert_becomes(
        streaming(json!([
            user("u-1", "Go"),
            assistant(
                "a-1",
                json!([
                    { "type": "text", "text": "On it" },
                    tool_with("c-1", "search", "done", json!({ "output": "found" })),
                    tool("c-2", "search", "running"),
                    tool_with("c-3", "checkout", "awaiting-confirmation", json!({ "prompt": "Pay?" })),
                    tool_with("c-4", "search", "error", json!({ "error": { "message": "no" } }))
                ])
            )
        ])),
        json!({ "type": "stop" }),
        json!({
            "messages": [
                user("u-1", "Go"),
                assistant("a-1", json!([
                    { "type": "text", "text": "On it" },
                    tool_with("c-1", "search", "done", json!({ "output": "found" })),
                    tool("c-2", "search", "cancelled"),
                    tool_with("c-3", "checkout", "cancelled", json!({ "prompt": "Pay?" })),
                    tool_with("c-4", "search", "error", json!({ "error": { "message": "no" } }))
                ]))
            ],
            "status": "idle"
        }),
    );
}

#[test]
fn stop_after_a_failure_clears_the_error() {
    assert_becomes(
        json!({ "messages": [user("u-1", "Go")], "status": "error", "error": { "message": "boom", "code": "rate_limited" } }),
        json!({ "type": "stop" }),
        json!({ "messages": [user("u-1", "Go")], "status": "idle" }),
    );
}

#[test]
fn stop_cancels_calls_left_open_by_a_plain_finish() {
    assert_becomes(
        json!({ "messages": [assistant("a-1", json!([tool("c-1", "search", "running")]))], "status": "idle" }),
        json!({ "type": "stop" }),
        json!({ "messages": [assistant("a-1", json!([tool("c-1", "search", "cancelled")]))], "status": "idle" }),
    );
}

#[test]
fn stop_on_an_idle_state_without_open_calls_changes_nothing() {
    assert_unchanged(
        json!({ "messages": [], "status": "idle" }),
        json!({ "type": "stop" }),
    );
    assert_unchanged(
        json!({
            "messages": [user("u-1", "Hi"), assistant("a-1", json!([tool("c-1", "search", "done"), tool("c-2", "search", "cancelled")]))],
            "status": "idle"
        }),
        json!({ "type": "stop" }),
    );
}

// ---- retry (the cut itself is tested in core_resumable.rs) ----

#[test]
fn retry_without_a_user_message_changes_nothing() {
    assert_unchanged(
        json!({ "messages": [], "status": "idle" }),
        json!({ "type": "retry" }),
    );
    assert_unchanged(
        json!({
            "messages": [assistant("a-1", json!([{ "type": "text", "text": "Welcome" }]))],
            "status": "error",
            "error": { "message": "boom" }
        }),
        json!({ "type": "retry" }),
    );
}

#[test]
fn retry_after_a_failure_resends_from_the_last_user_message() {
    assert_becomes(
        json!({
            "messages": [user("u-1", "Hi"), assistant("a-1", json!([{ "type": "text", "text": "Hel" }]))],
            "status": "error",
            "error": { "message": "boom", "code": "network" }
        }),
        json!({ "type": "retry" }),
        streaming(json!([user("u-1", "Hi")])),
    );
}

#[test]
fn retry_when_idle_with_nothing_to_cut_starts_streaming() {
    assert_becomes(
        json!({ "messages": [user("u-1", "Hi")], "status": "idle" }),
        json!({ "type": "retry" }),
        streaming(json!([user("u-1", "Hi")])),
    );
}

#[test]
fn retry_that_would_change_nothing_returns_the_same_state() {
    assert_unchanged(
        streaming(json!([user("u-1", "Hi")])),
        json!({ "type": "retry" }),
    );
    assert_unchanged(
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([tool("c-1", "search", "done")]))
        ])),
        json!({ "type": "retry" }),
    );
}

// ---- reset ----

#[test]
fn reset_goes_back_to_the_empty_session() {
    assert_becomes(
        json!({
            "messages": [user("u-1", "Hi"), assistant("a-1", json!([tool("c-1", "search", "running")]))],
            "status": "error",
            "error": { "message": "boom" }
        }),
        json!({ "type": "reset" }),
        json!({ "messages": [], "status": "idle" }),
    );
    assert_becomes(
        streaming(json!([])),
        json!({ "type": "reset" }),
        json!({ "messages": [], "status": "idle" }),
    );
    assert_becomes(
        json!({ "messages": [], "status": "error", "error": { "message": "boom" } }),
        json!({ "type": "reset" }),
        json!({ "messages": [], "status": "idle" }),
    );
    // An idle session with no messages may still hold the agent's state.
    assert_becomes(
        json!({ "messages": [], "status": "idle", "agentState": { "step": 1 } }),
        json!({ "type": "reset" }),
        json!({ "messages": [], "status": "idle" }),
    );
}

#[test]
fn reset_of_the_empty_session_changes_nothing() {
    assert_unchanged(
        json!({ "messages": [], "status": "idle" }),
        json!({ "type": "reset" }),
    );
}
