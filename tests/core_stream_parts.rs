//! SPEC "Stream parts", applied to the top-level run (nested runs: core_within.rs).

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
mod common;

use chat_session_reducer::core::model::{AgentStreamPart, SessionAction};
use common::*;
use serde_json::json;

// ---- message-start ----

#[test]
fn message_start_appends_an_empty_assistant_message() {
    assert_becomes(
        streaming(json!([user("u-1", "Hi")])),
        part(json!({ "type": "message-start", "messageId": "a-1" })),
        streaming(json!([user("u-1", "Hi"), assistant("a-1", json!([]))])),
    );
}

#[test]
fn message_start_for_a_message_already_present_changes_nothing() {
    let conversation = streaming(json!([
        user("u-1", "Hi"),
        assistant("a-1", json!([text("Hello")])),
        user("u-2", "More")
    ]));
    // A replayed start of an earlier assistant message, and an id a user message has.
    assert_unchanged(
        conversation.clone(),
        part(json!({ "type": "message-start", "messageId": "a-1" })),
    );
    assert_unchanged(
        conversation,
        part(json!({ "type": "message-start", "messageId": "u-2" })),
    );
}

// ---- text-delta ----

#[test]
fn text_delta_appends_to_the_last_text_part_of_its_message() {
    assert_becomes(
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([text("Hel")]))
        ])),
        part(json!({ "type": "text-delta", "messageId": "a-1", "text": "lo" })),
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([text("Hello")]))
        ])),
    );
}

#[test]
fn text_delta_after_a_tool_call_or_reasoning_starts_a_new_text_part() {
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([text("Looking"), tool("c-1", "search", "done")])
        )])),
        part(json!({ "type": "text-delta", "messageId": "a-1", "text": "Found it" })),
        streaming(json!([assistant(
            "a-1",
            json!([
                text("Looking"),
                tool("c-1", "search", "done"),
                text("Found it")
            ])
        )])),
    );
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([{ "type": "reasoning", "text": "hmm" }])
        )])),
        part(json!({ "type": "text-delta", "text": "Yes" })),
        streaming(json!([assistant(
            "a-1",
            json!([{ "type": "reasoning", "text": "hmm" }, text("Yes")])
        )])),
    );
    assert_becomes(
        streaming(json!([assistant("a-1", json!([]))])),
        part(json!({ "type": "text-delta", "text": "First" })),
        streaming(json!([assistant("a-1", json!([text("First")]))])),
    );
}

#[test]
fn text_delta_with_a_new_message_id_appends_that_assistant_message() {
    assert_becomes(
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([text("One")]))
        ])),
        part(json!({ "type": "text-delta", "messageId": "a-2", "text": "Two" })),
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([text("One")])),
            assistant("a-2", json!([text("Two")]))
        ])),
    );
}

#[test]
fn text_delta_with_an_earlier_message_id_goes_to_that_message() {
    assert_becomes(
        streaming(json!([
            assistant("a-1", json!([text("One")])),
            assistant("a-2", json!([text("Two")]))
        ])),
        part(json!({ "type": "text-delta", "messageId": "a-1", "text": "!" })),
        streaming(json!([
            assistant("a-1", json!([text("One!")])),
            assistant("a-2", json!([text("Two")]))
        ])),
    );
}

#[test]
fn text_delta_for_a_user_message_id_is_ignored() {
    assert_unchanged(
        streaming(json!([user("u-1", "Hi")])),
        part(json!({ "type": "text-delta", "messageId": "u-1", "text": "injected" })),
    );
}

#[test]
fn text_delta_without_a_message_id_goes_to_the_last_assistant_message() {
    assert_becomes(
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([text("Hel")]))
        ])),
        part(json!({ "type": "text-delta", "text": "lo" })),
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([text("Hello")]))
        ])),
    );
}

