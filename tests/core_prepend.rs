//! SPEC v4 "Actions": prepend, one test per sentence of its row, the hostile inputs (overlapping
//! pages, an open call, a call id already held, a fork after no given message, a page of 100,000
//! messages), and the indexes after a page went in front (later actions find what they look for).

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
mod common;

use std::rc::Rc;

use chat_session_reducer::core::model::{SessionState, SessionStatus, ToolState};
use chat_session_reducer::core::{reduce, session_reducer, Outcome, Session};
use common::*;
use serde_json::{json, Value};

fn prepend(messages: Value) -> Value {
    json!({ "type": "prepend", "messages": messages })
}

fn prepend_with_forks(messages: Value, forks: Value) -> Value {
    json!({ "type": "prepend", "messages": messages, "forks": forks })
}

/// A fork after `after` whose live alternative is the second, the first a branch of `branch`.
fn fork(after: Value, branch: Value) -> Value {
    json!({ "after": after, "active": 1, "alternatives": [{ "messages": branch }, null] })
}

fn idle(messages: Value) -> Value {
    json!({ "messages": messages, "status": "idle" })
}

/// The error `session_reducer` gives, as `path: problem`.
fn refused(before: Value, action_json: Value) -> String {
    let old = state(before.clone());
    let error = session_reducer(&old, &action(action_json)).unwrap_err();
    assert_eq!(to_json(&old), before, "a refused action changes nothing");
    assert_eq!(error.code(), "invalid");
    error.to_string()
}

#[test]
fn the_given_messages_go_before_the_first_in_the_given_order() {
    assert_becomes(
        idle(json!([
            user("u-3", "third"),
            assistant("a-3", json!([text("3")]))
        ])),
        prepend(json!([
            user("u-1", "first"),
            assistant("a-1", json!([text("1")])),
            user("u-2", "second")
        ])),
        idle(json!([
            user("u-1", "first"),
            assistant("a-1", json!([text("1")])),
            user("u-2", "second"),
            user("u-3", "third"),
            assistant("a-3", json!([text("3")]))
        ])),
    );
}

#[test]
fn messages_already_on_the_path_are_skipped_so_overlapping_pages_are_harmless() {
    let loaded = idle(json!([user("u-2", "second"), user("u-3", "third")]));
    // The page overlaps the loaded part by one message: that one is skipped, not doubled.
    assert_becomes(
        loaded.clone(),
        prepend(json!([user("u-1", "first"), user("u-2", "second (again)")])),
        idle(json!([
            user("u-1", "first"),
            user("u-2", "second"),
            user("u-3", "third")
        ])),
    );
    // The same page twice: the second time nothing is left to add.
    let once = apply(&state(loaded), prepend(json!([user("u-1", "first")])));
    assert_same_back(&once, &action(prepend(json!([user("u-1", "first")]))));
}

#[test]
fn messages_held_in_a_branch_are_skipped_too() {
    let before = json!({
        "messages": [user("u-1", "Hi"), assistant("a-2", json!([text("new")]))],
        "status": "idle",
        "forks": [fork(json!("u-1"), json!([assistant("a-1", json!([text("old")]))]))]
    });
    let after = apply(
        &state(before),
        prepend(json!([
            user("u-0", "earlier"),
            assistant("a-1", json!([text("old")]))
        ])),
    );
    let ids: Vec<&str> = after
        .messages
        .iter()
        .map(|message| message.id.as_str())
        .collect();
    assert_eq!(ids, ["u-0", "u-1", "a-2"]);
}

#[test]
fn a_repeated_id_within_the_page_keeps_the_first() {
    let after = apply(
        &state(idle(json!([user("u-9", "now")]))),
        prepend(json!([user("u-1", "one"), user("u-1", "again")])),
    );
    assert_eq!(to_json(&after)["messages"][0], user("u-1", "one"));
    assert_eq!(after.messages.len(), 2);
}

#[test]
fn nothing_left_to_add_is_the_same_object() {
    assert_unchanged(idle(json!([user("u-1", "Hi")])), prepend(json!([])));
    assert_unchanged(
        idle(json!([user("u-1", "Hi")])),
        prepend(json!([user("u-1", "Hi")])),
    );
}

