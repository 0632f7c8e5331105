//! Random action sequences from the empty session, drawn from a small alphabet of ids and
//! names so that collisions (replayed ids, `within` an existing or a missing call, a tool
//! name shared by several calls) happen often, v1 and v2 parts (data, metadata, snapshots,
//! agent state), v3's queue, `load` and steps, and batches mixed. No step may panic, and every
//! step keeps the SPEC's invariants.

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
mod common;

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use chat_session_reducer::core::model::{
    AgentMessage, AgentPart, AgentStreamPart, Fork, SessionAction, SessionState, SessionStatus,
    ToolPart, ToolState,
};
use chat_session_reducer::core::patch::{CallChange, Patch};
use chat_session_reducer::core::protocol::MAX_BRANCH_NESTING;
use chat_session_reducer::core::{reduce, resumable, session_reducer, Outcome, Session};
use chat_session_reducer::Error;
use common::to_json;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::TestCaseError;
use serde_json::{json, Value};

const CALL_IDS: [&str; 4] = ["c1", "c2", "c3", "c4"];
const TOOL_NAMES: [&str; 2] = ["search", "delegate"];
/// "u1" is also what `send` uses, so assistant parts sometimes name a user message.
const MESSAGE_IDS: [&str; 3] = ["m1", "m2", "u1"];

fn with_message_id(mut part: Value, message_id: Option<&str>) -> Value {
    if let Some(id) = message_id {
        part["messageId"] = json!(id);
    }
    part
}

fn from_json(part: Value) -> AgentStreamPart {
    serde_json::from_value(part).expect("a generated part is valid")
}

fn action_from_json(action: Value) -> SessionAction {
    serde_json::from_value(action).expect("a generated action is valid")
}

fn with_metadata(mut part: Value, metadata: bool) -> Value {
    if metadata {
        part["metadata"] = json!({ "k": 1 });
    }
    part
}

/// A snapshot's messages: held ids and new ones, with calls whose ids collide.
fn snapshot_messages() -> impl Strategy<Value = Value> {
    let message = select(&MESSAGE_IDS[..]).prop_flat_map(|id| {
        (Just(id), proptest::option::of(select(&CALL_IDS[..])), any::<bool>()).prop_map(
            |(id, call, open)| {
                let mut parts = vec![json!({ "type": "text", "text": "s" })];
                if let Some(call) = call {
                    let state = if open { "running" } else { "done" };
                    parts.push(json!({ "type": "tool", "id": call, "name": "search", "input": {}, "state": state }));
                }
                json!({ "id": id, "role": if id == "u1" { "user" } else { "assistant" }, "parts": parts })
            },
        )
    });
    proptest::collection::vec(message, 0..3).prop_map(Value::Array)
}