#[test]
fn text_delta_without_a_message_id_after_a_user_message_appends_assistant_n() {
    assert_becomes(
        streaming(json!([user("u-1", "Hi")])),
        part(json!({ "type": "text-delta", "text": "Hello" })),
        streaming(json!([
            user("u-1", "Hi"),
            assistant("assistant-1", json!([text("Hello")]))
        ])),
    );
    assert_becomes(
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([text("Hello")])),
            user("u-2", "And?")
        ])),
        part(json!({ "type": "text-delta", "text": "So" })),
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([text("Hello")])),
            user("u-2", "And?"),
            assistant("assistant-3", json!([text("So")]))
        ])),
    );
    assert_becomes(
        streaming(json!([])),
        part(json!({ "type": "text-delta", "text": "Welcome" })),
        streaming(json!([assistant("assistant-0", json!([text("Welcome")]))])),
    );
    // Past one digit: the index written out in full.
    for count in [10, 109] {
        let users: Vec<_> = (0..count).map(|n| user(&format!("u-{n}"), "Hi")).collect();
        let mut expected = users.clone();
        expected.push(assistant(
            &format!("assistant-{count}"),
            json!([text("So")]),
        ));
        assert_becomes(
            streaming(json!(users)),
            part(json!({ "type": "text-delta", "text": "So" })),
            streaming(json!(expected)),
        );
    }
}

#[test]
fn empty_text_delta_changes_nothing() {
    assert_unchanged(
        streaming(json!([user("u-1", "Hi")])),
        part(json!({ "type": "text-delta", "text": "" })),
    );
    assert_unchanged(
        streaming(json!([assistant(
            "a-1",
            json!([tool("c-1", "search", "done")])
        )])),
        part(json!({ "type": "text-delta", "messageId": "a-1", "text": "" })),
    );
    assert_unchanged(
        streaming(json!([assistant("a-1", json!([]))])),
        part(json!({ "type": "text-delta", "messageId": "a-2", "text": "" })),
    );
}

// ---- reasoning ----

#[test]
fn reasoning_adds_a_reasoning_part_with_its_metadata_kept_exactly() {
    let metadata = json!({ "signature": "abc", "nested": [1, 2.5, null, true, { "é": "😀" }] });
    assert_becomes(
        streaming(json!([assistant("a-1", json!([text("Hi")]))])),
        part(
            json!({ "type": "reasoning", "messageId": "a-1", "text": "think", "metadata": metadata }),
        ),
        streaming(json!([assistant(
            "a-1",
            json!([text("Hi"), { "type": "reasoning", "text": "think", "metadata": metadata }])
        )])),
    );
}

#[test]
fn reasoning_always_adds_a_new_part() {
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([{ "type": "reasoning", "text": "one" }])
        )])),
        part(json!({ "type": "reasoning", "text": "two" })),
        streaming(json!([assistant(
            "a-1",
            json!([{ "type": "reasoning", "text": "one" }, { "type": "reasoning", "text": "two" }])
        )])),
    );
}

#[test]
fn reasoning_targets_its_message_as_text_delta_does() {
    assert_becomes(
        streaming(json!([user("u-1", "Hi")])),
        part(json!({ "type": "reasoning", "text": "think" })),
        streaming(json!([
            user("u-1", "Hi"),
            assistant(
                "assistant-1",
                json!([{ "type": "reasoning", "text": "think" }])
            )
        ])),
    );
    assert_becomes(
        streaming(json!([user("u-1", "Hi")])),
        part(json!({ "type": "reasoning", "messageId": "a-7", "text": "think" })),
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-7", json!([{ "type": "reasoning", "text": "think" }]))
        ])),
    );
    assert_unchanged(
        streaming(json!([user("u-1", "Hi")])),
        part(json!({ "type": "reasoning", "messageId": "u-1", "text": "think" })),
    );
}

// ---- tool-call ----

#[test]
fn tool_call_adds_a_running_tool_part_with_its_input_kept_exactly() {
    let input =
        json!({ "slug": "mug", "qty": 2, "opts": [null, false, 1.25, "ü"], "deep": { "a": {} } });
    assert_becomes(
        streaming(json!([
            user("u-1", "Buy"),
            assistant("a-1", json!([text("Sure")]))
        ])),
        part(
            json!({ "type": "tool-call", "messageId": "a-1", "id": "call-1", "name": "add_to_cart", "input": input }),
        ),
        streaming(json!([
            user("u-1", "Buy"),
            assistant(
                "a-1",
                json!([
                    text("Sure"),
                    { "type": "tool", "id": "call-1", "name": "add_to_cart", "input": input, "state": "running" }
                ])
            )
        ])),
    );
}

