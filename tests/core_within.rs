//! SPEC "`part` with `within`": parts of a sub-agent's run behind a call, wherever that call
//! is in the tree; and `toolPhase` reaching nested calls.

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
mod common;

use std::rc::Rc;

use chat_session_reducer::core::model::{
    AgentMessage, AgentPart, Json, Role, SessionState, ToolPart, ToolState, MAX_NESTING,
};
use common::*;
use serde_json::{json, Value};

fn run(messages: Value, status: &str) -> Value {
    json!({ "messages": messages, "status": status })
}

/// A delegate call `id` (running) whose sub-agent run is `agent`.
fn delegate(id: &str, agent: Value) -> Value {
    tool_with(
        id,
        &format!("delegate_{id}"),
        "running",
        json!({ "agent": agent }),
    )
}

/// Three levels: c-1 (top level) runs a sub-agent that called c-2, whose sub-agent called c-3.
fn three_levels(c3: Value) -> Value {
    streaming(json!([
        user("u-1", "Buy a mug"),
        assistant(
            "a-1",
            json!([delegate(
                "c-1",
                streaming(json!([assistant(
                    "n-1",
                    json!([
                        text("Delegating payment"),
                        delegate("c-2", streaming(json!([assistant("m-1", json!([c3]))])))
                    ])
                )]))
            )])
        )
    ]))
}

// ---- creating the nested run ----

#[test]
fn the_first_within_part_creates_a_streaming_run_behind_the_call() {
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([tool("c-1", "delegate_to_shop", "running")])
        )])),
        part_within(
            "c-1",
            json!({ "type": "message-start", "messageId": "n-1" }),
        ),
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "delegate_to_shop",
                "running",
                json!({
                    "agent": streaming(json!([assistant("n-1", json!([]))]))
                })
            )])
        )])),
    );
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "delegate_to_shop",
                "awaiting-confirmation",
                json!({ "prompt": "Delegate?" })
            )])
        )])),
        part_within("c-1", json!({ "type": "text-delta", "text": "Hi" })),
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "delegate_to_shop",
                "awaiting-confirmation",
                json!({
                    "prompt": "Delegate?",
                    "agent": streaming(json!([assistant("assistant-0", json!([text("Hi")]))]))
                })
            )])
        )])),
    );
}

#[test]
fn a_nested_finish_as_first_part_leaves_an_idle_empty_run() {
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([tool("c-1", "delegate_to_shop", "running")])
        )])),
        part_within("c-1", json!({ "type": "finish" })),
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "delegate_to_shop",
                "running",
                json!({
                    "agent": run(json!([]), "idle")
                })
            )])
        )])),
    );
}

#[test]
fn a_within_part_that_would_change_nothing_does_not_create_the_run() {
    let conversation = streaming(json!([assistant(
        "a-1",
        json!([
            tool("c-0", "search", "done"),
            tool("c-1", "delegate_to_shop", "running")
        ])
    )]));
    for noop in [
        json!({ "type": "step-finish" }),
        json!({ "type": "text-delta", "text": "" }),
        json!({ "type": "tool-result", "id": "c-9", "output": 1 }),
        json!({ "type": "tool-error", "id": "c-9", "error": { "message": "no" } }),
        json!({ "type": "tool-call", "id": "c-0", "name": "search", "input": {} }),
        json!({ "type": "snapshot", "messages": [] }),
        json!({ "type": "snapshot", "messages": [], "exact": true }),
    ] {
        assert_unchanged(conversation.clone(), part_within("c-1", noop));
    }
}

#[test]
fn within_parts_go_on_into_the_existing_run() {
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([delegate(
                "c-1",
                streaming(json!([assistant("n-1", json!([text("Look")]))]))
            )])
        )])),
        part_within(
            "c-1",
            json!({ "type": "text-delta", "messageId": "n-1", "text": "ing" }),
        ),
        streaming(json!([assistant(
            "a-1",
            json!([delegate(
                "c-1",
                streaming(json!([assistant("n-1", json!([text("Looking")]))]))
            )])
        )])),
    );
}