#[test]
fn the_given_forks_go_before_the_first_fork() {
    let before = json!({
        "messages": [user("u-3", "q"), assistant("a-4", json!([text("new")]))],
        "status": "idle",
        "forks": [fork(json!("u-3"), json!([assistant("a-3", json!([text("old")]))]))]
    });
    let page_fork = fork(
        json!("u-1"),
        json!([assistant("b-1", json!([text("other")]))]),
    );
    let held = state(before.clone());
    let after = apply(
        &held,
        prepend_with_forks(
            json!([user("u-1", "p"), assistant("a-1", json!([text("r")]))]),
            json!([page_fork]),
        ),
    );
    let json = to_json(&after);
    assert_eq!(json["forks"][0], page_fork);
    assert_eq!(json["forks"][1], before["forks"][0]);
    assert!(
        Rc::ptr_eq(&after.forks[1], &held.forks[0]),
        "the held fork is the same object"
    );
}

#[test]
fn the_fork_at_the_start_of_what_was_loaded_now_follows_the_last_message_prepended() {
    let before = json!({
        "messages": [user("u-2", "edited")],
        "status": "idle",
        "forks": [fork(json!(null), json!([user("u-2-old", "first try")]))]
    });
    let after = apply(
        &state(before),
        prepend(json!([
            user("u-0", "a"),
            assistant("a-0", json!([text("b")]))
        ])),
    );
    assert_eq!(after.forks[0].after.as_deref(), Some("a-0"));
    assert_eq!(
        after.forks[0].alternatives,
        state(json!({
            "messages": [], "status": "idle",
            "forks": [fork(json!(null), json!([user("u-2-old", "first try")]))]
        }))
        .forks[0]
            .alternatives
    );
}

#[test]
fn a_page_fork_after_its_last_message_yields_to_the_fork_that_moves_there() {
    // docs/decisions.md "prepend: the forks of a page": the loaded fork is the one the user sees.
    let before = json!({
        "messages": [user("u-2", "edited")],
        "status": "idle",
        "forks": [{ "after": null, "active": 2, "alternatives": [
            { "messages": [user("u-2-a", "one")] }, { "messages": [user("u-2-b", "two")] }, null
        ] }]
    });
    let page_fork = fork(json!("a-0"), json!([user("u-2-a", "one")]));
    let after = apply(
        &state(before),
        prepend_with_forks(
            json!([user("u-0", "a"), assistant("a-0", json!([text("b")]))]),
            json!([page_fork]),
        ),
    );
    assert_eq!(after.forks.len(), 1);
    assert_eq!(after.forks[0].active, 2);
    assert_eq!(after.forks[0].after.as_deref(), Some("a-0"));
}

#[test]
fn a_page_fork_after_a_skipped_message_is_dropped() {
    let page_fork = fork(
        json!("u-1"),
        json!([assistant("b-1", json!([text("other")]))]),
    );
    let after = apply(
        &state(idle(json!([
            user("u-1", "held"),
            assistant("a-1", json!([text("r")]))
        ]))),
        prepend_with_forks(
            json!([user("u-0", "older"), user("u-1", "held")]),
            json!([page_fork]),
        ),
    );
    assert!(after.forks.is_empty());
    assert_eq!(after.messages.len(), 3);
}

#[test]
fn a_fork_whose_after_names_no_given_message_is_bad_input() {
    let page_fork = fork(json!("u-9"), json!([user("x", "x")]));
    assert_eq!(
        refused(
            idle(json!([user("u-9", "on the path, not in the page")])),
            prepend_with_forks(json!([user("u-1", "p")]), json!([page_fork]))
        ),
        "action.forks[0].after: expected the id of one of the given messages"
    );
}

#[test]
fn forks_are_checked_as_a_states_forks_are() {
    let bad = json!({ "after": "u-1", "active": 0, "alternatives": [null] });
    assert_eq!(
        refused(
            idle(json!([])),
            prepend_with_forks(json!([user("u-1", "p")]), json!([bad]))
        ),
        "action.forks[0].alternatives: expected at least two alternatives"
    );
}

#[test]
fn a_given_message_holding_an_open_call_is_bad_input() {
    for state in ["input-streaming", "running", "awaiting-confirmation"] {
        let page = json!([
            user("u-1", "p"),
            assistant("a-1", json!([text("r"), tool("c-1", "search", state)]))
        ]);
        assert_eq!(
            refused(idle(json!([user("u-2", "now")])), prepend(page)),
            "action.messages[1].parts[1].state: expected no open call in older history",
            "{state}"
        );
    }
}

