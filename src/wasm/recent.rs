//! The Rust sessions behind the newest states this module returned (the heads of the
//! conversations on the page), so that the next action costs what it touches, not the size
//! of the conversation. Each is known by an id that `facts.js` keeps beside its state
//! object. A head's session is taken by the next action and changed in place, then kept under
//! a new id; a state whose id is no longer here (an older state, a caller's literal, a
//! restored session) is read and checked in full. Answers never depend on what is
//! remembered, only the cost.

use alloc::vec::Vec;
use core::cell::{Cell, RefCell};

use crate::core::{remove_at, Session};

/// Enough for a few conversations on one page.
const HEADS: usize = 8;

// Read through `try_with`, not `with`, whose panic (the thread's storage destroyed, which a
// page's one thread never sees) would bring its error's formatting into the wasm, and
// `try_borrow_mut` for the same reason (no borrow of the heads outlives its call); without the
// storage nothing is remembered, which costs only time.
crate::per_thread::per_thread! {
    static HEADS_BY_AGE: RefCell<Vec<(u32, Session)>> = RefCell::new(Vec::new());
    static LAST_ID: Cell<u32> = Cell::new(0);
}

/// Takes the session with this id (as `facts.js` keeps it: a number), to change it in
/// place.
pub fn take(id: f64) -> Option<Session> {
    HEADS_BY_AGE
        .try_with(|heads| {
            let mut heads = heads.try_borrow_mut().ok()?;
            let index = heads.iter().position(|(head, _)| f64::from(*head) == id)?;
            Some(remove_at(&mut heads, index)?.1)
        })
        .ok()?
}

/// A new id for a session about to be kept (`keep`): the state it is for is recorded under it
/// first (`facts.js`).
pub fn new_id() -> u32 {
    LAST_ID
        .try_with(|last| {
            let id = last.get().wrapping_add(1) & 0x7fff_ffff;
            last.set(id);
            id
        })
        .unwrap_or(0)
}

/// Keeps a session as a head, under `id` (from `new_id`).
pub fn keep(id: u32, session: Session) {
    let _ = HEADS_BY_AGE.try_with(|heads| {
        let Ok(mut heads) = heads.try_borrow_mut() else {
            return;
        };
        if heads.len() == HEADS {
            remove_at(&mut heads, 0);
        }
        heads.push((id, session));
    });
}
