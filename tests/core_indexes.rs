//! The session's indexes hold what its state holds, no more: what `retry` cuts (nested runs
//! included) and what `reset` drops leaves them, so a long conversation that keeps retrying
//! does not grow them (issue 10, item 6). Sessions are carried from step to step, as the wasm
//! binding carries the newest state's session.

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
mod common;

use std::rc::Rc;

use chat_session_reducer::core::model::SessionState;
use chat_session_reducer::core::{reduce, Session};
use common::*;
use serde_json::{json, Value};

fn step(session: &mut Session, action_json: Value) {
    let outcome = reduce(session, &action(action_json.clone()));
    assert!(outcome.is_ok(), "{action_json}: {outcome:?}");
}

/// A `send` that appends its message whatever the status: v3 queues a send made while
/// streaming, so the run finishes first (these tests, from v2, rely on the message landing).
fn send_appended(id: &str, text: &str) -> Value {
    let send = json!({ "type": "send", "id": id, "text": text });
    json!({ "type": "batch", "actions": [part(json!({ "type": "finish" })), send] })
}

/// A session after `send`, with the message index built (a `message-start` looks ids up).
fn started() -> Session {
    let mut session = Session::new(Rc::new(SessionState::empty()));
    step(
        &mut session,
        json!({ "type": "send", "id": "u-1", "text": "hi" }),
    );
    session
}

/// One round of a reply that fails and is retried: a message, a call (with a sub-agent run
/// holding a message and a call of its own when `nested`), an error, then retry.
fn failed_round(session: &mut Session, round: usize, nested: bool) {
    let (message, call) = (format!("a-{round}"), format!("c-{round}"));
    step(
        session,
        part(json!({ "type": "message-start", "messageId": message })),
    );
    step(
        session,
        part(json!({ "type": "tool-call", "id": call, "name": "search", "input": {} })),
    );
    if nested {
        step(
            session,
            part_within(
                &call,
                json!({ "type": "message-start", "messageId": format!("n-{round}") }),
            ),
        );
        step(
            session,
            part_within(
                &call,
                json!({ "type": "tool-call", "id": format!("{call}-inner"), "name": "t", "input": {} }),
            ),
        );
    }
    step(
        session,
        part(json!({ "type": "error", "error": "Network down", "code": "network" })),
    );
    step(session, json!({ "type": "retry" }));
}

#[test]
fn retry_takes_what_it_cuts_out_of_the_indexes() {
    for nested in [false, true] {
        let mut session = started();
        for round in 0..20_000 {
            failed_round(&mut session, round, nested);
            assert_eq!(
                session.calls.len(),
                0,
                "round {round}: call ids of cut messages"
            );
            assert_eq!(session.messages.len(), 1, "round {round}: only u-1 is left");
        }
        assert_eq!(to_json(&session.state), to_json(&started().state));
    }
}

#[test]
fn retry_keeps_the_ids_of_what_it_keeps() {
    let mut session = started();
    for action_json in [
        part(json!({ "type": "message-start", "messageId": "a-1" })),
        part(json!({ "type": "tool-call", "id": "kept", "name": "search", "input": {} })),
        part(json!({ "type": "tool-result", "id": "kept", "output": 1 })),
        part(json!({ "type": "text-delta", "text": "then" })),
        part(json!({ "type": "tool-call", "id": "cut", "name": "search", "input": {} })),
        part(json!({ "type": "error", "error": "Network down" })),
    ] {
        step(&mut session, action_json);
    }
    step(&mut session, json!({ "type": "retry" }));
    // Cut after the finished call: the text and the second call go, a-1 stays.
    assert_eq!((session.calls.len(), session.messages.len()), (1, 2));
    // So the kept call's id is still taken and the cut one's is free again.
    assert_call_id_taken(&mut session, "kept");
    step(
        &mut session,
        part(json!({ "type": "tool-call", "id": "cut", "name": "again", "input": {} })),
    );
    assert_eq!(session.calls.len(), 2);
}

/// A `tool-call` with `id` is ignored: a call with that id is still in the state.
fn assert_call_id_taken(session: &mut Session, id: &str) {
    let state = Rc::clone(&session.state);
    step(
        session,
        part(json!({ "type": "tool-call", "id": id, "name": "again", "input": {} })),
    );
    assert!(
        Rc::ptr_eq(&state, &session.state),
        "{id} is still in the state"
    );
}

#[test]
fn reset_leaves_empty_indexes() {
    let mut session = started();
    failed_round(&mut session, 0, true);
    step(
        &mut session,
        part(json!({ "type": "message-start", "messageId": "a-1" })),
    );
    step(&mut session, json!({ "type": "reset" }));
    assert_eq!((session.calls.len(), session.messages.len()), (0, 0));
}

