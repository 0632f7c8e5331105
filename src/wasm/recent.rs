//! The indexed sessions behind the last states this module returned, so that a state the
//! reducer made is not read again: the next action costs what it touches, not the size of
//! the conversation. A state it did not make (a caller's literal, a restored session) is
//! read and checked in full once.

use std::cell::RefCell;
use std::collections::VecDeque;

use wasm_bindgen::JsValue;

use crate::core::Session;

/// Enough for React (Strict Mode calls a reducer twice with the same state) and for a few
/// conversations on one page; older states are read again if they come back.
const KEPT: usize = 8;

struct Entry {
    state: JsValue,
    session: Session,
}

thread_local! {
    static RECENT: RefCell<VecDeque<Entry>> = const { RefCell::new(VecDeque::new()) };
}

pub fn find(state: &JsValue) -> Option<Session> {
    RECENT.with(|recent| {
        recent
            .borrow()
            .iter()
            .find(|entry| entry.state == *state)
            .map(|entry| entry.session.clone())
    })
}

pub fn remember(state: &JsValue, session: Session) {
    RECENT.with(|recent| {
        let mut recent = recent.borrow_mut();
        if recent.len() == KEPT {
            recent.pop_back();
        }
        recent.push_front(Entry {
            state: state.clone(),
            session,
        });
    });
}
