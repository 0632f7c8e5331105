//! SPEC v3 "Stream parts": `step-start` and `step-reset`, and the `{ type: "step" }` part
//! wherever parts are read (serde, `resumable`).

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
mod common;

use std::rc::Rc;

use chat_session_reducer::core::model::{AgentMessage, AgentPart};
use chat_session_reducer::core::resumable;
use common::*;
use serde_json::{json, Value};

fn step() -> Value {
    json!({ "type": "step" })
}

fn step_start(message_id: Option<&str>) -> Value {
    match message_id {
        Some(id) => part(json!({ "type": "step-start", "messageId": id })),
        None => part(json!({ "type": "step-start" })),
    }
}

fn step_reset(message_id: Option<&str>) -> Value {
    match message_id {
        Some(id) => part(json!({ "type": "step-reset", "messageId": id })),
        None => part(json!({ "type": "step-reset" })),
    }
}

fn replying(parts: Value) -> Value {
    streaming(json!([user("u-1", "Hi"), assistant("a-1", parts)]))
}

// ---- step-start ----

#[test]
fn step_start_appends_a_step_part_to_the_last_assistant_message() {
    assert_becomes(
        replying(json!([text("Thinking")])),
        step_start(None),
        replying(json!([text("Thinking"), step()])),
    );
}

#[test]
fn step_start_targets_as_text_delta_does() {
    // No assistant message last: a new one, with the made-up id.
    assert_becomes(
        streaming(json!([user("u-1", "Hi")])),
        step_start(None),
        streaming(json!([
            user("u-1", "Hi"),
            assistant("assistant-1", json!([step()]))
        ])),
    );
    // A messageId no message has: appended with that id.
    assert_becomes(
        streaming(json!([user("u-1", "Hi")])),
        step_start(Some("a-7")),
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-7", json!([step()]))
        ])),
    );
    // A user message's id: ignored.
    assert_unchanged(
        streaming(json!([user("u-1", "Hi")])),
        step_start(Some("u-1")),
    );
}

#[test]
fn step_start_after_a_step_part_is_the_same_state() {
    assert_unchanged(replying(json!([text("a"), step()])), step_start(None));
    assert_unchanged(replying(json!([step()])), step_start(Some("a-1")));
}

#[test]
fn step_parts_are_ignored_once_the_run_has_ended() {
    let mut idle = replying(json!([text("a")]));
    idle["status"] = json!("idle");
    assert_unchanged(idle.clone(), step_start(None));
    assert_unchanged(idle, step_reset(None));
}

#[test]
fn text_after_a_step_part_is_a_new_text_part() {
    let after = apply(
        &state(replying(json!([text("a"), step()]))),
        part(json!({ "type": "text-delta", "text": "b" })),
    );
    assert_eq!(
        to_json(&after)["messages"][1]["parts"],
        json!([text("a"), step(), text("b")])
    );
}

// ---- step-reset ----

#[test]
fn step_reset_removes_the_parts_after_the_last_step_part() {
    assert_becomes(
        replying(json!([
            step(),
            text("first try"),
            step(),
            text("second"),
            tool("c-1", "search", "done")
        ])),
        step_reset(None),
        replying(json!([step(), text("first try"), step()])),
    );
}

#[test]
fn step_reset_without_a_step_part_removes_every_part() {
    assert_becomes(
        replying(json!([text("a"), tool("c-1", "search", "running")])),
        step_reset(Some("a-1")),
        replying(json!([])),
    );
}

#[test]
fn step_reset_with_nothing_after_the_step_part_is_the_same_state() {
    assert_unchanged(replying(json!([text("a"), step()])), step_reset(None));
    assert_unchanged(replying(json!([])), step_reset(None));
}

#[test]
fn step_reset_never_creates_a_message() {
    let asked = streaming(json!([user("u-1", "Hi")]));
    assert_unchanged(asked.clone(), step_reset(None));
    assert_unchanged(asked.clone(), step_reset(Some("a-9")));
    assert_unchanged(asked, step_reset(Some("u-1")));
}

