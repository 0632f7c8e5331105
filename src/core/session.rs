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
            state,
            open: Rc::new(open),
            calls: CallIndex(Rc::new(RefCell::new(located))),
            messages: MessageIndex::default(),
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
        let hint = self.0.borrow().get(id).cloned();
        let Some(path) = hint else { return false };
        if call_at(state, &path).is_some_and(|call| call.id == id) {
            return true;
        }
        let mut found = None;
        visit_calls(state, &mut Vec::new(), &mut |path, call| {
            if found.is_none() && call.id == id {
                found = Some(path.clone());
            }
        });
        match found {
            Some(path) => {
                self.0.borrow_mut().insert(id.to_owned(), path);
                true
            }
            None => false,
        }
    }

    pub fn record(&self, id: &str, path: &CallPath) {
        self.0.borrow_mut().insert(id.to_owned(), path.clone());
    }
}

/// Where each message id was last seen: the path of its run, then the message's position
/// (its `part` unused). Keyed by id alone, like `CallIndex` (the same map type, so no second
/// copy of its code in the wasm): an id seen in two runs keeps the last, and the other run's
/// lookups fall back to a scan. Built from the state on first use, since most actions never
/// look a message up by id; then kept up to date, and checked like `CallIndex`.
#[derive(Clone, Debug, Default)]
pub struct MessageIndex(Rc<RefCell<Option<HashMap<String, CallPath>>>>);

impl MessageIndex {
    /// The newest message with this id in `run`, the run at `path` below `root`.
    pub fn find(
        &self,
        root: &SessionState,
        path: &RunPath,
        run: &SessionState,
        id: &str,
    ) -> Option<usize> {
        // The message being streamed is the usual one.
        if run.messages.last().is_some_and(|last| last.id == id) {
            return Some(run.messages.len() - 1);
        }
        if self.0.borrow().is_none() {
            self.build(root);
        }
        // Absent from the index: in no run at all.
        let seen = self
            .0
            .borrow()
            .as_ref()
            .and_then(|located| located.get(id).cloned())?;
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

    fn build(&self, root: &SessionState) {
        *self.0.borrow_mut() = Some(HashMap::new());
        visit_runs(root, &mut Vec::new(), &mut |path, run| {
            for (index, message) in run.messages.iter().enumerate() {
                self.record(path, &message.id, index);
            }
        });
    }

    /// Notes where a message is; before the first lookup there is nothing to keep up to date.
    pub fn record(&self, path: &RunPath, id: &str, index: usize) {
        if let Some(located) = self.0.borrow_mut().as_mut() {
            let mut seen = path.to_vec();
            seen.push(CallPos {
                message: index,
                part: 0,
            });
            located.insert(id.to_owned(), seen);
        }
    }
}