fn stream_part() -> impl Strategy<Value = AgentStreamPart> {
    let message_id = || proptest::option::of(select(&MESSAGE_IDS[..]));
    let call_id = || select(&CALL_IDS[..]);
    prop_oneof![
        (select(&MESSAGE_IDS[..]), any::<bool>()).prop_map(|(id, metadata)| from_json(
            with_metadata(
                json!({ "type": "message-start", "messageId": id }),
                metadata
            )
        )),
        (message_id(), select(&["", "x", "yz"][..]), any::<bool>()).prop_map(
            |(message, text, metadata)| {
                from_json(with_message_id(
                    with_metadata(json!({ "type": "text-delta", "text": text }), metadata),
                    message,
                ))
            }
        ),
        (
            message_id(),
            select(&["plan", "source"][..]),
            proptest::option::of(select(&["p", "q"][..])),
            any::<bool>()
        )
            .prop_map(|(message, name, id, patch)| {
                let mut part = json!({ "type": "data", "name": name });
                match (id, patch) {
                    (Some(id), true) => {
                        part["id"] = json!(id);
                        part["patch"] = json!([{ "op": "add", "path": "/a", "value": 1 }]);
                    }
                    (id, _) => {
                        if let Some(id) = id {
                            part["id"] = json!(id);
                        }
                        part["data"] = json!({ "v": name });
                    }
                }
                from_json(with_message_id(part, message))
            }),
        message_id().prop_map(|message| from_json(with_message_id(
            json!({ "type": "message-metadata", "metadata": { "usage": 1 } }),
            message
        ))),
        (snapshot_messages(), any::<bool>()).prop_map(|(messages, exact)| from_json(
            json!({ "type": "snapshot", "messages": messages, "exact": exact })
        )),
        any::<bool>().prop_map(|patch| from_json(if patch {
            json!({ "type": "agent-state", "patch": [{ "op": "add", "path": "/a", "value": 1 }] })
        } else {
            json!({ "type": "agent-state", "snapshot": { "step": 1 } })
        })),
        (message_id(), any::<bool>()).prop_map(|(message, signed)| {
            let mut part = json!({ "type": "reasoning", "text": "r" });
            if signed {
                part["metadata"] = json!({ "sig": 1 });
            }
            from_json(with_message_id(part, message))
        }),
        (message_id(), call_id(), select(&TOOL_NAMES[..])).prop_map(|(message, id, name)| {
            from_json(with_message_id(
                json!({ "type": "tool-call", "id": id, "name": name, "input": { "q": id } }),
                message,
            ))
        }),
        call_id()
            .prop_map(|id| from_json(json!({ "type": "tool-result", "id": id, "output": [id] }))),
        (
            call_id(),
            select(&[None, Some("cancelled"), Some("timeout")][..])
        )
            .prop_map(|(id, code)| {
                let mut error = json!({ "message": "failed" });
                if let Some(code) = code {
                    error["code"] = json!(code);
                }
                from_json(json!({ "type": "tool-error", "id": id, "error": error }))
            }),
        Just(from_json(json!({ "type": "step-finish" }))),
        select(&[None, Some("stop"), Some("aborted"), Some("length")][..]).prop_map(|reason| {
            let mut part = json!({ "type": "finish" });
            if let Some(reason) = reason {
                part["reason"] = json!(reason);
            }
            from_json(part)
        }),
        proptest::option::of(Just("network")).prop_map(|code| {
            let mut part = json!({ "type": "error", "error": "boom" });
            if let Some(code) = code {
                part["code"] = json!(code);
            }
            from_json(part)
        }),
        Just(AgentStreamPart::Unknown),
        (message_id(), select(&["", "r"][..])).prop_map(|(message, text)| {
            from_json(with_message_id(json!({ "type": "reasoning-delta", "text": text }), message))
        }),
        call_id().prop_map(|id| {
            from_json(json!({ "type": "tool-result", "id": id, "output": "partial", "preliminary": true }))
        }),
        streamed_input_part(),
        approval_part(),
        (any::<bool>(), message_id()).prop_map(|(start, message)| {
            let kind = if start { "step-start" } else { "step-reset" };
            from_json(with_message_id(json!({ "type": kind }), message))
        }),
    ]
}

/// States a `load` brings: stored while streaming, waiting on the user with a queue, and one
/// whose open call's sub-agent run still streams (the ids those of the generated actions).
fn loaded_state() -> impl Strategy<Value = SessionAction> {
    let call = |id: &str, state: &str| json!({ "type": "tool", "id": id, "name": "search", "input": {}, "state": state });
    let reply = |parts: Value| json!({ "id": "m1", "role": "assistant", "parts": parts });
    let asked = json!({ "id": "u1", "role": "user", "parts": [{ "type": "text", "text": "hi" }] });
    let mut nested = call("c2", "running");
    nested["agent"] =
        json!({ "messages": [reply(json!([call("c3", "running")]))], "status": "streaming" });
    select(vec![
        json!({ "messages": [asked, reply(json!([call("c1", "running")]))], "status": "streaming" }),
        json!({ "messages": [asked, reply(json!([call("c1", "awaiting-confirmation")]))], "status": "idle",
                "queue": [{ "id": "u2", "text": "later" }] }),
        json!({ "messages": [asked, reply(json!([call("c1", "running"), nested]))], "status": "idle" }),
    ])
    .prop_map(|state| action_from_json(json!({ "type": "load", "state": state })))
}