#[test]
fn step_reset_keeps_the_other_messages_and_the_parts_before_the_step() {
    let before = state(streaming(json!([
        user("u-1", "Hi"),
        assistant("a-1", json!([text("kept"), step(), text("gone")])),
        user("u-2", "More")
    ])));
    let after = apply(&before, step_reset(Some("a-1")));
    assert!(Rc::ptr_eq(&before.messages[0], &after.messages[0]));
    assert!(Rc::ptr_eq(&before.messages[2], &after.messages[2]));
    assert!(Rc::ptr_eq(
        &before.messages[1].parts[0],
        &after.messages[1].parts[0]
    ));
}

#[test]
fn the_calls_a_step_reset_removes_are_gone_from_the_indexes_open_or_not() {
    let before = replying(json!([
        step(),
        tool("c-1", "search", "done"),
        tool_with(
            "c-2",
            "ask",
            "awaiting-confirmation",
            json!({ "prompt": "OK?" })
        ),
        tool_with(
            "c-3",
            "agent",
            "running",
            json!({
                "agent": { "messages": [assistant("s-1", json!([tool("c-4", "fetch", "running")]))], "status": "streaming" }
            })
        )
    ]));
    let reset = apply(&state(before), step_reset(None));
    assert_eq!(to_json(&reset), replying(json!([step()])));
    // No open call is left to answer, cancel or phase.
    for gone in [
        part(json!({ "type": "tool-result", "id": "c-2", "output": 1 })),
        part_within("c-3", json!({ "type": "text-delta", "text": "late" })),
        part(json!({ "type": "tool-result", "id": "c-4", "output": 1 })),
        json!({ "type": "toolPhase", "name": "ask", "state": "running" }),
    ] {
        assert_same_back(&reset, &action(gone));
    }
    assert_eq!(
        to_json(&apply(&reset, json!({ "type": "stop" })))["messages"],
        json!([user("u-1", "Hi"), assistant("a-1", json!([step()]))]),
        "stop finds nothing to cancel"
    );
    // The provider's retry of the step reuses the call ids: they are free again.
    let retried = apply(
        &reset,
        part(json!({ "type": "tool-call", "id": "c-1", "name": "search", "input": {} })),
    );
    let retried = apply(
        &retried,
        part(json!({ "type": "tool-call", "id": "c-4", "name": "fetch", "input": {} })),
    );
    assert_eq!(
        to_json(&retried)["messages"][1]["parts"],
        json!([
            step(),
            tool("c-1", "search", "running"),
            tool("c-4", "fetch", "running")
        ])
    );
}

#[test]
fn step_reset_within_a_sub_agent_run_resets_that_run_only() {
    let nested = streaming(json!([
        user("u-1", "Delegate"),
        assistant(
            "a-1",
            json!([
                text("outer"),
                tool_with(
                    "c-1",
                    "agent",
                    "running",
                    json!({
                        "agent": { "messages": [assistant("s-1", json!([step(), text("inner")]))], "status": "streaming" }
                    })
                )
            ])
        )
    ]));
    let after = to_json(&apply(
        &state(nested),
        part_within("c-1", json!({ "type": "step-reset" })),
    ));
    assert_eq!(after["messages"][1]["parts"][0], text("outer"));
    assert_eq!(
        after["messages"][1]["parts"][1]["agent"]["messages"][0]["parts"],
        json!([step()])
    );
}

// ---- the step part ----

#[test]
fn a_step_part_is_the_json_type_step_and_reads_back() {
    let message: AgentMessage = serde_json::from_value(assistant("a-1", json!([step()]))).unwrap();
    assert_eq!(*message.parts[0], AgentPart::Step);
    assert_eq!(
        serde_json::to_value(&message).unwrap(),
        assistant("a-1", json!([step()]))
    );
}

#[test]
fn resumable_keeps_step_parts_like_any_other_part() {
    let messages = state(streaming(json!([
        user("u-1", "Hi"),
        assistant(
            "a-1",
            json!([
                step(),
                tool("c-1", "search", "done"),
                step(),
                tool("c-2", "fetch", "running")
            ])
        )
    ])))
    .messages
    .clone();
    let kept = resumable(&messages);
    assert_eq!(
        serde_json::to_value(&kept[1]).unwrap(),
        assistant("a-1", json!([step(), tool("c-1", "search", "done")]))
    );
}
