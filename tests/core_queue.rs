//! SPEC v3 "Actions": the queue (`send` while streaming, the queue sent by `send` and by a
//! top-level `finish`, what keeps it, `unqueue`, `reset`), `send` with `parts` and `metadata`,
//! and `load` with the v3 load rule (also `core::load_rule`).

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
mod common;

use std::rc::Rc;

use chat_session_reducer::core::load_rule;
use chat_session_reducer::core::model::SessionAction;
use common::*;
use serde_json::{json, Value};

fn send(id: &str, text: &str) -> Value {
    json!({ "type": "send", "id": id, "text": text })
}

fn finish(reason: Option<&str>) -> Value {
    match reason {
        Some(reason) => part(json!({ "type": "finish", "reason": reason })),
        None => part(json!({ "type": "finish" })),
    }
}

/// A streaming reply to `u-1` with `queue` queued (ids, "later …" texts).
fn streaming_with_queue(queue: &[&str]) -> Value {
    let mut state = streaming(json!([
        user("u-1", "Hi"),
        assistant("a-1", json!([text("Hel")]))
    ]));
    if !queue.is_empty() {
        let queued: Vec<Value> = queue
            .iter()
            .map(|id| json!({ "id": id, "text": format!("later {id}") }))
            .collect();
        state["queue"] = json!(queued);
    }
    state
}

fn queued_user(id: &str) -> Value {
    user(id, &format!("later {id}"))
}

// ---- send while streaming: queued ----

#[test]
fn send_while_streaming_is_queued_and_the_message_is_not_appended() {
    let before = state(streaming_with_queue(&[]));
    let after = apply(&before, send("u-2", "And also"));
    assert_eq!(to_json(&after), {
        let mut expected = streaming_with_queue(&[]);
        expected["queue"] = json!([{ "id": "u-2", "text": "And also" }]);
        expected
    });
    for (old, new) in before.messages.iter().zip(&after.messages) {
        assert!(Rc::ptr_eq(old, new), "the messages are untouched");
    }
    let again = apply(&after, send("u-3", "And then"));
    assert_eq!(
        to_json(&again)["queue"],
        json!([{ "id": "u-2", "text": "And also" }, { "id": "u-3", "text": "And then" }]),
        "appended in order"
    );
}

#[test]
fn a_running_call_goes_on_while_a_send_is_queued() {
    let before = streaming(json!([
        user("u-1", "Hi"),
        assistant("a-1", json!([tool("c-1", "search", "running")]))
    ]));
    let after = apply(&state(before), send("u-2", "Also"));
    assert!(call(&after, 1, 0).state.is_open());
    let done = apply(
        &after,
        part(json!({ "type": "tool-result", "id": "c-1", "output": 1 })),
    );
    assert_eq!(
        to_json(&done)["messages"][1]["parts"][0]["state"],
        json!("done")
    );
}

// ---- send when not streaming: the queue goes first ----

#[test]
fn send_when_not_streaming_sends_the_queued_messages_first_in_order_then_the_new_one() {
    let mut stopped = streaming_with_queue(&["q-1", "q-2"]);
    stopped["status"] = json!("idle");
    assert_becomes(
        stopped,
        send("u-2", "Now"),
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([text("Hel")])),
            queued_user("q-1"),
            queued_user("q-2"),
            user("u-2", "Now")
        ])),
    );
}

#[test]
fn send_after_an_error_cancels_the_open_calls_then_sends_the_queue() {
    let failed = json!({
        "messages": [user("u-1", "Hi"), assistant("a-1", json!([tool("c-1", "ask", "awaiting-confirmation")]))],
        "status": "error",
        "error": { "message": "boom" },
        "queue": [{ "id": "q-1", "text": "later q-1", "metadata": { "n": 1 } }]
    });
    let mut queued = queued_user("q-1");
    queued["metadata"] = json!({ "n": 1 });
    assert_becomes(
        failed,
        send("u-2", "Retry that"),
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([tool("c-1", "ask", "cancelled")])),
            queued,
            user("u-2", "Retry that")
        ])),
    );
}

// ---- finish with a queue ----

