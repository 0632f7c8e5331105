//! SPEC v2 rows on the Rust core: `data` parts, `message-metadata`, `metadata` on messages and
//! text parts, `snapshot`, `agent-state` and `batch`, by the states they give and the patches
//! the core logs. How the JSON values themselves are merged, patched and compared:
//! tests/core_json_values.rs.

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
mod common;

use chat_session_reducer::core::patch::Patch;
use chat_session_reducer::core::{reduce, Outcome, Session};
use common::*;
use serde_json::{json, Value};

fn data(name: &str, id: Option<&str>, value: Value) -> Value {
    let mut part = json!({ "type": "data", "name": name, "data": value });
    if let Some(id) = id {
        part["id"] = json!(id);
    }
    part
}

fn patches(before: Value, action_json: Value) -> Vec<Patch> {
    match reduce(&mut Session::new(state(before)), &action(action_json)) {
        Ok(Outcome::Changed(patches)) => patches,
        other => panic!("expected a change, got {other:?}"),
    }
}

// ---- data ----

#[test]
fn data_without_an_id_is_appended_to_the_target_message() {
    assert_becomes(
        streaming(json!([user("u-1", "Weather?")])),
        part(json!({ "type": "data", "name": "weather", "data": { "temp": 21 } })),
        streaming(json!([
            user("u-1", "Weather?"),
            assistant(
                "assistant-1",
                json!([data("weather", None, json!({ "temp": 21 }))])
            )
        ])),
    );
    let twice = streaming(json!([assistant(
        "a-1",
        json!([data("source", None, json!("a"))])
    )]));
    assert_becomes(
        twice,
        part(json!({ "type": "data", "name": "source", "data": "b" })),
        streaming(json!([assistant(
            "a-1",
            json!([
                data("source", None, json!("a")),
                data("source", None, json!("b"))
            ])
        )])),
    );
}

#[test]
fn data_with_an_id_replaces_the_data_of_the_part_with_that_name_and_id() {
    let held = streaming(json!([assistant(
        "a-1",
        json!([
            data("weather", Some("w"), json!({ "temp": 1 })),
            text("Here"),
            data("map", Some("w"), json!(null))
        ])
    )]));
    assert_becomes(
        held.clone(),
        part(
            json!({ "type": "data", "name": "weather", "id": "w", "data": { "temp": 2 }, "metadata": { "m": 1 } }),
        ),
        streaming(json!([assistant(
            "a-1",
            json!([
                { "type": "data", "name": "weather", "id": "w", "data": { "temp": 2 }, "metadata": { "m": 1 } },
                text("Here"),
                data("map", Some("w"), json!(null))
            ])
        )])),
    );
    // Another id, or the same id under another name: a new part.
    let next = apply(
        &state(held.clone()),
        part(json!({ "type": "data", "name": "weather", "id": "v", "data": 3 })),
    );
    assert_eq!(next.messages[0].parts.len(), 4);
    let next = apply(
        &state(held),
        part(json!({ "type": "data", "name": "chart", "id": "w", "data": 3 })),
    );
    assert_eq!(next.messages[0].parts.len(), 4);
}

#[test]
fn a_data_patch_is_applied_to_the_data_and_a_patch_with_nothing_to_patch_is_ignored() {
    let held = streaming(json!([
        user("u-1", "Hi"),
        assistant(
            "a-1",
            json!([data("plan", Some("p"), json!({ "steps": [] }))])
        )
    ]));
    let patch = json!([{ "op": "add", "path": "/steps/-", "value": "book" }]);
    assert_eq!(
        patches(
            held.clone(),
            part(json!({ "type": "data", "name": "plan", "id": "p", "patch": patch }))
        ),
        vec![Patch::UpdateData {
            run: vec![],
            message: 1,
            part: 0
        }]
    );
    assert_becomes(
        held.clone(),
        part(json!({ "type": "data", "name": "plan", "id": "p", "patch": patch })),
        streaming(json!([
            user("u-1", "Hi"),
            assistant(
                "a-1",
                json!([data("plan", Some("p"), json!({ "steps": ["book"] }))])
            )
        ])),
    );
    // No part of that name and id, no message at all, or a user message's id: ignored, and no
    // message is created for it.
    for ignored in [
        json!({ "type": "data", "name": "plan", "id": "q", "patch": patch }),
        json!({ "type": "data", "messageId": "a-2", "name": "plan", "id": "p", "patch": patch }),
        json!({ "type": "data", "messageId": "u-1", "name": "plan", "data": 1 }),
    ] {
        assert_unchanged(held.clone(), part(ignored));
    }
    assert_unchanged(
        streaming(json!([user("u-1", "Hi")])),
        part(json!({ "type": "data", "name": "plan", "id": "p", "patch": patch })),
    );
}