// ---- ending the nested run ----

#[test]
fn a_nested_finish_ends_only_the_nested_run() {
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([delegate(
                "c-1",
                streaming(json!([assistant(
                    "n-1",
                    json!([tool("n-c", "search", "running")])
                )]))
            )])
        )])),
        part_within("c-1", json!({ "type": "finish", "reason": "stop" })),
        streaming(json!([assistant(
            "a-1",
            json!([delegate(
                "c-1",
                run(
                    json!([assistant("n-1", json!([tool("n-c", "search", "running")]))]),
                    "idle"
                )
            )])
        )])),
    );
}

#[test]
fn a_nested_aborted_finish_cancels_only_the_nested_open_calls() {
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([
                tool("c-0", "search", "running"),
                delegate(
                    "c-1",
                    streaming(json!([assistant(
                        "n-1",
                        json!([tool("n-c", "search", "running")])
                    )]))
                )
            ])
        )])),
        part_within("c-1", json!({ "type": "finish", "reason": "aborted" })),
        streaming(json!([assistant(
            "a-1",
            json!([
                tool("c-0", "search", "running"),
                delegate(
                    "c-1",
                    run(
                        json!([assistant(
                            "n-1",
                            json!([tool("n-c", "search", "cancelled")])
                        )]),
                        "idle"
                    )
                )
            ])
        )])),
    );
}

#[test]
fn a_nested_error_fails_only_the_nested_run() {
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([
                tool("c-0", "search", "running"),
                delegate(
                    "c-1",
                    streaming(json!([assistant(
                        "n-1",
                        json!([tool("n-c", "search", "running")])
                    )]))
                )
            ])
        )])),
        part_within(
            "c-1",
            json!({ "type": "error", "error": "Sub-agent failed", "code": "bad_request" }),
        ),
        streaming(json!([assistant(
            "a-1",
            json!([
                tool("c-0", "search", "running"),
                delegate(
                    "c-1",
                    json!({
                        "messages": [assistant("n-1", json!([tool("n-c", "search", "cancelled")]))],
                        "status": "error",
                        "error": { "message": "Sub-agent failed", "code": "bad_request" }
                    })
                )
            ])
        )])),
    );
}

#[test]
fn a_nested_run_that_has_ended_ignores_further_parts_but_answers() {
    let ended = [
        run(
            json!([assistant("n-1", json!([tool("n-c", "search", "running")]))]),
            "idle",
        ),
        json!({ "messages": [assistant("n-1", json!([]))], "status": "error", "error": { "message": "boom" } }),
    ];
    for agent in ended {
        let conversation = streaming(json!([assistant("a-1", json!([delegate("c-1", agent)]))]));
        for late in [
            json!({ "type": "message-start", "messageId": "n-2" }),
            json!({ "type": "text-delta", "text": "late" }),
            json!({ "type": "reasoning", "text": "late" }),
            json!({ "type": "reasoning-delta", "text": "late" }),
            json!({ "type": "tool-call", "id": "n-d", "name": "search", "input": {} }),
            json!({ "type": "tool-input-delta", "id": "n-d", "name": "search", "text": "{" }),
            json!({ "type": "tool-approval-request", "id": "n-c" }),
            json!({ "type": "finish", "reason": "aborted" }),
            json!({ "type": "error", "error": "late" }),
        ] {
            assert_unchanged(conversation.clone(), part_within("c-1", late));
        }
    }
}

// ---- which calls take `within` parts ----

#[test]
fn within_an_unknown_call_is_ignored() {
    assert_unchanged(
        streaming(json!([assistant(
            "a-1",
            json!([tool("c-1", "delegate_to_shop", "running")])
        )])),
        part_within("c-9", json!({ "type": "text-delta", "text": "Hi" })),
    );
}

