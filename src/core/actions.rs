//! The rows of SPEC "Actions" (v1 and v2), one function each: `reducer::apply_action`
//! dispatches to them.

use std::rc::Rc;

use super::edit::{forks_before, repeats_an_id, text_part, CallUpdate, Editor};
use super::find::newest_named;
use super::model::{
    AgentMessage, AgentStreamPart, OpenToolState, Role, SessionAction, SessionState, SessionStatus,
    Text, ToolState, MAX_NESTING,
};
use super::reducer::{apply_action, apply_part};
use super::resumable::resumable_cut;

/// SPEC "Actions": send (and v2: send when not streaming).
pub fn send(editor: &mut Editor, id: &str, text: &Text) -> Option<()> {
    // The user moved on: no call is left waiting for ever. (While streaming, the
    // agent may take a queued message, and its calls go on.)
    if editor.state().status != SessionStatus::Streaming {
        editor.cancel_open(&[])?;
    }
    editor.push_message(&[], user_message(id, text))?;
    editor.set_status(&[], SessionStatus::Streaming, None)?;
    Some(())
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

/// SPEC "Actions": reset (and v3: `forks` goes too).
pub fn reset(editor: &mut Editor) -> Option<()> {
    let state = editor.state();
    let empty = state.messages.is_empty()
        && state.status == SessionStatus::Idle
        && state.error.is_none()
        && state.agent_state.is_none()
        && state.forks.is_empty();
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
    }
    Some(())
}

/// A user message with this id and text.
fn user_message(id: &str, text: &Text) -> AgentMessage {
    AgentMessage {
        id: id.to_owned(),
        role: Role::User,
        parts: vec![Rc::new(text_part(text, None))],
        metadata: None,
    }
}

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
    editor.push_message(&[], user_message(id, text))?;
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