// ---- metadata ----

#[test]
fn message_metadata_goes_to_the_target_message() {
    assert_eq!(
        patches(
            streaming(json!([
                user("u-1", "Hi"),
                assistant("a-1", json!([text("x")])),
                user("u-2", "More")
            ])),
            part(
                json!({ "type": "message-metadata", "messageId": "a-1", "metadata": { "usage": { "output": 5 } } })
            )
        ),
        vec![Patch::MergeMetadata {
            run: vec![],
            message: 1,
            part: None
        }]
    );
    // No assistant message yet: one is made to carry it.
    assert_becomes(
        streaming(json!([user("u-1", "Hi")])),
        part(json!({ "type": "message-metadata", "metadata": [1] })),
        streaming(json!([
            user("u-1", "Hi"),
            { "id": "assistant-1", "role": "assistant", "parts": [], "metadata": [1] }
        ])),
    );
}

#[test]
fn message_start_carries_metadata_and_merges_it_into_an_assistant_message_already_present() {
    assert_becomes(
        streaming(json!([user("u-1", "Hi")])),
        part(json!({ "type": "message-start", "messageId": "a-1", "metadata": { "k": 1 } })),
        streaming(json!([
            user("u-1", "Hi"),
            { "id": "a-1", "role": "assistant", "parts": [], "metadata": { "k": 1 } }
        ])),
    );
    assert_becomes(
        streaming(json!([assistant("a-1", json!([text("x")]))])),
        part(json!({ "type": "message-start", "messageId": "a-1", "metadata": { "k": 1 } })),
        streaming(
            json!([{ "id": "a-1", "role": "assistant", "parts": [text("x")], "metadata": { "k": 1 } }]),
        ),
    );
    // A user message's id: ignored, as text-delta ignores it.
    assert_unchanged(
        streaming(json!([user("u-1", "Hi")])),
        part(json!({ "type": "message-start", "messageId": "u-1", "metadata": { "k": 1 } })),
    );
}

#[test]
fn an_empty_text_delta_with_metadata_merges_into_the_last_text_part_or_adds_one() {
    assert_becomes(
        streaming(json!([assistant("a-1", json!([text("Hi")]))])),
        part(json!({ "type": "text-delta", "text": "", "metadata": { "citations": [1] } })),
        streaming(json!([assistant(
            "a-1",
            json!([{ "type": "text", "text": "Hi", "metadata": { "citations": [1] } }])
        )])),
    );
    assert_becomes(
        streaming(json!([assistant("a-1", json!([tool("c-1", "t", "done")]))])),
        part(json!({ "type": "text-delta", "text": "", "metadata": { "k": 1 } })),
        streaming(json!([assistant(
            "a-1",
            json!([tool("c-1", "t", "done"), { "type": "text", "text": "", "metadata": { "k": 1 } }])
        )])),
    );
    assert_becomes(
        streaming(json!([assistant("a-1", json!([text("Hi")]))])),
        part(json!({ "type": "text-delta", "text": " there", "metadata": { "k": 1 } })),
        streaming(json!([assistant(
            "a-1",
            json!([{ "type": "text", "text": "Hi there", "metadata": { "k": 1 } }])
        )])),
    );
    assert_unchanged(
        streaming(json!([assistant("a-1", json!([text("Hi")]))])),
        part(json!({ "type": "text-delta", "text": "" })),
    );
}

// ---- snapshot ----

#[test]
fn a_snapshot_replaces_messages_by_id_appends_new_ones_and_keeps_the_others() {
    assert_becomes(
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([text("Hel")])),
            user("local", "client only")
        ])),
        part(json!({ "type": "snapshot", "messages": [
            assistant("a-1", json!([text("Hello")])),
            assistant("a-2", json!([text("More")]))
        ] })),
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([text("Hello")])),
            user("local", "client only"),
            assistant("a-2", json!([text("More")]))
        ])),
    );
}

