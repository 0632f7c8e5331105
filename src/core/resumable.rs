//! `resumable(messages)`: what Retry sends.

use super::own;
use alloc::rc::Rc;
use alloc::vec::Vec;

use super::model::{AgentMessage, AgentPart, Role};
use super::path::CallPos;

/// Where Retry cuts the conversation: the first `messages` messages, and of the last one
/// kept only the first `parts` parts when set (set only when that drops some).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// How many messages are kept.
    pub messages: usize,
    /// How many parts of the last one kept are, when set.
    pub parts: Option<usize>,
}

impl Cut {
    /// Whether cutting here drops anything.
    pub fn changes(&self, messages: &[Rc<AgentMessage>]) -> bool {
        self.messages < messages.len()
            || self.parts.is_some_and(|parts| {
                messages
                    .get(self.messages.wrapping_sub(1))
                    .is_some_and(|last| parts < last.parts.len())
            })
    }

    /// Cuts `messages` in place, copying the last message kept only when it loses parts.
    pub fn apply_to(&self, messages: &mut Vec<Rc<AgentMessage>>) {
        messages.truncate(self.messages);
        if let (Some(parts), Some(last)) = (self.parts, messages.last_mut()) {
            if parts < last.parts.len() {
                own(last).parts.truncate(parts);
            }
        }
    }

    /// Whether the part at `pos` (a position in the root run) is kept.
    pub fn keeps(&self, pos: CallPos) -> bool {
        pos.message + 1 < self.messages
            || (pos.message + 1 == self.messages && self.parts.is_none_or(|parts| pos.part < parts))
    }

    /// The first `messages` of `messages`, cut (a new list; `messages` is as it was).
    pub fn apply(&self, messages: &[Rc<AgentMessage>]) -> Vec<Rc<AgentMessage>> {
        let mut kept = messages[..self.messages.min(messages.len())].to_vec();
        self.apply_to(&mut kept);
        kept
    }
}

/// The cut after the last finished call (`done` or `error`) that follows the last user
/// message, top level only; without one, the cut after the last user message.
/// `None` when there is no user message: Retry has nothing to resend.
pub fn resumable_cut(messages: &[Rc<AgentMessage>]) -> Option<Cut> {
    let user = messages
        .iter()
        .rposition(|message| message.role == Role::User)?;
    for (index, message) in messages.iter().enumerate().skip(user + 1).rev() {
        let finished = message.parts.iter().rposition(|part| match part.as_ref() {
            AgentPart::Tool(call) => call.state.is_finished(),
            _ => false,
        });
        if let Some(part) = finished {
            // Only a message that loses parts is cut: one that ends with the call stays as it is.
            let parts = (part + 1 < message.parts.len()).then_some(part + 1);
            return Some(Cut {
                messages: index + 1,
                parts,
            });
        }
    }
    Some(Cut {
        messages: user + 1,
        parts: None,
    })
}

/// `resumable(messages)`: a new list; unchanged when there is no user message.
///
/// ```
/// use std::rc::Rc;
///
/// use chat_session_reducer::core::model::AgentMessage;
/// use chat_session_reducer::core::resumable;
/// use serde_json::{from_value, json};
///
/// let messages: Vec<Rc<AgentMessage>> = from_value(json!([
///     { "id": "u-1", "role": "user", "parts": [{ "type": "text", "text": "Hi" }] },
///     { "id": "a-1", "role": "assistant", "parts": [{ "type": "text", "text": "Hel" }] }
/// ])).unwrap();
/// // No finished call after the last user message: the cut is right after it.
/// let kept = resumable(&messages);
/// assert_eq!(kept.len(), 1);
/// assert!(Rc::ptr_eq(&kept[0], &messages[0]));
/// ```
pub fn resumable(messages: &[Rc<AgentMessage>]) -> Vec<Rc<AgentMessage>> {
    match resumable_cut(messages) {
        Some(cut) => cut.apply(messages),
        None => messages.to_vec(),
    }
}
