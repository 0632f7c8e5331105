//! SPEC v2: a call whose input streams (`input-streaming`, `inputText`, `tool-input-delta`,
//! `tool-input-end`, `tool-call` completing it), streamed reasoning (`reasoning-delta`) and a
//! streaming tool's progress (`tool-result` with `preliminary`).

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
mod common;

use chat_session_reducer::core::model::ToolState;
use chat_session_reducer::core::resumable;
use common::*;
use serde_json::{json, Value};

fn input_delta(id: &str, name: Option<&str>, text: &str) -> Value {
    let mut part = json!({ "type": "tool-input-delta", "id": id, "text": text });
    if let Some(name) = name {
        part["name"] = json!(name);
    }
    json!({ "type": "part", "part": part })
}

fn input_end(id: &str) -> Value {
    part(json!({ "type": "tool-input-end", "id": id }))
}

/// `{ type: "tool", id, name, input: null, inputText, state: "input-streaming" }`.
fn streaming_call(id: &str, name: &str, input_text: &str) -> Value {
    json!({ "type": "tool", "id": id, "name": name, "input": null, "inputText": input_text, "state": "input-streaming" })
}

fn one_call(call: Value) -> Value {
    streaming(json!([
        user("u-1", "Weather?"),
        assistant("a-1", json!([call]))
    ]))
}

// ---- tool-input-delta ----

#[test]
fn the_first_delta_with_a_name_adds_an_input_streaming_call() {
    assert_becomes(
        streaming(json!([
            user("u-1", "Weather?"),
            assistant("a-1", json!([text("Let me check.")]))
        ])),
        input_delta("c-1", Some("weather"), "{\"ci"),
        one_call_after_text(streaming_call("c-1", "weather", "{\"ci")),
    );
}

fn one_call_after_text(call: Value) -> Value {
    streaming(json!([
        user("u-1", "Weather?"),
        assistant("a-1", json!([text("Let me check."), call]))
    ]))
}

#[test]
fn the_first_delta_targets_like_a_text_delta() {
    // After a user message: a new assistant message, `assistant-N`.
    assert_becomes(
        streaming(json!([user("u-1", "Weather?")])),
        input_delta("c-1", Some("weather"), ""),
        one_call_named("assistant-1", streaming_call("c-1", "weather", "")),
    );
    // With a messageId of no message: that message.
    let with_message_id = json!({ "type": "part", "part": {
        "type": "tool-input-delta", "messageId": "a-7", "id": "c-1", "name": "weather", "text": "{"
    } });
    assert_becomes(
        streaming(json!([user("u-1", "Weather?")])),
        with_message_id.clone(),
        one_call_named("a-7", streaming_call("c-1", "weather", "{")),
    );
    // With a user message's id: ignored.
    assert_unchanged(streaming(json!([user("a-7", "Weather?")])), with_message_id);
}

fn one_call_named(message: &str, call: Value) -> Value {
    streaming(json!([
        user("u-1", "Weather?"),
        assistant(message, json!([call]))
    ]))
}

#[test]
fn later_deltas_append_to_the_input_text() {
    let state = replay(&[
        json!({ "type": "send", "id": "u-1", "text": "Weather?" }),
        input_delta("c-1", Some("weather"), "{\"city\""),
        input_delta("c-1", None, ": \"Par"),
        input_delta("c-1", None, "is\"}"),
    ]);
    let call = call(&state, 1, 0);
    assert_eq!(call.state, ToolState::InputStreaming);
    assert_eq!(
        to_json(&state)["messages"][1]["parts"][0]["inputText"],
        json!("{\"city\": \"Paris\"}")
    );
    assert_eq!(call.input, Value::Null);
}

#[test]
fn a_replayed_delta_with_a_name_appends_to_the_streaming_call() {
    // The call exists and streams: the delta is a delta, whether or not it repeats the name.
    assert_becomes(
        one_call(streaming_call("c-1", "weather", "{")),
        input_delta("c-1", Some("weather"), "}"),
        one_call(streaming_call("c-1", "weather", "{}")),
    );
}

#[test]
fn a_delta_for_a_call_whose_input_is_complete_is_ignored() {
    for state in [
        "running",
        "awaiting-confirmation",
        "done",
        "error",
        "cancelled",
    ] {
        let call = tool_with("c-1", "weather", state, json!({ "inputText": "{}" }));
        assert_unchanged(
            one_call(call.clone()),
            input_delta("c-1", Some("weather"), "{"),
        );
        assert_unchanged(one_call(call), input_delta("c-1", None, "{"));
    }
}