/// `tool-input-delta` (with and without a name) and `tool-input-end`; the pieces make valid
/// JSON, invalid JSON and blank text.
fn streamed_input_part() -> impl Strategy<Value = AgentStreamPart> {
    let message_id = || proptest::option::of(select(&MESSAGE_IDS[..]));
    let call_id = || select(&CALL_IDS[..]);
    prop_oneof![
        (
            message_id(),
            call_id(),
            proptest::option::of(select(&TOOL_NAMES[..])),
            select(&["", " ", "{", "}", "[1", "]", "\"a\"", ":", ","][..]),
        )
            .prop_map(|(message, id, name, text)| {
                let mut part = json!({ "type": "tool-input-delta", "id": id, "text": text });
                if let Some(name) = name {
                    part["name"] = json!(name);
                }
                from_json(with_message_id(part, message))
            }),
        call_id().prop_map(|id| from_json(json!({ "type": "tool-input-end", "id": id }))),
    ]
}

/// `tool-approval-request` by id or by name, and `tool-approval-response` by id or approval id.
fn approval_part() -> impl Strategy<Value = AgentStreamPart> {
    let approval_id = || proptest::option::of(select(&["ap1", "ap2"][..]));
    prop_oneof![
        (
            proptest::option::of(select(&CALL_IDS[..])),
            select(&TOOL_NAMES[..]),
            approval_id(),
            proptest::option::of(select(&["OK?", "Sure?"][..])),
            any::<bool>(),
        )
            .prop_map(|(id, name, approval_id, prompt, automatic)| {
                let mut part = json!({ "type": "tool-approval-request", "name": name });
                if let Some(id) = id {
                    part["id"] = json!(id);
                }
                if let Some(approval_id) = approval_id {
                    part["approvalId"] = json!(approval_id);
                }
                if let Some(prompt) = prompt {
                    part["prompt"] = json!(prompt);
                }
                if automatic {
                    part["automatic"] = json!(true);
                }
                from_json(part)
            }),
        (
            select(&CALL_IDS[..]),
            approval_id(),
            any::<bool>(),
            proptest::option::of(select(&["No.", "Yes."][..])),
            any::<(bool, bool)>(),
        )
            .prop_map(|(id, approval_id, approved, reason, (edits, answer))| {
                let mut part = json!({ "type": "tool-approval-response", "approved": approved });
                match approval_id {
                    Some(approval_id) => part["approvalId"] = json!(approval_id),
                    None => part["id"] = json!(id),
                }
                if let Some(reason) = reason {
                    part["reason"] = json!(reason);
                }
                if edits {
                    part["input"] = json!({ "edited": id });
                }
                if answer {
                    part["output"] = json!("answered");
                }
                from_json(part)
            }),
    ]
}

fn session_action() -> impl Strategy<Value = SessionAction> {
    single_action().prop_recursive(2, 12, 4, |inner| {
        prop_oneof![
            3 => inner.clone(),
            1 => proptest::collection::vec(inner, 0..4)
                .prop_map(|actions| SessionAction::Batch { actions }),
        ]
    })
}