/// A session that shares its index with a state that diverged (a discarded branch, as the
/// Rust API allows) keeps the ids the other one cut.
#[test]
fn a_retry_on_a_diverged_session_does_not_take_ids_from_the_other() {
    let mut session = started();
    step(
        &mut session,
        part(json!({ "type": "tool-call", "id": "c-1", "name": "search", "input": {} })),
    );
    step(
        &mut session,
        part(json!({ "type": "error", "error": "Network down" })),
    );
    let mut branch = session.clone();
    step(&mut branch, json!({ "type": "retry" }));
    // The run goes on in the original session (a new message makes it stream again).
    step(
        &mut session,
        json!({ "type": "send", "id": "u-2", "text": "again" }),
    );
    assert_call_id_taken(&mut session, "c-1");
}

/// SPEC `text-delta` (and `reasoning`) with a `messageId`: "the assistant message of that id ...;
/// when a user message has it, the part is ignored", the newest message with the id deciding.
/// The carried session and a fresh one (whose lookups scan) must agree whichever way its
/// index was filled.
fn assert_agrees_with_a_fresh_session(session: &mut Session, action_json: Value) {
    let mut fresh = Session::new(Rc::clone(&session.state));
    let expected = reduce(&mut fresh, &action(action_json.clone()));
    assert_eq!(
        reduce(session, &action(action_json.clone())),
        expected,
        "{action_json}"
    );
    assert_eq!(to_json(&session.state), to_json(&fresh.state));
}

fn reasoning_for(message_id: &str) -> Value {
    part(json!({ "type": "reasoning", "messageId": message_id, "text": "r" }))
}

/// Looks a message id up until the session's message index is read: lookups scan the run
/// until they have scanned about as many messages as the indexed state holds, plus 64. (A
/// `message-metadata` part for a user message changes nothing.)
fn read_message_index(session: &mut Session) {
    step(session, send_appended("lookup", "hi"));
    step(
        session,
        part(json!({ "type": "message-start", "messageId": "a-lookup" })),
    );
    for _ in 0..=64 {
        step(
            session,
            part(json!({ "type": "message-metadata", "messageId": "lookup", "metadata": {} })),
        );
    }
    // Read: the index holds every id of the state, not only those recorded.
    let ids: std::collections::HashSet<_> = session.state.messages.iter().map(|m| &m.id).collect();
    assert!(
        session.messages.len() >= ids.len(),
        "the message index was read"
    );
}

#[test]
fn the_newest_message_with_an_id_decides_when_the_index_is_read_from_a_state() {
    // Found by the property test: u1 is an assistant message, then a user message. Its
    // lookups are answered by scans, or by the index read from the state first.
    for read_first in [false, true] {
        let mut session = Session::new(Rc::new(SessionState::empty()));
        if read_first {
            read_message_index(&mut session);
        }
        for action_json in [
            send_appended("u2", "hi"),
            reasoning_for("u1"),
            send_appended("u1", "hi"),
            send_appended("u2", "hi"),
        ] {
            step(&mut session, action_json);
        }
        assert_agrees_with_a_fresh_session(&mut session, reasoning_for("u1"));
    }
}

#[test]
fn a_lookup_before_the_index_is_read_agrees_with_one_after() {
    // The same lookups on a conversation the session did not make, before its index is read
    // (scans) and after (the index): the newest message with an id decides, a user message's
    // id makes a part ignored, an unknown id makes a message.
    let mut made = started();
    for action_json in [
        part(json!({ "type": "message-start", "messageId": "a-1" })),
        send_appended("a-1", "the id again, a user's"),
        part(json!({ "type": "message-start", "messageId": "a-2" })),
        send_appended("u-2", "next"),
    ] {
        step(&mut made, action_json);
    }
    for lookup in [
        reasoning_for("a-1"),
        reasoning_for("a-2"),
        reasoning_for("u-1"),
        reasoning_for("new"),
        part(json!({ "type": "message-start", "messageId": "a-2" })),
    ] {
        let mut indexed = Session::new(Rc::clone(&made.state));
        read_message_index(&mut indexed);
        assert_agrees_with_a_fresh_session(&mut indexed, lookup);
    }
}

#[test]
fn the_newest_message_with_an_id_decides_when_sessions_that_share_an_index_diverge() {
    let mut common = started();
    read_message_index(&mut common);
    step(
        &mut common,
        part(json!({ "type": "message-start", "messageId": "a-1" })),
    );
    let (mut first, mut second) = (common.clone(), common.clone());
    step(&mut first, reasoning_for("x"));
    step(&mut first, send_appended("x", "hi"));
    step(&mut first, send_appended("y", "hi"));
    step(&mut second, reasoning_for("x"));
    // In `first`, the newest x is the user's: ignored, whatever `second` recorded.
    assert_agrees_with_a_fresh_session(&mut first, reasoning_for("x"));
}
