//! Helpers shared by the core's integration tests: states and actions are written as the
//! SPEC's JSON and results are compared as JSON, so each test reads like the SPEC.
//!
//! Every test crate compiles this module but uses only some of it.
#![allow(dead_code)]

use std::rc::Rc;

use chat_session_reducer::core::model::{AgentPart, SessionAction, SessionState, ToolPart};
use chat_session_reducer::core::{reduce, session_reducer, Outcome, Session};
use serde_json::{json, Value};

/// A state from its JSON.
pub fn state(value: Value) -> Rc<SessionState> {
    Rc::new(serde_json::from_value(value).expect("a SessionState"))
}

/// An action from its JSON.
pub fn action(value: Value) -> SessionAction {
    serde_json::from_value(value).expect("a SessionAction")
}

/// `{ type: "part", part }`.
pub fn part(part: Value) -> Value {
    json!({ "type": "part", "part": part })
}

/// `{ type: "part", part, within }`.
pub fn part_within(within: &str, part: Value) -> Value {
    json!({ "type": "part", "part": part, "within": within })
}

pub fn to_json(state: &SessionState) -> Value {
    serde_json::to_value(state).expect("a state serializes")
}

/// One reducer step.
pub fn apply(state: &Rc<SessionState>, action_json: Value) -> Rc<SessionState> {
    let action = action(action_json);
    session_reducer(state, &action).unwrap_or_else(|error| panic!("{action:?}: {error}"))
}

/// The state after each action in turn, from the empty session.
pub fn replay(actions: &[Value]) -> Rc<SessionState> {
    actions
        .iter()
        .fold(Rc::new(SessionState::empty()), |state, next| {
            apply(&state, next.clone())
        })
}

/// The action turns `before` into `expected`, and leaves `before` as it was.
pub fn assert_becomes(before: Value, action_json: Value, expected: Value) {
    let old = state(before.clone());
    let new = apply(&old, action_json.clone());
    assert_eq!(to_json(&new), expected, "after {action_json}");
    assert!(
        !Rc::ptr_eq(&old, &new),
        "{action_json} changed something, so a new state is due"
    );
    assert_eq!(
        to_json(&old),
        before,
        "{action_json} mutated its state argument"
    );
}

/// The action changes nothing: the very same state comes back (and `reduce` says so).
pub fn assert_unchanged(before: Value, action_json: Value) {
    let old = state(before);
    assert_same_back(&old, &action(action_json));
}

/// `session_reducer` hands back the same `Rc`, and `reduce` reports no step.
pub fn assert_same_back(old: &Rc<SessionState>, action: &SessionAction) {
    let new = session_reducer(old, action).expect("the action applies");
    assert!(
        Rc::ptr_eq(old, &new),
        "{action:?} should change nothing, but gave {}",
        to_json(&new)
    );
    assert_eq!(
        reduce(&mut Session::new(old.clone()), action),
        Ok(Outcome::Unchanged)
    );
}

/// The tool part at `messages[message].parts[part]`.
pub fn call(run: &SessionState, message: usize, part: usize) -> &ToolPart {
    match run.messages[message].parts[part].as_ref() {
        AgentPart::Tool(call) => call,
        other => panic!("messages[{message}].parts[{part}] is not a tool part: {other:?}"),
    }
}

/// A user message `{ id, role: "user", parts: [{ type: "text", text }] }`.
pub fn user(id: &str, text: &str) -> Value {
    json!({ "id": id, "role": "user", "parts": [{ "type": "text", "text": text }] })
}

/// A text part `{ type: "text", text }`.
pub fn text(text: &str) -> Value {
    json!({ "type": "text", "text": text })
}

/// An assistant message with these parts.
pub fn assistant(id: &str, parts: Value) -> Value {
    json!({ "id": id, "role": "assistant", "parts": parts })
}

/// A tool part `{ type: "tool", id, name, input: {}, state }`.
pub fn tool(id: &str, name: &str, state: &str) -> Value {
    json!({ "type": "tool", "id": id, "name": name, "input": {}, "state": state })
}

/// `tool(...)` with extra fields (`prompt`, `output`, `error`, `agent`) merged in.
pub fn tool_with(id: &str, name: &str, state: &str, extra: Value) -> Value {
    let mut part = tool(id, name, state);
    let fields = part.as_object_mut().expect("a tool part is an object");
    for (key, value) in extra.as_object().expect("extra fields are an object") {
        fields.insert(key.clone(), value.clone());
    }
    part
}

/// A streaming session whose messages are these.
pub fn streaming(messages: Value) -> Value {
    json!({ "messages": messages, "status": "streaming" })
}