#[test]
fn a_top_level_finish_sends_the_queue_as_one_turn_for_every_reason_but_aborted() {
    for reason in [
        None,
        Some("stop"),
        Some("length"),
        Some("tool-calls"),
        Some("content-filter"),
        Some("other"),
    ] {
        assert_becomes(
            streaming_with_queue(&["q-1", "q-2"]),
            finish(reason),
            streaming(json!([
                user("u-1", "Hi"),
                assistant("a-1", json!([text("Hel")])),
                queued_user("q-1"),
                queued_user("q-2")
            ])),
        );
    }
}

#[test]
fn a_finish_without_a_queue_only_ends_the_run() {
    let mut idle = streaming_with_queue(&[]);
    assert_becomes(idle.clone(), finish(None), {
        idle["status"] = json!("idle");
        idle
    });
}

#[test]
fn the_queue_waits_while_a_call_is_open_and_goes_at_the_next_finish_that_leaves_none() {
    let mut waiting = streaming(json!([
        user("u-1", "Where am I?"),
        assistant(
            "a-1",
            json!([tool("c-1", "get_location", "awaiting-confirmation")])
        )
    ]));
    waiting["queue"] = json!([{ "id": "q-1", "text": "later q-1" }]);
    let finished = apply(&state(waiting.clone()), finish(Some("tool-calls")));
    let mut expected = waiting.clone();
    expected["status"] = json!("idle");
    assert_eq!(
        to_json(&finished),
        expected,
        "the run ends; the queue waits"
    );

    let answered = apply(
        &finished,
        part(json!({ "type": "tool-result", "id": "c-1", "output": "Lyon" })),
    );
    assert_eq!(
        to_json(&answered)["queue"],
        waiting["queue"],
        "an answer sends nothing"
    );
    let resumed = apply(&answered, json!({ "type": "continue" }));
    assert_eq!(to_json(&resumed)["queue"], waiting["queue"]);
    let sent = apply(&resumed, finish(None));
    let sent = to_json(&sent);
    assert_eq!(sent["status"], json!("streaming"));
    assert_eq!(sent["messages"][2], queued_user("q-1"));
    assert!(sent.get("queue").is_none());
}

#[test]
fn a_send_while_the_queue_waits_on_an_open_call_sends_it_and_cancels_the_call() {
    let mut waiting = json!({
        "messages": [user("u-1", "Hi"), assistant("a-1", json!([tool("c-1", "ask", "awaiting-confirmation")]))],
        "status": "idle"
    });
    waiting["queue"] = json!([{ "id": "q-1", "text": "later q-1" }]);
    let after = to_json(&apply(&state(waiting), send("u-2", "Never mind")));
    assert_eq!(
        after["messages"][1]["parts"][0]["state"],
        json!("cancelled")
    );
    assert_eq!(after["messages"][2], queued_user("q-1"));
    assert_eq!(after["messages"][3], user("u-2", "Never mind"));
    assert!(after.get("queue").is_none());
}

#[test]
fn a_nested_finish_never_sends_the_queue() {
    let mut nested = streaming(json!([
        user("u-1", "Delegate"),
        assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "agent",
                "running",
                json!({
                    "agent": { "messages": [], "status": "streaming" }
                })
            )])
        )
    ]));
    nested["queue"] = json!([{ "id": "q-1", "text": "later q-1" }]);
    let after = to_json(&apply(
        &state(nested.clone()),
        part_within("c-1", json!({ "type": "finish" })),
    ));
    assert_eq!(after["queue"], nested["queue"]);
    assert_eq!(after["messages"].as_array().map(Vec::len), Some(2));
    assert_eq!(
        after["messages"][1]["parts"][0]["agent"]["status"],
        json!("idle")
    );
}

// ---- what keeps the queue ----

#[test]
fn stop_error_an_aborted_finish_retry_and_continue_keep_the_queue() {
    let queue = json!([{ "id": "q-1", "text": "later q-1" }]);
    for action in [
        json!({ "type": "stop" }),
        part(json!({ "type": "error", "error": "boom" })),
        finish(Some("aborted")),
    ] {
        let after = to_json(&apply(
            &state(streaming_with_queue(&["q-1"])),
            action.clone(),
        ));
        assert_eq!(after["queue"], queue, "after {action}");
        assert_ne!(after["status"], json!("streaming"), "after {action}");
        for again in [json!({ "type": "retry" }), json!({ "type": "continue" })] {
            let resumed = to_json(&apply(&state(after.clone()), again.clone()));
            assert_eq!(resumed["queue"], queue, "after {action}, {again}");
            assert_eq!(resumed["status"], json!("streaming"));
        }
    }
}

