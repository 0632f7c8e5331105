//! A state together with the indexes that keep each action's work independent of the size
//! of the conversation: the open calls, where each call id lives, and where each message id
//! lives in its run.

use alloc::rc::Rc;
use alloc::{boxed::Box, string::String, vec, vec::Vec};
use core::cell::{RefCell, RefMut};
use core::ops::Range;

use super::id_map::IdMap;
use super::model::{AgentMessage, AgentPart, SessionState, ToolPart};
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
    /// The state.
    pub state: Rc<SessionState>,
    /// The open calls of the whole tree, in document order.
    pub open: Rc<Vec<OpenCall>>,
    /// Where each call id is (shared by every state derived from the same indexed state).
    pub calls: CallIndex,
    /// Where each message id is (shared likewise).
    pub messages: MessageIndex,
    /// Whether `reduce` checked the state (`check_state`), so that it checks it once: the
    /// states the core makes from a checked one are sound. (Not in the package, whose reader
    /// checks every state it did not make: a larger `Session` cost its wasm 136 bytes gzip.)
    #[cfg(not(feature = "js-binding"))]
    pub(crate) checked: bool,
}

impl Session {
    /// Indexes a state: one walk over its calls, for the open ones (the ids of all of them
    /// are read on first use).
    pub fn new(state: Rc<SessionState>) -> Self {
        let mut open = Vec::new();
        visit_calls(&state, &mut Vec::new(), &mut |path, call| {
            if call.state.is_open() {
                open.push(OpenCall {
                    path: path.clone(),
                    id: call.id.clone(),
                    name: call.name.clone(),
                });
            }
        });
        Session {
            messages: MessageIndex::new(state.clone()),
            calls: CallIndex::new(state.clone()),
            state,
            open: Rc::new(open),
            #[cfg(not(feature = "js-binding"))]
            checked: false,
        }
    }
}

#[cfg(not(feature = "js-binding"))]
impl Session {
    /// Whether `reduce` checked its state.
    pub(crate) fn checked(&self) -> bool {
        self.checked
    }

    /// Marks the state as checked.
    pub(crate) fn set_checked(&mut self) {
        self.checked = true;
    }
}

/// With `js-binding` the package's reader checks every state it did not make.
#[cfg(feature = "js-binding")]
impl Session {
    pub(crate) fn checked(&self) -> bool {
        false
    }

    pub(crate) fn set_checked(&mut self) {}
}

impl Session {
    /// Forgets, in the indexes, the messages a run no longer holds (everything in them,
    /// nested runs included), so that they hold only what the state holds. Call it wherever
    /// messages are removed.
    pub fn forget_messages(&mut self, messages: &[Rc<AgentMessage>]) {
        for message in messages {
            self.messages.forget(&message.id);
            self.forget_parts(&message.parts);
        }
    }

    /// Notes, in the indexes, the root's messages from `from` on (their calls and nested runs
    /// included): a branch that joined the path, whose calls are none of them open.
    pub fn learn_messages(&mut self, from: usize) {
        let end = self.state.messages.len();
        self.learn_range(from..end, true, true);
    }

    /// v4: the root's first `count` messages were just put before the others (`prepend`; none
    /// of their calls open): the indexes' positions of the others move by `count`, and the new
    /// ones are noted. An index not yet read, or shared with another session, is started
    /// afresh from the state instead (read on first use), which then holds them already.
    pub fn learn_prepended(&mut self, count: usize) {
        if !self.open.is_empty() {
            for call in crate::core::own(&mut self.open) {
                if let Some(first) = call.path.first_mut() {
                    first.message += count;
                }
            }
        }
        let calls = self.calls.shift(&self.state, count);
        let messages = self.messages.shift(&self.state, count);
        self.learn_range(0..count, calls, messages);
    }

    /// Notes the root's messages in `range` (their calls and nested runs included) in the call
    /// index (`calls_too`) and the message index (`messages_too`).
    fn learn_range(&mut self, range: Range<usize>, calls_too: bool, messages_too: bool) {
        let state = Rc::clone(&self.state);
        let held = state.messages.get(range.clone()).unwrap_or_default();
        for (index, message) in range.zip(held) {
            if messages_too {
                self.messages.record(&state, &[], &message.id, index);
                learn_nested_messages(&mut self.messages, &state, index, message);
            }
            if calls_too {
                learn_calls(&self.calls, index, message);
            }
        }
    }

