//! The session state machine (SPEC "Actions" and "Stream parts").

use std::rc::Rc;

use super::edit::{reasoning_part, text_part, CallUpdate, Editor};
use super::model::{
    is_cancelled, AgentMessage, AgentPart, AgentStreamPart, FinishReason, Role, SessionAction,
    SessionError, SessionState, SessionStatus, Text, TextPart, ToolPart, ToolState,
};
use super::patch::Patch;
use super::path::{CallPath, RunPath};
use super::resumable::resumable_cut;
use super::session::{OpenCall, Session};

/// What an action did to a session.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The session changed; the patches say how, in order.
    Changed(Vec<Patch>),
    /// Nothing changed: the caller hands back the same state.
    Unchanged,
    /// An edit found the session inconsistent with itself midway (a bug, never expected):
    /// the session must not be used again.
    Broken,
}

/// Applies one action to a session in place, copying only the nodes on each changed path
/// that it shares with other states.
pub fn reduce(session: &mut Session, action: &SessionAction) -> Outcome {
    let mut editor = Editor::new(session);
    let applied = apply_action(&mut editor, action);
    match (applied, editor.patches.is_empty(), editor.touched) {
        (Some(()), false, _) => Outcome::Changed(editor.patches),
        (_, true, false) => Outcome::Unchanged,
        _ => Outcome::Broken,
    }
}

fn apply_action(editor: &mut Editor, action: &SessionAction) -> Option<()> {
    match action {
        SessionAction::Send { id, text } => {
            let message = AgentMessage {
                id: id.clone(),
                role: Role::User,
                parts: vec![Rc::new(text_part(text))],
            };
            editor.push_message(&[], message)?;
            editor.set_status(&[], SessionStatus::Streaming, None)?;
        }
        SessionAction::Part { part, within } => {
            if editor.state().status != SessionStatus::Streaming {
                return Some(());
            }
            match within {
                None => apply_part(editor, &[], part)?,
                Some(id) => apply_within(editor, id, part)?,
            }
        }
        SessionAction::ToolPhase {
            name,
            state,
            prompt,
        } => {
            let Some(call) = editor
                .session
                .open
                .iter()
                .rev()
                .find(|call| call.name == *name)
            else {
                return Some(());
            };
            let path = call.path.clone();
            let current = editor.call(&path)?;
            let state = ToolState::from(*state);
            if current.state != state || current.prompt != *prompt {
                editor.set_call(
                    &path,
                    state,
                    CallUpdate::Phase {
                        prompt: prompt.as_deref(),
                    },
                )?;
            }
        }
        SessionAction::Stop => {
            editor.set_status(&[], SessionStatus::Idle, None)?;
            editor.cancel_open(&[])?;
        }
        SessionAction::Retry => {
            let Some(cut) = resumable_cut(&editor.state().messages) else {
                return Some(());
            };
            if cut.changes(&editor.state().messages) {
                editor.truncate(cut);
            }
            editor.set_status(&[], SessionStatus::Streaming, None)?;
        }
        SessionAction::Reset => {
            let state = editor.state();
            let empty = state.messages.is_empty()
                && state.status == SessionStatus::Idle
                && state.error.is_none();
            if !empty {
                editor.reset();
            }
        }
    }
    Some(())
}

/// A part for the sub-agent run behind the open call `id`. The first one creates the run;
/// a part that would change nothing does not.
fn apply_within(editor: &mut Editor, id: &str, part: &AgentStreamPart) -> Option<()> {
    let call = editor.session.open.iter().find(|call| call.id == id)?;
    let path = call.path.clone();
    if editor.call(&path)?.agent.is_none() {
        editor.start_agent(&path)?;
        apply_part(editor, &path, part)?;
        if editor.patches.len() == 1 {
            editor.undo_start_agent(&path)?;
        }
        return Some(());
    }
    apply_part(editor, &path, part)
}

