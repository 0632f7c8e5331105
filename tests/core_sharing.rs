//! SPEC "Purity and identity": when an action changes something, every message, part and
//! nested run it did not touch is the very same object as before (structural sharing).

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
mod common;

use std::rc::Rc;

use chat_session_reducer::core::model::{AgentMessage, SessionState};
use common::*;
use serde_json::json;

/// Asserts that the parts of `old` and `new` at these indexes are the same objects.
fn assert_parts_shared(old: &AgentMessage, new: &AgentMessage, parts: &[usize]) {
    for &index in parts {
        assert!(
            Rc::ptr_eq(&old.parts[index], &new.parts[index]),
            "part {index} of {} was copied",
            old.id
        );
    }
}

fn assert_messages_shared(old: &SessionState, new: &SessionState, messages: &[usize]) {
    for &index in messages {
        assert!(
            Rc::ptr_eq(&old.messages[index], &new.messages[index]),
            "message {index} was copied"
        );
    }
}

fn conversation() -> Rc<SessionState> {
    state(streaming(json!([
        user("u-1", "Buy a mug"),
        assistant(
            "a-1",
            json!([
                text("Looking"),
                tool_with(
                    "c-1",
                    "search",
                    "done",
                    json!({ "output": { "hits": [1, 2] } })
                ),
                tool("c-2", "add_to_cart", "running"),
                tool_with(
                    "c-3",
                    "delegate",
                    "running",
                    json!({ "agent": streaming(json!([
                assistant("n-1", json!([text("Sub")])),
                assistant("n-2", json!([
                    tool("n-c", "search", "running"),
                    tool_with("n-d", "delegate", "running", json!({ "agent": streaming(json!([
                        assistant("d-1", json!([text("Deep")])),
                        assistant("d-2", json!([text("Deeper"), tool("d-c", "charge", "running")]))
                    ])) }))
                ]))
            ])) })
                )
            ])
        ),
        assistant("a-2", json!([text("Hel")]))
    ])))
}

#[test]
fn a_text_delta_copies_only_its_message_and_part() {
    let old = conversation();
    let new = apply(&old, part(json!({ "type": "text-delta", "text": "lo" })));
    assert_messages_shared(&old, &new, &[0, 1]);
    assert!(!Rc::ptr_eq(&old.messages[2], &new.messages[2]));
    assert_eq!(to_json(&new)["messages"][2]["parts"][0]["text"], "Hello");
    assert_eq!(to_json(&old)["messages"][2]["parts"][0]["text"], "Hel");
}

#[test]
fn a_new_part_shares_the_parts_before_it() {
    let old = conversation();
    let new = apply(
        &old,
        part(json!({ "type": "reasoning", "messageId": "a-1", "text": "hmm" })),
    );
    assert_messages_shared(&old, &new, &[0, 2]);
    assert_parts_shared(&old.messages[1], &new.messages[1], &[0, 1, 2, 3]);
    assert_eq!(new.messages[1].parts.len(), 5);
}

#[test]
fn a_tool_result_copies_only_that_call() {
    let old = conversation();
    let new = apply(
        &old,
        part(json!({ "type": "tool-result", "id": "c-2", "output": "ok" })),
    );
    assert_messages_shared(&old, &new, &[0, 2]);
    assert_parts_shared(&old.messages[1], &new.messages[1], &[0, 1, 3]);
    assert_eq!(to_json(&old)["messages"][1]["parts"][2]["state"], "running");
}

#[test]
fn the_parts_of_a_call_life_copy_only_that_call() {
    // c-2 (add_to_cart, running) is asked, answered with edits, reports progress; a nested
    // call streams its input and ends it. Each step leaves every other message and part shared.
    let steps = [
        part(
            json!({ "type": "tool-approval-request", "id": "c-2", "approvalId": "ap", "details": { "d": 1 } }),
        ),
        part(
            json!({ "type": "tool-approval-response", "approvalId": "ap", "approved": true, "input": { "qty": 1 } }),
        ),
        part(json!({ "type": "tool-result", "id": "c-2", "output": 0.5, "preliminary": true })),
    ];
    let mut old = conversation();
    for step in steps {
        let new = apply(&old, step.clone());
        assert!(!Rc::ptr_eq(&old, &new), "{step} changes c-2");
        assert_messages_shared(&old, &new, &[0, 2]);
        assert_parts_shared(&old.messages[1], &new.messages[1], &[0, 1, 3]);
        old = new;
    }
    let streamed = apply(
        &old,
        part_within(
            "c-3",
            json!({ "type": "tool-input-delta", "messageId": "n-1", "id": "n-e", "name": "f", "text": "{}" }),
        ),
    );
    let ended = apply(
        &streamed,
        part(json!({ "type": "tool-input-end", "id": "n-e" })),
    );
    assert_messages_shared(&streamed, &ended, &[0, 2]);
    assert_parts_shared(&streamed.messages[1], &ended.messages[1], &[0, 1, 2]);
    let (before, after) = (
        call(&streamed, 1, 3).agent.as_ref().unwrap(),
        call(&ended, 1, 3).agent.as_ref().unwrap(),
    );
    assert_messages_shared(before, after, &[1]);
    assert_parts_shared(&before.messages[0], &after.messages[0], &[0]);
    assert_eq!(
        to_json(after)["messages"][0]["parts"][1]["state"],
        "running"
    );
}