#[test]
fn a_delta_never_adds_a_second_call_with_an_id_present_elsewhere() {
    // A call with that id exists (in a sub-agent run) and does not stream its input.
    let nested = tool_with(
        "c-1",
        "delegate",
        "running",
        json!({ "agent": streaming(json!([assistant("n-1", json!([tool("n-c", "search", "done")]))])) }),
    );
    assert_unchanged(one_call(nested), input_delta("n-c", Some("search"), "{"));
}

#[test]
fn a_delta_without_a_name_for_an_unknown_call_or_an_empty_delta_changes_nothing() {
    assert_unchanged(
        one_call(streaming_call("c-1", "weather", "{")),
        input_delta("c-9", None, "{"),
    );
    assert_unchanged(
        one_call(streaming_call("c-1", "weather", "{")),
        input_delta("c-1", None, ""),
    );
}

// ---- tool-input-end ----

#[test]
fn the_end_parses_the_input_once_and_the_call_runs() {
    assert_becomes(
        one_call(streaming_call(
            "c-1",
            "weather",
            " {\"city\": \"Paris\", \"days\": [1, 2]}\n",
        )),
        input_end("c-1"),
        one_call(json!({
            "type": "tool", "id": "c-1", "name": "weather",
            "input": { "city": "Paris", "days": [1, 2] },
            "inputText": " {\"city\": \"Paris\", \"days\": [1, 2]}\n",
            "state": "running"
        })),
    );
}

#[test]
fn blank_input_text_is_an_empty_object() {
    for blank in ["", " ", "\n\t\r "] {
        assert_becomes(
            one_call(streaming_call("c-1", "now", blank)),
            input_end("c-1"),
            one_call(
                json!({ "type": "tool", "id": "c-1", "name": "now", "input": {}, "inputText": blank, "state": "running" }),
            ),
        );
    }
}

#[test]
fn any_json_value_is_an_input_as_json_parse_reads_it() {
    for (text, input) in [
        ("3", json!(3)),
        ("\"x\"", json!("x")),
        ("null", json!(null)),
        ("[true]", json!([true])),
    ] {
        let after = apply(
            &state(one_call(streaming_call("c-1", "f", text))),
            input_end("c-1"),
        );
        assert_eq!(
            to_json(&after)["messages"][1]["parts"][0]["input"],
            input,
            "{text}"
        );
    }
}

#[test]
fn input_text_that_is_not_json_is_an_invalid_input_error() {
    for invalid in ["{", "{\"a\": 1} x", "{'a': 1}", "\u{a0}", "undefined"] {
        assert_becomes(
            one_call(streaming_call("c-1", "weather", invalid)),
            input_end("c-1"),
            one_call(json!({
                "type": "tool", "id": "c-1", "name": "weather", "input": null, "inputText": invalid,
                "state": "error",
                "error": { "message": "The tool input is not valid JSON", "code": "invalid_input" }
            })),
        );
    }
}

#[test]
fn an_end_for_a_call_that_is_not_streaming_its_input_is_ignored() {
    assert_unchanged(
        one_call(tool("c-1", "weather", "running")),
        input_end("c-1"),
    );
    assert_unchanged(
        one_call(streaming_call("c-1", "weather", "{}")),
        input_end("c-9"),
    );
    // A second end: the call already runs.
    let ended = apply(
        &state(one_call(streaming_call("c-1", "weather", "{}"))),
        input_end("c-1"),
    );
    assert_same_back(&ended, &action(input_end("c-1")));
}

// ---- tool-call completing a streamed input ----

#[test]
fn a_tool_call_completes_a_streaming_call_and_keeps_its_text() {
    assert_becomes(
        one_call(streaming_call("c-1", "weather", "{\"city\": \"Pa")),
        part(
            json!({ "type": "tool-call", "id": "c-1", "name": "get_weather", "input": { "city": "Paris" } }),
        ),
        one_call(json!({
            "type": "tool", "id": "c-1", "name": "get_weather", "input": { "city": "Paris" },
            "inputText": "{\"city\": \"Pa", "state": "running"
        })),
    );
}

#[test]
fn a_tool_call_renames_the_call_for_tool_phase() {
    let called = replay(&[
        json!({ "type": "send", "id": "u-1", "text": "Go" }),
        input_delta("c-1", Some("draft"), "{}"),
        part(json!({ "type": "tool-call", "id": "c-1", "name": "checkout", "input": {} })),
        json!({ "type": "toolPhase", "name": "checkout", "state": "awaiting-confirmation" }),
    ]);
    assert_eq!(call(&called, 1, 0).state, ToolState::AwaitingConfirmation);
}

