//! The stored conversation: the crate's `web_storage` (gloo-storage), in the tab's
//! sessionStorage as the JavaScript helpers keep it by default, so a reload restores it.

use std::rc::Rc;

use chat_session_reducer::core::model::SessionState;
use chat_session_reducer::web_storage::{load_session, save_session, StorageArea};

const AREA: StorageArea = StorageArea::Session;

/// The conversation stored under `key`, the load rule applied (a run it was saved in is
/// stopped). Nothing stored, or storage that fails (blocked, corrupt): `None`, and the page
/// starts a new conversation.
pub fn load(key: &str) -> Option<Rc<SessionState>> {
    match load_session(key, AREA) {
        Ok(stored) => stored.map(|stored| stored.state),
        Err(error) => {
            warn(&format!(
                "yew-chat: the stored conversation was not loaded: {error}"
            ));
            None
        }
    }
}

/// Stores `state` under `key`; a refused write (quota, blocked storage) only warns: the page
/// goes on with the conversation in memory.
pub fn save(key: &str, state: &SessionState) {
    if let Err(error) = save_session(key, state, None, AREA) {
        warn(&format!(
            "yew-chat: the conversation was not saved: {error}"
        ));
    }
}

fn warn(message: &str) {
    web_sys::console::warn_1(&message.into());
}