fn single_action() -> impl Strategy<Value = SessionAction> {
    // "missing" is never a call id: `within` a call that does not exist.
    let within = prop_oneof![
        2 => Just(None),
        3 => select(&CALL_IDS[..]).prop_map(|id| Some(id.to_owned())),
        1 => Just(Some("missing".to_owned())),
    ];
    prop_oneof![
        2 => select(&["u1", "u2"][..]).prop_map(|id| action_from_json(json!({ "type": "send", "id": id, "text": "hi" }))),
        12 => (stream_part(), within).prop_map(|(part, within)| SessionAction::Part { part, within }),
        3 => (select(&TOOL_NAMES[..]), any::<bool>(), proptest::option::of(select(&["OK?", "Sure?"][..]))).prop_map(
            |(name, confirm, prompt)| {
                let state = if confirm { "awaiting-confirmation" } else { "running" };
                let mut action = json!({ "type": "toolPhase", "name": name, "state": state });
                if let Some(prompt) = prompt {
                    action["prompt"] = json!(prompt);
                }
                serde_json::from_value(action).expect("a generated toolPhase is valid")
            }
        ),
        1 => Just(SessionAction::Stop),
        1 => Just(SessionAction::Retry),
        1 => Just(SessionAction::Reset),
        1 => Just(SessionAction::Continue),
        // v3: branches, on the ids the other actions use.
        1 => (select(&["u1", "u2"][..]), select(&["u1", "u2", "u3"][..])).prop_map(|(message_id, id)| {
            SessionAction::Edit { message_id: message_id.into(), id: id.into(), text: "again".into() }
        }),
        1 => proptest::option::of(select(&MESSAGE_IDS[..]))
            .prop_map(|message_id| SessionAction::Regenerate { message_id: message_id.map(str::to_owned) }),
        2 => (proptest::option::of(select(&["u1", "u2", "u3", "m1", "m2"][..])), 0..4usize)
            .prop_map(|(after, to)| SessionAction::SwitchBranch { after: after.map(str::to_owned), to }),
        1 => (select(&["u1", "u2"][..]), any::<bool>()).prop_map(|(id, metadata)| {
            let mut send = json!({ "type": "send", "id": id, "text": "look",
                "parts": [{ "type": "data", "name": "file", "data": { "url": "x" } }] });
            if metadata {
                send["metadata"] = json!({ "from": "composer" });
            }
            action_from_json(send)
        }),
        1 => select(&["u1", "u2", "x"][..]).prop_map(|id| action_from_json(json!({ "type": "unqueue", "id": id }))),
        1 => loaded_state(),
    ]
}

/// Every call of the tree by id (ids are unique, which `check_tree` asserts).
fn calls_by_id(run: &SessionState, into: &mut HashMap<String, ToolPart>) {
    for message in &run.messages {
        for part in &message.parts {
            if let AgentPart::Tool(call) = part.as_ref() {
                into.insert(call.id.clone(), call.clone());
                if let Some(agent) = &call.agent {
                    calls_by_id(agent, into);
                }
            }
        }
    }
}

/// `error` exactly in status `error`, in every run; a streaming nested run only under an
/// open call; call ids unique in the whole tree.
fn check_tree(
    run: &SessionState,
    holder_open: Option<bool>,
    ids: &mut HashSet<String>,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        run.error.is_some(),
        run.status == SessionStatus::Error,
        "error present exactly in status error"
    );
    prop_assert!(
        holder_open.is_none() || run.queue.is_empty(),
        "only the top-level state has a queue"
    );
    if holder_open == Some(false) {
        prop_assert_ne!(
            run.status,
            SessionStatus::Streaming,
            "a streaming run sits under a call that is not open"
        );
    }
    for message in &run.messages {
        for part in &message.parts {
            if let AgentPart::Tool(call) = part.as_ref() {
                prop_assert!(
                    ids.insert(call.id.clone()),
                    "call id {} appears twice",
                    call.id
                );
                if call.state == ToolState::InputStreaming {
                    prop_assert!(
                        call.input.is_null() && call.input_text.is_some(),
                        "{:?}",
                        call
                    );
                }
                if let Some(agent) = &call.agent {
                    check_tree(agent, Some(call.state.is_open()), ids)?;
                }
            }
        }
    }
    Ok(())
}

