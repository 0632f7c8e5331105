//! The page's conversation, outside any framework: the state, the reducer applied to it, the
//! run that streams into it, and the stored copy. The run follows the status the reducer gives:
//! an action that leaves `streaming` starts a request; one that leaves it aborts the request.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use chat_session_reducer::core::model::{SessionAction, SessionState, SessionStatus};
use chat_session_reducer::core::session_reducer;
use chat_session_reducer::Error;
use web_sys::AbortController;

use crate::storage;
use crate::transport::{ends_run, run_failed, stream_run, Transport};

/// How often a streaming reply is saved at most: a save writes the whole conversation.
const SAVE_WHILE_STREAMING_MS: f64 = 500.0;

/// Who is told of each new state: the page's renderer.
type Listener = Box<dyn Fn(Rc<SessionState>)>;

/// The request in flight: which one (a late frame of an earlier one is dropped) and its abort.
struct Run {
    id: u64,
    abort: AbortController,
}

/// A conversation on the page. Shared as `Rc<Chat>`; the page renders `state()` and calls
/// `dispatch` for what the user does.
pub struct Chat {
    state: RefCell<Rc<SessionState>>,
    transport: Transport,
    storage_key: String,
    run: RefCell<Option<Run>>,
    runs_started: Cell<u64>,
    saved_at: Cell<f64>,
    /// A save was skipped while streaming.
    unsaved: Cell<bool>,
    listener: RefCell<Option<Listener>>,
}

impl Chat {
    /// The conversation stored under `storage_key` (the load rule applied), or a new one.
    pub fn new(transport: Transport, storage_key: &str) -> Rc<Chat> {
        let state = storage::load(storage_key).unwrap_or_else(|| Rc::new(SessionState::empty()));
        Rc::new(Chat {
            state: RefCell::new(state),
            transport,
            storage_key: storage_key.to_owned(),
            run: RefCell::new(None),
            runs_started: Cell::new(0),
            saved_at: Cell::new(f64::NEG_INFINITY),
            unsaved: Cell::new(false),
            listener: RefCell::new(None),
        })
    }

    /// The current state.
    pub fn state(&self) -> Rc<SessionState> {
        Rc::clone(&self.state.borrow())
    }

    /// Calls `listener` with each new state.
    pub fn listen(&self, listener: impl Fn(Rc<SessionState>) + 'static) {
        *self.listener.borrow_mut() = Some(Box::new(listener));
    }

    /// The page is gone: its request is aborted, what streamed so far is saved (a save
    /// skipped while streaming included), and no state reaches the page any more.
    pub fn close(&self) {
        self.abort_run();
        if self.unsaved.replace(false) {
            storage::save(&self.storage_key, &self.state.borrow());
        }
        self.listener.borrow_mut().take();
    }

    /// What the user does. A retry, edit or regenerate starts a new request even while one
    /// streams (the reply it abandons is set aside); a send while streaming is queued.
    pub fn dispatch(self: &Rc<Self>, action: SessionAction) {
        let restarts = matches!(
            action,
            SessionAction::Retry | SessionAction::Edit { .. } | SessionAction::Regenerate { .. }
        );
        if let Err(error) = self.apply(&action) {
            // The page's own actions are valid: this is a bug of the page, said where it shows.
            web_sys::console::error_1(&format!("yew-chat: {error}").into());
            return;
        }
        if self.state.borrow().status != SessionStatus::Streaming {
            self.abort_run();
        } else if restarts || self.run.borrow().is_none() {
            self.abort_run();
            self.start_run();
        }
    }

    /// An action of the run `run_id`; dropped when that run is no longer the one streaming.
    fn deliver(self: &Rc<Self>, run_id: u64, action: SessionAction) {
        if self.run.borrow().as_ref().map(|run| run.id) != Some(run_id) {
            return;
        }
        if let Err(error) = self.apply(&action) {
            // A frame the reducer refuses ends the run in error, as a malformed one does.
            let message = format!(
                "The agent sent a frame that is not valid, so this reply was stopped: {error}"
            );
            let _ = self.apply(&run_failed(message, None));
            self.abort_run();
            return;
        }
        if ends_run(&action) || self.state.borrow().status != SessionStatus::Streaming {
            // Left to end by itself: the server sees a finished reply, not a stopped one.
            self.run.borrow_mut().take();
        }
        // The run's end sent a queued message: its own request.
        if self.state.borrow().status == SessionStatus::Streaming && self.run.borrow().is_none() {
            self.start_run();
        }
    }

    /// Applies `action`; bad input changes nothing and comes back as the error.
    fn apply(&self, action: &SessionAction) -> Result<(), Error> {
        let next = session_reducer(&self.state.borrow(), action)?;
        if Rc::ptr_eq(&next, &self.state.borrow()) {
            return Ok(());
        }
        *self.state.borrow_mut() = Rc::clone(&next);
        self.save(&next);
        if let Some(listener) = &*self.listener.borrow() {
            listener(next);
        }
        Ok(())
    }

    /// Saves `state`; while a reply streams, at most every SAVE_WHILE_STREAMING_MS.
    fn save(&self, state: &SessionState) {
        let now = js_sys::Date::now();
        if state.status == SessionStatus::Streaming
            && now - self.saved_at.get() < SAVE_WHILE_STREAMING_MS
        {
            self.unsaved.set(true);
            return;
        }
        self.unsaved.set(false);
        self.saved_at.set(now);
        storage::save(&self.storage_key, state);
    }

    fn start_run(self: &Rc<Self>) {
        let Ok(abort) = AbortController::new() else {
            return;
        };
        let id = self.runs_started.get() + 1;
        self.runs_started.set(id);
        let signal = abort.signal();
        *self.run.borrow_mut() = Some(Run { id, abort });
        let messages = self.state.borrow().messages.clone();
        let transport = self.transport.clone();
        let chat: Weak<Chat> = Rc::downgrade(self);
        wasm_bindgen_futures::spawn_local(async move {
            let mut deliver = |action| {
                if let Some(chat) = chat.upgrade() {
                    chat.deliver(id, action);
                }
            };
            stream_run(&transport, &messages, &signal, &mut deliver).await;
        });
    }

    fn abort_run(&self) {
        if let Some(run) = self.run.borrow_mut().take() {
            run.abort.abort();
        }
    }
}
