//! The session state machine (SPEC "Actions" and "Stream parts").

use std::rc::Rc;

use super::approval::{self, Answer, Question};
use super::edit::{parse_owned_input, reasoning_part, text_part, CallUpdate, Editor, ParseInput};
use super::find::{input_streaming_below, newest_named, open_call_below};
use super::model::{
    is_cancelled, AgentMessage, AgentPart, AgentStreamPart, FinishReason, Json, Role,
    SessionAction, SessionError, SessionState, SessionStatus, Text, TextPart, ToolPart, ToolState,
};
use super::patch::Patch;
use super::path::RunPath;
use super::resumable::resumable_cut;
use super::session::Session;

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
/// that it shares with other states. Streamed tool inputs are parsed from the texts the
/// session holds.
pub fn reduce(session: &mut Session, action: &SessionAction) -> Outcome {
    reduce_with(session, action, &mut parse_owned_input)
}

/// `reduce` for a host that holds the texts itself and parses a streamed tool input there.
pub fn reduce_with<'a>(
    session: &'a mut Session,
    action: &SessionAction,
    parse_input: &'a mut ParseInput<'a>,
) -> Outcome {
    let mut editor = Editor::new(session, parse_input);
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
            // The user moved on: no call is left waiting for ever. (While streaming, the
            // agent may take a queued message, and its calls go on.)
            if editor.state().status != SessionStatus::Streaming {
                editor.cancel_open(&[])?;
            }
            let message = AgentMessage {
                id: id.clone(),
                role: Role::User,
                parts: vec![Rc::new(text_part(text))],
            };
            editor.push_message(&[], message)?;
            editor.set_status(&[], SessionStatus::Streaming, None)?;
        }
        SessionAction::Part { part, within } => {
            if editor.state().status != SessionStatus::Streaming && !part.is_answer() {
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
            let Some(path) = newest_named(editor, &[], name) else {
                return Some(());
            };
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
        SessionAction::Continue => {
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
    if editor.run(run)?.status != SessionStatus::Streaming && !part.is_answer() {
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
            append_or_add(editor, run, message_id.as_deref(), text, text_part(text))?;
        }
        AgentStreamPart::ReasoningDelta {
            message_id,
            text,
            metadata,
        } => {
            let part = reasoning_part(text, metadata.as_ref());
            append_or_add(editor, run, message_id.as_deref(), text, part)?;
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
            if let Some(path) = input_streaming_below(editor, run, id) {
                let update = CallUpdate::Called { name, input };
                return editor.set_call(&path, ToolState::Running, update);
            }
            if editor.session.calls.contains(editor.state(), id) {
                return Some(());
            }
            let Some(message) = target_message(editor, run, message_id.as_deref())? else {
                return Some(());
            };
            let call = new_call(id, name, input.clone(), None);
            editor.push_part(run, message, AgentPart::Tool(call))?;
        }
        AgentStreamPart::ToolInputDelta {
            message_id,
            id,
            name,
            text,
            metadata: _,
        } => {
            if let Some(path) = input_streaming_below(editor, run, id) {
                return editor.append_input(&path, text);
            }
            let Some(name) = name else { return Some(()) };
            if editor.session.calls.contains(editor.state(), id) {
                return Some(());
            }
            let Some(message) = target_message(editor, run, message_id.as_deref())? else {
                return Some(());
            };
            let call = new_call(id, name, Json::Null, Some(text.clone()));
            editor.push_part(run, message, AgentPart::Tool(call))?;
        }
        AgentStreamPart::ToolInputEnd { id, metadata: _ } => {
            if let Some(path) = input_streaming_below(editor, run, id) {
                editor.end_input(&path)?;
            }
        }
        AgentStreamPart::ToolResult {
            id,
            output,
            preliminary,
        } => {
            let Some(path) = open_call_below(editor, run, id) else {
                return Some(());
            };
            if *preliminary == Some(true) {
                let state = editor.call(&path)?.state;
                editor.set_call(&path, state, CallUpdate::Progress { output })?;
            } else {
                editor.set_call(&path, ToolState::Done, CallUpdate::Result { output })?;
            }
        }
        AgentStreamPart::ToolApprovalRequest {
            id,
            name,
            approval_id,
            prompt,
            automatic,
            details,
        } => {
            let question = Question {
                approval_id: approval_id.as_deref(),
                prompt: prompt.as_deref(),
                automatic: *automatic,
                details: details.as_ref(),
            };
            approval::ask(editor, run, id.as_deref(), name.as_deref(), question)?;
        }
        AgentStreamPart::ToolApprovalResponse {
            id,
            approval_id,
            approved,
            reason,
            input,
            output,
        } => {
            let answer = Answer {
                approved: *approved,
                reason: reason.as_deref(),
                input: input.as_ref(),
                output: output.as_ref(),
            };
            approval::answer(editor, run, id.as_deref(), approval_id.as_deref(), answer)?;
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

/// Appends a delta's text to the target's last part when it is of the kind of `part`, else
/// adds `part`. An empty text changes nothing.
fn append_or_add(
    editor: &mut Editor,
    run: &RunPath,
    message_id: Option<&str>,
    text: &Text,
    part: AgentPart,
) -> Option<()> {
    if text.is_empty() {
        return Some(());
    }
    let Some(message) = target_message(editor, run, message_id)? else {
        return Some(());
    };
    let parts = &editor.run(run)?.messages.get(message)?.parts;
    match parts.last() {
        Some(last) if std::mem::discriminant(last.as_ref()) == std::mem::discriminant(&part) => {
            editor.append_text(run, message, parts.len() - 1, text)
        }
        _ => editor.push_part(run, message, part),
    }
}

fn new_call(id: &str, name: &str, input: Json, input_text: Option<Text>) -> ToolPart {
    let state = match input_text {
        Some(_) => ToolState::InputStreaming,
        None => ToolState::Running,
    };
    ToolPart {
        id: id.to_owned(),
        name: name.to_owned(),
        input,
        input_text,
        state,
        output: None,
        error: None,
        prompt: None,
        approval: None,
        agent: None,
    }
}

/// The newest message of the run with this id: `Some(None)` when there is none.
fn find_message(editor: &Editor, run: &RunPath, id: &str) -> Option<Option<usize>> {
    Some(editor.session.messages.find(run, editor.run(run)?, id))
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