// ---- unqueue ----

#[test]
fn unqueue_removes_the_first_queued_message_with_that_id() {
    let mut twice = streaming_with_queue(&["q-1", "q-2", "q-1"]);
    twice["queue"][2]["text"] = json!("the second q-1");
    let mut expected = twice.clone();
    expected["queue"] = json!([
        { "id": "q-2", "text": "later q-2" },
        { "id": "q-1", "text": "the second q-1" }
    ]);
    assert_becomes(twice, json!({ "type": "unqueue", "id": "q-1" }), expected);
}

#[test]
fn unqueue_of_the_last_queued_message_removes_the_queue() {
    assert_becomes(
        streaming_with_queue(&["q-1"]),
        json!({ "type": "unqueue", "id": "q-1" }),
        streaming_with_queue(&[]),
    );
}

#[test]
fn unqueue_of_an_unknown_id_is_the_same_state() {
    assert_unchanged(
        streaming_with_queue(&["q-1"]),
        json!({ "type": "unqueue", "id": "q-9" }),
    );
    assert_unchanged(
        streaming_with_queue(&[]),
        json!({ "type": "unqueue", "id": "q-1" }),
    );
}

// ---- reset ----

#[test]
fn reset_drops_the_queue_even_of_an_otherwise_empty_session() {
    assert_becomes(
        json!({ "messages": [], "status": "idle", "queue": [{ "id": "q-1", "text": "x" }] }),
        json!({ "type": "reset" }),
        json!({ "messages": [], "status": "idle" }),
    );
}

// ---- send with parts and metadata ----

fn file_part() -> Value {
    json!({ "type": "data", "name": "file", "data": { "mediaType": "image/png", "url": "data:," } })
}

#[test]
fn send_with_parts_and_metadata_makes_a_user_message_of_the_text_then_the_parts() {
    let sent = json!({
        "type": "send", "id": "u-1", "text": "What is this?",
        "parts": [file_part(), { "type": "text", "text": "(a photo)" }],
        "metadata": { "source": "composer" }
    });
    assert_becomes(
        json!({ "messages": [], "status": "idle" }),
        sent,
        streaming(json!([{
            "id": "u-1", "role": "user",
            "parts": [text("What is this?"), file_part(), text("(a photo)")],
            "metadata": { "source": "composer" }
        }])),
    );
}

#[test]
fn a_queued_message_keeps_its_parts_and_metadata_and_absent_fields_stay_absent() {
    let queued = apply(
        &state(streaming_with_queue(&[])),
        json!({ "type": "send", "id": "q-1", "text": "Look", "parts": [file_part()], "metadata": null }),
    );
    assert_eq!(
        to_json(&queued)["queue"],
        json!([{ "id": "q-1", "text": "Look", "parts": [file_part()], "metadata": null }])
    );
    let bare = apply(&queued, send("q-2", "Plain"));
    assert_eq!(
        to_json(&bare)["queue"][1],
        json!({ "id": "q-2", "text": "Plain" })
    );
    let sent = to_json(&apply(&bare, finish(None)));
    assert_eq!(
        sent["messages"][2],
        json!({ "id": "q-1", "role": "user", "parts": [text("Look"), file_part()], "metadata": null })
    );
    assert_eq!(sent["messages"][3], user("q-2", "Plain"));
}

/// A `send` whose `parts` hold anything but text and data parts is bad input, named by its
/// path as the package's reader names it; nothing changes.
#[test]
fn a_send_with_a_part_that_is_neither_text_nor_data_is_bad_input() {
    let send_with_a_call = action(json!({
        "type": "send", "id": "u-1", "text": "Hi", "parts": [text("Look"), tool("c-1", "search", "running")]
    }));
    let idle = state(json!({ "messages": [], "status": "idle" }));
    let error = chat_session_reducer::core::session_reducer(&idle, &send_with_a_call).unwrap_err();
    assert_eq!(error.path(), Some("action.parts[1].type"));
    assert_eq!(
        error.to_string(),
        r#"action.parts[1].type: expected one of "text", "data""#
    );
}

// ---- load ----

