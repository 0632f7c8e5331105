//! The rows of SPEC "Actions" (v1, v2 and v3), one function each: `reducer::apply_action`
//! dispatches to them.

use alloc::rc::Rc;
use alloc::{borrow::ToOwned, string::String, vec::Vec};

use super::edit::{forks_before, repeats_an_id, user_message, CallUpdate, Editor};
use super::find::newest_named;
use super::model::{
    AgentMessage, AgentPart, AgentStreamPart, Fork, Json, OpenToolState, QueuedMessage, Role,
    SessionAction, SessionState, SessionStatus, Text, ToolState, MAX_NESTING,
};
use super::patch::Patch;
use super::path::CallPath;
use super::protocol::CALL_ID_TAKEN;
use super::reducer::{apply_action, apply_part};
use super::resumable::resumable_cut;
use super::session::{each_call, Located, Seen};

/// SPEC "Actions": send (v2: send when not streaming; v3: send with parts / metadata).
pub fn send(
    editor: &mut Editor,
    id: &str,
    text: &Text,
    parts: &[Rc<AgentPart>],
    metadata: &Option<Json>,
) -> Option<()> {
    let sendable = |part: &Rc<AgentPart>| matches!(**part, AgentPart::Text(_) | AgentPart::Data(_));
    // The binding refuses any other part as bad input; the core has no error to give.
    if !parts.iter().all(sendable) {
        return Some(());
    }
    if editor.state().status == SessionStatus::Streaming {
        return queue_message(editor, id, text, parts, metadata);
    }
    // The user moved on: no call is left waiting for ever.
    editor.cancel_open(&[])?;
    send_queue(editor);
    let message = user_message(id.to_owned(), text, parts, metadata.clone());
    editor.push_message(&[], message)?;
    editor.set_status(&[], SessionStatus::Streaming, None)?;
    Some(())
}

/// SPEC v3 "Actions": send while streaming (queued; replaces the v2 row).
fn queue_message(
    editor: &mut Editor,
    id: &str,
    text: &Text,
    parts: &[Rc<AgentPart>],
    metadata: &Option<Json>,
) -> Option<()> {
    editor.enqueue(QueuedMessage {
        id: id.to_owned(),
        text: text.clone(),
        parts: parts.to_vec(),
        metadata: metadata.clone(),
    });
    Some(())
}

/// SPEC v3 "Actions": send when not streaming: the queued messages go first, in order.
fn send_queue(editor: &mut Editor) {
    if !editor.state().queue.is_empty() {
        editor.send_queue();
    }
}

/// SPEC v3 "Actions": finish (top level, any reason but aborted) with a queue: sent as one
/// turn when no call is left open, else it waits.
pub fn send_queue_after_finish(editor: &mut Editor) -> Option<()> {
    if editor.state().queue.is_empty() || !editor.session.open.is_empty() {
        return Some(());
    }
    editor.send_queue();
    editor.set_status(&[], SessionStatus::Streaming, None)
}

/// SPEC v3 "Actions": unqueue.
pub fn unqueue(editor: &mut Editor, id: &str) -> Option<()> {
    match editor
        .state()
        .queue
        .iter()
        .position(|queued| queued.id == id)
    {
        Some(index) => editor.unqueue(index),
        None => Some(()),
    }
}

/// SPEC v3 "Actions": load.
pub fn load(editor: &mut Editor, state: &Rc<SessionState>) -> Option<()> {
    editor.load(Rc::clone(state));
    apply_load_rule(editor)
}

/// SPEC v3 "Storage": the load rule. Stored while streaming, the run is stopped; otherwise
/// only the open calls whose sub-agent run still streams are cancelled (as `stop` cancels
/// them): every other open call waits on the user, and stays answerable.
pub fn apply_load_rule(editor: &mut Editor) -> Option<()> {
    if editor.state().status == SessionStatus::Streaming {
        return stop(editor);
    }
    editor.cancel_open_where(&|editor, call| {
        let run = editor.call(&call.path).and_then(|call| call.agent.as_ref());
        run.is_some_and(|run| run.status == SessionStatus::Streaming)
    })
}

