//! Errors that cross to JavaScript: real `Error` objects with machine-readable fields.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

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

    pub fn depth(&self) -> usize {
        match self {
            Path::Root(_) => 0,
            Path::Key(parent, _) | Path::Index(parent, _) => parent.depth() + 1,
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

/// The name and message of a thrown value, for the message of an error of ours.
pub fn describe(thrown: &JsValue) -> String {
    match thrown.dyn_ref::<js_sys::Error>() {
        Some(error) => format!(
            "{}: {}",
            String::from(error.name()),
            String::from(error.message())
        ),
        None => thrown.as_string().unwrap_or_else(|| "unknown error".into()),
    }
}