    /// Forgets, in the indexes, the parts a message no longer holds.
    pub fn forget_parts(&mut self, parts: &[Rc<AgentPart>]) {
        for part in parts {
            if let AgentPart::Tool(call) = part.as_ref() {
                self.calls.forget(&call.id);
                if let Some(agent) = &call.agent {
                    self.forget_messages(&agent.messages);
                }
            }
        }
    }
}

/// Notes the calls of the root's message `index`, nested ones included.
fn learn_calls(calls: &CallIndex, index: usize, message: &AgentMessage) {
    each_call(index, message, &mut |at, id| calls.record(id, at));
}

/// Each call of the root's message `index` (nested runs' included), its path and id, in order.
pub(crate) fn each_call(
    index: usize,
    message: &AgentMessage,
    note: &mut dyn FnMut(&CallPath, &str),
) {
    for (part, held) in message.parts.iter().enumerate() {
        let AgentPart::Tool(call) = held.as_ref() else {
            continue;
        };
        let mut path = vec![CallPos {
            message: index,
            part,
        }];
        note(&path, &call.id);
        if let Some(agent) = &call.agent {
            visit_calls(agent, &mut path, &mut |at, call| note(at, &call.id));
        }
    }
}

/// Notes the messages of the runs nested in the root's message `index`.
fn learn_nested_messages(
    messages: &mut MessageIndex,
    state: &Rc<SessionState>,
    index: usize,
    message: &AgentMessage,
) {
    for (part, held) in message.parts.iter().enumerate() {
        let AgentPart::Tool(ToolPart {
            agent: Some(agent), ..
        }) = held.as_ref()
        else {
            continue;
        };
        let mut path = vec![CallPos {
            message: index,
            part,
        }];
        visit_runs(agent, &mut path, &mut |run, nested| {
            for (at, message) in nested.messages.iter().enumerate() {
                messages.record(state, run, &message.id, at);
            }
        });
    }
}

/// v4: `path` with its root position moved by `by`, wrapping (an index keeps the positions of
/// the messages prepended after it was read below its origin: see `Ids::shift`).
fn moved(mut path: CallPath, by: usize) -> CallPath {
    if let Some(first) = path.first_mut() {
        first.message = first.message.wrapping_add(by);
    }
    path
}

/// Where an id was last seen (a hint), and how many times the states using the index hold it
/// (at least: an index shared by states that diverged counts what any of them added).
#[derive(Clone, Debug, Default)]
pub(crate) struct Seen {
    /// The path: the run (empty at the root, so most entries allocate nothing for it), then
    /// the position in it.
    run: Box<[CallPos]>,
    last: CallPos,
    count: usize,
}

impl Seen {
    pub(crate) fn at(path: &[CallPos]) -> Self {
        let mut seen = Seen::default();
        seen.point_at(path);
        seen
    }

    fn point_at(&mut self, path: &[CallPos]) {
        if let Some((last, run)) = path.split_last() {
            if *self.run != *run {
                self.run = run.into();
            }
            self.last = *last;
        }
    }

    fn path(&self) -> CallPath {
        let mut path = Vec::with_capacity(self.run.len() + 1);
        path.extend_from_slice(&self.run);
        path.push(self.last);
        path
    }
}

/// The indexes' map, which other sets of ids use too: the wasm then has one copy of its code.
pub(crate) type Located = IdMap<Seen>;

/// The position a map of `Seen`s built by message index (`keep_forks_on_path`) holds for `id`.
pub(crate) fn position_in(located: &Located, id: &str) -> Option<usize> {
    located.get(id).map(|seen| seen.last.message)
}

/// Notes one more `id` at `path`.
fn add(located: &mut Located, id: &str, path: &[CallPos]) {
    let seen = located.get_or_insert_with(id, Seen::default);
    seen.point_at(path);
    seen.count += 1;
}

/// Notes one `id` fewer in an index no other session shares (`None` otherwise: what one
/// session removed, another, a state that diverged from it, may still hold; an entry left
/// behind is only a hint that does not match); the last one takes its entry out.
fn remove(located: Option<&mut Located>, id: &str) {
    let Some(located) = located else { return };
    if let Some(seen) = located.get_mut(id) {
        seen.count -= 1;
        if seen.count == 0 {
            located.remove(id);
        }
    }
}

/// Points the entry of `id` at where it was found.
fn relocate(located: &mut Located, id: &str, path: &[CallPos]) {
    if let Some(seen) = located.get_mut(id) {
        seen.point_at(path);
    }
}