/// Applies a stream part to one run (the root, or a sub-agent run).
fn apply_part(editor: &mut Editor, run: &RunPath, part: &AgentStreamPart) -> Option<()> {
    if editor.run(run)?.status != SessionStatus::Streaming {
        return Some(());
    }
    match part {
        AgentStreamPart::MessageStart { message_id } => {
            if find_message(editor, run, message_id)?.is_none() {
                let message = AgentMessage {
                    id: message_id.clone(),
                    role: Role::Assistant,
                    parts: Vec::new(),
                };
                editor.push_message(run, message)?;
            }
        }
        AgentStreamPart::TextDelta { message_id, text } => {
            if text.is_empty() {
                return Some(());
            }
            let Some(message) = target_message(editor, run, message_id.as_deref())? else {
                return Some(());
            };
            let parts = &editor.run(run)?.messages.get(message)?.parts;
            match parts.last().map(|part| part.as_ref()) {
                Some(AgentPart::Text(_)) => {
                    editor.append_text(run, message, parts.len() - 1, text)?
                }
                _ => editor.push_part(run, message, text_part(text))?,
            }
        }
        AgentStreamPart::Reasoning {
            message_id,
            text,
            metadata,
        } => {
            let Some(message) = target_message(editor, run, message_id.as_deref())? else {
                return Some(());
            };
            editor.push_part(run, message, reasoning_part(text, metadata.as_ref()))?;
        }
        AgentStreamPart::ToolCall {
            message_id,
            id,
            name,
            input,
        } => {
            if editor.session.calls.contains(editor.state(), id) {
                return Some(());
            }
            let Some(message) = target_message(editor, run, message_id.as_deref())? else {
                return Some(());
            };
            let call = ToolPart {
                id: id.clone(),
                name: name.clone(),
                input: input.clone(),
                state: ToolState::Running,
                output: None,
                error: None,
                prompt: None,
                agent: None,
            };
            editor.push_part(run, message, AgentPart::Tool(call))?;
        }
        AgentStreamPart::ToolResult { id, output } => {
            if let Some(path) = open_call_below(editor, run, id) {
                editor.set_call(&path, ToolState::Done, CallUpdate::Result { output })?;
            }
        }
        AgentStreamPart::ToolError { id, error } => {
            if let Some(path) = open_call_below(editor, run, id) {
                let state = if is_cancelled(error) {
                    ToolState::Cancelled
                } else {
                    ToolState::Error
                };
                editor.set_call(&path, state, CallUpdate::Error { error })?;
            }
        }
        AgentStreamPart::Finish { reason } => {
            editor.set_status(run, SessionStatus::Idle, None)?;
            if *reason == Some(FinishReason::Aborted) {
                editor.cancel_open(run)?;
            }
        }
        AgentStreamPart::Error { error, code } => {
            let error = SessionError {
                message: error.clone(),
                code: *code,
            };
            editor.set_status(run, SessionStatus::Error, Some(error))?;
            editor.cancel_open(run)?;
        }
        AgentStreamPart::StepFinish | AgentStreamPart::Unknown => {}
    }
    Some(())
}

/// The newest message of the run with this id: `Some(None)` when there is none.
fn find_message(editor: &Editor, run: &RunPath, id: &str) -> Option<Option<usize>> {
    Some(
        editor
            .session
            .messages
            .find(editor.state(), run, editor.run(run)?, id),
    )
}

/// The message a `text-delta`, `reasoning` or `tool-call` part goes to, appending it when
/// needed. `Some(None)`: the part is ignored (its `messageId` is a user message's).
fn target_message(
    editor: &mut Editor,
    run: &RunPath,
    message_id: Option<&str>,
) -> Option<Option<usize>> {
    let messages = &editor.run(run)?.messages;
    let id = match message_id {
        Some(id) => match find_message(editor, run, id)? {
            Some(index) if messages.get(index)?.role == Role::Assistant => {
                return Some(Some(index))
            }
            Some(_) => return Some(None),
            None => id.to_owned(),
        },
        None => match messages.last() {
            Some(last) if last.role == Role::Assistant => return Some(Some(messages.len() - 1)),
            _ => format!("assistant-{}", messages.len()),
        },
    };
    let message = AgentMessage {
        id,
        role: Role::Assistant,
        parts: Vec::new(),
    };
    editor.push_message(run, message).map(Some)
}

/// The open call with this id in the run or the runs nested in it.
fn open_call_below(editor: &Editor, run: &RunPath, id: &str) -> Option<CallPath> {
    let below = |call: &&OpenCall| {
        call.id == id && call.path.len() > run.len() && call.path.starts_with(run)
    };
    editor
        .session
        .open
        .iter()
        .find(below)
        .map(|call| call.path.clone())
}

/// `sessionReducer` on Rust values: the same state back when nothing changes. `state` is
/// shared, so every node the action changes is copied and `state` stays as it is.
pub fn session_reducer(state: &Rc<SessionState>, action: &SessionAction) -> Rc<SessionState> {
    let mut session = Session::new(state.clone());
    match reduce(&mut session, action) {
        Outcome::Changed(_) => session.state,
        Outcome::Unchanged | Outcome::Broken => state.clone(),
    }
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
        AgentPart::Text(TextPart { text }) if text.unchanged_by(&Text::Held { empty: false }) => {
            Some((state.messages.len() - 1, message.parts.len() - 1))
        }
        _ => None,
    }
}