#[test]
fn within_a_call_that_is_not_open_is_ignored() {
    for closed in ["done", "error", "cancelled"] {
        assert_unchanged(
            streaming(json!([assistant(
                "a-1",
                json!([tool("c-1", "delegate_to_shop", closed)])
            )])),
            part_within("c-1", json!({ "type": "text-delta", "text": "Hi" })),
        );
        assert_unchanged(
            streaming(json!([assistant(
                "a-1",
                json!([tool_with(
                    "c-1",
                    "delegate_to_shop",
                    closed,
                    json!({
                        "agent": run(json!([assistant("n-1", json!([]))]), "idle")
                    })
                )])
            )])),
            part_within(
                "c-1",
                json!({ "type": "message-start", "messageId": "n-2" }),
            ),
        );
    }
}

#[test]
fn within_a_call_two_levels_down_reaches_its_run() {
    assert_becomes(
        three_levels(tool("c-3", "charge", "running")),
        part_within(
            "c-2",
            json!({ "type": "text-delta", "messageId": "m-1", "text": "Charging" }),
        ),
        streaming(json!([
            user("u-1", "Buy a mug"),
            assistant(
                "a-1",
                json!([delegate(
                    "c-1",
                    streaming(json!([assistant(
                        "n-1",
                        json!([
                            text("Delegating payment"),
                            delegate(
                                "c-2",
                                streaming(json!([assistant(
                                    "m-1",
                                    json!([tool("c-3", "charge", "running"), text("Charging")])
                                )]))
                            )
                        ])
                    )]))
                )])
            )
        ])),
    );
}

#[test]
fn within_a_call_three_levels_down_creates_its_run() {
    assert_becomes(
        three_levels(tool("c-3", "charge", "running")),
        part_within(
            "c-3",
            json!({ "type": "message-start", "messageId": "x-1" }),
        ),
        three_levels(tool_with(
            "c-3",
            "charge",
            "running",
            json!({
                "agent": streaming(json!([assistant("x-1", json!([]))]))
            }),
        )),
    );
}

#[test]
fn message_ids_are_per_run() {
    // "a-1" is a message of the parent run, not of the nested one.
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([delegate("c-1", streaming(json!([])))])
        )])),
        part_within(
            "c-1",
            json!({ "type": "message-start", "messageId": "a-1" }),
        ),
        streaming(json!([assistant(
            "a-1",
            json!([delegate(
                "c-1",
                streaming(json!([assistant("a-1", json!([]))]))
            )])
        )])),
    );
    assert_unchanged(
        streaming(json!([assistant(
            "a-1",
            json!([delegate(
                "c-1",
                streaming(json!([assistant("n-1", json!([]))]))
            )])
        )])),
        part_within(
            "c-1",
            json!({ "type": "message-start", "messageId": "n-1" }),
        ),
    );
}

#[test]
fn a_nested_tool_call_with_an_id_used_anywhere_is_ignored() {
    let conversation = three_levels(tool("c-3", "charge", "running"));
    for id in ["c-1", "c-2", "c-3"] {
        assert_unchanged(
            conversation.clone(),
            part_within(
                "c-2",
                json!({ "type": "tool-call", "id": id, "name": "charge", "input": {} }),
            ),
        );
    }
}

#[test]
fn a_nested_tool_result_finishes_a_call_of_that_run_or_below() {
    let done = json!({ "output": "paid" });
    assert_becomes(
        three_levels(tool("c-3", "charge", "running")),
        part_within(
            "c-2",
            json!({ "type": "tool-result", "id": "c-3", "output": "paid" }),
        ),
        three_levels(tool_with("c-3", "charge", "done", done.clone())),
    );
    assert_becomes(
        three_levels(tool("c-3", "charge", "running")),
        part_within(
            "c-1",
            json!({ "type": "tool-result", "id": "c-3", "output": "paid" }),
        ),
        three_levels(tool_with("c-3", "charge", "done", done.clone())),
    );
    // A top-level part reaches the calls of every run nested in it.
    assert_becomes(
        three_levels(tool("c-3", "charge", "running")),
        part(json!({ "type": "tool-result", "id": "c-3", "output": "paid" })),
        three_levels(tool_with("c-3", "charge", "done", done)),
    );
}