fn waiting_for_the_user() -> Value {
    json!({
        "messages": [
            user("u-1", "Book it"),
            assistant("a-1", json!([tool_with("c-1", "book", "awaiting-confirmation", json!({ "prompt": "Book?" }))]))
        ],
        "status": "idle",
        "queue": [{ "id": "q-1", "text": "later q-1" }]
    })
}

#[test]
fn load_gives_back_the_very_state_given_when_nothing_needs_stopping() {
    let given = state(waiting_for_the_user());
    let current = state(streaming_with_queue(&["x"]));
    let load = SessionAction::Load {
        state: Rc::clone(&given),
    };
    let loaded = chat_session_reducer::core::session_reducer(&current, &load).unwrap();
    assert!(
        Rc::ptr_eq(&loaded, &given),
        "an open call waiting on the user stays, and so does the queue"
    );
    assert!(Rc::ptr_eq(&load_rule(&given).unwrap(), &given));
    assert_eq!(
        to_json(&current),
        streaming_with_queue(&["x"]),
        "the state replaced is untouched"
    );
}

#[test]
fn load_of_a_state_stored_while_streaming_applies_stop() {
    let mut stored = waiting_for_the_user();
    stored["status"] = json!("streaming");
    let loaded = apply(
        &state(json!({ "messages": [], "status": "idle" })),
        json!({ "type": "load", "state": stored.clone() }),
    );
    let mut expected = stored;
    expected["status"] = json!("idle");
    expected["messages"][1]["parts"][0]["state"] = json!("cancelled");
    assert_eq!(to_json(&loaded), expected, "the queue is kept");
}

#[test]
fn load_cancels_an_open_call_whose_nested_run_still_streams_and_keeps_the_others() {
    let sub_agent = tool_with(
        "c-2",
        "researcher",
        "running",
        json!({ "agent": {
            "messages": [assistant("s-1", json!([tool("c-3", "fetch", "running")]))],
            "status": "streaming"
        } }),
    );
    let stored = json!({
        "messages": [
            user("u-1", "Go"),
            assistant("a-1", json!([tool("c-1", "ask", "awaiting-confirmation"), sub_agent]))
        ],
        "status": "idle"
    });
    let loaded = to_json(&load_rule(&state(stored.clone())).unwrap());
    let parts = &loaded["messages"][1]["parts"];
    assert_eq!(parts[0]["state"], json!("awaiting-confirmation"));
    assert_eq!(parts[1]["state"], json!("cancelled"));
    assert_eq!(parts[1]["agent"]["status"], json!("idle"));
    assert_eq!(
        parts[1]["agent"]["messages"][0]["parts"][0]["state"],
        json!("cancelled")
    );
    assert_eq!(
        to_json(&apply(
            &state(json!({ "messages": [], "status": "idle" })),
            json!({ "type": "load", "state": stored })
        )),
        loaded,
        "the action and the function apply the one rule"
    );
}

#[test]
fn a_loaded_state_is_indexed_afresh_for_the_actions_that_follow() {
    let loaded = apply(
        &state(streaming_with_queue(&[])),
        json!({ "type": "load", "state": waiting_for_the_user() }),
    );
    let answered = apply(
        &loaded,
        part(
            json!({ "type": "tool-approval-response", "id": "c-1", "approved": true, "output": "booked" }),
        ),
    );
    assert_eq!(
        to_json(&answered)["messages"][1]["parts"][0]["state"],
        json!("done"),
        "the call waiting on the user stays answerable"
    );
}

/// Decision: "no call of the path is still open" counts nested runs too: a question left open
/// in a sub-agent's finished run still waits on the user, so the queue waits with it.
#[test]
fn an_open_call_in_a_nested_run_keeps_the_queue_waiting_too() {
    let mut nested = streaming(json!([
        user("u-1", "Delegate"),
        assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "agent",
                "done",
                json!({
                    "agent": { "messages": [assistant("s-1", json!([tool("c-2", "ask", "awaiting-confirmation")]))], "status": "idle" }
                })
            )])
        )
    ]));
    nested["queue"] = json!([{ "id": "q-1", "text": "later q-1" }]);
    let finished = to_json(&apply(&state(nested.clone()), finish(None)));
    assert_eq!(finished["status"], json!("idle"));
    assert_eq!(finished["queue"], nested["queue"]);
}