#[test]
fn an_exact_snapshot_makes_the_run_exactly_its_messages_in_its_order() {
    assert_becomes(
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([text("Long")])),
            user("u-2", "More")
        ])),
        part(json!({ "type": "snapshot", "exact": true, "messages": [
            user("u-2", "More"),
            assistant("summary", json!([text("Short")]))
        ] })),
        streaming(json!([
            user("u-2", "More"),
            assistant("summary", json!([text("Short")]))
        ])),
    );
}

#[test]
fn a_snapshot_tells_the_host_which_held_message_each_of_its_messages_replaces() {
    let held = streaming(json!([
        user("u-1", "Hi"),
        assistant("a-1", json!([text("Hello")])),
        user("local", "client only")
    ]));
    let snapshot = json!([
        assistant("a-2", json!([])),
        user("u-1", "Hi"),
        assistant("a-1", json!([text("Hello!")]))
    ]);
    assert_eq!(
        patches(
            held.clone(),
            part(json!({ "type": "snapshot", "messages": snapshot }))
        ),
        vec![Patch::Snapshot {
            run: vec![],
            slots: vec![
                (Some(0), Some(1)),
                (Some(1), Some(2)),
                (Some(2), None),
                (None, Some(0))
            ]
        }]
    );
    assert_eq!(
        patches(
            held,
            part(json!({ "type": "snapshot", "messages": snapshot, "exact": true }))
        ),
        vec![Patch::Snapshot {
            run: vec![],
            slots: vec![(None, Some(0)), (Some(0), Some(1)), (Some(1), Some(2))]
        }]
    );
}

#[test]
fn a_snapshot_of_no_messages_changes_nothing_unless_exact() {
    let held = streaming(json!([user("u-1", "Hi")]));
    assert_unchanged(
        held.clone(),
        part(json!({ "type": "snapshot", "messages": [] })),
    );
    assert_unchanged(
        streaming(json!([])),
        part(json!({ "type": "snapshot", "messages": [], "exact": true })),
    );
    assert_becomes(
        held,
        part(json!({ "type": "snapshot", "messages": [], "exact": true })),
        streaming(json!([])),
    );
}

#[test]
fn a_snapshot_that_would_hold_a_call_id_or_message_id_twice_is_ignored() {
    let held = streaming(json!([
        user("u-1", "Hi"),
        assistant("a-1", json!([tool("c-1", "t", "running")]))
    ]));
    // c-1 stays in a-1, which the snapshot does not replace.
    assert_unchanged(
        held.clone(),
        part(
            json!({ "type": "snapshot", "messages": [assistant("a-2", json!([tool("c-1", "t", "done")]))] }),
        ),
    );
    // Twice in the snapshot itself, and a message id twice.
    assert_unchanged(
        held.clone(),
        part(json!({ "type": "snapshot", "messages": [
            assistant("a-2", json!([tool("c-9", "t", "done"), tool("c-9", "t", "done")]))
        ] })),
    );
    assert_unchanged(
        held.clone(),
        part(json!({ "type": "snapshot", "messages": [user("x", "1"), user("x", "2")] })),
    );
    // The call moves with the message that holds it, or the exact snapshot drops the old one.
    let moved = apply(
        &state(held.clone()),
        part(
            json!({ "type": "snapshot", "messages": [assistant("a-1", json!([tool("c-1", "t", "done")]))] }),
        ),
    );
    assert_eq!(
        call(&moved, 1, 0).state,
        chat_session_reducer::core::model::ToolState::Done
    );
    let exact = apply(
        &state(held),
        part(
            json!({ "type": "snapshot", "exact": true, "messages": [assistant("a-2", json!([tool("c-1", "t", "running")]))] }),
        ),
    );
    assert_eq!(exact.messages.len(), 1);
}

#[test]
fn the_calls_of_a_snapshot_are_indexed_like_any_other() {
    let state = replay(&[
        json!({ "type": "send", "id": "u-1", "text": "Hi" }),
        part(json!({ "type": "snapshot", "messages": [
            user("u-1", "Hi"),
            assistant("a-1", json!([tool("c-1", "search", "running"), tool("c-2", "book", "running")]))
        ] })),
        part(json!({ "type": "tool-result", "id": "c-1", "output": 1 })),
        json!({ "type": "toolPhase", "name": "book", "state": "awaiting-confirmation" }),
        part(json!({ "type": "tool-call", "id": "c-1", "name": "again", "input": {} })),
        json!({ "type": "stop" }),
    ]);
    assert_eq!(
        to_json(&state),
        json!({ "messages": [
            user("u-1", "Hi"),
            assistant("a-1", json!([
                tool_with("c-1", "search", "done", json!({ "output": 1 })),
                tool("c-2", "book", "cancelled")
            ]))
        ], "status": "idle" })
    );
}

