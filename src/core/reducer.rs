//! The session state machine: `apply_action` dispatches each action to its SPEC "Actions"
//! row (`actions`), `apply_part` each stream part to its SPEC "Stream parts" row (`parts`).

use alloc::rc::Rc;
use alloc::vec::Vec;

use super::actions;
use super::check::{check_action, check_state};
use super::edit::{parse_owned_input, Editor, ParseInput, PatchSetsState, Refusal};
use super::model::{
    AgentPart, AgentStreamPart, Role, SessionAction, SessionState, SessionStatus, Text, TextPart,
};
use super::parts;
use super::patch::Patch;
use super::path::RunPath;
use super::session::Session;
use crate::Error;

/// What an action did to a session.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The session changed; the patches say how, in order.
    Changed(Vec<Patch>),
    /// Nothing changed: the caller hands back the same state.
    Unchanged,
    /// v4: bad input that only the state shows (`prepend`): the caller throws its error and
    /// hands back nothing; the session may have changed (an earlier action of a batch) and
    /// must not be used again.
    Refused(Refusal),
    /// An edit found the session inconsistent with itself midway (a bug, never expected):
    /// the session must not be used again.
    Broken,
}

/// Applies one action to a session in place, copying only the nodes on each changed path
/// that it shares with other states. Streamed tool inputs are parsed from the texts the
/// session holds. Bad input is `Error::Invalid`, naming its path, and changes nothing: the
/// action is checked each time, the session's state the first time (`check_state`).
///
/// ```
/// use std::rc::Rc;
///
/// use chat_session_reducer::core::model::{SessionAction, SessionState};
/// use chat_session_reducer::core::{reduce, Outcome, Session};
/// use serde_json::{from_value, json};
///
/// let mut session = Session::new(Rc::new(SessionState::empty()));
/// let send: SessionAction = from_value(json!({ "type": "send", "id": "u-1", "text": "Hi" })).unwrap();
/// assert!(matches!(reduce(&mut session, &send), Ok(Outcome::Changed(_))));
/// assert_eq!(session.state.messages[0].id, "u-1");
/// // `reset` twice: the second changes nothing.
/// let reset: SessionAction = from_value(json!({ "type": "reset" })).unwrap();
/// reduce(&mut session, &reset).unwrap();
/// assert!(matches!(reduce(&mut session, &reset), Ok(Outcome::Unchanged)));
/// ```
pub fn reduce(session: &mut Session, action: &SessionAction) -> Result<Outcome, Error> {
    check_action(action)?;
    if !session.checked() {
        check_state(&session.state)?;
    }
    // A batch refused midway leaves its earlier actions applied: the session is put back.
    let before = (matches!(action, SessionAction::Batch { .. }) && holds_prepend(action))
        .then(|| session.clone());
    match reduce_with(session, action, &mut parse_owned_input, &mut |_, _| None) {
        Outcome::Broken => Err(Error::Internal),
        Outcome::Refused(refusal) => {
            if let Some(before) = before {
                *session = before;
            }
            Err(refusal.error())
        }
        outcome => {
            session.set_checked();
            Ok(outcome)
        }
    }
}

/// `reduce` for a host that holds the texts and JSON values itself: it parses a streamed
/// tool input there, and (with `js-binding`) says what an agent-state patch does to a run
/// without agent state.
pub fn reduce_with<'a>(
    session: &'a mut Session,
    action: &SessionAction,
    parse_input: &'a mut ParseInput<'a>,
    patch_sets_state: &'a mut PatchSetsState<'a>,
) -> Outcome {
    let mut editor = Editor::new(session, parse_input, patch_sets_state);
    let applied = apply_action(&mut editor, action);
    if let Some(refusal) = editor.refused.take() {
        return Outcome::Refused(refusal);
    }
    match (applied, editor.patches.is_empty(), editor.touched) {
        (Some(()), false, _) => Outcome::Changed(editor.patches),
        (_, true, false) => Outcome::Unchanged,
        _ => Outcome::Broken,
    }
}