/// SPEC v3's invariants of `forks` against `messages` (the path's, or a branch's at `depth`):
/// in path order, each `after` once and on `messages` (null only on the path), at least two
/// alternatives, `None` exactly at `active`, no open call in a branch, the cached height right
/// and at most `MAX_BRANCH_NESTING`. Returns the highest fork's height.
fn check_forks(
    forks: &[Rc<Fork>],
    messages: &[Rc<AgentMessage>],
    depth: usize,
) -> Result<usize, TestCaseError> {
    let mut last = None;
    let mut highest = 0;
    for fork in forks {
        let at = match &fork.after {
            None => {
                prop_assert_eq!(depth, 1, "a fork after null inside a branch");
                None
            }
            Some(id) => {
                let at = messages.iter().position(|message| message.id == *id);
                prop_assert!(at.is_some(), "fork after {} is not on its path", id);
                at.map(|at| at + 1)
            }
        }
        .unwrap_or(0);
        prop_assert!(last.is_none_or(|last| at > last), "forks out of path order");
        last = Some(at);
        prop_assert!(fork.alternatives.len() >= 2, "a fork with one alternative");
        prop_assert!(fork.active < fork.alternatives.len());
        let mut height = 1;
        for (index, alternative) in fork.alternatives.iter().enumerate() {
            prop_assert_eq!(
                alternative.is_none(),
                index == fork.active,
                "null exactly at active"
            );
            if let Some(branch) = alternative {
                let mut calls = HashMap::new();
                calls_by_id(
                    &SessionState {
                        messages: branch.messages.clone(),
                        ..SessionState::empty()
                    },
                    &mut calls,
                );
                prop_assert!(
                    calls.values().all(|call| !call.state.is_open()),
                    "an open call in a branch"
                );
                height = height.max(1 + check_forks(&branch.forks, &branch.messages, depth + 1)?);
            }
        }
        prop_assert_eq!(fork.height(), height, "a fork's cached height");
        prop_assert!(
            depth + height - 1 <= MAX_BRANCH_NESTING,
            "branches nest too deep"
        );
        highest = highest.max(height);
    }
    Ok(highest)
}

/// A call that left the open states keeps its state and what came with it.
fn check_closed_calls_kept(old: &SessionState, new: &SessionState) -> Result<(), TestCaseError> {
    let (mut before, mut after) = (HashMap::new(), HashMap::new());
    calls_by_id(old, &mut before);
    calls_by_id(new, &mut after);
    for (id, was) in before.iter().filter(|(_, call)| !call.state.is_open()) {
        if let Some(now) = after.get(id) {
            prop_assert_eq!(
                (
                    &now.name,
                    &now.input,
                    now.state,
                    &now.output,
                    &now.error,
                    &now.prompt,
                    &now.input_text,
                    &now.approval
                ),
                (
                    &was.name,
                    &was.input,
                    was.state,
                    &was.output,
                    &was.error,
                    &was.prompt,
                    &was.input_text,
                    &was.approval
                ),
                "closed call {} changed",
                id
            );
        }
    }
    Ok(())
}

/// Whether the action may put a new call where a closed one was: a snapshot replaces messages
/// as the agent holds them, the states of their calls included (docs/decisions.md), a `load`
/// replaces the whole state, and a batch holding `retry`, `reset` or `step-reset` drops calls,
/// whose ids later actions of the batch may use again.
fn may_replace_calls(action: &SessionAction) -> bool {
    match action {
        SessionAction::Part {
            part: AgentStreamPart::Snapshot { .. },
            ..
        } => true,
        SessionAction::Load { .. } => true,
        SessionAction::Batch { actions } => actions.iter().any(|action| {
            matches!(
                action,
                SessionAction::Retry
                    | SessionAction::Reset
                    | SessionAction::Part {
                        part: AgentStreamPart::StepReset { .. },
                        ..
                    }
            ) || may_replace_calls(action)
        }),
        // v3: a switch brings back a branch's calls in place of the tail's.
        SessionAction::Edit { .. }
        | SessionAction::Regenerate { .. }
        | SessionAction::SwitchBranch { .. } => true,
        _ => false,
    }
}

