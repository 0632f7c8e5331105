//! SPEC: open, finished and cancelled calls. A call that has left the open states never
//! changes state again; when it leaves them, a streaming sub-agent run behind it ends as
//! `stop` ends a run; cancelling changes nothing else on the call.

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
mod common;

use std::rc::Rc;

use chat_session_reducer::core::model::{is_cancelled, ToolError, ToolState};
use chat_session_reducer::core::session_reducer;
use common::*;
use serde_json::{json, Value};

#[test]
fn open_finished_and_cancelled_states() {
    let of = |state: &str| -> ToolState { serde_json::from_value(json!(state)).unwrap() };
    for (state, open, finished) in [
        ("running", true, false),
        ("awaiting-confirmation", true, false),
        ("done", false, true),
        ("error", false, true),
        ("cancelled", false, false),
    ] {
        assert_eq!(of(state).is_open(), open, "{state} open");
        assert_eq!(of(state).is_finished(), finished, "{state} finished");
    }
}

#[test]
fn is_cancelled_means_the_code_is_cancelled() {
    let error = |value: Value| -> ToolError { serde_json::from_value(value).unwrap() };
    assert!(is_cancelled(&error(
        json!({ "message": "x", "code": "cancelled" })
    )));
    assert!(!is_cancelled(&error(json!({ "message": "cancelled" }))));
    assert!(!is_cancelled(&error(
        json!({ "message": "x", "code": "Cancelled" })
    )));
    assert!(!is_cancelled(&error(
        json!({ "message": "x", "code": "timeout" })
    )));
}

/// Every action that moves or edits a call, aimed at call `c-1` (name `delegate`).
fn actions_on_c1() -> Vec<Value> {
    vec![
        part(json!({ "type": "tool-result", "id": "c-1", "output": "again" })),
        part(json!({ "type": "tool-error", "id": "c-1", "error": { "message": "again" } })),
        part(
            json!({ "type": "tool-error", "id": "c-1", "error": { "message": "again", "code": "cancelled" } }),
        ),
        json!({ "type": "toolPhase", "name": "delegate", "state": "running" }),
        json!({ "type": "toolPhase", "name": "delegate", "state": "awaiting-confirmation", "prompt": "Again?" }),
        part_within("c-1", json!({ "type": "text-delta", "text": "again" })),
        part_within(
            "c-1",
            json!({ "type": "message-start", "messageId": "n-2" }),
        ),
    ]
}

#[test]
fn a_call_that_left_the_open_states_never_changes_again() {
    for closed in [
        tool_with("c-1", "delegate", "done", json!({ "output": 1 })),
        tool_with(
            "c-1",
            "delegate",
            "error",
            json!({ "error": { "message": "no" } }),
        ),
        tool_with("c-1", "delegate", "cancelled", json!({ "prompt": "Sure?" })),
        tool_with(
            "c-1",
            "delegate",
            "cancelled",
            json!({ "error": { "message": "no", "code": "cancelled" } }),
        ),
        tool_with(
            "c-1",
            "delegate",
            "done",
            json!({ "agent": json!({ "messages": [], "status": "idle" }) }),
        ),
    ] {
        let conversation = streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([closed]))
        ]));
        for action in actions_on_c1() {
            assert_unchanged(conversation.clone(), action);
        }
        // Actions that cancel open calls pass it by.
        for ending in [
            json!({ "type": "stop" }),
            part(json!({ "type": "finish", "reason": "aborted" })),
        ] {
            let before = state(conversation.clone());
            let after = apply(&before, ending);
            assert_eq!(to_json(&after)["messages"], to_json(&before)["messages"]);
        }
    }
}

/// A call `c-1` in `state` whose sub-agent run is still streaming, with an open call of its
/// own (awaiting confirmation, with a prompt), one deeper open call, and a finished call.
fn holder(state: &str) -> Value {
    tool_with(
        "c-1",
        "delegate",
        state,
        json!({
            "agent": streaming(json!([assistant("n-1", json!([
                { "type": "text", "text": "Working" },
                tool_with("n-c", "search", "done", json!({ "output": 1 })),
                tool_with("n-a", "confirm", "awaiting-confirmation", json!({ "prompt": "OK?" })),
                tool_with("n-d", "delegate", "running", json!({
                    "agent": streaming(json!([assistant("d-1", json!([tool("d-c", "search", "running")]))]))
                }))
            ]))]))
        }),
    )
}

/// The run behind `holder` once it ended as `stop` ends a run.
fn ended_run() -> Value {
    json!({
        "messages": [assistant("n-1", json!([
            { "type": "text", "text": "Working" },
            tool_with("n-c", "search", "done", json!({ "output": 1 })),
            tool_with("n-a", "confirm", "cancelled", json!({ "prompt": "OK?" })),
            tool_with("n-d", "delegate", "cancelled", json!({
                "agent": { "messages": [assistant("d-1", json!([tool("d-c", "search", "cancelled")]))], "status": "idle" }
            }))
        ]))],
        "status": "idle"
    })
}

