//! A state together with the indexes that keep each action's work independent of the size
//! of the conversation: the open calls, where each call id lives, and where each message id
//! lives in its run.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::model::SessionState;
use super::path::{call_at, visit_calls, visit_runs, CallPath, CallPos, RunPath};

/// An open call (`running` or `awaiting-confirmation`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenCall {
    pub path: CallPath,
    pub id: String,
    pub name: String,
}

/// A state and its indexes. Cloning is cheap: everything is shared.
#[derive(Clone, Debug)]
pub struct Session {
    pub state: Rc<SessionState>,
    /// The open calls of the whole tree, in document order.
    pub open: Rc<Vec<OpenCall>>,
    pub calls: CallIndex,
    pub messages: MessageIndex,
}

impl Session {
    /// Indexes a state: one walk over its calls.
    pub fn new(state: Rc<SessionState>) -> Self {
        let mut open = Vec::new();
        let mut located = HashMap::new();
        visit_calls(&state, &mut Vec::new(), &mut |path, call| {
            if call.state.is_open() {
                open.push(OpenCall {
                    path: path.clone(),
                    id: call.id.clone(),
                    name: call.name.clone(),
                });
            }
            located
                .entry(call.id.clone())
                .or_insert_with(|| path.clone());
        });
        Session {
            messages: MessageIndex::new(state.clone()),
            state,
            open: Rc::new(open),
            calls: CallIndex(Rc::new(RefCell::new(located))),
        }
    }
}

/// Where each call id was seen, shared by every state derived from the same indexed state.
///
/// Entries are hints checked against the state at hand, so states that diverged (a retry,
/// a reducer called twice on the same state) never get a wrong answer: an id that was never
/// seen is absent from all of them, and an entry that does not match falls back to a walk.
#[derive(Clone, Debug)]
pub struct CallIndex(Rc<RefCell<HashMap<String, CallPath>>>);

impl CallIndex {
    /// Whether a call with this id is anywhere in `state`, nested runs included.
    pub fn contains(&self, state: &SessionState, id: &str) -> bool {
        self.locate(state, id).is_some()
    }

    /// Where the call with this id is in `state`, nested runs included.
    pub fn locate(&self, state: &SessionState, id: &str) -> Option<CallPath> {
        let path = self.0.borrow().get(id).cloned()?;
        if call_at(state, &path).is_some_and(|call| call.id == id) {
            return Some(path);
        }
        let mut found = None;
        visit_calls(state, &mut Vec::new(), &mut |path, call| {
            if found.is_none() && call.id == id {
                found = Some(path.clone());
            }
        });
        let path = found?;
        self.0.borrow_mut().insert(id.to_owned(), path.clone());
        Some(path)
    }

    pub fn record(&self, id: &str, path: &CallPath) {
        self.0.borrow_mut().insert(id.to_owned(), path.clone());
    }
}

/// Where each message id was last seen: the path of its run, then the message's position
/// (its `part` unused). Keyed by id alone, like `CallIndex` (the same map type, so no second
/// copy of its code in the wasm): an id seen in two runs keeps the last, and the other run's
/// lookups fall back to a scan. Shared, like `CallIndex`, by every state derived from the same
/// indexed state, and checked like it.
///
/// Most actions never look a message up by id, so the indexed state's messages are read on
/// first use; every message added since, in any of the states that share the index, is
/// recorded as it is added. So an id absent from the index is in none of those states. (The
/// first use reads the indexed state, not the state at hand: that one may have diverged from
/// another state sharing the index, by a retry, say.)
#[derive(Clone, Debug)]
pub struct MessageIndex(Rc<RefCell<MessageIds>>);

#[derive(Debug)]
struct MessageIds {
    located: HashMap<String, CallPath>,
    /// The indexed state, until its messages are read.
    unread: Option<Rc<SessionState>>,
}

impl MessageIndex {
    pub fn new(state: Rc<SessionState>) -> Self {
        MessageIndex(Rc::new(RefCell::new(MessageIds {
            located: HashMap::new(),
            unread: Some(state),
        })))
    }

    /// The newest message with this id in `run`, the run at `path` below the root.
    pub fn find(&self, path: &RunPath, run: &SessionState, id: &str) -> Option<usize> {
        // The message being streamed is the usual one.
        if run.messages.last().is_some_and(|last| last.id == id) {
            return Some(run.messages.len() - 1);
        }
        let unread = self.0.borrow_mut().unread.take();
        if let Some(state) = unread {
            // In the indexed state, the last message with an id is the newest.
            let mut indexed = HashMap::new();
            visit_runs(&state, &mut Vec::new(), &mut |path, run| {
                for (index, message) in run.messages.iter().enumerate() {
                    indexed.insert(message.id.clone(), at(path, index));
                }
            });
            let located = &mut self.0.borrow_mut().located;
            for (id, seen) in indexed {
                // A message recorded since is newer than the indexed state's.
                located.entry(id).or_insert(seen);
            }
        }
        // Absent from the index: in no run at all.
        let seen = self.0.borrow().located.get(id).cloned()?;
        if let Some((last, seen_run)) = seen.split_last() {
            if seen_run == path
                && run
                    .messages
                    .get(last.message)
                    .is_some_and(|message| message.id == id)
            {
                return Some(last.message);
            }
        }
        let found = run.messages.iter().rposition(|message| message.id == id);
        if let Some(index) = found {
            self.record(path, id, index);
        }
        found
    }

    /// Notes where a message is.
    pub fn record(&self, path: &RunPath, id: &str, index: usize) {
        self.0
            .borrow_mut()
            .located
            .insert(id.to_owned(), at(path, index));
    }
}

/// The index's address of message `index` of the run at `path`.
fn at(path: &RunPath, index: usize) -> CallPath {
    let mut seen = path.to_vec();
    seen.push(CallPos {
        message: index,
        part: 0,
    });
    seen
}