/// Postconditions of the actions whose effect is fully stated by the SPEC.
fn check_effect(
    old: &SessionState,
    action: &SessionAction,
    new: &SessionState,
) -> Result<(), TestCaseError> {
    match action {
        SessionAction::Stop => {
            let mut calls = HashMap::new();
            calls_by_id(new, &mut calls);
            prop_assert_eq!(new.status, SessionStatus::Idle);
            prop_assert!(
                calls.values().all(|call| !call.state.is_open()),
                "stop left an open call"
            );
        }
        SessionAction::Retry
            if old
                .messages
                .iter()
                .any(|m| m.role == chat_session_reducer::core::model::Role::User) =>
        {
            prop_assert_eq!(new.status, SessionStatus::Streaming);
            prop_assert_eq!(&new.messages, &resumable(&old.messages));
        }
        SessionAction::Reset => prop_assert_eq!(new, &SessionState::empty()),
        SessionAction::Part { part, .. } if old.status != SessionStatus::Streaming => {
            if part.is_answer() {
                // An answer changes calls, never the run's status or its list of messages.
                prop_assert_eq!(new.status, old.status);
                prop_assert_eq!(new.messages.len(), old.messages.len());
            } else {
                prop_assert_eq!(new, old, "a part changed a run that is not streaming")
            }
        }
        SessionAction::Send { .. } if old.status != SessionStatus::Streaming => {
            let mut calls = HashMap::new();
            calls_by_id(new, &mut calls);
            prop_assert!(
                calls.values().all(|call| !call.state.is_open()),
                "send after the run left an open call"
            );
        }
        SessionAction::Continue => {
            prop_assert_eq!(new.status, SessionStatus::Streaming);
            prop_assert_eq!(&new.messages, &old.messages);
        }
        _ => {}
    }
    check_queue_effect(old, action, new)
}

/// The ids of the queued messages.
fn queued_ids(state: &SessionState) -> Vec<&str> {
    state
        .queue
        .iter()
        .map(|queued| queued.id.as_str())
        .collect()
}

/// SPEC v3: a send while streaming is queued (nothing appended); a send when not streaming, and
/// a top-level finish that leaves no open call, send the queue first, in order; `unqueue`
/// removes one; `load` is the load rule.
fn check_queue_effect(
    old: &SessionState,
    action: &SessionAction,
    new: &SessionState,
) -> Result<(), TestCaseError> {
    let appended: Vec<&str> = new
        .messages
        .get(old.messages.len()..)
        .unwrap_or_default()
        .iter()
        .map(|message| message.id.as_str())
        .collect();
    match action {
        SessionAction::Send { id, .. } if old.status == SessionStatus::Streaming => {
            prop_assert_eq!(
                &new.messages,
                &old.messages,
                "a send while streaming appended"
            );
            let mut queued = queued_ids(old);
            queued.push(id);
            prop_assert_eq!(queued_ids(new), queued);
        }
        SessionAction::Send { id, .. } => {
            let mut sent = queued_ids(old);
            sent.push(id);
            prop_assert_eq!(appended, sent, "the queue goes first, in order");
            prop_assert!(new.queue.is_empty());
        }
        SessionAction::Part {
            part: AgentStreamPart::Finish { reason },
            within: None,
        } if old.status == SessionStatus::Streaming
            && *reason != Some(chat_session_reducer::core::model::FinishReason::Aborted)
            && !old.queue.is_empty() =>
        {
            if new.status == SessionStatus::Streaming {
                prop_assert_eq!(appended, queued_ids(old), "the queue is sent in order");
                prop_assert!(new.queue.is_empty());
            } else {
                prop_assert_eq!(&new.queue, &old.queue, "the queue waits on an open call");
            }
        }
        SessionAction::Unqueue { id } => {
            let mut left = queued_ids(old);
            if let Some(at) = left.iter().position(|queued| queued == id) {
                left.remove(at);
            }
            prop_assert_eq!(queued_ids(new), left);
        }
        SessionAction::Load { state } => {
            let loaded = chat_session_reducer::core::load_rule(state);
            prop_assert_eq!(Some(new), loaded.as_deref().ok());
        }
        _ => {}
    }
    Ok(())
}

/// Whether `session`'s open-call index is what a fresh scan of its state finds.
fn check_open_index(session: &Session, what: &str) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        &*Session::new(session.state.clone()).open,
        &*session.open,
        "{} open calls",
        what
    );
    Ok(())
}

