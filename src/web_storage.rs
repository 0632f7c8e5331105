//! Sessions in the browser's `sessionStorage` or `localStorage` (feature `web-storage`), in the
//! envelope of the JavaScript package's helpers (src/storage/session-storage.js), so that a
//! conversation saved by either loads in the other:
//! `{ "format": "chat-session-reducer", "version": 3, "rev": 7, "id"?: "…", "state": … }`, where
//! each save writes the stored entry's `rev` plus 1, whichever of them wrote it. The `run` the
//! JavaScript helpers add while a reply streams (where its run started, for the hook's resume
//! after a reload) is not read: this crate stops a run stored streaming, and never resumes it.
//!
//! Loading reads versions 1 to 3 (every v1 state is a v2 state and every v2 state a v3 state),
//! checks what it reads with the package's reader (the same `corrupt` paths as the JavaScript
//! helpers: `stored.state.messages[0].id`), and applies the SPEC's load rule
//! ([`crate::core::load_rule`]): stored while streaming, the run is stopped.
//!
//! Where there is no window (Node, a worker, server rendering) or the storage refuses access
//! (privacy settings, a sandboxed frame), every function returns
//! [`StorageError::Unavailable`]: nothing panics and no JavaScript exception crosses into the
//! caller. gloo-storage's `raw()` expects a window and a storage (it throws a JavaScript exception without them), so it is
//! called only after both were found; its `get`, `set` and `delete` are not used, because they
//! throw or panic on the failures a blocked or full storage gives.
//!
//! ```no_run
//! use std::rc::Rc;
//!
//! use chat_session_reducer::core::model::SessionState;
//! use chat_session_reducer::web_storage::{load_session, save_session, StorageArea};
//!
//! let state = Rc::new(SessionState::empty());
//! save_session("chat", &state, Some("chat-1"), StorageArea::Session)?;
//! let stored = load_session("chat", StorageArea::Session)?.expect("saved just now");
//! assert_eq!(stored.id.as_deref(), Some("chat-1"));
//! # Ok::<(), chat_session_reducer::web_storage::StorageError>(())
//! ```

use std::fmt;
use std::rc::Rc;

use gloo_storage::{LocalStorage, SessionStorage, Storage as _};
use js_sys::{Reflect, JSON};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};

use crate::core::check::check_state;
use crate::core::load_rule;
use crate::core::model::SessionState;
use crate::{js_reader, Error};

/// The envelope's `format`.
pub const FORMAT: &str = "chat-session-reducer";
/// The envelope's version this crate writes; it reads 1 to this one.
pub const VERSION: u32 = 3;

/// Which of the browser's storages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageArea {
    /// `window.sessionStorage`: the tab's, kept across reloads (the JavaScript helpers' default).
    Session,
    /// `window.localStorage`: the origin's, kept across tabs and restarts.
    Local,
}

impl StorageArea {
    fn name(self) -> &'static str {
        match self {
            StorageArea::Session => "sessionStorage",
            StorageArea::Local => "localStorage",
        }
    }
}

/// A conversation as [`load_session`] found it.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredSession {
    /// The state, the load rule applied.
    pub state: Rc<SessionState>,
    /// The conversation's id, when it was saved with one (the envelope's `id`).
    pub id: Option<String>,
    /// The envelope's revision, +1 per save by this crate or the JavaScript helpers; 0 for an
    /// entry stored without one.
    pub rev: i64,
}

/// Why a session could not be saved, loaded or cleared: the JavaScript helpers' error codes.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum StorageError {
    /// `"unavailable"`: no window or no such storage here, or the storage refused access.
    Unavailable {
        /// What happened, for a developer.
        reason: String,
    },
    /// `"quota"`: the write was refused for size. Nothing was stored; memory is unchanged.
    Quota {
        /// What the storage said.
        reason: String,
    },
    /// `"corrupt"`: what is stored is not a session of this library (not JSON, another
    /// format, a state that is not one). The stored entry is kept.
    Corrupt {
        /// What is wrong: `stored`, `stored.format`, `stored.state.messages[0].id`.
        path: String,
        /// Why.
        problem: String,
    },
    /// `"version"`: stored by a newer version of the envelope than this crate reads.
    Version {
        /// The envelope's version.
        version: f64,
    },
    /// `"invalid"`: the state to save is not a session (`Error::Invalid`, paths from `state`).
    Invalid(Error),
}

impl StorageError {
    /// The JavaScript helpers' `code` for this error.
    pub fn code(&self) -> &'static str {
        match self {
            StorageError::Unavailable { .. } => "unavailable",
            StorageError::Quota { .. } => "quota",
            StorageError::Corrupt { .. } => "corrupt",
            StorageError::Version { .. } => "version",
            StorageError::Invalid(error) => error.code(),
        }
    }

    /// The path of what is wrong (`corrupt` and `invalid`).
    pub fn path(&self) -> Option<&str> {
        match self {
            StorageError::Corrupt { path, .. } => Some(path),
            StorageError::Invalid(error) => error.path(),
            _ => None,
        }
    }
}