// ---- the call is open: answers, toolPhase, stop, resumable ----

#[test]
fn a_result_or_an_error_finishes_a_streaming_call() {
    let after = apply(
        &state(one_call(streaming_call("c-1", "weather", "{"))),
        part(json!({ "type": "tool-result", "id": "c-1", "output": 1 })),
    );
    assert_eq!(call(&after, 1, 0).state, ToolState::Done);
    let after = apply(
        &state(one_call(streaming_call("c-1", "weather", "{"))),
        part(json!({ "type": "tool-error", "id": "c-1", "error": { "message": "no" } })),
    );
    assert_eq!(call(&after, 1, 0).state, ToolState::Error);
}

#[test]
fn tool_phase_never_picks_a_streaming_call() {
    let phase = json!({ "type": "toolPhase", "name": "weather", "state": "awaiting-confirmation", "prompt": "OK?" });
    assert_unchanged(
        one_call(streaming_call("c-1", "weather", "{")),
        phase.clone(),
    );
    // The newer call streams its input: the older one of that name is picked.
    assert_becomes(
        streaming(json!([assistant(
            "a-1",
            json!([
                tool("c-1", "weather", "running"),
                streaming_call("c-2", "weather", "{")
            ])
        )])),
        phase,
        streaming(json!([assistant(
            "a-1",
            json!([
                tool_with(
                    "c-1",
                    "weather",
                    "awaiting-confirmation",
                    json!({ "prompt": "OK?" })
                ),
                streaming_call("c-2", "weather", "{")
            ])
        )])),
    );
}

#[test]
fn stop_error_and_an_aborted_finish_cancel_a_streaming_call() {
    let cancelled = one_call(
        json!({ "type": "tool", "id": "c-1", "name": "weather", "input": null, "inputText": "{", "state": "cancelled" }),
    );
    let mut idle = cancelled.clone();
    idle["status"] = json!("idle");
    assert_becomes(
        one_call(streaming_call("c-1", "weather", "{")),
        json!({ "type": "stop" }),
        idle.clone(),
    );
    assert_becomes(
        one_call(streaming_call("c-1", "weather", "{")),
        part(json!({ "type": "finish", "reason": "aborted" })),
        idle,
    );
    let mut failed = cancelled;
    failed["status"] = json!("error");
    failed["error"] = json!({ "message": "boom" });
    assert_becomes(
        one_call(streaming_call("c-1", "weather", "{")),
        part(json!({ "type": "error", "error": "boom" })),
        failed,
    );
}

#[test]
fn resumable_drops_a_streaming_call() {
    let state = state(streaming(json!([
        user("u-1", "Weather?"),
        assistant(
            "a-1",
            json!([
                tool("c-0", "geo", "done"),
                streaming_call("c-1", "weather", "{")
            ])
        )
    ])));
    let kept = resumable(&state.messages);
    assert_eq!(kept.len(), 2);
    assert_eq!(
        kept[1].parts.len(),
        1,
        "the streaming call goes, the finished one stays"
    );
}

#[test]
fn a_nested_run_streams_a_call_input_too() {
    let state = replay(&[
        json!({ "type": "send", "id": "u-1", "text": "Delegate" }),
        part(json!({ "type": "tool-call", "id": "c-1", "name": "delegate", "input": {} })),
        part_within(
            "c-1",
            json!({ "type": "tool-input-delta", "id": "n-c", "name": "search", "text": "{\"q\":" }),
        ),
        part_within(
            "c-1",
            json!({ "type": "tool-input-delta", "id": "n-c", "text": "1}" }),
        ),
        // Found from the root too: the call is in a run nested in it.
        input_end("n-c"),
    ]);
    let nested = call(&state, 1, 0).agent.clone().expect("a nested run");
    assert_eq!(
        to_json(&nested)["messages"][0]["parts"][0],
        json!({
            "type": "tool", "id": "n-c", "name": "search", "input": { "q": 1 }, "inputText": "{\"q\":1}", "state": "running"
        })
    );
}