/// One step from `old`, checked; returns the next state and the carried-over session.
fn step(
    old: &Rc<SessionState>,
    chained: &Session,
    action: &SessionAction,
) -> Result<(Rc<SessionState>, Session), TestCaseError> {
    let mut fresh = Session::new(old.clone());
    let next = match session_reducer(old, action) {
        Ok(next) => next,
        // Bad input (a `data` part with both `data` and `patch`, say) changes nothing, and
        // `reduce` refuses it too.
        Err(error) => {
            prop_assert!(
                matches!(error, Error::Invalid { .. }),
                "{:?}: {}",
                action,
                error
            );
            prop_assert_eq!(reduce(&mut fresh, action), Err(error));
            prop_assert!(Rc::ptr_eq(&fresh.state, old));
            return Ok((old.clone(), chained.clone()));
        }
    };
    let outcome = reduce(&mut fresh, action).expect("reduce accepts what session_reducer did");
    let unchanged = outcome == Outcome::Unchanged;
    prop_assert_eq!(
        unchanged,
        Rc::ptr_eq(&next, old),
        "reduce said Unchanged exactly when the same state came back"
    );
    // A JSON Patch that writes an equal value is a change (as in JavaScript, where it makes new
    // objects). Opaque payloads a part writes (a preliminary output, approval details, an
    // approved input or output) are never compared, so writing an equal one again is a change
    // (README decisions). And a batch whose actions undo one another changed something, so it
    // returns a new state.
    // A `load` may bring a state equal to the one it replaces.
    let may_equal = matches!(
        action,
        SessionAction::Batch { .. } | SessionAction::Load { .. }
    ) || matches!(&outcome, Outcome::Changed(patches) if patches.iter().all(|patch| matches!(
        patch,
        Patch::UpdateData { .. } | Patch::AgentState { .. } | Patch::Source { .. }
            | Patch::SetCall { change: CallChange::Progress | CallChange::ApprovalAsked | CallChange::Approved, .. }
    )));
    if unchanged {
        prop_assert_eq!(&*fresh.state, &**old);
    } else if may_equal {
        prop_assert_eq!(&*fresh.state, &*next);
    } else {
        prop_assert_ne!(
            &*fresh.state,
            &**old,
            "a step that changes nothing must return the same state"
        );
        prop_assert_eq!(&*fresh.state, &*next);
    }
    check_open_index(&fresh, "incremental")?;
    // The carried session (as the wasm binding keeps it) agrees with a fresh one.
    let mut carried = chained.clone();
    let carried_outcome = reduce(&mut carried, action).expect("the carried session accepts it");
    prop_assert_eq!(
        carried_outcome == Outcome::Unchanged,
        unchanged,
        "the carried session disagrees on whether {:?} changes anything",
        action
    );
    prop_assert_eq!(&*carried.state, &*next);
    check_open_index(&carried, "carried")?;
    check_tree(&next, None, &mut HashSet::new())?;
    check_forks(&next.forks, &next.messages, 1)?;
    if !matches!(
        action,
        SessionAction::Edit { .. }
            | SessionAction::Regenerate { .. }
            | SessionAction::SwitchBranch { .. }
            | SessionAction::Retry
            | SessionAction::Reset
            | SessionAction::Load { .. }
            | SessionAction::Batch { .. }
            | SessionAction::Part {
                part: AgentStreamPart::Snapshot { .. },
                ..
            }
    ) {
        prop_assert_eq!(&next.forks, &old.forks, "{:?} changed the forks", action);
        for (new, was) in next.forks.iter().zip(&old.forks) {
            prop_assert!(Rc::ptr_eq(new, was), "{:?} copied a fork", action);
        }
    }
    if !may_replace_calls(action) {
        check_closed_calls_kept(old, &next)?;
    }
    check_effect(old, action, &next)?;
    Ok((next, carried))
}