/// Applies one action, by its row of SPEC "Actions".
pub fn apply_action(editor: &mut Editor, action: &SessionAction) -> Option<()> {
    match action {
        SessionAction::Send {
            id,
            text,
            parts,
            metadata,
        } => actions::send(editor, id, text, parts, metadata),
        SessionAction::Part { part, within } => actions::part(editor, part, within),
        SessionAction::ToolPhase {
            name,
            state,
            prompt,
        } => actions::tool_phase(editor, name, state, prompt),
        SessionAction::Stop => actions::stop(editor),
        SessionAction::Retry => actions::retry(editor),
        SessionAction::Continue => actions::continue_run(editor),
        SessionAction::Reset => actions::reset(editor),
        SessionAction::Batch { actions: batch } => actions::batch(editor, batch),
        SessionAction::Edit {
            message_id,
            id,
            text,
        } => actions::edit(editor, message_id, id, text),
        SessionAction::Regenerate { message_id } => actions::regenerate(editor, message_id),
        SessionAction::SwitchBranch { after, to } => actions::switch_branch(editor, after, *to),
        SessionAction::Unqueue { id } => actions::unqueue(editor, id),
        SessionAction::Load { state } => actions::load(editor, state),
        SessionAction::Prepend { messages, forks } => actions::prepend(editor, messages, forks),
    }
}

/// Whether an action is or holds a `prepend` (the one action the state can refuse).
fn holds_prepend(action: &SessionAction) -> bool {
    match action {
        SessionAction::Prepend { .. } => true,
        SessionAction::Batch { actions } => actions.iter().any(holds_prepend),
        _ => false,
    }
}

/// Applies a stream part to one run (the root, or a sub-agent run), by its row of SPEC
/// "Stream parts".
pub fn apply_part(editor: &mut Editor, run: &RunPath, part: &AgentStreamPart) -> Option<()> {
    if !actions::applies(editor.run(run)?, part) {
        return Some(());
    }
    match part {
        AgentStreamPart::MessageStart {
            message_id,
            metadata,
        } => parts::message_start(editor, run, message_id, metadata),
        AgentStreamPart::TextDelta {
            message_id,
            text,
            metadata,
        } => parts::text_delta(editor, run, message_id, text, metadata),
        AgentStreamPart::ReasoningDelta {
            message_id,
            text,
            metadata,
        } => parts::reasoning_delta(editor, run, message_id, text, metadata),
        AgentStreamPart::Reasoning {
            message_id,
            text,
            metadata,
        } => parts::reasoning(editor, run, message_id, text, metadata),
        AgentStreamPart::ToolCall {
            message_id,
            id,
            name,
            input,
            metadata,
        } => parts::tool_call(editor, run, message_id, id, name, input, metadata),
        AgentStreamPart::ToolInputDelta {
            message_id,
            id,
            name,
            text,
            metadata,
        } => parts::tool_input_delta(editor, run, message_id, id, name, text, metadata),
        AgentStreamPart::ToolInputEnd { id, metadata } => {
            parts::tool_input_end(editor, run, id, metadata)
        }
        AgentStreamPart::ToolResult {
            id,
            output,
            preliminary,
            metadata,
        } => parts::tool_result(editor, run, id, output, preliminary, metadata),
        AgentStreamPart::ToolApprovalRequest {
            id,
            name,
            approval_id,
            prompt,
            automatic,
            details,
        } => parts::tool_approval_request(
            editor,
            run,
            id,
            name,
            approval_id,
            prompt,
            automatic,
            details,
        ),
        AgentStreamPart::ToolApprovalResponse {
            id,
            approval_id,
            approved,
            reason,
            input,
            output,
        } => parts::tool_approval_response(
            editor,
            run,
            id,
            approval_id,
            approved,
            reason,
            input,
            output,
        ),
        AgentStreamPart::ToolError {
            id,
            error,
            metadata,
        } => parts::tool_error(editor, run, id, error, metadata),
        AgentStreamPart::Finish { reason } => parts::finish(editor, run, reason),
        AgentStreamPart::Error { error, code } => parts::error(editor, run, error, code),
        AgentStreamPart::Data {
            message_id,
            name,
            id,
            data,
            patch,
            metadata,
        } => parts::data(editor, run, message_id, name, id, data, patch, metadata),
        AgentStreamPart::MessageMetadata {
            message_id,
            metadata,
        } => parts::message_metadata(editor, run, message_id, metadata),
        AgentStreamPart::Snapshot { messages, exact } => {
            parts::snapshot(editor, run, messages, exact)
        }
        AgentStreamPart::AgentState { snapshot, patch } => {
            parts::agent_state(editor, run, snapshot, patch)
        }
        AgentStreamPart::StepStart { message_id } => parts::step_start(editor, run, message_id),
        AgentStreamPart::StepReset { message_id } => parts::step_reset(editor, run, message_id),
        // SPEC "Stream parts": step-finish, and an unknown part type: no change.
        AgentStreamPart::StepFinish | AgentStreamPart::Unknown => Some(()),
    }
}

