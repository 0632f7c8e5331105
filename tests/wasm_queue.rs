//! SPEC v3 through the binding, as JavaScript sees it: the queue, `send` with parts and
//! metadata, `load` (identity, the load rule, its state read as any state) and steps, with
//! the paths of bad input. Run in Node and in headless Chromium (scripts/test.sh).
#![cfg(all(feature = "js-binding", target_arch = "wasm32"))]

mod wasm_support;

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;
use wasm_support::*;

const REPLYING: &[&str] = &[
    r#"{ "type": "send", "id": "u-1", "text": "Hi" }"#,
    r#"{ "type": "part", "part": { "type": "text-delta", "text": "Hel" } }"#,
];

fn length(value: &JsValue) -> u32 {
    value.unchecked_ref::<Array>().length()
}

fn thrown_path(state: &JsValue, action: &str) -> String {
    let thrown = reduce(state, &js(action)).expect_err(action);
    assert_eq!(error_field(&thrown, "code"), "invalid", "{action}");
    error_field(&thrown, "path")
}

#[wasm_bindgen_test]
fn a_send_while_streaming_is_queued_and_a_finish_sends_the_queue_as_one_turn() {
    let replying = play(&js(EMPTY), REPLYING);
    let file = js(r#"{ "type": "data", "name": "file", "data": { "url": "data:," } }"#);
    let send = js(r#"{ "type": "send", "id": "q-1", "text": "Look", "metadata": { "n": 1 } }"#);
    Reflect::set(&send, &"parts".into(), &Array::of1(&file)).unwrap();
    let queued = reduce(&replying, &send).unwrap();
    assert!(same(&get(&queued, "messages"), &get(&replying, "messages")));
    assert_eq!(string_at(&queued, "status"), "streaming");
    assert_eq!(
        text_of(&get(&queued, "queue")),
        r#"[{"id":"q-1","text":"Look","parts":[{"type":"data","name":"file","data":{"url":"data:,"}}],"metadata":{"n":1}}]"#
    );
    assert!(
        same(&get(&queued, "queue.0.parts.0"), &file),
        "the part given is kept"
    );
    let queued = play(
        &queued,
        &[r#"{ "type": "send", "id": "q-2", "text": "More" }"#],
    );
    assert_eq!(length(&get(&queued, "queue")), 2);

    let sent = play(
        &queued,
        &[r#"{ "type": "part", "part": { "type": "finish" } }"#],
    );
    assert_eq!(string_at(&sent, "status"), "streaming");
    assert!(get(&sent, "queue").is_undefined());
    assert_eq!(
        text_of(&get(&sent, "messages.2")),
        r#"{"id":"q-1","role":"user","parts":[{"type":"text","text":"Look"},{"type":"data","name":"file","data":{"url":"data:,"}}],"metadata":{"n":1}}"#
    );
    assert_eq!(string_at(&sent, "messages.3.id"), "q-2");
    assert!(same(&get(&sent, "messages.1"), &get(&queued, "messages.1")));
}

#[wasm_bindgen_test]
fn unqueue_removes_one_and_an_unknown_id_is_the_same_state() {
    let queued = play(
        &js(EMPTY),
        &[
            REPLYING[0],
            REPLYING[1],
            r#"{ "type": "send", "id": "q-1", "text": "a" }"#,
            r#"{ "type": "send", "id": "q-2", "text": "b" }"#,
        ],
    );
    assert!(same(
        &reduce(&queued, &js(r#"{ "type": "unqueue", "id": "q-9" }"#)).unwrap(),
        &queued
    ));
    let one = play(&queued, &[r#"{ "type": "unqueue", "id": "q-1" }"#]);
    assert_eq!(text_of(&get(&one, "queue")), r#"[{"id":"q-2","text":"b"}]"#);
    assert!(same(&get(&one, "queue.0"), &get(&queued, "queue.1")));
    let none = play(&one, &[r#"{ "type": "unqueue", "id": "q-2" }"#]);
    assert!(
        !Reflect::has(&none, &"queue".into()).unwrap(),
        "the last one removes the queue"
    );
    let stopped = play(&queued, &[r#"{ "type": "stop" }"#]);
    assert!(
        same(&get(&stopped, "queue"), &get(&queued, "queue")),
        "stop keeps it"
    );
    let reset = play(&queued, &[r#"{ "type": "reset" }"#]);
    assert!(get(&reset, "queue").is_undefined());
}

#[wasm_bindgen_test]
fn load_gives_back_the_object_given_unless_something_needs_stopping() {
    let replying = play(&js(EMPTY), REPLYING);
    let waiting = r#"{ "messages": [
        { "id": "u-1", "role": "user", "parts": [{ "type": "text", "text": "Book" }] },
        { "id": "a-1", "role": "assistant", "parts": [{ "type": "tool", "id": "c-1", "name": "book", "input": {}, "state": "awaiting-confirmation" }] }
    ], "status": "idle", "queue": [{ "id": "q-1", "text": "later" }] }"#;
    let given = js(waiting);
    let action = Object::new();
    Reflect::set(&action, &"type".into(), &"load".into()).unwrap();
    Reflect::set(&action, &"state".into(), &given).unwrap();
    assert!(same(&reduce(&replying, &action).unwrap(), &given));
    // The loaded state is indexed: its waiting call takes its answer.
    let answered = play(
        &given,
        &[r#"{ "type": "part", "part": { "type": "tool-result", "id": "c-1", "output": 1 } }"#],
    );
    assert_eq!(string_at(&answered, "messages.1.parts.0.state"), "done");

    let streaming = js(&waiting.replace(r#""status": "idle""#, r#""status": "streaming""#));
    deep_freeze(&streaming);
    Reflect::set(&action, &"state".into(), &streaming).unwrap();
    let stopped = reduce(&replying, &action).unwrap();
    assert_eq!(string_at(&stopped, "status"), "idle");
    assert_eq!(string_at(&stopped, "messages.1.parts.0.state"), "cancelled");
    assert!(same(
        &get(&stopped, "messages.0"),
        &get(&streaming, "messages.0")
    ));
    assert!(same(&get(&stopped, "queue"), &get(&streaming, "queue")));
}

#[wasm_bindgen_test]
fn steps_start_and_reset_through_the_binding() {
    let stepped = play(
        &js(EMPTY),
        &[
            REPLYING[0],
            r#"{ "type": "part", "part": { "type": "step-start" } }"#,
            r#"{ "type": "part", "part": { "type": "text-delta", "text": "draft" } }"#,
            r#"{ "type": "part", "part": { "type": "tool-call", "id": "c-1", "name": "search", "input": {} } }"#,
        ],
    );
    assert_eq!(
        text_of(&get(&stepped, "messages.1.parts.0")),
        r#"{"type":"step"}"#
    );
    let again = reduce(&stepped, &part(r#"{ "type": "step-start" }"#)).unwrap();
    let reset = reduce(&again, &part(r#"{ "type": "step-reset" }"#)).unwrap();
    assert_eq!(
        text_of(&get(&reset, "messages.1.parts")),
        r#"[{"type":"step"},{"type":"text","text":"draft"},{"type":"tool","id":"c-1","name":"search","input":{},"state":"running"},{"type":"step"}]"#,
        "nothing after the last step part"
    );
    assert!(same(&reset, &again));
    let reset = reduce(&stepped, &part(r#"{ "type": "step-reset" }"#)).unwrap();
    assert_eq!(
        text_of(&get(&reset, "messages.1.parts")),
        r#"[{"type":"step"}]"#
    );
    // The call is gone: its id is free for the step's retry.
    let retried = play(
        &reset,
        &[
            r#"{ "type": "part", "part": { "type": "tool-call", "id": "c-1", "name": "search", "input": { "q": 2 } } }"#,
        ],
    );
    assert_eq!(string_at(&retried, "messages.1.parts.1.id"), "c-1");
    // A state holding step parts is read as any state.
    let read = js(&text_of(&reset));
    assert_eq!(
        text_of(&reduce(&read, &part(r#"{ "type": "text-delta", "text": "x" }"#)).unwrap()),
        r#"{"messages":[{"id":"u-1","role":"user","parts":[{"type":"text","text":"Hi"}]},{"id":"assistant-1","role":"assistant","parts":[{"type":"step"},{"type":"text","text":"x"}]}],"status":"streaming"}"#
    );
}

#[wasm_bindgen_test]
fn bad_v3_input_names_its_path() {
    let state = play(&js(EMPTY), REPLYING);
    for (action, path) in [
        (
            r#"{ "type": "send", "id": "u", "text": "t", "parts": [{ "type": "text", "text": "a" }, { "type": "tool", "id": "c" }] }"#,
            "action.parts[1].type",
        ),
        (
            r#"{ "type": "send", "id": "u", "text": "t", "parts": 3 }"#,
            "action.parts",
        ),
        (r#"{ "type": "unqueue", "id": 3 }"#, "action.id"),
        (r#"{ "type": "load" }"#, "action.state"),
        (
            r#"{ "type": "load", "state": { "messages": [], "status": "idle", "queue": [] } }"#,
            "action.state.queue",
        ),
        (
            r#"{ "type": "load", "state": { "messages": [], "status": "idle", "queue": [{ "id": "q" }] } }"#,
            "action.state.queue[0].text",
        ),
        (
            r#"{ "type": "load", "state": { "messages": [], "status": "idle", "queue": [{ "id": "q", "text": "", "parts": [{ "type": "step" }] }] } }"#,
            "action.state.queue[0].parts[0].type",
        ),
        (
            r#"{ "type": "load", "state": { "messages": [{ "id": "a", "role": "assistant", "parts": [{ "type": "tool", "id": "c", "name": "n", "input": {}, "state": "running", "agent": { "messages": [], "status": "idle", "queue": [{ "id": "q", "text": "" }] } }] }], "status": "idle" } }"#,
            "action.state.messages[0].parts[0].agent.queue",
        ),
        (
            r#"{ "type": "part", "part": { "type": "step-start", "messageId": 1 } }"#,
            "action.part.messageId",
        ),
    ] {
        assert_eq!(thrown_path(&state, action), path, "{action}");
    }
    let thrown = check_action(&js(r#"{ "type": "load", "state": null }"#))
        .err()
        .unwrap();
    assert_eq!(error_field(&thrown, "path"), "action.state");
    assert!(check_action(&js(r#"{ "type": "unqueue", "id": "q" }"#)).is_ok());
}

#[wasm_bindgen_test]
fn a_queue_of_100000_messages_reads_and_is_sent_in_order() {
    let queue = Array::new();
    for index in 0..100_000 {
        let queued = Object::new();
        Reflect::set(&queued, &"id".into(), &format!("q-{index}").into()).unwrap();
        Reflect::set(&queued, &"text".into(), &"later".into()).unwrap();
        queue.push(&queued);
    }
    let state = js(r#"{ "messages": [], "status": "streaming" }"#);
    Reflect::set(&state, &"queue".into(), &queue).unwrap();
    let sent = reduce(&state, &part(r#"{ "type": "finish" }"#)).unwrap();
    assert_eq!(length(&get(&sent, "messages")), 100_000);
    assert_eq!(string_at(&sent, "messages.99999.id"), "q-99999");
    assert_eq!(string_at(&sent, "status"), "streaming");
}