/// SPEC "Actions": part (and v2: part carrying an answer).
pub fn part(editor: &mut Editor, part: &AgentStreamPart, within: &Option<String>) -> Option<()> {
    if !applies(editor.state(), part) {
        return Some(());
    }
    match within {
        None => apply_part(editor, &[], part)?,
        Some(id) => part_within(editor, id, part)?,
    }
    Some(())
}

/// SPEC "Actions": part, and v2: part carrying an answer: whether a part applies to a run (the
/// root, or the sub-agent run it goes `within`) in the run's status.
pub fn applies(run: &SessionState, part: &AgentStreamPart) -> bool {
    run.status == SessionStatus::Streaming || part.is_answer()
}

/// SPEC "Actions": part with within.
///
/// A part for the sub-agent run behind the open call `id`. The first one creates the run;
/// a part that would change nothing does not.
fn part_within(editor: &mut Editor, id: &str, part: &AgentStreamPart) -> Option<()> {
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

/// SPEC "Actions": toolPhase (and v2: it never picks an input-streaming call).
pub fn tool_phase(
    editor: &mut Editor,
    name: &str,
    state: &OpenToolState,
    prompt: &Option<String>,
) -> Option<()> {
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
    Some(())
}

/// SPEC "Actions": stop.
pub fn stop(editor: &mut Editor) -> Option<()> {
    editor.set_status(&[], SessionStatus::Idle, None)?;
    editor.cancel_open(&[])?;
    Some(())
}

/// SPEC "Actions": retry (and v3: the forks whose `after` it cuts go too).
pub fn retry(editor: &mut Editor) -> Option<()> {
    let state = editor.state();
    let Some(cut) = resumable_cut(&state.messages) else {
        return Some(());
    };
    let forks = forks_before(&state.forks, &state.messages, cut.messages);
    let all = state.forks.len();
    if cut.changes(&editor.state().messages) {
        editor.truncate(cut);
    }
    if forks < all {
        editor.keep_forks((0..forks).collect())?;
    }
    editor.set_status(&[], SessionStatus::Streaming, None)?;
    Some(())
}

/// SPEC v2 "Actions": continue.
pub fn continue_run(editor: &mut Editor) -> Option<()> {
    editor.set_status(&[], SessionStatus::Streaming, None)?;
    Some(())
}

/// SPEC "Actions": reset (and v3: `forks` and the queue go too).
pub fn reset(editor: &mut Editor) -> Option<()> {
    let state = editor.state();
    let empty = state.messages.is_empty()
        && state.status == SessionStatus::Idle
        && state.error.is_none()
        && state.agent_state.is_none()
        && state.forks.is_empty()
        && state.queue.is_empty();
    if !empty {
        editor.reset();
    }
    Some(())
}

/// SPEC v2 "Actions": batch.
pub fn batch(editor: &mut Editor, actions: &[SessionAction]) -> Option<()> {
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
        if editor.refused.is_some() {
            return None;
        }
    }
    Some(())
}

/// A user message with this id and text.
/// SPEC v3 "Actions": edit.
pub fn edit(editor: &mut Editor, message_id: &str, id: &str, text: &Text) -> Option<()> {
    let messages = &editor.state().messages;
    let Some(at) = messages
        .iter()
        .rposition(|message| message.id == message_id && message.role == Role::User)
    else {
        return Some(());
    };
    if repeats_an_id(messages, at) {
        return Some(());
    }
    editor.cancel_open_from(at)?;
    editor.set_aside(at)?;
    editor.push_message(&[], user_message(id.to_owned(), text, &[], None))?;
    editor.set_status(&[], SessionStatus::Streaming, None)
}

/// SPEC v3 "Actions": regenerate.
pub fn regenerate(editor: &mut Editor, message_id: &Option<String>) -> Option<()> {
    let messages = &editor.state().messages;
    let end = match message_id {
        None => messages.len(),
        Some(id) => match messages
            .iter()
            .rposition(|message| message.id == *id && message.role == Role::Assistant)
        {
            Some(at) => at,
            None => return Some(()),
        },
    };
    let Some(user) = messages
        .get(..end)
        .unwrap_or_default()
        .iter()
        .rposition(|message| message.role == Role::User)
    else {
        return Some(());
    };
    if repeats_an_id(messages, user + 1) {
        return Some(());
    }
    // An empty tail is not set aside: the regenerate is a retry without a cut.
    if user + 1 < messages.len() {
        editor.cancel_open_from(user + 1)?;
        editor.set_aside(user + 1)?;
    }
    editor.set_status(&[], SessionStatus::Streaming, None)
}