/// The JSON of `state` with the `agent` of call `id` taken out.
fn without_agent_of(mut value: Value, id: &str) -> Value {
    fn strip(value: &mut Value, id: &str) {
        match value {
            Value::Object(object) => {
                if object.get("type") == Some(&json!("tool"))
                    && object.get("id") == Some(&json!(id))
                {
                    object.remove("agent");
                }
                object.values_mut().for_each(|child| strip(child, id));
            }
            Value::Array(items) => items.iter_mut().for_each(|child| strip(child, id)),
            _ => {}
        }
    }
    strip(&mut value, id);
    value
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// `replays` also applies some actions to the state before last first (as React Strict
    /// Mode calls a reducer twice, and as a discarded branch would), so the carried session
    /// shares its call index with states that diverged from it.
    #[test]
    fn every_step_keeps_the_invariants(actions in proptest::collection::vec((session_action(), any::<bool>()), 0..60)) {
        let mut state = Rc::new(SessionState::empty());
        let mut chained = Session::new(state.clone());
        let mut previous = chained.clone();
        for (action, replays) in &actions {
            if *replays {
                let _ = reduce(&mut previous.clone(), action);
            }
            let (next, carried) = step(&state, &chained, action)?;
            previous = std::mem::replace(&mut chained, carried);
            state = next;
        }
    }

    /// A `within` part belongs to the run behind its call: nothing outside that run changes.
    #[test]
    fn a_within_part_changes_only_the_run_behind_its_call(actions in proptest::collection::vec(session_action(), 0..60)) {
        let mut state = Rc::new(SessionState::empty());
        for action in &actions {
            let Ok(next) = session_reducer(&state, action) else {
                continue;
            };
            if let SessionAction::Part { within: Some(id), .. } = action {
                prop_assert_eq!(
                    without_agent_of(to_json(&next), id),
                    without_agent_of(to_json(&state), id),
                    "{:?} changed more than the run behind {}", action, id
                );
            }
            state = next;
        }
    }
}

/// Found by `every_step_keeps_the_invariants`: a message index first read by a state that
/// diverged (here, one without the user message `u2`) must still know `u2` in the other.
#[test]
fn a_message_index_first_used_by_a_diverged_state_still_knows_every_message() {
    let action = |value: Value| -> SessionAction { serde_json::from_value(value).unwrap() };
    let start =
        common::state(json!({ "messages": [common::user("u1", "Hi")], "status": "streaming" }));
    let mut session = Session::new(start);
    let mut before_send = session.clone();
    assert!(matches!(
        reduce(
            &mut session,
            // v3 queues a send while streaming: the run finishes first, so `u2` lands.
            &action(json!({ "type": "batch", "actions": [
                common::part(json!({ "type": "finish" })),
                { "type": "send", "id": "u2", "text": "And?" }
            ] }))
        ),
        Ok(Outcome::Changed(_))
    ));
    // The other branch looks a message id up first.
    let start = |id: &str| {
        action(common::part(
            json!({ "type": "message-start", "messageId": id }),
        ))
    };
    assert!(matches!(
        reduce(&mut before_send, &start("m1")),
        Ok(Outcome::Changed(_))
    ));
    assert!(matches!(
        reduce(&mut session, &start("m2")),
        Ok(Outcome::Changed(_))
    ));
    // `u2` is a user message (not the last one): a part for it is ignored.
    let for_u2 = action(common::part(
        json!({ "type": "text-delta", "messageId": "u2", "text": "x" }),
    ));
    assert_eq!(reduce(&mut session, &for_u2), Ok(Outcome::Unchanged));
}

/// Found by `every_step_keeps_the_invariants` (the last seed in the regressions file): an idle
/// session with no messages but an agent state is not the empty session, and `reset` empties it.
#[test]
fn reset_drops_the_agent_state_of_an_idle_session_without_messages() {
    let action = |value: Value| -> SessionAction { serde_json::from_value(value).unwrap() };
    let actions = [
        action(json!({ "type": "batch", "actions": [
            { "type": "continue" },
            common::part(json!({ "type": "agent-state", "snapshot": { "step": 1 } }))
        ] })),
        action(json!({ "type": "batch", "actions": [{ "type": "stop" }] })),
        action(json!({ "type": "reset" })),
    ];
    let mut state = Rc::new(SessionState::empty());
    let mut chained = Session::new(state.clone());
    for action in &actions {
        let (next, carried) = step(&state, &chained, action).unwrap();
        (state, chained) = (next, carried);
    }
    assert_eq!(*state, SessionState::empty());
}