#[test]
fn tool_call_targets_its_message_as_text_delta_does() {
    assert_becomes(
        streaming(json!([user("u-1", "Buy")])),
        part(json!({ "type": "tool-call", "id": "c-1", "name": "search", "input": {} })),
        streaming(json!([
            user("u-1", "Buy"),
            assistant("assistant-1", json!([tool("c-1", "search", "running")]))
        ])),
    );
    assert_becomes(
        streaming(json!([user("u-1", "Buy")])),
        part(
            json!({ "type": "tool-call", "messageId": "a-1", "id": "c-1", "name": "search", "input": {} }),
        ),
        streaming(json!([
            user("u-1", "Buy"),
            assistant("a-1", json!([tool("c-1", "search", "running")]))
        ])),
    );
    assert_unchanged(
        streaming(json!([user("u-1", "Buy")])),
        part(
            json!({ "type": "tool-call", "messageId": "u-1", "id": "c-1", "name": "search", "input": {} }),
        ),
    );
}

#[test]
fn tool_call_with_an_id_already_present_is_ignored() {
    for state in [
        "running",
        "awaiting-confirmation",
        "done",
        "error",
        "cancelled",
    ] {
        let conversation = streaming(json!([
            user("u-1", "Buy"),
            assistant("a-1", json!([tool("c-1", "search", state)])),
            assistant("a-2", json!([]))
        ]));
        assert_unchanged(
            conversation.clone(),
            part(json!({ "type": "tool-call", "id": "c-1", "name": "search", "input": {} })),
        );
        assert_unchanged(
            conversation,
            part(
                json!({ "type": "tool-call", "messageId": "a-9", "id": "c-1", "name": "other", "input": { "x": 1 } }),
            ),
        );
    }
}

#[test]
fn tool_call_with_an_id_present_in_a_nested_run_is_ignored() {
    assert_unchanged(
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "delegate_to_shop",
                "running",
                json!({
                    "agent": streaming(json!([assistant("n-1", json!([tool("c-2", "search", "done")]))]))
                })
            )])
        )])),
        part(json!({ "type": "tool-call", "id": "c-2", "name": "search", "input": {} })),
    );
}

// ---- tool-result ----

#[test]
fn tool_result_finishes_the_call_with_its_output() {
    let output = json!({ "content": [{ "type": "text", "text": "Added." }] });
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([tool("c-1", "add_to_cart", "running")])
        )])),
        part(json!({ "type": "tool-result", "id": "c-1", "output": output })),
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "add_to_cart",
                "done",
                json!({ "output": output })
            )])
        )])),
    );
}

#[test]
fn tool_result_on_an_awaiting_call_removes_its_prompt() {
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
        part(json!({ "type": "tool-result", "id": "c-1", "output": null })),
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "checkout",
                "done",
                json!({ "output": null })
            )])
        )])),
    );
}

#[test]
fn tool_result_for_an_unknown_or_closed_call_is_ignored() {
    let conversation = streaming(json!([assistant(
        "a-1",
        json!([
            tool_with("c-1", "search", "done", json!({ "output": 1 })),
            tool_with(
                "c-2",
                "search",
                "error",
                json!({ "error": { "message": "no" } })
            ),
            tool("c-3", "search", "cancelled"),
            tool("c-4", "search", "running")
        ])
    )]));
    for id in ["c-1", "c-2", "c-3", "c-9"] {
        assert_unchanged(
            conversation.clone(),
            part(json!({ "type": "tool-result", "id": id, "output": 2 })),
        );
    }
}

// ---- tool-error ----

#[test]
fn tool_error_fails_the_call() {
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
        part(
            json!({ "type": "tool-error", "id": "c-1", "error": { "message": "Card declined", "code": "declined" } }),
        ),
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "checkout",
                "error",
                json!({
                    "error": { "message": "Card declined", "code": "declined" }
                })
            )])
        )])),
    );
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([tool("c-1", "checkout", "running")])
        )])),
        part(json!({ "type": "tool-error", "id": "c-1", "error": { "message": "Crashed" } })),
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "checkout",
                "error",
                json!({ "error": { "message": "Crashed" } })
            )])
        )])),
    );
}

#[test]
fn tool_error_cancelled_by_the_user_cancels_the_call() {
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
        part(
            json!({ "type": "tool-error", "id": "c-1", "error": { "message": "Cancelled by the user", "code": "cancelled" } }),
        ),
        streaming(json!([assistant(
            "a-1",
            json!([tool_with(
                "c-1",
                "checkout",
                "cancelled",
                json!({
                    "error": { "message": "Cancelled by the user", "code": "cancelled" }
                })
            )])
        )])),
    );
}