#[test]
fn leaving_the_open_states_ends_the_streaming_run_behind_the_call() {
    let ended = |state: &str, extra: Value| {
        let mut call = tool_with("c-1", "delegate", state, extra);
        call["agent"] = ended_run();
        call
    };
    let cases = [
        (
            part(json!({ "type": "tool-result", "id": "c-1", "output": "ok" })),
            ended("done", json!({ "output": "ok" })),
        ),
        (
            part(json!({ "type": "tool-error", "id": "c-1", "error": { "message": "no" } })),
            ended("error", json!({ "error": { "message": "no" } })),
        ),
        (
            part(
                json!({ "type": "tool-error", "id": "c-1", "error": { "message": "no", "code": "cancelled" } }),
            ),
            ended(
                "cancelled",
                json!({ "error": { "message": "no", "code": "cancelled" } }),
            ),
        ),
    ];
    for open in ["running", "awaiting-confirmation"] {
        for (action, call) in cases.clone() {
            assert_becomes(
                streaming(json!([assistant("a-1", json!([holder(open)]))])),
                action,
                streaming(json!([assistant("a-1", json!([call]))])),
            );
        }
    }
}

#[test]
fn cancelling_the_call_ends_the_streaming_run_behind_it() {
    let cancelled = {
        let mut call = tool("c-1", "delegate", "cancelled");
        call["agent"] = ended_run();
        call
    };
    assert_becomes(
        streaming(json!([assistant("a-1", json!([holder("running")]))])),
        json!({ "type": "stop" }),
        json!({ "messages": [assistant("a-1", json!([cancelled.clone()]))], "status": "idle" }),
    );
    assert_becomes(
        streaming(json!([assistant("a-1", json!([holder("running")]))])),
        part(json!({ "type": "finish", "reason": "aborted" })),
        json!({ "messages": [assistant("a-1", json!([cancelled.clone()]))], "status": "idle" }),
    );
    assert_becomes(
        streaming(json!([assistant("a-1", json!([holder("running")]))])),
        part(json!({ "type": "error", "error": "boom" })),
        json!({ "messages": [assistant("a-1", json!([cancelled]))], "status": "error", "error": { "message": "boom" } }),
    );
}

#[test]
fn a_run_behind_the_call_that_already_ended_is_left_as_it_is() {
    for agent in [
        json!({ "messages": [assistant("n-1", json!([]))], "status": "idle" }),
        json!({ "messages": [assistant("n-1", json!([]))], "status": "error", "error": { "message": "sub-agent failed" } }),
    ] {
        let call = |state: &str, extra: Value| {
            let mut call = tool_with("c-1", "delegate", state, extra);
            call["agent"] = agent.clone();
            call
        };
        assert_becomes(
            streaming(json!([assistant(
                "a-1",
                json!([call("running", json!({}))])
            )])),
            part(json!({ "type": "tool-result", "id": "c-1", "output": "ok" })),
            streaming(json!([assistant(
                "a-1",
                json!([call("done", json!({ "output": "ok" }))])
            )])),
        );
    }
}

#[test]
fn cancelling_a_call_changes_nothing_else_on_it() {
    let input = json!({ "slug": "mug", "qty": 2 });
    let awaiting = json!({
        "type": "tool", "id": "c-1", "name": "checkout", "input": input,
        "state": "awaiting-confirmation", "prompt": "Pay 12 EUR?",
        "agent": { "messages": [assistant("n-1", json!([{ "type": "text", "text": "sub" }]))], "status": "idle" }
    });
    let mut cancelled = awaiting.clone();
    cancelled["state"] = json!("cancelled");
    let before = state(streaming(json!([assistant("a-1", json!([awaiting]))])));
    for ending in [
        json!({ "type": "stop" }),
        part(json!({ "type": "finish", "reason": "aborted" })),
        part(json!({ "type": "error", "error": "boom" })),
    ] {
        let after = apply(&before, ending.clone());
        assert_eq!(
            to_json(&after)["messages"][0]["parts"][0],
            cancelled,
            "after {ending}"
        );
        // The ended sub-agent run is the very same object.
        let old_agent = call(&before, 0, 0).agent.as_ref().unwrap();
        let new_agent = call(&after, 0, 0).agent.as_ref().unwrap();
        assert!(Rc::ptr_eq(old_agent, new_agent), "after {ending}");
    }
    // Cancelled later, by the user, through a tool-error: only the tool-error row's fields move.
    let after = session_reducer(
        &before,
        &action(part(
            json!({ "type": "tool-error", "id": "c-1", "error": { "message": "No", "code": "cancelled" } }),
        )),
    )
    .unwrap();
    let call_json = &to_json(&after)["messages"][0]["parts"][0];
    assert_eq!(call_json["input"], input);
    assert_eq!(call_json["state"], "cancelled");
    assert_eq!(
        call_json["agent"],
        to_json(&before)["messages"][0]["parts"][0]["agent"]
    );
}