#[test]
fn a_nested_tool_result_does_not_reach_calls_above_its_run() {
    let conversation = three_levels(tool("c-3", "charge", "running"));
    // c-1 holds the run that c-2 is in: neither is in or below c-2's run.
    for id in ["c-1", "c-2"] {
        assert_unchanged(
            conversation.clone(),
            part_within(
                "c-2",
                json!({ "type": "tool-result", "id": id, "output": 1 }),
            ),
        );
        assert_unchanged(
            conversation.clone(),
            part_within(
                "c-2",
                json!({ "type": "tool-error", "id": id, "error": { "message": "no" } }),
            ),
        );
    }
}

#[test]
fn a_result_for_a_nested_holder_ends_its_streaming_run_like_stop() {
    assert_becomes(
        three_levels(tool_with(
            "c-3",
            "charge",
            "awaiting-confirmation",
            json!({ "prompt": "Charge?" }),
        )),
        part_within(
            "c-1",
            json!({ "type": "tool-result", "id": "c-2", "output": "ok" }),
        ),
        streaming(json!([
            user("u-1", "Buy a mug"),
            assistant(
                "a-1",
                json!([delegate(
                    "c-1",
                    streaming(json!([assistant(
                        "n-1",
                        json!([
                            text("Delegating payment"),
                            tool_with(
                                "c-2",
                                "delegate_c-2",
                                "done",
                                json!({
                                    "output": "ok",
                                    "agent": run(json!([assistant("m-1", json!([
                                        tool_with("c-3", "charge", "cancelled", json!({ "prompt": "Charge?" }))
                                    ]))]), "idle")
                                })
                            )
                        ])
                    )]))
                )])
            )
        ])),
    );
}

#[test]
fn stop_reaches_every_level() {
    assert_becomes(
        three_levels(tool("c-3", "charge", "running")),
        json!({ "type": "stop" }),
        json!({
            "messages": [
                user("u-1", "Buy a mug"),
                assistant("a-1", json!([
                    tool_with("c-1", "delegate_c-1", "cancelled", json!({ "agent": run(json!([
                        assistant("n-1", json!([
                            text("Delegating payment"),
                            tool_with("c-2", "delegate_c-2", "cancelled", json!({ "agent": run(json!([
                                assistant("m-1", json!([tool("c-3", "charge", "cancelled")]))
                            ]), "idle") }))
                        ]))
                    ]), "idle") }))
                ]))
            ],
            "status": "idle"
        }),
    );
}

// ---- toolPhase and nesting ----

#[test]
fn tool_phase_prefers_a_nested_call_over_the_call_that_holds_it() {
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "ask",
                "running",
                json!({ "agent": streaming(json!([assistant("n-1", json!([tool("c-2", "ask", "running")]))])) })
            )])
        )])),
        json!({ "type": "toolPhase", "name": "ask", "state": "awaiting-confirmation", "prompt": "Sure?" }),
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "ask",
                "running",
                json!({ "agent": streaming(json!([assistant("n-1", json!([
                tool_with("c-2", "ask", "awaiting-confirmation", json!({ "prompt": "Sure?" }))
            ]))])) })
            )])
        )])),
    );
}

#[test]
fn tool_phase_reaches_a_call_two_levels_down() {
    assert_becomes(
        three_levels(tool("c-3", "charge", "running")),
        json!({ "type": "toolPhase", "name": "charge", "state": "awaiting-confirmation", "prompt": "Charge 12 EUR?" }),
        three_levels(tool_with(
            "c-3",
            "charge",
            "awaiting-confirmation",
            json!({ "prompt": "Charge 12 EUR?" }),
        )),
    );
}

