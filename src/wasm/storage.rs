//! Sessions in `window.sessionStorage`, as JSON in a versioned envelope:
//! `{ "format": "chat-session-reducer", "version": 1, "state": … }`.
//!
//! Failures are `Error` objects with a `code`: `unavailable` (no window, or storage that
//! throws on access), `quota` (the write was refused for size), `corrupt` (not JSON, or not
//! a session of this library), `version` (written by a newer version). A read never removes
//! what is stored, and a failed save changes nothing in memory.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::error::{coded_error, describe, Path};
use super::fields::Fields;
use super::{advance, facts, read, read_session, recent};
use crate::core::model::{SessionAction, SessionState};

const FORMAT: &str = "chat-session-reducer";
const VERSION: f64 = 1.0;

fn failure(code: &str, message: &str) -> JsValue {
    coded_error(js_sys::Error::new(message), code, None)
}

pub(super) fn session_storage() -> Result<web_sys::Storage, JsValue> {
    let global = js_sys::global();
    // `web_sys::window()` is only a cast; check first, so Node, workers and server rendering
    // get a clear error rather than whatever touching a missing window would do.
    let window = js_sys::Reflect::get(&global, &"window".into())
        .ok()
        .filter(|window| !window.is_undefined());
    let Some(window) = window.and_then(|window| window.dyn_into::<web_sys::Window>().ok()) else {
        return Err(failure("unavailable", "sessionStorage is unavailable: there is no window (Node, a worker or server rendering)"));
    };
    match window.session_storage() {
        Ok(Some(storage)) => Ok(storage),
        Ok(None) => Err(failure(
            "unavailable",
            "sessionStorage is unavailable in this window",
        )),
        Err(thrown) => Err(failure(
            "unavailable",
            &format!("sessionStorage is unavailable: {}", describe(&thrown)),
        )),
    }
}

/// Whether a failed write was refused for size: `QuotaExceededError` and its legacy names
/// and codes (22 and Firefox's 1014).
fn is_quota(thrown: &JsValue) -> bool {
    let Some(exception) = thrown.dyn_ref::<web_sys::DomException>() else {
        return false;
    };
    matches!(
        exception.name().as_str(),
        "QuotaExceededError" | "NS_ERROR_DOM_QUOTA_REACHED"
    ) || matches!(exception.code(), 22 | 1014)
}

/// Stores `state` under `key`. Throws `invalid` for a state that is not a session,
/// `unavailable` or `quota` when storage refuses; the state is never changed.
#[wasm_bindgen(js_name = saveSession)]
pub fn save_session(key: &str, state: tsify::Ts<SessionState>) -> Result<(), JsValue> {
    let state = state.js_value();
    if !recent::contains(facts::session_of(&state)) {
        read_session(&state, &Path::Root("state"))?;
    }
    let storage = session_storage()?;
    let envelope = Fields::new();
    let _ = js_sys::Reflect::set(&envelope, &"format".into(), &FORMAT.into());
    let _ = js_sys::Reflect::set(&envelope, &"version".into(), &VERSION.into());
    let _ = js_sys::Reflect::set(&envelope, &"state".into(), &state);
    let json = js_sys::JSON::stringify(&envelope).map_err(|thrown| {
        coded_error(
            js_sys::TypeError::new(&format!("state: not JSON: {}", describe(&thrown))).into(),
            "invalid",
            Some("state"),
        )
    })?;
    storage
        .set_item(key, &String::from(json))
        .map_err(|thrown| {
            let code = if is_quota(&thrown) {
                "quota"
            } else {
                "unavailable"
            };
            failure(
                code,
                &format!("the session could not be saved: {}", describe(&thrown)),
            )
        })
}

/// The session stored under `key` with `stop` applied (no call left running, nothing left
/// streaming), or `null` when nothing is stored there.
#[wasm_bindgen(js_name = loadSession, unchecked_return_type = "SessionState | null")]
pub fn load_session(key: &str) -> Result<JsValue, JsValue> {
    Ok(load(key)?.unwrap_or(JsValue::NULL))
}

pub(super) fn load(key: &str) -> Result<Option<JsValue>, JsValue> {
    let storage = session_storage()?;
    let stored = storage.get_item(key).map_err(|thrown| {
        failure(
            "unavailable",
            &format!("sessionStorage could not be read: {}", describe(&thrown)),
        )
    })?;
    let Some(stored) = stored else {
        return Ok(None);
    };
    let envelope = js_sys::JSON::parse(&stored).map_err(|thrown| {
        failure(
            "corrupt",
            &format!(
                "the stored session under \"{key}\" is not JSON: {}",
                describe(&thrown)
            ),
        )
    })?;
    let state = stored_state(key, &envelope)?;
    let session = read_session(&state, &Path::Root("stored.state")).map_err(|invalid| {
        failure(
            "corrupt",
            &format!(
                "the stored session under \"{key}\" is not a session: {}",
                describe(&invalid)
            ),
        )
    })?;
    let stop: JsValue = Fields::new().into();
    let _ = js_sys::Reflect::set(&stop, &"type".into(), &"stop".into());
    advance(state, stop, &SessionAction::Stop, session).map(Some)
}

/// The `state` of a stored envelope of this library and version.
fn stored_state(key: &str, envelope: &JsValue) -> Result<JsValue, JsValue> {
    let not_ours = || {
        failure(
            "corrupt",
            &format!("the stored value under \"{key}\" is not a session of chat-session-reducer"),
        )
    };
    let envelope = read::object(envelope, &Path::Root("stored")).map_err(|_| not_ours())?;
    let field = |name: &str| js_sys::Reflect::get(&envelope, &name.into()).unwrap_or_default();
    if field("format").as_string().as_deref() != Some(FORMAT) {
        return Err(not_ours());
    }
    match field("version").as_f64() {
        Some(version) if version == VERSION => Ok(field("state")),
        Some(version) if version > VERSION => Err(failure(
            "version",
            // JavaScript formats the number: Rust's float formatting would double the module's size.
            &format!(
                "the session under \"{key}\" was stored by a newer version (format {}); this version reads format {}",
                String::from(js_sys::Number::from(version).to_string_with_radix(10).unwrap_or_default()),
                VERSION as u32
            ),
        )),
        _ => Err(not_ours()),
    }
}

/// Removes the session stored under `key`.
#[wasm_bindgen(js_name = clearSession)]
pub fn clear_session(key: &str) -> Result<(), JsValue> {
    session_storage()?.remove_item(key).map_err(|thrown| {
        failure(
            "unavailable",
            &format!("sessionStorage could not be written: {}", describe(&thrown)),
        )
    })
}