#[test]
fn a_snapshot_within_a_call_reconciles_that_run_and_is_ignored_outside_a_stream() {
    let parent = streaming(json!([assistant(
        "a-1",
        json!([tool_with(
            "d-1",
            "delegate",
            "running",
            json!({ "agent": streaming(json!([assistant("n-1", json!([text("x")]))])) })
        )])
    )]));
    assert_becomes(
        parent.clone(),
        part_within(
            "d-1",
            json!({ "type": "snapshot", "messages": [assistant("n-2", json!([]))], "exact": true }),
        ),
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "d-1",
                "delegate",
                "running",
                json!({ "agent": streaming(json!([assistant("n-2", json!([]))])) })
            )])
        )])),
    );
    assert_unchanged(
        json!({ "messages": [], "status": "idle" }),
        part(json!({ "type": "snapshot", "messages": [user("u", "x")] })),
    );
}

// ---- agent-state ----

#[test]
fn agent_state_snapshot_replaces_the_runs_agent_state() {
    assert_becomes(
        json!({ "messages": [], "status": "streaming", "agentState": { "old": true } }),
        part(json!({ "type": "agent-state", "snapshot": { "step": 2 } })),
        json!({ "messages": [], "status": "streaming", "agentState": { "step": 2 } }),
    );
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([tool("d-1", "delegate", "running")])
        )])),
        part_within("d-1", json!({ "type": "agent-state", "snapshot": null })),
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "d-1",
                "delegate",
                "running",
                json!({ "agent": { "messages": [], "status": "streaming", "agentState": null } })
            )])
        )])),
    );
    assert_eq!(
        patches(
            streaming(json!([])),
            part(
                json!({ "type": "agent-state", "patch": [{ "op": "add", "path": "/a", "value": 1 }] })
            )
        ),
        vec![Patch::AgentState { run: vec![] }]
    );
    assert_unchanged(
        json!({ "messages": [], "status": "idle" }),
        part(json!({ "type": "agent-state", "snapshot": 1 })),
    );
}

/// A patch on a run without agent state is applied to `{}`: when it does not apply, or gives
/// `{}` itself, nothing changes and no sub-agent's run is created; when it does, the run has
/// an `agentState` (which `reset` then clears).
#[test]
fn an_agent_state_patch_on_a_run_without_one_changes_it_only_when_it_changes_an_empty_object() {
    let with_call = streaming(json!([assistant(
        "a-1",
        json!([tool("d-1", "delegate", "running")])
    )]));
    let adds =
        json!({ "type": "agent-state", "patch": [{ "op": "add", "path": "/a", "value": 1 }] });
    for keeps in [
        json!([{ "op": "test", "path": "", "value": {} }]),
        json!([{ "op": "remove", "path": "/a" }]),
        json!([]),
    ] {
        let keeps = json!({ "type": "agent-state", "patch": keeps });
        assert_unchanged(with_call.clone(), part(keeps.clone()));
        assert_unchanged(with_call.clone(), part_within("d-1", keeps));
    }
    let after = apply(&state(with_call.clone()), part_within("d-1", adds.clone()));
    let run = call(&after, 0, 0)
        .agent
        .as_ref()
        .expect("the run is created");
    assert_eq!(run.agent_state, Some(json!({ "a": 1 })));
    let batch =
        json!({ "type": "batch", "actions": [part(json!({ "type": "step-finish" })), part(adds)] });
    let after = apply(&state(with_call), batch);
    assert_eq!(after.agent_state, Some(json!({ "a": 1 })));
    assert_becomes(
        to_json(&after),
        json!({ "type": "reset" }),
        json!({ "messages": [], "status": "idle" }),
    );
}

// ---- batch ----

