//! The rows of SPEC "Stream parts" (v1, v2 and v3), one function each: `reducer::apply_part`
//! dispatches to them.

use alloc::rc::Rc;
use alloc::{borrow::ToOwned, string::String, vec::Vec};

use super::actions;
use super::approval::{self, Answer, Question};
use super::edit::{reasoning_part, text_part, CallUpdate, Editor};
use super::find::{input_streaming_below, open_call_below};
use super::model::{
    is_cancelled, AgentMessage, AgentPart, DataPart, FinishReason, Json, Role, SessionError,
    SessionErrorCode, SessionState, SessionStatus, Text, ToolError, ToolPart, ToolState,
};
use super::patch::Slot;
use super::path::{visit_calls, CallPath, CallPos, RunPath};
use super::session::{position_in, Located, Seen};
use super::target::{create_target, find_message, resolve_target, target_message, Target};

/// SPEC "Stream parts": message-start.
pub fn message_start(
    editor: &mut Editor,
    run: &RunPath,
    message_id: &str,
    metadata: &Option<Json>,
) -> Option<()> {
    match find_message(editor, run, message_id)? {
        None => {
            let message = AgentMessage {
                id: message_id.to_owned(),
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
    }
    Some(())
}

/// SPEC "Stream parts": text-delta.
pub fn text_delta(
    editor: &mut Editor,
    run: &RunPath,
    message_id: &Option<String>,
    text: &Text,
    metadata: &Option<Json>,
) -> Option<()> {
    let metadata = metadata.as_ref();
    let part = text_part(text, metadata);
    append_or_add(editor, run, message_id.as_deref(), text, metadata, part)?;
    Some(())
}

/// SPEC v2 "Stream parts": reasoning-delta.
pub fn reasoning_delta(
    editor: &mut Editor,
    run: &RunPath,
    message_id: &Option<String>,
    text: &Text,
    metadata: &Option<Json>,
) -> Option<()> {
    let metadata = metadata.as_ref();
    let part = reasoning_part(text, metadata);
    append_or_add(editor, run, message_id.as_deref(), text, metadata, part)?;
    Some(())
}

/// SPEC "Stream parts": reasoning.
pub fn reasoning(
    editor: &mut Editor,
    run: &RunPath,
    message_id: &Option<String>,
    text: &Text,
    metadata: &Option<Json>,
) -> Option<()> {
    let Some(message) = target_message(editor, run, message_id.as_deref())? else {
        return Some(());
    };
    editor.push_part(run, message, reasoning_part(text, metadata.as_ref()))?;
    Some(())
}

/// SPEC "Stream parts": tool-call (and v2: it completes an input-streaming call).
pub fn tool_call(
    editor: &mut Editor,
    run: &RunPath,
    message_id: &Option<String>,
    id: &str,
    name: &str,
    input: &Json,
    metadata: &Option<Json>,
) -> Option<()> {
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
    Some(())
}

/// SPEC v2 "Stream parts": tool-input-delta.
pub fn tool_input_delta(
    editor: &mut Editor,
    run: &RunPath,
    message_id: &Option<String>,
    id: &str,
    name: &Option<String>,
    text: &Text,
    metadata: &Option<Json>,
) -> Option<()> {
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
    Some(())
}

/// SPEC v2 "Stream parts": tool-input-end.
pub fn tool_input_end(
    editor: &mut Editor,
    run: &RunPath,
    id: &str,
    metadata: &Option<Json>,
) -> Option<()> {
    if let Some(path) = input_streaming_below(editor, run, id) {
        editor.end_input(&path)?;
        merge_call_metadata(editor, &path, metadata.as_ref())?;
    }
    Some(())
}

/// SPEC "Stream parts": tool-result (and v2: preliminary).
pub fn tool_result(
    editor: &mut Editor,
    run: &RunPath,
    id: &str,
    output: &Json,
    preliminary: &Option<bool>,
    metadata: &Option<Json>,
) -> Option<()> {
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
    Some(())
}

/// SPEC v2 "Stream parts": tool-approval-request (the call and its question: `approval::ask`).
#[allow(clippy::too_many_arguments)]
pub fn tool_approval_request(
    editor: &mut Editor,
    run: &RunPath,
    id: &Option<String>,
    name: &Option<String>,
    approval_id: &Option<String>,
    prompt: &Option<String>,
    automatic: &Option<bool>,
    details: &Option<Json>,
) -> Option<()> {
    let question = Question {
        approval_id: approval_id.as_deref(),
        prompt: prompt.as_deref(),
        automatic: *automatic,
        details: details.as_ref(),
    };
    approval::ask(editor, run, id.as_deref(), name.as_deref(), question)?;
    Some(())
}

/// SPEC v2 "Stream parts": tool-approval-response (the call and its answer:
/// `approval::answer`).
#[allow(clippy::too_many_arguments)]
pub fn tool_approval_response(
    editor: &mut Editor,
    run: &RunPath,
    id: &Option<String>,
    approval_id: &Option<String>,
    approved: &bool,
    reason: &Option<String>,
    input: &Option<Json>,
    output: &Option<Json>,
) -> Option<()> {
    let answer = Answer {
        approved: *approved,
        reason: reason.as_deref(),
        input: input.as_ref(),
        output: output.as_ref(),
    };
    approval::answer(editor, run, id.as_deref(), approval_id.as_deref(), answer)?;
    Some(())
}

/// SPEC "Stream parts": tool-error.
pub fn tool_error(
    editor: &mut Editor,
    run: &RunPath,
    id: &str,
    error: &ToolError,
    metadata: &Option<Json>,
) -> Option<()> {
    if let Some(path) = open_call_below(editor, run, id) {
        let state = if is_cancelled(error) {
            ToolState::Cancelled
        } else {
            ToolState::Error
        };
        editor.set_call(&path, state, CallUpdate::Error { error })?;
        merge_call_metadata(editor, &path, metadata.as_ref())?;
    }
    Some(())
}

/// SPEC "Stream parts": finish (and v3: a top-level one sends the queue).
pub fn finish(editor: &mut Editor, run: &RunPath, reason: &Option<FinishReason>) -> Option<()> {
    editor.set_status(run, SessionStatus::Idle, None)?;
    if *reason == Some(FinishReason::Aborted) {
        editor.cancel_open(run)?;
    } else if run.is_empty() {
        actions::send_queue_after_finish(editor)?;
    }
    Some(())
}

/// SPEC "Stream parts": error.
pub fn error(
    editor: &mut Editor,
    run: &RunPath,
    error: &str,
    code: &Option<SessionErrorCode>,
) -> Option<()> {
    let error = SessionError {
        message: error.to_owned(),
        code: *code,
    };
    editor.set_status(run, SessionStatus::Error, Some(error))?;
    editor.cancel_open(run)?;
    Some(())
}

/// SPEC v2 "Stream parts": data.
///
/// With `id`, it updates the target's data part of that name and id, or is appended when
/// there is none (unless it is a patch, which then has nothing to patch).
#[allow(clippy::too_many_arguments)]
pub fn data(
    editor: &mut Editor,
    run: &RunPath,
    message_id: &Option<String>,
    name: &str,
    id: &Option<String>,
    data: &Option<Json>,
    patch: &Option<Json>,
    metadata: &Option<Json>,
) -> Option<()> {
    let message_id = message_id.as_deref();
    let target = resolve_target(editor, run, message_id)?;
    if let (Some(id), Target::Existing(message)) = (id, &target) {
        let parts = &editor.run(run)?.messages.get(*message)?.parts;
        let held = parts.iter().rposition(|part| {
            matches!(part.as_ref(), AgentPart::Data(DataPart { name: held, id: Some(held_id), .. })
                if held == name && held_id == id)
        });
        if let Some(part) = held {
            let (data, patch, metadata) = (data.as_ref(), patch.as_ref(), metadata.as_ref());
            return editor.update_data(run, *message, part, data, patch, metadata);
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

/// SPEC v2 "Stream parts": message-metadata.
pub fn message_metadata(
    editor: &mut Editor,
    run: &RunPath,
    message_id: &Option<String>,
    metadata: &Json,
) -> Option<()> {
    if let Some(message) = target_message(editor, run, message_id.as_deref())? {
        editor.merge_metadata(run, message, None, metadata)?;
    }
    Some(())
}

/// SPEC v2 "Stream parts": snapshot.
pub fn snapshot(
    editor: &mut Editor,
    run: &RunPath,
    messages: &[Rc<AgentMessage>],
    exact: &Option<bool>,
) -> Option<()> {
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
            if exact == &Some(true) && run.is_empty() {
                keep_forks_on_path(editor)?;
            }
        }
    }
    Some(())
}

/// SPEC v3 "Actions": snapshot: after an exact one, the forks whose `after` is no longer in
/// `messages` go, and the others follow their `after` in path order.
fn keep_forks_on_path(editor: &mut Editor) -> Option<()> {
    let state = editor.state();
    if state.forks.is_empty() {
        return Some(());
    }
    // Each fork by its `after`, then in the order of the messages: no sort.
    let mut by_after = Located::default();
    let mut kept = Vec::with_capacity(state.forks.len());
    for (index, fork) in state.forks.iter().enumerate() {
        match &fork.after {
            None => kept.push(index),
            Some(id) => {
                by_after.insert(
                    id.clone(),
                    Seen::at(&[CallPos {
                        message: index,
                        part: 0,
                    }]),
                );
            }
        }
    }
    for message in &state.messages {
        if let Some(index) = position_in(&by_after, &message.id) {
            kept.push(index);
        }
    }
    if kept.len() < state.forks.len() || kept.iter().enumerate().any(|(at, index)| at != *index) {
        editor.keep_forks(kept)?;
    }
    Some(())
}

/// SPEC v2 "Stream parts": agent-state.
pub fn agent_state(
    editor: &mut Editor,
    run: &RunPath,
    snapshot: &Option<Json>,
    patch: &Option<Json>,
) -> Option<()> {
    match (snapshot, patch) {
        (Some(snapshot), _) => editor.set_agent_state(run, snapshot)?,
        (None, Some(patch)) => editor.patch_agent_state(run, patch)?,
        (None, None) => {}
    }
    Some(())
}

/// SPEC v3 "Stream parts": step-start.
pub fn step_start(editor: &mut Editor, run: &RunPath, message_id: &Option<String>) -> Option<()> {
    let Some(message) = target_message(editor, run, message_id.as_deref())? else {
        return Some(());
    };
    let last = editor.run(run)?.messages.get(message)?.parts.last();
    if last.is_some_and(|part| matches!(**part, AgentPart::Step)) {
        return Some(());
    }
    editor.push_part(run, message, AgentPart::Step)
}

/// SPEC v3 "Stream parts": step-reset. It never creates a message.
pub fn step_reset(editor: &mut Editor, run: &RunPath, message_id: &Option<String>) -> Option<()> {
    let Target::Existing(message) = resolve_target(editor, run, message_id.as_deref())? else {
        return Some(());
    };
    let parts = &editor.run(run)?.messages.get(message)?.parts;
    let step = parts
        .iter()
        .rposition(|part| matches!(**part, AgentPart::Step));
    let keep = step.map_or(0, |step| step + 1);
    if keep == parts.len() {
        return Some(());
    }
    editor.cut_parts(run, message, keep)
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
        Some(last) if core::mem::discriminant(last.as_ref()) == core::mem::discriminant(&part) => {
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
    if holds_a_call_twice(editor, run, given, &held, exact) {
        return Some(None);
    }
    // Loops, not collects: each collect would be a copy of its code in the wasm.
    let kept = if exact {
        0
    } else {
        editor.run(run)?.messages.len()
    };
    let mut slots = Vec::with_capacity(kept + held.len());
    if exact {
        for (new, &at) in held.iter().enumerate() {
            slots.push((at, Some(new)));
        }
    } else {
        for at in 0..kept {
            slots.push((Some(at), None));
        }
        for (new, at) in held.iter().enumerate() {
            match at {
                Some(at) => slots.get_mut(*at)?.1 = Some(new),
                None => slots.push((None, Some(new))),
            }
        }
    }
    Some(Some(slots))
}

/// Whether the conversation would hold a call id twice with the snapshot's messages in the
/// run, replacing the held ones they name (`held`, as `snapshot_slots` found them), or all of
/// the run's messages when `exact`.
fn holds_a_call_twice(
    editor: &Editor,
    run: &RunPath,
    given: &[Rc<AgentMessage>],
    held: &[Option<usize>],
    exact: bool,
) -> bool {
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
    duplicate
}