/// `sessionReducer` on Rust values: the same state back when nothing changes. `state` is
/// shared, so every node the action changes is copied and `state` stays as it is. Bad input is
/// `Error::Invalid` with its path (`action.part.id`, `state.forks[0].after`), as the package
/// throws it; a state this function did not return lately is checked whole first, once.
///
/// ```
/// use std::rc::Rc;
///
/// use chat_session_reducer::core::model::{SessionAction, SessionState, SessionStatus};
/// use chat_session_reducer::core::session_reducer;
/// use serde_json::{from_value, json};
///
/// let idle = Rc::new(SessionState::empty());
/// let send: SessionAction = from_value(json!({ "type": "send", "id": "u-1", "text": "Hi" })).unwrap();
/// let sent = session_reducer(&idle, &send).unwrap();
/// assert_eq!(sent.status, SessionStatus::Streaming);
/// assert!(idle.messages.is_empty(), "the input state is as it was");
///
/// // A stream part while idle changes nothing: the same `Rc` comes back.
/// let late: SessionAction =
///     from_value(json!({ "type": "part", "part": { "type": "text-delta", "text": "late" } })).unwrap();
/// assert!(Rc::ptr_eq(&session_reducer(&idle, &late).unwrap(), &idle));
///
/// // A reply streaming after the user's message leaves that message as it was: the same `Rc`,
/// // so a fine-grained UI (Leptos, Dioxus, Yew) re-renders only the reply.
/// let start: SessionAction = from_value(json!({ "type": "part", "part": { "type": "message-start", "messageId": "a-1" } })).unwrap();
/// let delta: SessionAction = from_value(json!({ "type": "part", "part": { "type": "text-delta", "text": "Hello" } })).unwrap();
/// let started = session_reducer(&sent, &start).unwrap();
/// let replied = session_reducer(&started, &delta).unwrap();
/// assert!(Rc::ptr_eq(&sent.messages[0], &replied.messages[0]));
/// assert!(!Rc::ptr_eq(&started.messages[1], &replied.messages[1]));
/// ```
pub fn session_reducer(
    state: &Rc<SessionState>,
    action: &SessionAction,
) -> Result<Rc<SessionState>, Error> {
    check_action(action)?;
    if !returned::lately(state) {
        check_state(state)?;
    }
    let mut session = Session::new(state.clone());
    session.set_checked();
    match reduce_with(&mut session, action, &mut parse_owned_input, &mut |_, _| {
        None
    }) {
        Outcome::Changed(_) => {
            returned::remember(&session.state);
            Ok(session.state)
        }
        Outcome::Unchanged => Ok(state.clone()),
        Outcome::Refused(refusal) => Err(refusal.error()),
        Outcome::Broken => Err(Error::Internal),
    }
}