#[test]
fn a_deep_change_copies_only_the_path_to_it() {
    let old = conversation();
    let new = apply(
        &old,
        part_within(
            "n-d",
            json!({ "type": "text-delta", "messageId": "d-1", "text": "!" }),
        ),
    );
    assert_messages_shared(&old, &new, &[0, 2]);
    assert_parts_shared(&old.messages[1], &new.messages[1], &[0, 1, 2]);
    let (old_sub, new_sub) = (
        call(&old, 1, 3).agent.as_ref().unwrap(),
        call(&new, 1, 3).agent.as_ref().unwrap(),
    );
    assert_messages_shared(old_sub, new_sub, &[0]);
    assert_parts_shared(&old_sub.messages[1], &new_sub.messages[1], &[0]);
    let (old_deep, new_deep) = (
        call(old_sub, 1, 1).agent.as_ref().unwrap(),
        call(new_sub, 1, 1).agent.as_ref().unwrap(),
    );
    assert_messages_shared(old_deep, new_deep, &[1]);
    assert_eq!(
        to_json(new_deep)["messages"][0]["parts"][0]["text"],
        "Deep!"
    );
}

#[test]
fn a_tool_phase_copies_only_the_path_to_the_call() {
    let old = conversation();
    let new = apply(
        &old,
        json!({ "type": "toolPhase", "name": "charge", "state": "awaiting-confirmation", "prompt": "Pay?" }),
    );
    assert_messages_shared(&old, &new, &[0, 2]);
    assert_parts_shared(&old.messages[1], &new.messages[1], &[0, 1, 2]);
    let (old_sub, new_sub) = (
        call(&old, 1, 3).agent.as_ref().unwrap(),
        call(&new, 1, 3).agent.as_ref().unwrap(),
    );
    assert_messages_shared(old_sub, new_sub, &[0]);
    assert_parts_shared(&old_sub.messages[1], &new_sub.messages[1], &[0]);
    let (old_deep, new_deep) = (
        call(old_sub, 1, 1).agent.as_ref().unwrap(),
        call(new_sub, 1, 1).agent.as_ref().unwrap(),
    );
    assert_messages_shared(old_deep, new_deep, &[0]);
    assert_parts_shared(&old_deep.messages[1], &new_deep.messages[1], &[0]);
}

#[test]
fn stop_shares_everything_without_an_open_call() {
    let old = conversation();
    let new = apply(&old, json!({ "type": "stop" }));
    assert_messages_shared(&old, &new, &[0, 2]);
    assert_parts_shared(&old.messages[1], &new.messages[1], &[0, 1]);
    let (old_sub, new_sub) = (
        call(&old, 1, 3).agent.as_ref().unwrap(),
        call(&new, 1, 3).agent.as_ref().unwrap(),
    );
    assert_messages_shared(old_sub, new_sub, &[0]);
    let (old_deep, new_deep) = (
        call(old_sub, 1, 1).agent.as_ref().unwrap(),
        call(new_sub, 1, 1).agent.as_ref().unwrap(),
    );
    assert_messages_shared(old_deep, new_deep, &[0]);
    assert_parts_shared(&old_deep.messages[1], &new_deep.messages[1], &[0]);
}

#[test]
fn send_shares_every_earlier_message() {
    let old = conversation();
    let new = apply(&old, json!({ "type": "send", "id": "u-2", "text": "More" }));
    assert_messages_shared(&old, &new, &[0, 1, 2]);
}

#[test]
fn retry_shares_the_messages_it_keeps() {
    let old = state(json!({
        "messages": [
            user("u-0", "Earlier"),
            assistant("a-0", json!([text("Sure")])),
            user("u-1", "Buy"),
            assistant("a-1", json!([tool("c-1", "search", "done")])),
            assistant("a-2", json!([text("Paying"), tool("c-2", "checkout", "done"), text("Half")]))
        ],
        "status": "error",
        "error": { "message": "boom" }
    }));
    let new = apply(&old, json!({ "type": "retry" }));
    assert_eq!(new.messages.len(), 5);
    assert_messages_shared(&old, &new, &[0, 1, 2, 3]);
    assert_parts_shared(&old.messages[4], &new.messages[4], &[0, 1]);
    assert_eq!(new.messages[4].parts.len(), 2);
}

#[test]
fn a_step_leaves_the_state_it_was_given_as_it_was() {
    let old = conversation();
    let before = to_json(&old);
    for next in [
        part(json!({ "type": "text-delta", "text": "lo" })),
        part(json!({ "type": "error", "error": "boom" })),
        part_within("n-d", json!({ "type": "finish", "reason": "aborted" })),
        part(json!({ "type": "tool-result", "id": "c-3", "output": 1 })),
        json!({ "type": "toolPhase", "name": "charge", "state": "awaiting-confirmation" }),
        json!({ "type": "stop" }),
        json!({ "type": "retry" }),
        json!({ "type": "reset" }),
    ] {
        let new = apply(&old, next.clone());
        assert_ne!(to_json(&new), before, "{next} changes the state");
        assert_eq!(to_json(&old), before, "{next} mutated its argument");
    }
}
