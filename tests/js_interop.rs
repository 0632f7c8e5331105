//! `js_interop` in Node: every action type, stream part type and state field (payloads of every
//! JSON type) from JavaScript to Rust and back unchanged; hostile values refused with the path
//! and message the built package's `checkAction` and `sessionReducer` give (pkg/index.js, so
//! `bash scripts/build.sh` first), and no exception crossing into Rust.
#![cfg(all(feature = "js-interop", target_arch = "wasm32"))]

use chat_session_reducer::core::model::{AgentStreamPart, SessionAction};
use chat_session_reducer::js_interop::{action_from_js, action_to_js, state_from_js, state_to_js};
use chat_session_reducer::Error;
use js_sys::{Reflect, JSON};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

// The package as users install it: its own check of the same values.
#[wasm_bindgen(module = "/pkg/index.js")]
extern "C" {
    #[wasm_bindgen(js_name = checkAction, catch)]
    fn check_action(value: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = sessionReducer, catch)]
    fn session_reducer(state: &JsValue, action: &JsValue) -> Result<JsValue, JsValue>;
}

#[wasm_bindgen(inline_js = r#"
// An action whose part's `id` getter throws.
export function throwingGetter() {
  return { type: "part", part: { type: "tool-result", get id() { throw new Error("no"); }, output: 1 } };
}
// A Proxy that answers the reader, then throws on every later read (a copy, a second reader).
export function throwsAfterTheFirstRead() {
  let reads = 0;
  return new Proxy({ type: "send", id: "u", text: "hi" }, {
    get(target, key) { if (reads++ >= 5) throw new Error("later"); return target[key]; },
  });
}
export function cyclic() { const action = { type: "send", id: "u", text: "hi", metadata: {} }; action.metadata.self = action; return action; }
export function bigint() { return { type: "send", id: "u", text: "hi", metadata: { n: 1n } }; }
export function nestedBatches(depth) {
  let action = { type: "stop" };
  for (let i = 0; i < depth; i++) action = { type: "batch", actions: [action] };
  return action;
}
export function isPlainObject(value) { return Object.getPrototypeOf(value) === Object.prototype; }
"#)]
extern "C" {
    #[wasm_bindgen(js_name = throwingGetter)]
    fn throwing_getter() -> JsValue;
    #[wasm_bindgen(js_name = throwsAfterTheFirstRead)]
    fn throws_after_the_first_read() -> JsValue;
    fn cyclic() -> JsValue;
    fn bigint() -> JsValue;
    #[wasm_bindgen(js_name = nestedBatches)]
    fn nested_batches(depth: u32) -> JsValue;
    #[wasm_bindgen(js_name = isPlainObject)]
    fn is_plain_object(value: &JsValue) -> bool;
}

fn js(value: &Value) -> JsValue {
    JSON::parse(&value.to_string()).expect("JSON")
}

fn from_js(value: &JsValue) -> Value {
    serde_json::from_str(&String::from(JSON::stringify(value).expect("JSON"))).expect("JSON")
}

/// Payloads of every JSON type.
fn payload() -> Value {
    json!({ "null": null, "true": true, "false": false, "int": -3, "float": 2.5, "big": 9007199254740991u64,
            "string": "caf\u{e9} \u{1F600}", "empty": "", "array": [1, "a", null, [], {}], "object": { "nested": { "deep": [0.125] } } })
}

fn parts() -> Vec<Value> {
    let p = payload();
    vec![
        json!({ "type": "message-start", "messageId": "a-1", "metadata": p }),
        json!({ "type": "text-delta", "messageId": "a-1", "text": "Hel", "metadata": p }),
        json!({ "type": "reasoning-delta", "text": "think" }),
        json!({ "type": "reasoning", "messageId": "a-1", "text": "all", "metadata": null }),
        json!({ "type": "tool-call", "messageId": "a-1", "id": "c-1", "name": "search", "input": p, "metadata": p }),
        json!({ "type": "tool-input-delta", "id": "c-2", "name": "book", "text": "{\"a\":" }),
        json!({ "type": "tool-input-end", "id": "c-2" }),
        json!({ "type": "tool-result", "id": "c-1", "output": p, "preliminary": true, "metadata": p }),
        json!({ "type": "tool-error", "id": "c-1", "error": { "message": "No", "code": "cancelled" } }),
        json!({ "type": "tool-approval-request", "id": "c-1", "approvalId": "ap", "prompt": "OK?", "automatic": false, "details": p }),
        json!({ "type": "tool-approval-request", "name": "book" }),
        json!({ "type": "tool-approval-response", "approvalId": "ap", "approved": true, "reason": "fine", "input": p, "output": p }),
        json!({ "type": "step-start", "messageId": "a-1" }),
        json!({ "type": "step-reset" }),
        json!({ "type": "step-finish" }),
        json!({ "type": "finish", "reason": "stop" }),
        json!({ "type": "error", "error": "Down", "code": "network" }),
        json!({ "type": "data", "name": "weather", "id": "w", "data": p, "metadata": p }),
        json!({ "type": "data", "name": "weather", "id": "w", "patch": [{ "op": "add", "path": "/a", "value": p }, { "op": "move", "from": "/a", "path": "/b" }] }),
        json!({ "type": "message-metadata", "metadata": p }),
        json!({ "type": "snapshot", "messages": [{ "id": "a-1", "role": "assistant", "parts": [{ "type": "text", "text": "x" }] }], "exact": true }),
        json!({ "type": "agent-state", "snapshot": p }),
        json!({ "type": "agent-state", "patch": [{ "op": "replace", "path": "", "value": null }] }),
    ]
}