#[test]
fn tool_phase_prefers_a_later_call_over_calls_nested_in_an_earlier_holder() {
    let nested_ask = |state: &str| {
        delegate(
            "c-1",
            streaming(json!([assistant(
                "n-1",
                json!([tool("c-2", "ask", state)])
            )])),
        )
    };
    // A later part of the same message, and a later message.
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([nested_ask("running"), tool("c-3", "ask", "running")])
        )])),
        json!({ "type": "toolPhase", "name": "ask", "state": "awaiting-confirmation" }),
        streaming(json!([assistant(
            "a-1",
            json!([
                nested_ask("running"),
                tool("c-3", "ask", "awaiting-confirmation")
            ])
        )])),
    );
    assert_becomes(
        streaming(json!([
            assistant("a-1", json!([nested_ask("running")])),
            assistant("a-2", json!([tool("c-3", "ask", "running")]))
        ])),
        json!({ "type": "toolPhase", "name": "ask", "state": "awaiting-confirmation" }),
        streaming(json!([
            assistant("a-1", json!([nested_ask("running")])),
            assistant("a-2", json!([tool("c-3", "ask", "awaiting-confirmation")]))
        ])),
    );
    // Once the later call is done, the nested one is the newest open "ask".
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([nested_ask("running"), tool("c-3", "ask", "done")])
        )])),
        json!({ "type": "toolPhase", "name": "ask", "state": "awaiting-confirmation" }),
        streaming(json!([assistant(
            "a-1",
            json!([
                nested_ask("awaiting-confirmation"),
                tool("c-3", "ask", "done")
            ])
        )])),
    );
}

/// The chain of `within` parts that nests `levels` runs: level k's run gets a call `c-{k+1}`.
fn nest_by_within(levels: usize) -> Rc<SessionState> {
    let mut state = replay(&[
        json!({ "type": "send", "id": "u-1", "text": "go" }),
        part(json!({ "type": "tool-call", "id": "c-1", "name": "delegate", "input": {} })),
    ]);
    for level in 1..levels {
        let call = json!({ "type": "tool-call", "id": format!("c-{}", level + 1), "name": "delegate", "input": {} });
        state = apply(&state, part_within(&format!("c-{level}"), call));
    }
    state
}

/// How deep the runs of `state` nest.
fn nesting(state: &SessionState) -> usize {
    let mut deepest = 0;
    let mut run = state;
    while let Some(agent) =
        run.messages
            .last()
            .and_then(|message| match message.parts.last()?.as_ref() {
                AgentPart::Tool(call) => call.agent.as_deref(),
                _ => None,
            })
    {
        deepest += 1;
        run = agent;
    }
    deepest
}

#[test]
fn within_nests_runs_up_to_the_limit_and_ignores_a_part_that_would_go_deeper() {
    let state = nest_by_within(MAX_NESTING + 10);
    assert_eq!(nesting(&state), MAX_NESTING);
    let deepest = format!("c-{}", MAX_NESTING + 1);
    let before = Rc::clone(&state);
    let after = apply(
        &state,
        part_within(&deepest, json!({ "type": "text-delta", "text": "x" })),
    );
    assert!(
        Rc::ptr_eq(&before, &after),
        "a part for a run past the limit is ignored"
    );
}

#[test]
fn a_state_nested_far_past_the_limit_is_dropped_without_recursion() {
    // Built directly, as only Rust code could: reading and `within` stop at the limit.
    let mut state = SessionState::empty();
    for level in 0..200_000 {
        let call = ToolPart {
            id: format!("c-{level}"),
            name: "delegate".into(),
            input: Json::Null,
            input_text: None,
            state: ToolState::Running,
            output: None,
            error: None,
            prompt: None,
            approval: None,
            metadata: None,
            agent: Some(Rc::new(state)),
        };
        state = SessionState::empty();
        state.messages.push(Rc::new(AgentMessage {
            id: format!("a-{level}"),
            role: Role::Assistant,
            parts: vec![Rc::new(AgentPart::Tool(call))],
            metadata: None,
        }));
    }
    drop(state);
}