/// Where each call id was seen, shared by every state derived from the same indexed state.
///
/// Entries are hints checked against the state at hand, so states that diverged (a retry,
/// a reducer called twice on the same state) never get a wrong answer: an id that is in none
/// of them is absent, and an entry that does not match falls back to a walk. An id's entry
/// goes when the last call with it does (`Session::forget_parts`).
///
/// The indexed state's calls are read on first use (a streamed reply never looks a call up by
/// id), as `MessageIndex` reads its messages; every call added since is recorded as it is.
#[derive(Clone, Debug)]
pub struct CallIndex(Rc<RefCell<Ids>>);

impl CallIndex {
    fn new(state: Rc<SessionState>) -> Self {
        CallIndex(Ids::unread(state))
    }

    /// Reads the indexed state's calls, once.
    fn read(&self) {
        let unread = ids(&self.0).unread.take();
        if let Some(state) = unread {
            let located = &mut ids(&self.0).located;
            visit_calls(&state, &mut Vec::new(), &mut |path, call| {
                located
                    .get_or_insert_with(&call.id, || Seen::at(path))
                    .count += 1;
            });
        }
    }

    /// Whether a call with this id is anywhere in `state`, nested runs included.
    pub fn contains(&self, state: &SessionState, id: &str) -> bool {
        self.locate(state, id).is_some()
    }

    /// Where the call with this id is in `state`, nested runs included.
    pub fn locate(&self, state: &SessionState, id: &str) -> Option<CallPath> {
        self.read();
        let path = {
            let ids = ids(&self.0);
            ids.actual(ids.located.get(id).map(Seen::path)?)
        };
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
        let mut ids = ids(&self.0);
        let stored = ids.stored(path.clone());
        relocate(&mut ids.located, id, &stored);
        Some(path)
    }

    /// Notes a call added at `path`.
    pub fn record(&self, id: &str, path: &CallPath) {
        let mut ids = ids(&self.0);
        let stored = ids.stored(path.clone());
        add(&mut ids.located, id, &stored);
    }

    /// v4: the root's messages moved `by`; whether the new ones are to be recorded (`false`:
    /// the index starts afresh from `state`, which holds them).
    fn shift(&mut self, state: &Rc<SessionState>, by: usize) -> bool {
        let kept = Ids::shift(&mut self.0, by);
        if !kept {
            *self = CallIndex::new(Rc::clone(state));
        }
        kept
    }

    /// Read first: what is taken out must have been counted.
    fn forget(&mut self, id: &str) {
        self.read();
        remove(
            Rc::get_mut(&mut self.0).map(|ids| &mut ids.get_mut().located),
            id,
        );
    }

    /// How many ids the index holds (its indexed state read).
    pub fn len(&self) -> usize {
        self.read();
        ids(&self.0).located.len()
    }
}

/// Where each message id was last seen: the path of its run, then the message's position
/// (its `part` unused). Keyed by id alone, like `CallIndex` (the same map type, so no second
/// copy of its code in the wasm): an id seen in two runs keeps the last, and the other run's
/// lookups fall back to a scan. An entry names the newest message with its id in its run, so a
/// session that shares its index with another (a state that diverged from it) starts its own
/// before it records a message: the newest in one may be an older one in the other.
///
/// Most actions never look a message up by id, and most sessions look up few (a
/// `message-start` per reply), so the indexed state's messages are read only once lookups
/// have scanned about as many messages as it holds; until then a lookup scans the run, which
/// is the answer by definition. Every message added since is recorded as it is added. So an id
/// absent from a read index is in none of the session's states. (The read takes the indexed
/// state, not the state at hand: that one may have diverged from another state sharing the
/// index, by a retry, say.) Entries are counted as `CallIndex`'s are, and go with the last
/// message of their id.
#[derive(Clone, Debug)]
pub struct MessageIndex(Rc<RefCell<Ids>>);

/// An index's ids, and its indexed state until that is read (on first use).
#[derive(Debug)]
struct Ids {
    located: Located,
    unread: Option<Rc<SessionState>>,
    /// How many messages lookups may scan before the indexed state is read
    /// (`MessageIndex::find`).
    scans_left: usize,
    /// v4: how far the root's messages moved since the index was read (`prepend`): an entry
    /// holds a root position less this, so a page put in front costs no walk of the entries.
    shift: usize,
}

/// Messages a lookup may scan before an index is read, besides as many as the indexed state's
/// root run holds: a small state is read at once only when lookups are many.
const SCAN_ALLOWANCE: usize = 64;

/// An index's ids, to read or change: `try_borrow_mut`, not `borrow` or `borrow_mut`, whose
/// panic messages would bring string formatting into the wasm for them alone. Each borrow ends
/// in the statement or block that takes it, so none is ever refused.
fn ids(index: &RefCell<Ids>) -> RefMut<'_, Ids> {
    match index.try_borrow_mut() {
        Ok(ids) => ids,
        Err(_) => unreachable!(),
    }
}