impl fmt::Display for StorageError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageError::Unavailable { reason } | StorageError::Quota { reason } => {
                formatter.write_str(reason)
            }
            StorageError::Corrupt { path, problem } => write!(formatter, "{path}: {problem}"),
            StorageError::Version { version } => write!(
                formatter,
                "the session was stored by a newer version (format {version}); this version reads formats 1 to {VERSION}"
            ),
            StorageError::Invalid(error) => error.fmt(formatter),
        }
    }
}

impl std::error::Error for StorageError {}

/// The storage of `area`, when there is a window and it gives its storage; gloo-storage's
/// `raw()` is called only then, since it throws otherwise.
fn storage(area: StorageArea) -> Result<web_sys::Storage, StorageError> {
    let unavailable = |why: String| StorageError::Unavailable {
        reason: format!("{} is unavailable: {why}", area.name()),
    };
    let window = web_sys::window().ok_or_else(|| {
        unavailable("there is no window here (Node, a worker, server rendering)".into())
    })?;
    let found = match area {
        StorageArea::Session => window.session_storage(),
        StorageArea::Local => window.local_storage(),
    };
    match found {
        Ok(Some(_)) => Ok(match area {
            StorageArea::Session => SessionStorage::raw(),
            StorageArea::Local => LocalStorage::raw(),
        }),
        Ok(None) => Err(unavailable("the window has none".into())),
        // Privacy settings and sandboxed frames make reading it throw a SecurityError.
        Err(thrown) => Err(unavailable(describe(&thrown))),
    }
}

/// The envelope as it is written, its fields in the JavaScript helpers' order (they read `rev`
/// from the text's head).
#[derive(Serialize)]
struct Envelope<'a> {
    format: &'static str,
    version: u32,
    rev: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a str>,
    state: &'a SessionState,
}

/// Stores `state` (and the conversation's `id`, when given) under `key` in `area`, in the
/// JavaScript helpers' envelope, its `rev` the stored entry's plus 1. `state` is checked first
/// (`StorageError::Invalid`); a refused write is `Quota` or `Unavailable`, and changes nothing.
pub fn save_session(
    key: &str,
    state: &SessionState,
    id: Option<&str>,
    area: StorageArea,
) -> Result<(), StorageError> {
    let target = storage(area)?;
    check_state(state).map_err(StorageError::Invalid)?;
    let envelope = Envelope {
        format: FORMAT,
        version: VERSION,
        rev: stored_rev(&target, key) + 1,
        state,
        id,
    };
    let json = serde_json::to_string(&envelope).map_err(|error| {
        StorageError::Invalid(Error::invalid("state", format!("not JSON: {error}")))
    })?;
    target.set_item(key, &json).map_err(|thrown| {
        let reason = format!("the session could not be saved: {}", describe(&thrown));
        if is_quota(&thrown) {
            StorageError::Quota { reason }
        } else {
            StorageError::Unavailable { reason }
        }
    })
}

/// The largest integer a JavaScript number holds exactly (`Number.MAX_SAFE_INTEGER`).
const MAX_SAFE_INTEGER: i64 = 9_007_199_254_740_991;