fn actions() -> Vec<Value> {
    let mut actions: Vec<Value> = parts()
        .into_iter()
        .map(|part| json!({ "type": "part", "part": part }))
        .collect();
    actions.extend([
        json!({ "type": "part", "part": { "type": "text-delta", "text": "sub" }, "within": "c-1" }),
        json!({ "type": "send", "id": "u-1", "text": "Hi", "parts": [{ "type": "data", "name": "file", "data": { "url": "u" } }, { "type": "text", "text": "more" }], "metadata": payload() }),
        json!({ "type": "toolPhase", "name": "book", "state": "awaiting-confirmation", "prompt": "Book?" }),
        json!({ "type": "stop" }),
        json!({ "type": "retry" }),
        json!({ "type": "continue" }),
        json!({ "type": "reset" }),
        json!({ "type": "batch", "actions": [{ "type": "stop" }, { "type": "batch", "actions": [{ "type": "reset" }] }] }),
        json!({ "type": "edit", "messageId": "u-1", "id": "u-2", "text": "Hello" }),
        json!({ "type": "regenerate", "messageId": "a-1" }),
        json!({ "type": "regenerate" }),
        json!({ "type": "switchBranch", "after": null, "to": 1 }),
        json!({ "type": "switchBranch", "after": "u-1", "to": 0 }),
        json!({ "type": "unqueue", "id": "q-1" }),
        json!({ "type": "load", "state": state() }),
    ]);
    actions
}

/// A state with every field: forks with a branch, a queue, agent state, an error, a sub-agent
/// run, approvals, every part type.
fn state() -> Value {
    let p = payload();
    json!({
        "messages": [
            { "id": "u-1", "role": "user", "parts": [{ "type": "text", "text": "Plan" }], "metadata": p },
            { "id": "a-2", "role": "assistant", "parts": [
                { "type": "step" },
                { "type": "reasoning", "text": "r", "metadata": p },
                { "type": "text", "text": "t" },
                { "type": "data", "name": "n", "id": "i", "data": p, "metadata": p },
                { "type": "tool", "id": "c-1", "name": "search", "input": p, "inputText": "{}", "state": "awaiting-confirmation",
                  "prompt": "Go?", "approval": { "id": "ap", "automatic": false, "details": p }, "metadata": p,
                  "agent": { "messages": [{ "id": "s-1", "role": "assistant", "parts": [{ "type": "text", "text": "sub" }] }], "status": "idle", "agentState": p } },
                { "type": "tool", "id": "c-0", "name": "old", "input": null, "state": "error", "error": { "message": "x", "code": "e" }, "output": p }
            ] }
        ],
        "status": "error",
        "error": { "message": "Down", "code": "rate_limited" },
        "agentState": p,
        "forks": [{ "after": "u-1", "active": 1, "alternatives": [
            { "messages": [{ "id": "a-1", "role": "assistant", "parts": [{ "type": "text", "text": "first" }] }] },
            null
        ] }],
        "queue": [{ "id": "q-1", "text": "later", "parts": [{ "type": "data", "name": "file", "data": p }], "metadata": p }]
    })
}

#[wasm_bindgen_test]
fn every_action_comes_from_javascript_and_goes_back_unchanged() {
    for action in actions() {
        let value = js(&action);
        check_action(&value).unwrap_or_else(|_| panic!("the package accepts {action}"));
        let rust = action_from_js(&value).unwrap_or_else(|error| panic!("{action}: {error}"));
        let back = action_to_js(&rust).unwrap();
        assert_eq!(from_js(&back), action);
        // The very same Rust value as serde_json reads from the JSON text.
        assert_eq!(
            rust,
            serde_json::from_value::<SessionAction>(action).unwrap()
        );
    }
}

#[wasm_bindgen_test]
fn a_state_comes_from_javascript_and_goes_back_as_plain_objects() {
    let value = js(&state());
    let rust = state_from_js(&value).unwrap();
    let back = state_to_js(&rust).unwrap();
    assert_eq!(from_js(&back), state());
    // Objects, not Maps: the package's reducer takes it as it is.
    let metadata = Reflect::get(&back, &"agentState".into()).unwrap();
    assert!(is_plain_object(&metadata));
    let unqueued = session_reducer(&back, &js(&json!({ "type": "unqueue", "id": "q-1" }))).unwrap();
    assert_eq!(from_js(&unqueued).get("queue"), None);
    assert_eq!(from_js(&unqueued)["forks"], state()["forks"]);
}