impl Ids {
    fn unread(state: Rc<SessionState>) -> Rc<RefCell<Ids>> {
        Rc::new(RefCell::new(Ids {
            located: Located::default(),
            scans_left: state.messages.len() + SCAN_ALLOWANCE,
            unread: Some(state),
            shift: 0,
        }))
    }

    /// The position an entry holds for the root position in `path`.
    fn stored(&self, path: CallPath) -> CallPath {
        moved(path, self.shift.wrapping_neg())
    }

    /// The root position of an entry's path.
    fn actual(&self, path: CallPath) -> CallPath {
        moved(path, self.shift)
    }

    /// v4: the root's messages moved `by` (`Session::learn_prepended`). Whether the index was
    /// kept (its entries moved); `false`: it is to be started afresh from the state.
    fn shift(index: &mut Rc<RefCell<Ids>>, by: usize) -> bool {
        match Rc::get_mut(index).map(RefCell::get_mut) {
            Some(ids) if ids.unread.is_none() => {
                ids.shift = ids.shift.wrapping_add(by);
                true
            }
            _ => false,
        }
    }
}

impl MessageIndex {
    pub fn new(state: Rc<SessionState>) -> Self {
        MessageIndex(Ids::unread(state))
    }

    /// The newest message with this id in `run`, the run at `path` below the root.
    pub fn find(&self, path: &RunPath, run: &SessionState, id: &str) -> Option<usize> {
        // The message being streamed is the usual one.
        if run.messages.last().is_some_and(|last| last.id == id) {
            return Some(run.messages.len() - 1);
        }
        let scan = || run.messages.iter().rposition(|message| message.id == id);
        let unread = {
            let mut ids = ids(&self.0);
            if ids.unread.is_some() && ids.scans_left >= run.messages.len() {
                ids.scans_left -= run.messages.len();
                return scan();
            }
            ids.unread.take()
        };
        if let Some(state) = unread {
            let located = &mut ids(&self.0).located;
            visit_runs(&state, &mut Vec::new(), &mut |path, run| {
                // Newest first: the first entry made for an id in a run is its newest there,
                // and a message recorded since is newer than the indexed state's.
                for (index, message) in run.messages.iter().enumerate().rev() {
                    located
                        .get_or_insert_with(&message.id, || Seen::at(&at(path, index)))
                        .count += 1;
                }
            });
        }
        // Absent from the index: in no run at all.
        let seen = {
            let ids = ids(&self.0);
            ids.actual(ids.located.get(id).map(Seen::path)?)
        };
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
        let found = scan();
        // Only in an index no other session shares: the newest here may not be the newest in
        // a state that diverged.
        if let (Some(index), 1) = (found, Rc::strong_count(&self.0)) {
            let mut ids = ids(&self.0);
            let stored = ids.stored(at(path, index));
            relocate(&mut ids.located, id, &stored);
        }
        found
    }

    /// Notes a message added to `state`, the newest of its run with its id.
    pub fn record(&mut self, state: &Rc<SessionState>, path: &RunPath, id: &str, index: usize) {
        match Rc::get_mut(&mut self.0) {
            Some(ids) => {
                let ids = ids.get_mut();
                let stored = ids.stored(at(path, index));
                add(&mut ids.located, id, &stored);
            }
            // Shared with a session that diverged, where this message's id may name another:
            // this session starts an index of its own, read from its state on first use.
            None => *self = MessageIndex::new(Rc::clone(state)),
        }
    }

    /// v4: the root's messages moved `by`; whether the new ones are to be recorded (`false`:
    /// the index starts afresh from `state`, which holds them).
    fn shift(&mut self, state: &Rc<SessionState>, by: usize) -> bool {
        let kept = Ids::shift(&mut self.0, by);
        if !kept {
            *self = MessageIndex::new(Rc::clone(state));
        }
        kept
    }

    /// Before the indexed state is read, only the messages recorded since are counted, and a
    /// message of the indexed state that goes may take a recorded one's count: its entry is
    /// then a hint that the read or a scan corrects, never an id wrongly absent (the indexed
    /// state, once read, holds that id again).
    fn forget(&mut self, id: &str) {
        remove(
            Rc::get_mut(&mut self.0).map(|ids| &mut ids.get_mut().located),
            id,
        );
    }

    /// How many ids the index holds.
    pub fn len(&self) -> usize {
        ids(&self.0).located.len()
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
