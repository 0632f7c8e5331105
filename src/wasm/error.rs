//! Errors that cross to JavaScript: real `Error` objects with machine-readable fields.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::fields::Fields;

/// Where a value sits in the caller's input, e.g. `action.part.id`.
#[derive(Clone, Copy)]
pub enum Path<'a> {
    Root(&'static str),
    Key(&'a Path<'a>, &'static str),
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    pub fn key(&'a self, key: &'static str) -> Path<'a> {
        Path::Key(self, key)
    }

    pub fn index(&'a self, index: usize) -> Path<'a> {
        Path::Index(self, index)
    }

    /// How many of the path's steps are `key`: `agent` counts how many sub-agent runs deep
    /// the value is, wherever the path starts (a state, an action's part).
    pub fn steps(&self, key: &str) -> usize {
        match self {
            Path::Root(_) => 0,
            Path::Key(parent, step) => parent.steps(key) + usize::from(*step == key),
            Path::Index(parent, _) => parent.steps(key),
        }
    }

    fn write(&self, out: &mut String) {
        match self {
            Path::Root(name) => out.push_str(name),
            Path::Key(parent, key) => {
                parent.write(out);
                out.push('.');
                out.push_str(key);
            }
            Path::Index(parent, index) => {
                parent.write(out);
                out.push('[');
                out.push_str(&index.to_string());
                out.push(']');
            }
        }
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }
}

/// Input that does not match the package's types: a programming error of the caller.
#[derive(Debug)]
pub struct InputError {
    pub path: String,
    pub problem: String,
}

impl InputError {
    pub fn new(path: &Path, problem: impl Into<String>) -> Self {
        InputError {
            path: path.render(),
            problem: problem.into(),
        }
    }

    pub fn expected(path: &Path, what: &str) -> Self {
        InputError::new(path, format!("expected {what}"))
    }
}

impl From<InputError> for JsValue {
    /// A `TypeError` whose message starts with the path, with `code: "invalid"` and `path`.
    fn from(error: InputError) -> Self {
        let message = format!("{}: {}", error.path, error.problem);
        coded_error(
            js_sys::TypeError::new(&message).into(),
            "invalid",
            Some(&error.path),
        )
    }
}

/// Adds `code` (and `path`) to an `Error` object.
pub fn coded_error(error: js_sys::Error, code: &str, path: Option<&str>) -> JsValue {
    let object: &JsValue = error.as_ref();
    let _ = js_sys::Reflect::set(object, &"code".into(), &code.into());
    if let Some(path) = path {
        let _ = js_sys::Reflect::set(object, &"path".into(), &path.into());
    }
    error.into()
}

/// The `invalid` error for a value at `path` that a step after reading it found not as read
/// (`problem`), with what was thrown.
pub fn unreadable(path: &str, problem: &str, thrown: &JsValue) -> JsValue {
    let message = format!("{path}: {problem} ({})", describe(thrown));
    coded_error(
        js_sys::TypeError::new(&message).into(),
        "invalid",
        Some(path),
    )
}

/// The name and message of a thrown value, for the message of an error of ours. Read with
/// `catch`: what a caller's code threw may have throwing getters too.
pub fn describe(thrown: &JsValue) -> String {
    let text = |field: Result<JsValue, JsValue>| field.ok().and_then(|value| value.as_string());
    if thrown.is_instance_of::<js_sys::Error>() {
        let error: &Fields = thrown.unchecked_ref();
        if let (Some(name), Some(message)) = (text(error.name()), text(error.message())) {
            return format!("{name}: {message}");
        }
    }
    thrown.as_string().unwrap_or_else(|| "unknown error".into())
}
