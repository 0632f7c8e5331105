//! The session state machine (SPEC "Actions" and "Stream parts").

use std::rc::Rc;

use super::approval::{self, Answer, Question};
use super::edit::{
    parse_owned_input, reasoning_part, text_part, CallUpdate, Editor, ParseInput, PatchSetsState,
};
use super::find::{input_streaming_below, newest_named, open_call_below};
use super::model::{
    is_cancelled, AgentMessage, AgentPart, AgentStreamPart, DataPart, FinishReason, Json, Role,
    SessionAction, SessionError, SessionState, SessionStatus, Text, TextPart, ToolPart, ToolState,
    MAX_NESTING,
};
use super::patch::{Patch, Slot};
use super::path::{visit_calls, CallPath, RunPath};
use super::protocol::MADE_UP_ID_PREFIX;
use super::resumable::resumable_cut;
use super::session::{Located, Seen, Session};

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
/// session holds; JSON Patch is left to whoever applies the patches.
pub fn reduce(session: &mut Session, action: &SessionAction) -> Outcome {
    reduce_with(session, action, &mut parse_owned_input, &mut |_, _| None)
}

/// `reduce` for a host that holds the texts and JSON values itself: it parses a streamed
/// tool input there, and says what an agent-state patch does to a run without agent state.
pub fn reduce_with<'a>(
    session: &'a mut Session,
    action: &SessionAction,
    parse_input: &'a mut ParseInput<'a>,
    patch_sets_state: &'a mut PatchSetsState<'a>,
) -> Outcome {
    let mut editor = Editor::new(session, parse_input, patch_sets_state);
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
                parts: vec![Rc::new(text_part(text, None))],
                metadata: None,
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
                && state.error.is_none()
                && state.agent_state.is_none();
            if !empty {
                editor.reset();
            }
        }
        SessionAction::Batch { actions } => {
            for action in actions {
                if !matches!(action, SessionAction::Batch { .. }) {
                    editor.begin_leaf();
                }
                // As at the top level (`reduce`), an action that stops before any edit is
                // ignored; one that stops after an edit leaves the session inconsistent.
                let mark = editor.mark();
                if apply_action(editor, action).is_none() && editor.logged_since(&mark) > 0 {
                    return None;
                }
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
        // The run would be at depth `path.len()`.
        if path.len() > MAX_NESTING {
            return Some(());
        }
        let mark = editor.mark();
        editor.start_agent(&path)?;
        apply_part(editor, &path, part)?;
        if editor.logged_since(&mark) == 1 {
            editor.undo_start_agent(&path, mark)?;
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
        AgentStreamPart::MessageStart {
            message_id,
            metadata,
        } => match find_message(editor, run, message_id)? {
            None => {
                let message = AgentMessage {
                    id: message_id.clone(),
                    role: Role::Assistant,
                    parts: Vec::new(),
                    metadata: metadata.clone(),
                };
                editor.push_message(run, message)?;
            }
            Some(index) => {
                let assistant = editor.run(run)?.messages.get(index)?.role == Role::Assistant;
                if let (true, Some(metadata)) = (assistant, metadata) {
                    editor.merge_metadata(run, index, None, metadata)?;
                }
            }
        },
        AgentStreamPart::TextDelta {
            message_id,
            text,
            metadata,
        } => {
            let metadata = metadata.as_ref();
            let part = text_part(text, metadata);
            append_or_add(editor, run, message_id.as_deref(), text, metadata, part)?;
        }
        AgentStreamPart::ReasoningDelta {
            message_id,
            text,
            metadata,
        } => {
            let metadata = metadata.as_ref();
            let part = reasoning_part(text, metadata);
            append_or_add(editor, run, message_id.as_deref(), text, metadata, part)?;
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
            metadata,
        } => {
            if let Some(path) = input_streaming_below(editor, run, id) {
                let update = CallUpdate::Called { name, input };
                editor.set_call(&path, ToolState::Running, update)?;
                return merge_call_metadata(editor, &path, metadata.as_ref());
            }
            if editor.session.calls.contains(editor.state(), id) {
                return Some(());
            }
            let Some(message) = target_message(editor, run, message_id.as_deref())? else {
                return Some(());
            };
            let call = new_call(id, name, input.clone(), None, metadata.as_ref());
            editor.push_part(run, message, AgentPart::Tool(call))?;
        }
        AgentStreamPart::ToolInputDelta {
            message_id,
            id,
            name,
            text,
            metadata,
        } => {
            if let Some(path) = input_streaming_below(editor, run, id) {
                editor.append_input(&path, text)?;
                return merge_call_metadata(editor, &path, metadata.as_ref());
            }
            let Some(name) = name else { return Some(()) };
            if editor.session.calls.contains(editor.state(), id) {
                return Some(());
            }
            let Some(message) = target_message(editor, run, message_id.as_deref())? else {
                return Some(());
            };
            let call = new_call(id, name, Json::Null, Some(text.clone()), metadata.as_ref());
            editor.push_part(run, message, AgentPart::Tool(call))?;
        }
        AgentStreamPart::ToolInputEnd { id, metadata } => {
            if let Some(path) = input_streaming_below(editor, run, id) {
                editor.end_input(&path)?;
                merge_call_metadata(editor, &path, metadata.as_ref())?;
            }
        }
        AgentStreamPart::ToolResult {
            id,
            output,
            preliminary,
            metadata,
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
            merge_call_metadata(editor, &path, metadata.as_ref())?;
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
        AgentStreamPart::ToolError {
            id,
            error,
            metadata,
        } => {
            if let Some(path) = open_call_below(editor, run, id) {
                let state = if is_cancelled(error) {
                    ToolState::Cancelled
                } else {
                    ToolState::Error
                };
                editor.set_call(&path, state, CallUpdate::Error { error })?;
                merge_call_metadata(editor, &path, metadata.as_ref())?;
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
        AgentStreamPart::Data {
            message_id,
            name,
            id,
            data,
            patch,
            metadata,
        } => apply_data(
            editor,
            run,
            message_id.as_deref(),
            name,
            id,
            data,
            patch,
            metadata,
        )?,
        AgentStreamPart::MessageMetadata {
            message_id,
            metadata,
        } => {
            if let Some(message) = target_message(editor, run, message_id.as_deref())? {
                editor.merge_metadata(run, message, None, metadata)?;
            }
        }
        AgentStreamPart::Snapshot { messages, exact } => {
            if let Some(slots) = snapshot_slots(editor, run, messages, exact.unwrap_or(false))? {
                // Every held message kept in place and none given (a snapshot of no messages)
                // changes nothing, and must not create a sub-agent's run.
                let held = editor.run(run)?.messages.len();
                let unchanged = slots.len() == held
                    && (0..held)
                        .zip(&slots)
                        .all(|(at, slot)| *slot == (Some(at), None));
                if !unchanged {
                    editor.snapshot(run, slots, messages)?;
                }
            }
        }
        AgentStreamPart::AgentState { snapshot, patch } => match (snapshot, patch) {
            (Some(snapshot), _) => editor.set_agent_state(run, Some(snapshot))?,
            (None, Some(_)) if editor.run(run)?.agent_state.is_some() => {
                editor.set_agent_state(run, None)?
            }
            // Whether the run gets an `agentState` decides what `reset` and a sub-agent's run
            // (created only by a part that changes it) do, so the core asks when it can.
            (None, Some(patch)) => match editor.patch_sets_state(patch) {
                // The value is the host's: the core holds that there is one.
                Some(true) => editor.set_agent_state(run, Some(&Json::Null))?,
                Some(false) => {}
                None => editor.set_agent_state(run, None)?,
            },
            (None, None) => {}
        },
        AgentStreamPart::StepFinish | AgentStreamPart::Unknown => {}
    }
    Some(())
}

/// Appends a delta's text to the target's last part when it is of the kind of `part`, and
/// merges the delta's metadata into it; else adds `part` (which carries the metadata). An
/// empty text without metadata changes nothing.
fn append_or_add(
    editor: &mut Editor,
    run: &RunPath,
    message_id: Option<&str>,
    text: &Text,
    metadata: Option<&Json>,
    part: AgentPart,
) -> Option<()> {
    if text.is_empty() && metadata.is_none() {
        return Some(());
    }
    let Some(message) = target_message(editor, run, message_id)? else {
        return Some(());
    };
    let parts = &editor.run(run)?.messages.get(message)?.parts;
    match parts.last() {
        Some(last) if std::mem::discriminant(last.as_ref()) == std::mem::discriminant(&part) => {
            let last = parts.len() - 1;
            if !text.is_empty() {
                editor.append_text(run, message, last, text)?;
            }
            match metadata {
                Some(metadata) => editor.merge_metadata(run, message, Some(last), metadata),
                None => Some(()),
            }
        }
        _ => editor.push_part(run, message, part),
    }
}

/// Merges a part's metadata, if it has some, into the call at `path`.
fn merge_call_metadata(
    editor: &mut Editor,
    path: &CallPath,
    metadata: Option<&Json>,
) -> Option<()> {
    let (Some(metadata), Some((call, run))) = (metadata, path.split_last()) else {
        return Some(());
    };
    editor.merge_metadata(run, call.message, Some(call.part), metadata)
}

fn new_call(
    id: &str,
    name: &str,
    input: Json,
    input_text: Option<Text>,
    metadata: Option<&Json>,
) -> ToolPart {
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
        metadata: metadata.cloned(),
    }
}

/// A `data` part: with `id`, it updates the target's data part of that name and id, or is
/// appended when there is none (unless it is a patch, which then has nothing to patch).
#[allow(clippy::too_many_arguments)]
fn apply_data(
    editor: &mut Editor,
    run: &RunPath,
    message_id: Option<&str>,
    name: &str,
    id: &Option<String>,
    data: &Option<Json>,
    patch: &Option<Json>,
    metadata: &Option<Json>,
) -> Option<()> {
    let target = resolve_target(editor, run, message_id)?;
    if let (Some(id), Target::Existing(message)) = (id, &target) {
        let parts = &editor.run(run)?.messages.get(*message)?.parts;
        let held = parts.iter().rposition(|part| {
            matches!(part.as_ref(), AgentPart::Data(DataPart { name: held, id: Some(held_id), .. })
                if held == name && held_id == id)
        });
        if let Some(part) = held {
            return editor.update_data(run, *message, part, data.as_ref(), metadata.as_ref());
        }
    }
    let (Some(data), None) = (data, patch) else {
        return Some(());
    };
    let Some(message) = create_target(editor, run, target)? else {
        return Some(());
    };
    let part = AgentPart::Data(DataPart {
        name: name.to_owned(),
        id: id.clone(),
        data: data.clone(),
        metadata: metadata.clone(),
    });
    editor.push_part(run, message, part)
}

/// Where each message of a snapshot goes in the run (see `Patch::Snapshot`), or `None` when
/// the snapshot is ignored: it holds a message id twice, or it would hold a call id twice in
/// the conversation.
fn snapshot_slots(
    editor: &Editor,
    run: &RunPath,
    given: &[Rc<AgentMessage>],
    exact: bool,
) -> Option<Option<Vec<Slot>>> {
    // Sets of ids as maps of the type the indexes use, so that the wasm has one copy of its code.
    let mut ids = Located::default();
    if !given
        .iter()
        .all(|message| ids.insert(message.id.clone(), Seen::default()).is_none())
    {
        return Some(None);
    }
    let mut held = Vec::with_capacity(given.len());
    for message in given {
        held.push(find_message(editor, run, &message.id)?);
    }
    let replaced = |path: &CallPath| {
        path.starts_with(run)
            && path
                .get(run.len())
                .is_some_and(|pos| exact || held.contains(&Some(pos.message)))
    };
    let probe = SessionState {
        messages: given.to_vec(),
        ..SessionState::empty()
    };
    let mut calls = Located::default();
    let mut duplicate = false;
    visit_calls(&probe, &mut Vec::new(), &mut |_, call| {
        duplicate = duplicate
            || calls.insert(call.id.clone(), Seen::default()).is_some()
            || editor
                .session
                .calls
                .locate(editor.state(), &call.id)
                .is_some_and(|path| !replaced(&path));
    });
    if duplicate {
        return Some(None);
    }
    let slots = if exact {
        held.iter()
            .copied()
            .zip((0..given.len()).map(Some))
            .collect()
    } else {
        let mut slots: Vec<_> = (0..editor.run(run)?.messages.len())
            .map(|at| (Some(at), None))
            .collect();
        for (new, at) in held.iter().enumerate() {
            match at {
                Some(at) => slots.get_mut(*at)?.1 = Some(new),
                None => slots.push((None, Some(new))),
            }
        }
        slots
    };
    Some(Some(slots))
}

/// The newest message of the run with this id: `Some(None)` when there is none.
fn find_message(editor: &Editor, run: &RunPath, id: &str) -> Option<Option<usize>> {
    Some(editor.session.messages.find(run, editor.run(run)?, id))
}

/// Where a part that targets a message (`text-delta`, `reasoning`, `tool-call`, `data`, …)
/// goes.
enum Target {
    Existing(usize),
    /// A new assistant message with this id.
    New(String),
    /// The part is ignored: its `messageId` is a user message's.
    Ignored,
}

fn resolve_target(editor: &Editor, run: &RunPath, message_id: Option<&str>) -> Option<Target> {
    let messages = &editor.run(run)?.messages;
    Some(match message_id {
        Some(id) => match find_message(editor, run, id)? {
            Some(index) if messages.get(index)?.role == Role::Assistant => Target::Existing(index),
            Some(_) => Target::Ignored,
            None => Target::New(id.to_owned()),
        },
        None => match messages.last() {
            Some(last) if last.role == Role::Assistant => Target::Existing(messages.len() - 1),
            _ => Target::New(made_up_id(messages.len())),
        },
    })
}

/// The id the core makes up for an assistant message the stream names none for:
/// `MADE_UP_ID_PREFIX` then its index. Written out because `format!` would bring the standard library's
/// formatting of integers and padded strings into the wasm for this one string (0.26 kB gzip).
fn made_up_id(index: usize) -> String {
    let mut digits = Vec::new();
    let mut rest = index;
    loop {
        digits.push(char::from(b'0' + (rest % 10) as u8));
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let mut id = String::from(MADE_UP_ID_PREFIX);
    id.extend(digits.iter().rev());
    id
}

/// The index of the target message, appended first when new; `Some(None)`: ignored.
fn create_target(editor: &mut Editor, run: &RunPath, target: Target) -> Option<Option<usize>> {
    match target {
        Target::Existing(index) => Some(Some(index)),
        Target::Ignored => Some(None),
        Target::New(id) => {
            let message = AgentMessage {
                id,
                role: Role::Assistant,
                parts: Vec::new(),
                metadata: None,
            };
            editor.push_message(run, message).map(Some)
        }
    }
}

/// The message a part goes to, appending it when needed. `Some(None)`: the part is ignored
/// (its `messageId` is a user message's).
fn target_message(
    editor: &mut Editor,
    run: &RunPath,
    message_id: Option<&str>,
) -> Option<Option<usize>> {
    let target = resolve_target(editor, run, message_id)?;
    create_target(editor, run, target)
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
        AgentPart::Text(TextPart { text, .. })
            if text.unchanged_by(&Text::Held { empty: false }) =>
        {
            Some((state.messages.len() - 1, message.parts.len() - 1))
        }
        _ => None,
    }
}
