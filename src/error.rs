//! The error the reducer's Rust entry points return: the package's coded errors (`invalid`,
//! `internal`) as a Rust enum, with the same paths and messages.

use alloc::string::String;
use core::fmt;

/// Why an action could not be applied. The JavaScript package throws the same errors as
/// `Error` objects with `code`, `path` and a message starting with the path.
///
/// ```
/// use std::rc::Rc;
///
/// use chat_session_reducer::core::model::{SessionAction, SessionState};
/// use chat_session_reducer::core::session_reducer;
/// use chat_session_reducer::Error;
/// use serde_json::{from_value, json};
///
/// // A `data` part that patches needs the id of the part it patches.
/// let action: SessionAction = from_value(json!({ "type": "part", "part": {
///     "type": "data", "name": "weather", "patch": [{ "op": "remove", "path": "/x" }]
/// } })).unwrap();
/// let error = session_reducer(&Rc::new(SessionState::empty()), &action).unwrap_err();
/// assert_eq!(error.code(), "invalid");
/// assert_eq!(error.path(), Some("action.part.id"));
/// assert_eq!(error.to_string(), "action.part.id: required with patch");
/// assert!(matches!(error, Error::Invalid { .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Bad input (`code: "invalid"`): the value at `path` (`action.part.id`,
    /// `state.forks[0].active`) breaks the rule `problem` states. Nothing was changed.
    Invalid {
        /// Where the value is: `action` or `state`, then its fields and `[index]`es.
        path: String,
        /// What is wrong with it (`expected a string`, `required with patch`).
        problem: String,
    },
    /// The core could not apply an action it had accepted (`code: "internal"`): a bug of this
    /// crate, never expected. The state given is as it was.
    Internal,
}

impl Error {
    /// The bad-input error for the value at `path`.
    pub fn invalid(path: impl Into<String>, problem: impl Into<String>) -> Self {
        Error::Invalid {
            path: path.into(),
            problem: problem.into(),
        }
    }

    /// The package's `code`: `"invalid"` or `"internal"`.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Invalid { .. } => "invalid",
            Error::Internal => "internal",
        }
    }

    /// The path of what is wrong, for bad input.
    pub fn path(&self) -> Option<&str> {
        match self {
            Error::Invalid { path, .. } => Some(path),
            Error::Internal => None,
        }
    }
}

impl fmt::Display for Error {
    /// The package's message: `path: problem` (src/wasm/error.js).
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid { path, problem } => write!(formatter, "{path}: {problem}"),
            Error::Internal => formatter.write_str(
                "chat-session-reducer: internal error: an action could not be applied; please report it",
            ),
        }
    }
}

impl core::error::Error for Error {}
