//! The Rust sessions behind the newest states this module returned (the heads of the
//! conversations on the page), so that the next action costs what it touches, not the size
//! of the conversation. A head's session is handed to the next action and changed in place;
//! a state that is not a head (a caller's literal, a restored session, an older state) is
//! read and checked in full. Answers never depend on what is remembered, only the cost.

use std::cell::RefCell;

use wasm_bindgen::JsValue;

use crate::core::Session;

/// Enough for a few conversations on one page.
const HEADS: usize = 8;

struct Head {
    state: JsValue,
    session: Session,
    /// The state and action this head was made from: React calls a reducer a second time
    /// with both (Strict Mode, rendering again), and gets this head back.
    made_from: Option<(JsValue, JsValue)>,
}

thread_local! {
    static HEADS_BY_AGE: RefCell<Vec<Head>> = const { RefCell::new(Vec::new()) };
}

/// What is remembered for a call with `state` and `action`.
pub enum Found {
    /// The state already made from `state` by this very `action`, still a head.
    Made(JsValue),
    /// `state` is a head: its session, taken to be changed in place.
    Head(Session),
    Nothing,
}

pub fn take(state: &JsValue, action: &JsValue) -> Found {
    HEADS_BY_AGE.with(|heads| {
        let mut heads = heads.borrow_mut();
        for index in (0..heads.len()).rev() {
            let head = &heads[index];
            if head
                .made_from
                .as_ref()
                .is_some_and(|(from, by)| from == state && by == action)
            {
                return Found::Made(head.state.clone());
            }
            if head.state == *state {
                return Found::Head(heads.remove(index).session);
            }
        }
        Found::Nothing
    })
}

/// Whether `state` is a head, so its session is already known to be valid.
pub fn is_head(state: &JsValue) -> bool {
    HEADS_BY_AGE.with(|heads| heads.borrow().iter().any(|head| head.state == *state))
}

pub fn put(state: JsValue, session: Session, made_from: Option<(JsValue, JsValue)>) {
    HEADS_BY_AGE.with(|heads| {
        let mut heads = heads.borrow_mut();
        if heads.len() == HEADS {
            heads.remove(0);
        }
        heads.push(Head {
            state,
            session,
            made_from,
        });
    });
}
