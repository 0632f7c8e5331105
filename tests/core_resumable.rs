//! SPEC "`resumable(messages)`: what Retry sends", the seed's example, and `retry`.

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
mod common;

use std::rc::Rc;

use chat_session_reducer::core::model::AgentMessage;
use chat_session_reducer::core::resumable;
use common::*;
use serde_json::{json, Value};

fn messages(value: Value) -> Vec<Rc<AgentMessage>> {
    serde_json::from_value(value).expect("messages")
}

fn resumable_json(value: Value) -> Value {
    serde_json::to_value(resumable(&messages(value))).unwrap()
}

#[test]
fn the_seed_example_resumes_through_the_finished_call() {
    let state = replay(&[
        json!({ "type": "send", "id": "u-1", "text": "Add two mugs to the cart" }),
        part(json!({ "type": "message-start", "messageId": "a-1" })),
        part(json!({
            "type": "tool-call", "messageId": "a-1", "id": "call-1",
            "name": "add_to_cart", "input": { "slug": "mug", "qty": 2 }
        })),
        part(json!({
            "type": "tool-result", "id": "call-1",
            "output": { "content": [{ "type": "text", "text": "Added." }] }
        })),
        part(
            json!({ "type": "error", "error": "Couldn't reach the assistant.", "code": "network" }),
        ),
    ]);
    let expected_messages = json!([
        user("u-1", "Add two mugs to the cart"),
        assistant(
            "a-1",
            json!([{
                "type": "tool", "id": "call-1", "name": "add_to_cart", "input": { "slug": "mug", "qty": 2 },
                "state": "done", "output": { "content": [{ "type": "text", "text": "Added." }] }
            }])
        )
    ]);
    assert_eq!(
        to_json(&state),
        json!({
            "messages": expected_messages,
            "status": "error",
            "error": { "message": "Couldn't reach the assistant.", "code": "network" }
        })
    );
    assert_eq!(resumable(&state.messages).len(), 2);
    assert_eq!(
        serde_json::to_value(resumable(&state.messages)).unwrap(),
        expected_messages
    );

    let retried = apply(&state, json!({ "type": "retry" }));
    assert_eq!(to_json(&retried), streaming(expected_messages));
}

#[test]
fn cuts_after_the_last_finished_call_dropping_what_came_after_it() {
    assert_eq!(
        resumable_json(json!([
            user("u-1", "Buy"),
            assistant(
                "a-1",
                json!([
                    text("Searching"),
                    tool("c-1", "search", "done"),
                    tool("c-2", "add_to_cart", "done"),
                    text("Now paying"),
                    tool("c-3", "checkout", "cancelled"),
                    tool("c-4", "checkout", "running")
                ])
            ),
            assistant("a-2", json!([text("Half a repl")]))
        ])),
        json!([
            user("u-1", "Buy"),
            assistant(
                "a-1",
                json!([
                    text("Searching"),
                    tool("c-1", "search", "done"),
                    tool("c-2", "add_to_cart", "done")
                ])
            )
        ])
    );
}

#[test]
fn a_failed_call_counts_as_finished() {
    assert_eq!(
        resumable_json(json!([
            user("u-1", "Buy"),
            assistant("a-1", json!([tool("c-1", "search", "done")])),
            assistant(
                "a-2",
                json!([
                    tool("c-2", "checkout", "error"),
                    tool("c-3", "checkout", "awaiting-confirmation")
                ])
            )
        ])),
        json!([
            user("u-1", "Buy"),
            assistant("a-1", json!([tool("c-1", "search", "done")])),
            assistant("a-2", json!([tool("c-2", "checkout", "error")]))
        ])
    );
}

#[test]
fn the_last_finished_call_may_sit_in_an_earlier_message() {
    assert_eq!(
        resumable_json(json!([
            user("u-1", "Buy"),
            assistant("a-1", json!([tool("c-1", "search", "done"), text("Found")])),
            assistant(
                "a-2",
                json!([tool("c-2", "checkout", "cancelled"), text("Sto")])
            )
        ])),
        json!([
            user("u-1", "Buy"),
            assistant("a-1", json!([tool("c-1", "search", "done")]))
        ])
    );
}

#[test]
fn without_a_finished_call_the_turn_starts_over() {
    assert_eq!(
        resumable_json(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([tool("c-0", "search", "done")])),
            user("u-2", "Buy"),
            assistant(
                "a-2",
                json!([
                    text("Let me"),
                    tool("c-1", "checkout", "cancelled"),
                    tool("c-2", "checkout", "running")
                ])
            )
        ])),
        json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([tool("c-0", "search", "done")])),
            user("u-2", "Buy")
        ])
    );
    assert_eq!(
        resumable_json(json!([user("u-1", "Hi")])),
        json!([user("u-1", "Hi")])
    );
}

#[test]
fn only_top_level_calls_count() {
    assert_eq!(
        resumable_json(json!([
            user("u-1", "Buy"),
            assistant(
                "a-1",
                json!([tool_with(
                    "c-1",
                    "delegate",
                    "cancelled",
                    json!({
                        "agent": { "messages": [assistant("n-1", json!([tool("n-c", "search", "done")]))], "status": "idle" }
                    })
                )])
            )
        ])),
        json!([user("u-1", "Buy")])
    );
}

#[test]
fn without_a_user_message_the_messages_come_back_unchanged() {
    let all = json!([assistant(
        "a-1",
        json!([text("Welcome"), tool("c-1", "search", "running")])
    )]);
    assert_eq!(resumable_json(all.clone()), all);
    assert_eq!(resumable_json(json!([])), json!([]));
}

#[test]
fn resumable_shares_the_messages_it_keeps_whole() {
    let list = messages(json!([
        user("u-1", "Buy"),
        assistant("a-1", json!([tool("c-1", "search", "done")])),
        assistant(
            "a-2",
            json!([text("x"), tool("c-2", "search", "done"), text("cut")])
        )
    ]));
    let kept = resumable(&list);
    assert_eq!(kept.len(), 3);
    assert!(Rc::ptr_eq(&kept[0], &list[0]));
    assert!(Rc::ptr_eq(&kept[1], &list[1]));
    assert!(!Rc::ptr_eq(&kept[2], &list[2]));
    assert!(Rc::ptr_eq(&kept[2].parts[0], &list[2].parts[0]));
    assert!(Rc::ptr_eq(&kept[2].parts[1], &list[2].parts[1]));
    // The input list is left as it was.
    assert_eq!(list[2].parts.len(), 3);
}

#[test]
fn retry_sends_resumable_messages_and_streams_again() {
    assert_becomes(
        json!({
            "messages": [
                user("u-1", "Buy"),
                assistant("a-1", json!([tool("c-1", "search", "done"), text("Paying"), tool("c-2", "checkout", "cancelled")]))
            ],
            "status": "error",
            "error": { "message": "boom" }
        }),
        json!({ "type": "retry" }),
        streaming(json!([
            user("u-1", "Buy"),
            assistant("a-1", json!([tool("c-1", "search", "done")]))
        ])),
    );
}

#[test]
fn retry_while_streaming_cuts_the_reply_short() {
    assert_becomes(
        streaming(json!([
            user("u-1", "Buy"),
            assistant("a-1", json!([text("Half")]))
        ])),
        json!({ "type": "retry" }),
        streaming(json!([user("u-1", "Buy")])),
    );
}