/// The states `session_reducer` returned lately, which it need not check again. Held weakly:
/// an entry keeps no state alive, and a live one cannot be changed in place (`Rc::get_mut`
/// refuses while a `Weak` points at it, and `Rc::make_mut` moves the value out).
mod returned {
    use alloc::rc::{Rc, Weak};
    use alloc::vec::Vec;
    use core::cell::RefCell;

    use crate::core::model::SessionState;

    const KEPT: usize = 16;

    crate::per_thread::per_thread! {
        static LATELY: RefCell<Vec<Weak<SessionState>>> = RefCell::new(Vec::new());
    }

    /// Whether `state` is one of the last states returned (and so was checked).
    pub fn lately(state: &Rc<SessionState>) -> bool {
        let mine = Rc::downgrade(state);
        LATELY
            .try_with(|lately| {
                lately
                    .try_borrow()
                    .is_ok_and(|lately| lately.iter().any(|kept| kept.ptr_eq(&mine)))
            })
            .unwrap_or(false)
    }

    /// Remembers a state just returned, forgetting the oldest past `KEPT`.
    pub fn remember(state: &Rc<SessionState>) {
        let _ = LATELY.try_with(|lately| {
            if let Ok(mut lately) = lately.try_borrow_mut() {
                lately.retain(|kept| kept.strong_count() > 0);
                if lately.len() >= KEPT {
                    lately.remove(0);
                }
                lately.push(Rc::downgrade(state));
            }
        });
    }
}

/// SPEC v3 "Storage" (and "Actions": load): `state` as a reload shows it, the load rule
/// applied; `state` itself when nothing needs stopping. For Rust users restoring a stored
/// conversation: the same rule as the `load` action, and the same check of `state`
/// (`action.state…` paths).
///
/// ```
/// use std::rc::Rc;
///
/// use chat_session_reducer::core::load_rule;
/// use chat_session_reducer::core::model::{AgentPart, SessionState, SessionStatus, ToolState};
/// use serde_json::{from_value, json};
///
/// // Saved mid-reply, with a call still running.
/// let saved: Rc<SessionState> = Rc::new(from_value(json!({
///     "messages": [
///         { "id": "u-1", "role": "user", "parts": [{ "type": "text", "text": "Search" }] },
///         { "id": "a-1", "role": "assistant", "parts": [
///             { "type": "tool", "id": "c-1", "name": "search", "input": {}, "state": "running" }
///         ] }
///     ],
///     "status": "streaming"
/// })).unwrap());
/// let loaded = load_rule(&saved).unwrap();
/// assert_eq!(loaded.status, SessionStatus::Idle);
/// assert!(matches!(&*loaded.messages[1].parts[0], AgentPart::Tool(call) if call.state == ToolState::Cancelled));
/// // Nothing to stop: the state itself comes back.
/// assert!(Rc::ptr_eq(&load_rule(&loaded).unwrap(), &loaded));
/// ```
pub fn load_rule(state: &Rc<SessionState>) -> Result<Rc<SessionState>, Error> {
    let load = SessionAction::Load {
        state: Rc::clone(state),
    };
    session_reducer(&Rc::new(SessionState::empty()), &load)
}

/// Where a `text-delta` with no `within`, and no `messageId` or the last message's, goes when
/// all it does is append to a text part that appending leaves unchanged here (a text the host
/// holds): the root run is streaming, and the last message is an assistant's ending with such
/// a text part. The host can then apply such a delta itself, without a step. `None` otherwise.
pub fn plain_append_target(session: &Session) -> Option<(usize, usize)> {
    let state = &session.state;
    let message = state.messages.last()?;
    if state.status != SessionStatus::Streaming || message.role != Role::Assistant {
        return None;
    }
    match message.parts.last()?.as_ref() {
        AgentPart::Text(TextPart { text, .. })
            if text.unchanged_by(&Text::Held { empty: false }) =>
        {
            Some((state.messages.len() - 1, message.parts.len() - 1))
        }
        _ => None,
    }
}