#[test]
fn an_open_call_in_a_sub_agent_run_of_the_page_is_bad_input_too() {
    let nested = json!({ "messages": [assistant("n-1", json!([tool("c-2", "fetch", "running")]))], "status": "idle" });
    let page = json!([assistant(
        "a-1",
        json!([tool_with(
            "c-1",
            "agent",
            "done",
            json!({ "agent": nested, "output": 1 })
        )])
    )]);
    assert_eq!(
        refused(idle(json!([])), prepend(page)),
        "action.messages[0].parts[0].agent.messages[0].parts[0].state: expected no open call in older history"
    );
}

#[test]
fn a_call_id_already_in_the_conversation_is_bad_input() {
    let before = idle(json!([assistant(
        "a-5",
        json!([tool_with("c-1", "search", "done", json!({ "output": 1 }))])
    )]));
    let page = json!([
        user("u-1", "p"),
        assistant(
            "a-1",
            json!([
                text("r"),
                tool_with("c-1", "search", "done", json!({ "output": 2 }))
            ])
        )
    ]);
    assert_eq!(
        refused(before, prepend(page)),
        "action.messages[1].parts[1].id: expected a call id not already in the conversation"
    );
}

#[test]
fn a_call_id_repeated_within_the_page_is_bad_input() {
    let done = |id: &str| tool_with(id, "search", "done", json!({ "output": 1 }));
    let page = json!([
        assistant("a-1", json!([done("c-1")])),
        assistant("a-2", json!([done("c-1")]))
    ]);
    assert_eq!(
        refused(idle(json!([])), prepend(page)),
        "action.messages[1].parts[0].id: expected a call id not already in the conversation"
    );
}

#[test]
fn a_refused_prepend_in_a_batch_leaves_the_session_as_it_was() {
    let before = state(idle(json!([assistant(
        "a-5",
        json!([tool_with("c-1", "s", "done", json!({ "output": 1 }))])
    )])));
    let batch = action(json!({ "type": "batch", "actions": [
        { "type": "send", "id": "u-9", "text": "more" },
        prepend(json!([assistant("a-1", json!([tool_with("c-1", "s", "done", json!({ "output": 2 }))]))]))
    ] }));
    let mut session = Session::new(Rc::clone(&before));
    let error = reduce(&mut session, &batch).unwrap_err();
    assert_eq!(
        error.path(),
        Some("action.actions[1].messages[0].parts[0].id")
    );
    assert_eq!(to_json(&session.state), to_json(&before));
}

#[test]
fn status_error_queue_and_every_held_message_part_and_fork_keep_their_identity() {
    let before = state(json!({
        "messages": [user("u-2", "q"), assistant("a-2", json!([text("partial"), tool("c-2", "s", "running")]))],
        "status": "error",
        "error": { "message": "boom" },
        "queue": [{ "id": "u-3", "text": "later" }],
        "forks": [fork(json!("u-2"), json!([assistant("a-old", json!([text("old")]))]))]
    }));
    let after = apply(&before, prepend(json!([user("u-1", "p")])));
    assert_eq!(after.status, SessionStatus::Error);
    assert_eq!(after.error, before.error);
    assert_eq!(after.queue, before.queue);
    for (index, message) in before.messages.iter().enumerate() {
        assert!(Rc::ptr_eq(message, &after.messages[index + 1]));
    }
    assert!(Rc::ptr_eq(&before.forks[0], &after.forks[0]));
    assert_eq!(
        to_json(&before)["messages"].as_array().unwrap().len(),
        2,
        "the state given is as it was"
    );
}

#[test]
fn allowed_while_a_reply_streams_and_the_reply_goes_on_where_it_was() {
    let before = state(streaming(json!([
        user("u-2", "q"),
        assistant(
            "a-2",
            json!([text("Hel"), tool("c-2", "search", "running")])
        )
    ])));
    let after = apply(
        &before,
        prepend(json!([
            user("u-1", "p"),
            assistant("a-1", json!([text("r")]))
        ])),
    );
    assert_eq!(after.status, SessionStatus::Streaming);
    // The open call moved with its message: its result finds it.
    let result = apply(
        &after,
        part(json!({ "type": "tool-result", "id": "c-2", "output": 7 })),
    );
    assert_eq!(call(&result, 3, 1).state, ToolState::Done);
    // The streamed reply is still the one a delta without messageId extends.
    let delta = apply(&result, part(json!({ "type": "text-delta", "text": "lo" })));
    assert_eq!(to_json(&delta)["messages"][3]["parts"][2]["text"], "lo");
    // A replayed message-start of a message now further down is still ignored.
    let replayed = action(part(json!({ "type": "message-start", "messageId": "a-2" })));
    assert_same_back(&delta, &replayed);
}