#[test]
fn a_batch_applies_its_actions_in_order_as_one_action() {
    let after = replay(&[json!({ "type": "batch", "actions": [
        { "type": "send", "id": "u-1", "text": "Hi" },
        part(json!({ "type": "text-delta", "text": "Hel" })),
        { "type": "batch", "actions": [part(json!({ "type": "text-delta", "text": "lo" }))] },
        part(json!({ "type": "finish" }))
    ] })]);
    assert_eq!(
        to_json(&after),
        json!({ "messages": [user("u-1", "Hi"), assistant("assistant-1", json!([text("Hello")]))], "status": "idle" })
    );
    assert_unchanged(
        streaming(json!([])),
        json!({ "type": "batch", "actions": [part(json!({ "type": "step-finish" })), { "type": "batch", "actions": [] }] }),
    );
}

#[test]
fn a_batch_says_which_of_its_actions_each_patch_takes_its_values_from() {
    let logged = patches(
        streaming(json!([assistant(
            "a-1",
            json!([tool("d-1", "delegate", "running")])
        )])),
        json!({ "type": "batch", "actions": [
            part(json!({ "type": "text-delta", "text": "a" })),
            part_within("d-1", json!({ "type": "step-finish" })),
            { "type": "batch", "actions": [part(json!({ "type": "step-finish" }))] },
            part(json!({ "type": "text-delta", "text": "b" }))
        ] }),
    );
    assert_eq!(
        logged,
        vec![
            Patch::PushPart {
                run: vec![],
                message: 0,
                part: chat_session_reducer::core::patch::NewPart::Text
            },
            Patch::Source { action: 3 },
            Patch::AppendText {
                run: vec![],
                message: 0,
                part: 1
            },
        ]
    );
}

#[test]
fn an_action_of_a_batch_that_is_ignored_does_not_stop_the_others() {
    let after = replay(&[json!({ "type": "batch", "actions": [
        { "type": "send", "id": "u-1", "text": "Hi" },
        part(json!({ "type": "tool-call", "id": "c-1", "name": "t", "input": {} })),
        part_within("nobody", json!({ "type": "text-delta", "text": "lost" })),
        { "type": "toolPhase", "name": "nothing", "state": "running" },
        part(json!({ "type": "tool-result", "id": "c-1", "output": 1 }))
    ] })]);
    assert_eq!(
        to_json(&after),
        json!({ "messages": [
            user("u-1", "Hi"),
            assistant("assistant-1", json!([tool_with("c-1", "t", "done", json!({ "output": 1 }))]))
        ], "status": "streaming" })
    );
}

#[test]
fn the_parts_of_a_calls_life_carry_their_metadata_to_the_call() {
    assert_becomes(
        streaming(json!([assistant("a-1", json!([]))])),
        part(
            json!({ "type": "tool-call", "id": "c-1", "name": "t", "input": {}, "metadata": { "k": 1 } }),
        ),
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "t",
                "running",
                json!({ "metadata": { "k": 1 } })
            )])
        )])),
    );
    let running = streaming(json!([assistant(
        "a-1",
        json!([text("x"), tool("c-1", "t", "running")])
    )]));
    for answer in [
        json!({ "type": "tool-result", "id": "c-1", "output": 1, "metadata": { "k": 1 } }),
        json!({ "type": "tool-error", "id": "c-1", "error": { "message": "e" }, "metadata": { "k": 1 } }),
    ] {
        let logged = patches(running.clone(), part(answer.clone()));
        assert_eq!(
            logged.last(),
            Some(&Patch::MergeMetadata {
                run: vec![],
                message: 0,
                part: Some(1)
            }),
            "{answer}"
        );
    }
    // Ignored for another reason: no metadata merged.
    assert_unchanged(
        running,
        part(json!({ "type": "tool-result", "id": "c-9", "output": 1, "metadata": { "k": 1 } })),
    );
}

#[test]
fn an_empty_reasoning_delta_with_metadata_merges_into_the_last_reasoning_part_or_adds_one() {
    assert_eq!(
        patches(
            streaming(json!([assistant(
                "a-1",
                json!([{ "type": "reasoning", "text": "r" }])
            )])),
            part(json!({ "type": "reasoning-delta", "text": "", "metadata": { "sig": 1 } }))
        ),
        vec![Patch::MergeMetadata {
            run: vec![],
            message: 0,
            part: Some(0)
        }]
    );
    assert_becomes(
        streaming(json!([assistant("a-1", json!([text("t")]))])),
        part(json!({ "type": "reasoning-delta", "text": "", "metadata": { "sig": 1 } })),
        streaming(json!([assistant(
            "a-1",
            json!([text("t"), { "type": "reasoning", "text": "", "metadata": { "sig": 1 } }])
        )])),
    );
}