/// SPEC v3 "Actions": switchBranch.
pub fn switch_branch(editor: &mut Editor, after: &Option<String>, to: usize) -> Option<()> {
    let state = editor.state();
    if state.status == SessionStatus::Streaming {
        return Some(());
    }
    let Some(fork) = state.forks.iter().position(|fork| fork.after == *after) else {
        return Some(());
    };
    let node = state.forks.get(fork)?;
    if to >= node.alternatives.len() || to == node.active {
        return Some(());
    }
    let kept = match after {
        None => 0,
        Some(id) => {
            1 + state
                .messages
                .iter()
                .position(|message| message.id == *id)?
        }
    };
    editor.cancel_open_from(kept)?;
    editor.switch_branch(fork, kept, to)?;
    editor.set_status(&[], SessionStatus::Idle, None)
}

/// SPEC v4 "Actions": prepend. The given messages whose id the conversation holds (active path
/// or branches; or an earlier given one) are skipped; the others go before `messages[0]`, a call
/// id among them that the active path holds, or that an earlier one has, refusing the action.
/// The forks given go before `forks`, but those after a skipped message (the conversation holds
/// that history and its forks), and the one after the last message prepended when the
/// conversation's own fork at the start moves there (the one the user may have switched:
/// docs/decisions.md). The work is the page's: each id is looked up in the indexes.
pub fn prepend(
    editor: &mut Editor,
    messages: &[Rc<AgentMessage>],
    forks: &[Rc<Fork>],
) -> Option<()> {
    let (mut page, mut calls) = (Located::default(), Located::default());
    let (mut kept, mut skipped) = (Vec::new(), Vec::new());
    for (index, message) in messages.iter().enumerate() {
        let session = &*editor.session;
        let held = page.get(&message.id).is_some()
            || in_branches(&session.state.forks, &message.id)
            || session
                .messages
                .find(&[], &session.state, &message.id)
                .is_some();
        if held {
            skipped.push(index);
            continue;
        }
        if let Some(call) = taken_call(editor, &mut calls, index, message) {
            editor.refuse(call, CALL_ID_TAKEN);
            return None;
        }
        page.get_or_insert_with(&message.id, Seen::default);
        kept.push(Rc::clone(message));
    }
    let Some(last) = kept.last() else {
        return Some(());
    };
    let after_moved = editor
        .state()
        .forks
        .first()
        .is_some_and(|fork| fork.after.is_none());
    let first_kept = skipped.first() != Some(&0);
    let (mut kept_forks, mut dropped) = (Vec::new(), Vec::new());
    for (index, fork) in forks.iter().enumerate() {
        let keep = match &fork.after {
            None => first_kept,
            Some(id) => page.get(id).is_some() && !(after_moved && *id == last.id),
        };
        match keep {
            true => kept_forks.push(Rc::clone(fork)),
            false => dropped.push(index),
        }
    }
    let patch = Patch::Prepend {
        skipped,
        dropped,
        after_moved,
    };
    editor.prepend(kept, kept_forks, patch);
    Some(())
}

/// The first call of the given message `index` (nested runs included) whose id the active path
/// holds or an earlier given message has (noted in `calls`), as its path in the action.
fn taken_call(
    editor: &Editor,
    calls: &mut Located,
    index: usize,
    message: &AgentMessage,
) -> Option<CallPath> {
    let session = &*editor.session;
    let mut taken = None;
    each_call(index, message, &mut |at, id| {
        let again = calls.get(id).is_some() || session.calls.contains(&session.state, id);
        if again && taken.is_none() {
            taken = Some(at.clone());
        }
        calls.get_or_insert_with(id, Seen::default);
    });
    taken
}

/// Whether a message of the branches of `forks` (nested forks' included) has this id.
fn in_branches(forks: &[Rc<Fork>], id: &str) -> bool {
    forks.iter().any(|fork| {
        let branches = fork.alternatives.iter().flatten();
        branches
            .clone()
            .any(|branch| branch.messages.iter().any(|message| message.id == id))
            || branches
                .clone()
                .any(|branch| in_branches(&branch.forks, id))
    })
}