#[test]
fn the_indexes_find_the_prepended_calls_and_messages_and_the_held_ones_after_the_page() {
    // Indexes read before the page (a lookup reads them), then a page in front.
    let mut session = Session::new(state(streaming(json!([
        user("u-5", "q"),
        assistant("a-5", json!([tool("c-5", "search", "running")]))
    ]))));
    let look = action(part(json!({ "type": "message-start", "messageId": "u-5" })));
    assert_eq!(reduce(&mut session, &look), Ok(Outcome::Unchanged));
    let page = json!([assistant(
        "a-1",
        json!([tool_with("c-1", "search", "done", json!({ "output": 1 }))])
    )]);
    assert!(matches!(
        reduce(&mut session, &action(prepend(page))),
        Ok(Outcome::Changed(_))
    ));
    // A prepended call's id is taken: a tool-call with it is ignored.
    let again = action(part(
        json!({ "type": "tool-call", "id": "c-1", "name": "search", "input": {} }),
    ));
    assert_eq!(reduce(&mut session, &again), Ok(Outcome::Unchanged));
    // The held call, further down now, is found by its id.
    let result = action(part(
        json!({ "type": "tool-result", "id": "c-5", "output": 2 }),
    ));
    assert!(matches!(
        reduce(&mut session, &result),
        Ok(Outcome::Changed(_))
    ));
    assert_eq!(call(&session.state, 2, 0).state, ToolState::Done);
    // A message-start of a prepended message's id is ignored, as for any message of the run.
    let start = action(part(json!({ "type": "message-start", "messageId": "a-1" })));
    assert_eq!(reduce(&mut session, &start), Ok(Outcome::Unchanged));
    // A second page: the first page's ids are held.
    let second = json!([user("u-0", "older"), assistant("a-1", json!([text("dup")]))]);
    assert!(matches!(
        reduce(&mut session, &action(prepend(second))),
        Ok(Outcome::Changed(_))
    ));
    let ids: Vec<&str> = session
        .state
        .messages
        .iter()
        .map(|message| message.id.as_str())
        .collect();
    assert_eq!(ids, ["u-0", "a-1", "u-5", "a-5"]);
}

#[test]
fn a_page_of_100000_messages_goes_in_front() {
    let page: Vec<Value> = (0..100_000)
        .map(|index| match index % 2 {
            0 => user(&format!("u-{index}"), "question"),
            _ => assistant(
                &format!("a-{index}"),
                json!([
                    text("answer"),
                    tool_with(
                        &format!("c-{index}"),
                        "search",
                        "done",
                        json!({ "output": index })
                    )
                ]),
            ),
        })
        .collect();
    let before = state(idle(json!([user("now", "latest")])));
    let after = apply(&before, prepend(Value::Array(page)));
    assert_eq!(after.messages.len(), 100_001);
    assert_eq!(after.messages[99_999].id, "a-99999");
    assert!(Rc::ptr_eq(&after.messages[100_000], &before.messages[0]));
    let again = action(part(
        json!({ "type": "tool-call", "id": "c-77777", "name": "search", "input": {} }),
    ));
    let streaming = apply(&after, json!({ "type": "continue" }));
    assert_same_back(&streaming, &again);
}

#[test]
fn reset_after_a_prepend_is_the_empty_session() {
    let after = replay(&[
        prepend(json!([user("u-1", "p")])),
        json!({ "type": "reset" }),
    ]);
    assert_eq!(*after, SessionState::empty());
}

#[test]
fn the_given_messages_are_checked_as_a_states_messages_are() {
    let failed = json!({ "messages": [], "status": "error" });
    let page = json!([assistant(
        "a-1",
        json!([tool_with(
            "c-1",
            "agent",
            "done",
            json!({ "agent": failed, "output": 1 })
        )])
    )]);
    assert_eq!(
        refused(idle(json!([])), prepend(page)),
        r#"action.messages[0].parts[0].agent.error: required when status is "error""#
    );
}