#[wasm_bindgen_test]
fn an_unknown_part_type_is_kept_as_unknown_and_an_unknown_action_type_is_refused() {
    let newer = action_from_js(&js(
        &json!({ "type": "part", "part": { "type": "a-newer-part", "x": 1 } }),
    ))
    .unwrap();
    assert!(matches!(
        newer,
        SessionAction::Part {
            part: AgentStreamPart::Unknown,
            ..
        }
    ));
    let error = action_from_js(&js(&json!({ "type": "teleport" }))).unwrap_err();
    assert_eq!(error.path(), Some("action.type"));
}

/// The package's error for `value` (`checkAction`), as (path, message).
fn package_error(value: &JsValue) -> (String, String) {
    let thrown = check_action(value).expect_err("the package refuses it");
    let field = |name: &str| {
        Reflect::get(&thrown, &name.into())
            .unwrap()
            .as_string()
            .unwrap()
    };
    (field("path"), field("message"))
}

#[wasm_bindgen_test]
fn hostile_actions_are_refused_with_the_packages_path_and_message() {
    let hostile = [
        (js(&json!(null)), "action"),
        (js(&json!([])), "action"),
        (js(&json!({ "type": 3 })), "action.type"),
        (
            js(&json!({ "type": "send", "id": 1, "text": "x" })),
            "action.id",
        ),
        (
            js(&json!({ "type": "send", "id": "u", "text": "x", "parts": [{ "type": "tool" }] })),
            "action.parts[0].type",
        ),
        (
            js(&json!({ "type": "part", "part": { "type": "text-delta", "text": null } })),
            "action.part.text",
        ),
        (
            js(&json!({ "type": "part", "part": { "type": "tool-call", "id": "c", "name": "n" } })),
            "action.part.input",
        ),
        (
            js(
                &json!({ "type": "part", "part": { "type": "data", "name": "n", "data": 1, "patch": [] } }),
            ),
            "action.part",
        ),
        (
            js(
                &json!({ "type": "part", "part": { "type": "data", "name": "n", "id": "i", "patch": [{ "op": "add", "path": "x", "value": 1 }] } }),
            ),
            "action.part.patch[0].path",
        ),
        (
            js(&json!({ "type": "part", "part": { "type": "finish", "reason": "bored" } })),
            "action.part.reason",
        ),
        (
            js(&json!({ "type": "switchBranch", "after": null, "to": 1.5 })),
            "action.to",
        ),
        (
            js(&json!({ "type": "batch", "actions": [{ "type": "stop" }, { "type": "send" }] })),
            "action.actions[1].id",
        ),
        (
            js(
                &json!({ "type": "load", "state": { "messages": [], "status": "idle", "queue": [] } }),
            ),
            "action.state.queue",
        ),
        (
            js(
                &json!({ "type": "load", "state": { "messages": [{ "id": "m", "role": "robot", "parts": [] }], "status": "idle" } }),
            ),
            "action.state.messages[0].role",
        ),
        (throwing_getter(), "action.part.id"),
        (nested_batches(100), "action"),
    ];
    for (value, path) in hostile {
        let (package_path, message) = package_error(&value);
        let error = action_from_js(&value).expect_err(&message);
        assert!(matches!(error, Error::Invalid { .. }));
        assert_eq!(error.path(), Some(package_path.as_str()), "{message}");
        assert!(
            package_path.starts_with(path),
            "{package_path} under {path}"
        );
        assert_eq!(error.to_string(), message);
    }
}

#[wasm_bindgen_test]
fn values_that_cannot_be_copied_are_refused_and_nothing_throws_into_rust() {
    for value in [cyclic(), bigint()] {
        let error = action_from_js(&value).unwrap_err();
        assert_eq!(error.path(), Some("action"), "{error}");
    }
    // Read once by the checker, the Proxy throws on the copy: an error, not an exception.
    let error = action_from_js(&throws_after_the_first_read()).unwrap_err();
    assert_eq!(error.path(), Some("action"), "{error}");
    // The module works on.
    assert!(action_from_js(&js(&json!({ "type": "stop" }))).is_ok());
}

#[wasm_bindgen_test]
fn a_hostile_state_is_refused_with_its_path() {
    let error = state_from_js(&js(&json!({ "messages": [], "status": "idle", "forks": [{ "after": null, "active": 2, "alternatives": [{ "messages": [] }, null] }] }))).unwrap_err();
    assert_eq!(error.path(), Some("state.forks[0].alternatives[1]"));
    let error = state_from_js(&js(&json!({ "messages": {}, "status": "idle" }))).unwrap_err();
    assert_eq!(error.to_string(), "state.messages: expected an array");
}