#[test]
fn tool_error_for_an_unknown_or_closed_call_is_ignored() {
    let conversation = streaming(json!([assistant(
        "a-1",
        json!([
            tool_with("c-1", "search", "done", json!({ "output": 1 })),
            tool_with(
                "c-2",
                "search",
                "error",
                json!({ "error": { "message": "no" } })
            ),
            tool("c-3", "search", "cancelled"),
            tool("c-4", "search", "running")
        ])
    )]));
    for id in ["c-1", "c-2", "c-3", "c-9"] {
        assert_unchanged(
            conversation.clone(),
            part(
                json!({ "type": "tool-error", "id": id, "error": { "message": "late", "code": "cancelled" } }),
            ),
        );
        assert_unchanged(
            conversation.clone(),
            part(json!({ "type": "tool-error", "id": id, "error": { "message": "late" } })),
        );
    }
}

// ---- step-finish, unknown ----

#[test]
fn step_finish_changes_nothing() {
    assert_unchanged(
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([tool("c-1", "search", "running")]))
        ])),
        part(json!({ "type": "step-finish" })),
    );
}

#[test]
fn an_unknown_part_type_changes_nothing() {
    let conversation = state(streaming(json!([
        user("u-1", "Hi"),
        assistant("a-1", json!([tool("c-1", "search", "running")]))
    ])));
    assert_same_back(
        &conversation,
        &SessionAction::Part {
            part: AgentStreamPart::Unknown,
            within: None,
        },
    );
    assert_same_back(
        &conversation,
        &SessionAction::Part {
            part: AgentStreamPart::Unknown,
            within: Some("c-1".into()),
        },
    );
}

// ---- finish ----

#[test]
fn finish_ends_the_run_and_leaves_open_calls_as_they_are() {
    let open = json!([
        user("u-1", "Hi"),
        assistant(
            "a-1",
            json!([
                tool("c-1", "search", "running"),
                tool_with(
                    "c-2",
                    "checkout",
                    "awaiting-confirmation",
                    json!({ "prompt": "Pay?" })
                )
            ])
        )
    ]);
    for finish in [
        json!({ "type": "finish" }),
        json!({ "type": "finish", "reason": "stop" }),
        json!({ "type": "finish", "reason": "length" }),
        json!({ "type": "finish", "reason": "tool-calls" }),
        json!({ "type": "finish", "reason": "content-filter" }),
        json!({ "type": "finish", "reason": "other" }),
    ] {
        assert_becomes(
            streaming(open.clone()),
            part(finish),
            json!({ "messages": open, "status": "idle" }),
        );
    }
}

#[test]
fn finish_aborted_cancels_the_open_calls() {
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([
                tool("c-1", "search", "running"),
                tool_with(
                    "c-2",
                    "checkout",
                    "awaiting-confirmation",
                    json!({ "prompt": "Pay?" })
                ),
                tool("c-3", "search", "done")
            ])
        )])),
        part(json!({ "type": "finish", "reason": "aborted" })),
        json!({
            "messages": [assistant("a-1", json!([
                tool("c-1", "search", "cancelled"),
                tool_with("c-2", "checkout", "cancelled", json!({ "prompt": "Pay?" })),
                tool("c-3", "search", "done")
            ]))],
            "status": "idle"
        }),
    );
}

// ---- error ----

#[test]
fn error_fails_the_run_and_cancels_the_open_calls() {
    assert_becomes(
        streaming(json!([
            user("u-1", "Hi"),
            assistant(
                "a-1",
                json!([
                    tool("c-1", "search", "running"),
                    tool("c-2", "search", "done")
                ])
            )
        ])),
        part(json!({ "type": "error", "error": "Too many requests", "code": "rate_limited" })),
        json!({
            "messages": [user("u-1", "Hi"), assistant("a-1", json!([tool("c-1", "search", "cancelled"), tool("c-2", "search", "done")]))],
            "status": "error",
            "error": { "message": "Too many requests", "code": "rate_limited" }
        }),
    );
}

#[test]
fn error_sets_the_session_error_with_or_without_a_code() {
    for code in [
        None,
        Some("chat_disabled"),
        Some("bad_request"),
        Some("network"),
    ] {
        let mut error_part = json!({ "type": "error", "error": "Nope" });
        let mut error = json!({ "message": "Nope" });
        if let Some(code) = code {
            error_part["code"] = json!(code);
            error["code"] = json!(code);
        }
        assert_becomes(
            streaming(json!([user("u-1", "Hi")])),
            part(error_part),
            json!({ "messages": [user("u-1", "Hi")], "status": "error", "error": error }),
        );
    }
}
