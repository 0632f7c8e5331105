//! Addresses inside a conversation tree: a call is reached through the calls whose
//! sub-agent runs hold it.

use super::own;
use alloc::vec::Vec;

use super::model::{AgentPart, SessionState, ToolPart};

/// A tool part inside one run: `messages[message].parts[part]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CallPos {
    /// The message's index in the run.
    pub message: usize,
    /// The part's index in the message.
    pub part: usize,
}

/// A run: the root (empty) or the sub-agent run behind the last call of the path.
pub type RunPath = [CallPos];

/// A call: the calls leading to its run, then its own position. Never empty.
/// Ordered lexicographically, which is document (pre-)order: a holder comes before the
/// calls of its sub-agent run, and those before the parts that follow the holder.
pub type CallPath = Vec<CallPos>;

/// The call at `pos` in `run`, if that part is a tool part.
pub fn call_in(run: &SessionState, pos: CallPos) -> Option<&ToolPart> {
    match run.messages.get(pos.message)?.parts.get(pos.part)?.as_ref() {
        AgentPart::Tool(call) => Some(call),
        _ => None,
    }
}

/// The run at `path` below `root`.
pub fn run_at<'a>(root: &'a SessionState, path: &RunPath) -> Option<&'a SessionState> {
    path.iter()
        .try_fold(root, |run, &pos| call_in(run, pos)?.agent.as_deref())
}

/// The call at `path` below `root`.
pub fn call_at<'a>(root: &'a SessionState, path: &[CallPos]) -> Option<&'a ToolPart> {
    let (&last, run) = path.split_last()?;
    call_in(run_at(root, run)?, last)
}

/// Mutable access to the call at `pos` in `run`, copying shared nodes on the way.
pub fn call_in_mut(run: &mut SessionState, pos: CallPos) -> Option<&mut ToolPart> {
    let message = own(run.messages.get_mut(pos.message)?);
    match own(message.parts.get_mut(pos.part)?) {
        AgentPart::Tool(call) => Some(call),
        _ => None,
    }
}

/// Mutable access to the run at `path`, copying only the nodes on the path.
pub fn run_at_mut<'a>(root: &'a mut SessionState, path: &RunPath) -> Option<&'a mut SessionState> {
    let mut run = root;
    for &pos in path {
        run = own(call_in_mut(run, pos)?.agent.as_mut()?);
    }
    Some(run)
}

/// Mutable access to the call at `path`, copying only the nodes on the path.
pub fn call_at_mut<'a>(root: &'a mut SessionState, path: &[CallPos]) -> Option<&'a mut ToolPart> {
    let (&last, run) = path.split_last()?;
    call_in_mut(run_at_mut(root, run)?, last)
}

/// Every call below `run`, nested ones included, in document order.
pub fn visit_calls(
    run: &SessionState,
    prefix: &mut CallPath,
    visit: &mut dyn FnMut(&CallPath, &ToolPart),
) {
    for (message_index, message) in run.messages.iter().enumerate() {
        for (part_index, part) in message.parts.iter().enumerate() {
            if let AgentPart::Tool(call) = part.as_ref() {
                prefix.push(CallPos {
                    message: message_index,
                    part: part_index,
                });
                visit(prefix, call);
                if let Some(agent) = &call.agent {
                    visit_calls(agent, prefix, visit);
                }
                prefix.pop();
            }
        }
    }
}

/// Every run below `run` (itself first), in document order.
pub fn visit_runs(
    run: &SessionState,
    prefix: &mut Vec<CallPos>,
    visit: &mut dyn FnMut(&RunPath, &SessionState),
) {
    visit(prefix, run);
    for (message_index, message) in run.messages.iter().enumerate() {
        for (part_index, part) in message.parts.iter().enumerate() {
            if let AgentPart::Tool(ToolPart {
                agent: Some(agent), ..
            }) = part.as_ref()
            {
                prefix.push(CallPos {
                    message: message_index,
                    part: part_index,
                });
                visit_runs(agent, prefix, visit);
                prefix.pop();
            }
        }
    }
}