/// The revision of the entry stored under `key`, read from the head of its text as the
/// JavaScript helpers read it (`storedRev`: an envelope this library wrote has `rev` after
/// `version`); 0 when there is none or it cannot be read (the write that follows says why).
fn stored_rev(target: &web_sys::Storage, key: &str) -> i64 {
    let Ok(Some(text)) = target.get_item(key) else {
        return 0;
    };
    let digits_of =
        |text: &str| text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let head = format!(r#"{{"format":"{FORMAT}","version":"#);
    let Some(version_on) = text.strip_prefix(&head) else {
        return 0;
    };
    let version_digits = digits_of(version_on);
    let Some(rev_on) = version_on[version_digits..].strip_prefix(r#","rev":"#) else {
        return 0;
    };
    let (rev, after) = rev_on.split_at(digits_of(rev_on));
    let ended = after.starts_with(',') || after.starts_with('}');
    match rev.parse::<i64>() {
        Ok(rev) if version_digits > 0 && ended && rev <= MAX_SAFE_INTEGER => rev,
        _ => 0,
    }
}

/// The session stored under `key` in `area`, the load rule applied; `Ok(None)` when nothing
/// is stored. What is stored is never removed by a read.
pub fn load_session(key: &str, area: StorageArea) -> Result<Option<StoredSession>, StorageError> {
    let target = storage(area)?;
    let stored = target
        .get_item(key)
        .map_err(|thrown| StorageError::Unavailable {
            reason: format!("the storage could not be read: {}", describe(&thrown)),
        })?;
    let Some(text) = stored else {
        return Ok(None);
    };
    stored_session(key, &text).map(Some)
}

/// Removes the session stored under `key` in `area`.
pub fn clear_session(key: &str, area: StorageArea) -> Result<(), StorageError> {
    storage(area)?
        .remove_item(key)
        .map_err(|thrown| StorageError::Unavailable {
            reason: format!("the storage could not be written: {}", describe(&thrown)),
        })
}

/// The session in a stored text: its envelope read as the JavaScript helpers read it.
fn stored_session(key: &str, text: &str) -> Result<StoredSession, StorageError> {
    let corrupt = |path: &str, problem: String| StorageError::Corrupt {
        path: path.to_owned(),
        problem,
    };
    let not_ours = |path: &str| {
        corrupt(
            path,
            format!("the stored value under \"{key}\" is not a session of chat-session-reducer"),
        )
    };
    let envelope: Value = serde_json::from_str(text).map_err(|error| {
        corrupt(
            "stored",
            format!("the stored session under \"{key}\" is not JSON: {error}"),
        )
    })?;
    let Value::Object(fields) = &envelope else {
        return Err(not_ours("stored"));
    };
    if fields.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(not_ours("stored.format"));
    }
    match fields.get("version").and_then(Value::as_f64) {
        Some(version) if version == 1.0 || version == 2.0 || version == f64::from(VERSION) => {}
        Some(version) if version > f64::from(VERSION) => {
            return Err(StorageError::Version { version })
        }
        _ => return Err(not_ours("stored.version")),
    }
    let Some(state) = fields.get("state") else {
        return Err(not_ours("stored.state"));
    };
    let id = match fields.get("id") {
        None => None,
        Some(Value::String(id)) => Some(id.clone()),
        Some(_) => return Err(not_ours("stored.id")),
    };
    // A revision, where one was written: a safe integer (0 when absent).
    let rev = match fields.get("rev").map(Value::as_f64) {
        None => 0,
        Some(Some(rev)) if rev.fract() == 0.0 && rev.abs() <= MAX_SAFE_INTEGER as f64 => rev as i64,
        Some(_) => return Err(not_ours("stored.rev")),
    };
    let state = checked_state(key, text, state)?;
    Ok(StoredSession {
        state: load_rule(&Rc::new(state)).map_err(|error| stored_error(key, error))?,
        id,
        rev,
    })
}

/// The stored state, checked by the package's reader on the JavaScript value the text parses
/// to (so a corrupt entry gets the JavaScript helpers' path), then converted with serde.
fn checked_state(key: &str, text: &str, state: &Value) -> Result<SessionState, StorageError> {
    let parsed =
        JSON::parse(text).and_then(|envelope| Reflect::get(&envelope, &JsValue::from_str("state")));
    match parsed {
        Ok(value) => js_reader::check_state(&value).map_err(|error| stored_error(key, error))?,
        Err(thrown) => {
            return Err(StorageError::Corrupt {
                path: "stored".into(),
                problem: format!("not JSON: {}", describe(&thrown)),
            })
        }
    }
    serde_json::from_value(state.clone()).map_err(|error| StorageError::Corrupt {
        path: "stored.state".into(),
        problem: format!("{error} (the value stored under \"{key}\" is not a session)"),
    })
}

/// A reader's error about the stored state, as the JavaScript helpers report it.
fn stored_error(key: &str, error: Error) -> StorageError {
    match error {
        Error::Invalid { path, problem } => StorageError::Corrupt {
            path: format!("stored.{}", path.strip_prefix("action.").unwrap_or(&path)),
            problem: format!("{problem} (the value stored under \"{key}\" is not a session)"),
        },
        other => StorageError::Invalid(other),
    }
}

/// Whether a failed write was refused for size: QuotaExceededError and its legacy names and
/// codes (22, and Firefox's 1014).
fn is_quota(thrown: &JsValue) -> bool {
    let name = field(thrown, "name").and_then(|name| name.as_string());
    let code = field(thrown, "code").and_then(|code| code.as_f64());
    matches!(
        name.as_deref(),
        Some("QuotaExceededError" | "NS_ERROR_DOM_QUOTA_REACHED")
    ) || matches!(code, Some(code) if code == 22.0 || code == 1014.0)
}

/// The name and message of what JavaScript threw; never throws itself.
fn describe(thrown: &JsValue) -> String {
    if let Some(error) = thrown.dyn_ref::<js_sys::Error>() {
        let name = field(error, "name").and_then(|name| name.as_string());
        let message = field(error, "message").and_then(|message| message.as_string());
        if let (Some(name), Some(message)) = (name, message) {
            return format!("{name}: {message}");
        }
    }
    thrown.as_string().unwrap_or_else(|| "unknown error".into())
}

fn field(value: &JsValue, name: &str) -> Option<JsValue> {
    Reflect::get(value, &JsValue::from_str(name)).ok()
}