#[test]
fn thousands_of_one_character_deltas_build_the_input() {
    // "[0,0,…,0]", 4,000 characters, one delta each.
    let mut actions = vec![
        json!({ "type": "send", "id": "u-1", "text": "Write" }),
        input_delta("c-1", Some("write"), "["),
        input_delta("c-1", None, "0"),
    ];
    for _ in 0..1_999 {
        actions.push(input_delta("c-1", None, ","));
        actions.push(input_delta("c-1", None, "0"));
    }
    actions.push(input_delta("c-1", None, "]"));
    actions.push(input_end("c-1"));
    let state = replay(&actions);
    let call = &to_json(&state)["messages"][1]["parts"][0];
    assert_eq!(call["inputText"].as_str().map(str::len), Some(4_001));
    assert_eq!(call["input"], json!(vec![0; 2_000]));
}

// ---- reasoning-delta ----

#[test]
fn a_reasoning_delta_appends_to_a_reasoning_part_or_adds_one() {
    let reasoning = |text: &str| json!({ "type": "reasoning", "text": text });
    assert_becomes(
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([reasoning("Think")]))
        ])),
        part(json!({ "type": "reasoning-delta", "text": "ing" })),
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([reasoning("Thinking")]))
        ])),
    );
    assert_becomes(
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([text("Hello")]))
        ])),
        part(json!({ "type": "reasoning-delta", "text": "Hmm", "metadata": { "signature": "s" } })),
        streaming(json!([
            user("u-1", "Hi"),
            assistant(
                "a-1",
                json!([
                    text("Hello"),
                    { "type": "reasoning", "text": "Hmm", "metadata": { "signature": "s" } }
                ])
            )
        ])),
    );
    // Targeting as `text-delta`: after a user message, a new assistant message.
    assert_becomes(
        streaming(json!([user("u-1", "Hi")])),
        part(json!({ "type": "reasoning-delta", "text": "Hmm" })),
        streaming(json!([
            user("u-1", "Hi"),
            assistant("assistant-1", json!([reasoning("Hmm")]))
        ])),
    );
    // A text delta after reasoning is a new text part.
    assert_becomes(
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([reasoning("Hmm")]))
        ])),
        part(json!({ "type": "text-delta", "text": "Hello" })),
        streaming(json!([
            user("u-1", "Hi"),
            assistant("a-1", json!([reasoning("Hmm"), text("Hello")]))
        ])),
    );
}

#[test]
fn reasoning_always_adds_a_part_and_an_empty_reasoning_delta_changes_nothing() {
    let reasoning = |text: &str| json!({ "type": "reasoning", "text": text });
    assert_becomes(
        streaming(json!([assistant("a-1", json!([reasoning("One")]))])),
        part(json!({ "type": "reasoning", "text": "" })),
        streaming(json!([assistant(
            "a-1",
            json!([reasoning("One"), reasoning("")])
        )])),
    );
    assert_unchanged(
        streaming(json!([assistant("a-1", json!([reasoning("One")]))])),
        part(json!({ "type": "reasoning-delta", "text": "" })),
    );
    assert_unchanged(
        streaming(json!([user("u-1", "Hi")])),
        part(json!({ "type": "reasoning-delta", "text": "" })),
    );
}

// ---- tool-result with preliminary ----

#[test]
fn a_preliminary_result_sets_the_output_and_the_call_stays_as_it_is() {
    for open in [
        tool("c-1", "search", "running"),
        tool_with(
            "c-1",
            "search",
            "awaiting-confirmation",
            json!({ "prompt": "Go on?" }),
        ),
    ] {
        let mut expected = open.clone();
        expected["output"] = json!({ "progress": 0.5 });
        assert_becomes(
            one_call(open),
            part(
                json!({ "type": "tool-result", "id": "c-1", "output": { "progress": 0.5 }, "preliminary": true }),
            ),
            one_call(expected),
        );
    }
}

#[test]
fn the_final_result_comes_without_preliminary() {
    let state = replay(&[
        json!({ "type": "send", "id": "u-1", "text": "Search" }),
        part(json!({ "type": "tool-call", "id": "c-1", "name": "search", "input": {} })),
        part(json!({ "type": "tool-result", "id": "c-1", "output": [1], "preliminary": true })),
        part(json!({ "type": "tool-result", "id": "c-1", "output": [1, 2], "preliminary": true })),
        part(
            json!({ "type": "tool-result", "id": "c-1", "output": [1, 2, 3], "preliminary": false }),
        ),
        part(json!({ "type": "tool-result", "id": "c-1", "output": "late", "preliminary": true })),
    ]);
    assert_eq!(call(&state, 1, 0).state, ToolState::Done);
    assert_eq!(call(&state, 1, 0).output, Some(json!([1, 2, 3])));
}
