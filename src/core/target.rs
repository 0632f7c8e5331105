//! Which message a part goes to: the targeting of SPEC "Stream parts" text-delta, which
//! `reasoning`, `tool-call`, `tool-input-delta`, `data` and `message-metadata` share.

use super::edit::Editor;
use super::model::{AgentMessage, Role};
use super::path::RunPath;
use super::protocol::MADE_UP_ID_PREFIX;
use alloc::{borrow::ToOwned, string::String, vec::Vec};

/// The newest message of the run with this id: `Some(None)` when there is none.
pub fn find_message(editor: &Editor, run: &RunPath, id: &str) -> Option<Option<usize>> {
    Some(editor.session.messages.find(run, editor.run(run)?, id))
}

/// Where a part that targets a message (`text-delta`, `reasoning`, `tool-call`, `data`, …)
/// goes.
pub enum Target {
    Existing(usize),
    /// A new assistant message with this id.
    New(String),
    /// The part is ignored: its `messageId` is a user message's.
    Ignored,
}

pub fn resolve_target(editor: &Editor, run: &RunPath, message_id: Option<&str>) -> Option<Target> {
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
/// `MADE_UP_ID_PREFIX` then its index (`assistant-3`). Written out because `format!` would bring the standard library's
/// formatting of integers and padded strings into the wasm for this one string.
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
    for digit in digits.iter().rev() {
        id.push(*digit);
    }
    id
}

/// The index of the target message, appended first when new; `Some(None)`: ignored.
pub fn create_target(editor: &mut Editor, run: &RunPath, target: Target) -> Option<Option<usize>> {
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
pub fn target_message(
    editor: &mut Editor,
    run: &RunPath,
    message_id: Option<&str>,
) -> Option<Option<usize>> {
    let target = resolve_target(editor, run, message_id)?;
    create_target(editor, run, target)
}
