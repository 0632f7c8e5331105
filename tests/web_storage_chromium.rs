//! `web_storage` in headless Chromium, in one page with the built package (pkg/index.js, so
//! `bash scripts/build.sh` first): a conversation the JavaScript helpers saved loads in Rust and
//! the reverse, in both storages; each save's revision continuing the other's; older envelopes;
//! what cannot be read, with the JavaScript helpers' codes and paths; a full storage; a storage
//! that throws on access.
#![cfg(all(feature = "web-storage", target_arch = "wasm32"))]

use std::rc::Rc;

use chat_session_reducer::core::model::SessionState;
use chat_session_reducer::web_storage::{
    clear_session, load_session, save_session, StorageArea, StorageError, StoredSession,
};
use js_sys::{Reflect, JSON};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

// The package as users install it.
#[wasm_bindgen(module = "/pkg/index.js")]
extern "C" {
    #[wasm_bindgen(js_name = saveSession, catch)]
    fn js_save_session(key: &str, state: &JsValue, storage: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(js_name = loadSession, catch)]
    fn js_load_session(key: &str, storage: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = loadSessionEntry, catch)]
    fn js_load_session_entry(key: &str, storage: &JsValue) -> Result<JsValue, JsValue>;
}

#[wasm_bindgen(inline_js = r#"
export function storageOf(local) { return local ? localStorage : sessionStorage; }
export function setRaw(local, key, text) { (local ? localStorage : sessionStorage).setItem(key, text); }
export function getRaw(local, key) { return (local ? localStorage : sessionStorage).getItem(key); }
export function clearAll() { sessionStorage.clear(); localStorage.clear(); }
// Fills sessionStorage until it refuses a 512 kB item.
export function fill() {
  const chunk = "x".repeat(512 * 1024);
  for (let filled = 0; ; filled++) {
    try { sessionStorage.setItem("filler-" + filled, chunk); } catch { return filled; }
  }
}
// sessionStorage as privacy settings and sandboxed frames make it: reading it throws.
let original;
export function block() {
  original = Object.getOwnPropertyDescriptor(window, "sessionStorage");
  Object.defineProperty(window, "sessionStorage", { configurable: true, get() { throw new DOMException("blocked", "SecurityError"); } });
}
export function unblock() {
  if (original) Object.defineProperty(window, "sessionStorage", original);
  else delete window.sessionStorage;
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = storageOf)]
    fn storage_of(local: bool) -> JsValue;
    #[wasm_bindgen(js_name = setRaw)]
    fn set_raw(local: bool, key: &str, text: &str);
    #[wasm_bindgen(js_name = getRaw)]
    fn get_raw(local: bool, key: &str) -> Option<String>;
    #[wasm_bindgen(js_name = clearAll)]
    fn clear_all();
    fn fill() -> u32;
    fn block();
    fn unblock();
}

/// A conversation saved mid-reply: a finished call with JSON payloads of every kind, a call
/// still running, a data part, metadata, agent state, a branch and a queued message.
fn mid_reply() -> Value {
    json!({
        "messages": [
            { "id": "u-1", "role": "user", "parts": [{ "type": "text", "text": "Plan a trip" }] },
            { "id": "a-1", "role": "assistant", "metadata": { "model": "m", "usage": { "tokens": 12 } }, "parts": [
                { "type": "step" },
                { "type": "reasoning", "text": "Dates first." },
                { "type": "tool", "id": "c-1", "name": "search", "input": { "q": "Lisbon", "n": 2.5, "ok": true, "tags": [null, "x", 1] }, "state": "done", "output": [1, "two", { "three": 3 }] },
                { "type": "data", "name": "weather", "id": "w", "data": { "temp": -1.25 } },
                { "type": "tool", "id": "c-2", "name": "book", "input": {}, "state": "running" },
                { "type": "text", "text": "Booking \u{1F600}" }
            ] }
        ],
        "status": "streaming",
        "agentState": { "step": "booking" },
        "queue": [{ "id": "q-1", "text": "And a hotel" }]
    })
}

fn js(value: &Value) -> JsValue {
    JSON::parse(&value.to_string()).expect("JSON")
}

fn from_js(value: &JsValue) -> Value {
    serde_json::from_str(&String::from(JSON::stringify(value).expect("JSON"))).expect("JSON")
}

fn rust_state(value: Value) -> Rc<SessionState> {
    Rc::new(serde_json::from_value(value).expect("a state"))
}

fn loaded(key: &str, area: StorageArea) -> StoredSession {
    load_session(key, area)
        .expect("loads")
        .expect("something is stored")
}

fn js_error(thrown: JsValue) -> (String, Option<String>) {
    let field = |name: &str| {
        Reflect::get(&thrown, &name.into())
            .ok()
            .and_then(|value| value.as_string())
    };
    (field("code").unwrap_or_default(), field("path"))
}

#[wasm_bindgen_test]
fn a_conversation_the_javascript_helpers_saved_loads_in_rust_as_they_load_it() {
    clear_all();
    for (local, area) in [(false, StorageArea::Session), (true, StorageArea::Local)] {
        js_save_session("trip", &js(&mid_reply()), &storage_of(local)).expect("JS saves");
        let in_rust = loaded("trip", area);
        let in_js = from_js(&js_load_session("trip", &storage_of(local)).expect("JS loads"));
        assert_eq!(serde_json::to_value(&*in_rust.state).unwrap(), in_js);
        // The load rule: stopped, the running call cancelled, the finished one kept.
        assert_eq!(in_js["status"], "idle");
        assert_eq!(in_js["messages"][1]["parts"][4]["state"], "cancelled");
        assert_eq!(
            in_js["messages"][1]["parts"][2]["output"],
            json!([1, "two", { "three": 3 }])
        );
        assert_eq!(in_rust.id, None);
    }
}

#[wasm_bindgen_test]
fn a_conversation_rust_saved_loads_in_javascript_as_in_rust() {
    clear_all();
    for (local, area) in [(false, StorageArea::Session), (true, StorageArea::Local)] {
        let state = rust_state(mid_reply());
        save_session("trip", &state, Some("chat-7"), area).expect("saves");
        let envelope: Value = serde_json::from_str(&get_raw(local, "trip").unwrap()).unwrap();
        assert_eq!(envelope["format"], "chat-session-reducer");
        assert_eq!(envelope["version"], 3);
        assert_eq!(envelope["id"], "chat-7");
        assert_eq!(envelope["state"], mid_reply());
        let in_js = from_js(&js_load_session("trip", &storage_of(local)).expect("JS loads"));
        let in_rust = loaded("trip", area);
        assert_eq!(in_js, serde_json::to_value(&*in_rust.state).unwrap());
        assert_eq!(in_rust.id.as_deref(), Some("chat-7"));
        clear_session("trip", area).expect("clears");
        assert_eq!(load_session("trip", area), Ok(None));
    }
    // Saved without an id, the envelope has none.
    save_session(
        "plain",
        &rust_state(mid_reply()),
        None,
        StorageArea::Session,
    )
    .unwrap();
    let envelope: Value = serde_json::from_str(&get_raw(false, "plain").unwrap()).unwrap();
    assert!(envelope.get("id").is_none());
}

/// The `rev` of the envelope stored under `key`, as written.
fn raw_rev(local: bool, key: &str) -> Value {
    let envelope: Value = serde_json::from_str(&get_raw(local, key).expect("stored")).unwrap();
    envelope["rev"].clone()
}

/// The `rev` the JavaScript helpers' `loadSessionEntry` reads under `key`.
fn js_rev(local: bool, key: &str) -> f64 {
    let entry = js_load_session_entry(key, &storage_of(local)).expect("JS loads");
    Reflect::get(&entry, &"rev".into())
        .unwrap()
        .as_f64()
        .expect("a number")
}

#[wasm_bindgen_test]
fn each_save_adds_1_to_the_stored_rev_whether_rust_or_javascript_wrote_it() {
    clear_all();
    for (local, area) in [(false, StorageArea::Session), (true, StorageArea::Local)] {
        let state = rust_state(mid_reply());
        save_session("revs", &state, None, area).unwrap();
        assert_eq!(raw_rev(local, "revs"), 1, "the first save");
        // JavaScript continues from what Rust wrote (its loadSessionEntry reads it)...
        assert_eq!(js_rev(local, "revs"), 1.0);
        js_save_session("revs", &js(&mid_reply()), &storage_of(local)).expect("JS saves");
        assert_eq!(raw_rev(local, "revs"), 2);
        // ...and Rust from what JavaScript wrote.
        assert_eq!(loaded("revs", area).rev, 2);
        save_session("revs", &state, None, area).unwrap();
        assert_eq!(raw_rev(local, "revs"), 3);
        assert_eq!(js_rev(local, "revs"), 3.0);
        js_save_session("revs", &js(&mid_reply()), &storage_of(local)).expect("JS saves");
        assert_eq!(loaded("revs", area).rev, 4);
    }
}

#[wasm_bindgen_test]
fn a_rust_save_reads_the_stored_rev_as_the_javascript_helpers_do() {
    clear_all();
    let idle = json!({ "messages": [], "status": "idle" });
    // As the helpers write it: `rev` after `version` (serde_json's json! would sort the keys).
    let envelope = |version: &str, rev: &str| {
        format!(r#"{{"format":"chat-session-reducer","version":{version}{rev},"state":{idle}}}"#)
    };
    let heads = [
        envelope("3", r#","rev":41"#),
        envelope("3", r#","rev":9007199254740990,"id":"c""#),
        // No rev, a rev that is not a count, not where this library writes it, not an envelope.
        envelope("2", ""),
        envelope("3", r#","rev":-3"#),
        envelope("3", r#","rev":1.5"#),
        envelope("3", r#","rev":1e300"#),
        envelope("3", r#","rev":99999999999999999999"#),
        envelope("", r#","rev":5"#),
        r#"{"version":3,"format":"chat-session-reducer","rev":5,"state":{}}"#.to_owned(),
        "{ not json".to_owned(),
    ];
    let state = rust_state(idle.clone());
    for (index, head) in heads.iter().enumerate() {
        // Keys the JavaScript helpers have not seen, so they too read the stored text.
        let (in_rust, in_js) = (format!("rust-{index}"), format!("js-{index}"));
        set_raw(false, &in_rust, head);
        set_raw(false, &in_js, head);
        save_session(&in_rust, &state, None, StorageArea::Session).unwrap();
        js_save_session(&in_js, &js(&idle), &storage_of(false)).expect("JS saves");
        assert_eq!(raw_rev(false, &in_rust), raw_rev(false, &in_js), "{head}");
    }
    assert_eq!(raw_rev(false, "rust-0"), 42);
    assert_eq!(raw_rev(false, "rust-1"), 9_007_199_254_740_991_u64);
    assert_eq!(raw_rev(false, "rust-2"), 1);
    // And the JavaScript helpers read the head of what Rust wrote.
    js_save_session("rust-0", &js(&idle), &storage_of(false)).expect("JS saves");
    assert_eq!(raw_rev(false, "rust-0"), 43);
}

#[wasm_bindgen_test]
fn older_envelopes_load_and_a_newer_one_is_a_version_error() {
    clear_all();
    let v1 = json!({ "messages": [
        { "id": "u-1", "role": "user", "parts": [{ "type": "text", "text": "Hi" }] },
        { "id": "a-1", "role": "assistant", "parts": [{ "type": "tool", "id": "c-1", "name": "s", "input": {}, "state": "running" }] }
    ], "status": "streaming" });
    for version in [1, 2, 3] {
        let text = json!({ "format": "chat-session-reducer", "version": version, "state": v1 })
            .to_string();
        set_raw(false, "old", &text);
        let state = loaded("old", StorageArea::Session).state;
        let in_js = from_js(&js_load_session("old", &storage_of(false)).unwrap());
        assert_eq!(
            serde_json::to_value(&*state).unwrap(),
            in_js,
            "version {version}"
        );
    }
    set_raw(
        false,
        "new",
        &json!({ "format": "chat-session-reducer", "version": 4, "state": {} }).to_string(),
    );
    let error = load_session("new", StorageArea::Session).unwrap_err();
    assert_eq!(error, StorageError::Version { version: 4.0 });
    let (code, _) = js_error(js_load_session("new", &storage_of(false)).unwrap_err());
    assert_eq!(code, error.code());
}

#[wasm_bindgen_test]
fn what_cannot_be_read_is_corrupt_with_the_javascript_helpers_path_and_is_kept() {
    clear_all();
    let envelope = |state: Value| {
        json!({ "format": "chat-session-reducer", "version": 3, "state": state }).to_string()
    };
    let cases = [
        ("{ not json".to_owned(), "stored"),
        ("[1]".to_owned(), "stored"),
        (
            json!({ "format": "other", "version": 3, "state": {} }).to_string(),
            "stored.format",
        ),
        (
            json!({ "format": "chat-session-reducer", "version": "3", "state": {} }).to_string(),
            "stored.version",
        ),
        (
            json!({ "format": "chat-session-reducer", "version": 3 }).to_string(),
            "stored.state",
        ),
        (
            envelope(
                json!({ "messages": [{ "id": 1, "role": "user", "parts": [] }], "status": "idle" }),
            ),
            "stored.state.messages[0].id",
        ),
        (
            envelope(
                json!({ "messages": [{ "id": "a", "role": "assistant", "parts": [{ "type": "text", "text": 5 }] }], "status": "idle" }),
            ),
            "stored.state.messages[0].parts[0].text",
        ),
        (
            envelope(json!({ "messages": [], "status": "error" })),
            "stored.state.error",
        ),
        (
            envelope(
                json!({ "messages": [], "status": "idle", "forks": [{ "after": "x", "active": 0, "alternatives": [null, { "messages": [] }] }] }),
            ),
            "stored.state.forks[0].after",
        ),
    ];
    for (text, path) in cases {
        set_raw(false, "bad", &text);
        let error = load_session("bad", StorageArea::Session).unwrap_err();
        let (code, js_path) = js_error(js_load_session("bad", &storage_of(false)).unwrap_err());
        assert_eq!(
            (error.code(), error.path()),
            ("corrupt", Some(path)),
            "{text}: {error}"
        );
        assert_eq!(
            (code.as_str(), js_path.as_deref()),
            (error.code(), error.path()),
            "{text}"
        );
        assert_eq!(
            get_raw(false, "bad").as_deref(),
            Some(text.as_str()),
            "the entry is kept"
        );
    }
    set_raw(false, "bad", &json!({ "format": "chat-session-reducer", "version": 3, "state": { "messages": [], "status": "idle" }, "id": 7 }).to_string());
    let error = load_session("bad", StorageArea::Session).unwrap_err();
    assert_eq!(error.path(), Some("stored.id"));
    set_raw(false, "bad", &json!({ "format": "chat-session-reducer", "version": 3, "rev": 1.5, "state": { "messages": [], "status": "idle" } }).to_string());
    let error = load_session("bad", StorageArea::Session).unwrap_err();
    assert_eq!(error.path(), Some("stored.rev"));
    // A revision the JavaScript helpers wrote is read.
    set_raw(false, "revised", &json!({ "format": "chat-session-reducer", "version": 3, "rev": 7, "id": "c", "state": { "messages": [], "status": "idle" } }).to_string());
    let revised = loaded("revised", StorageArea::Session);
    assert_eq!((revised.id.as_deref(), revised.rev), (Some("c"), 7));
}

#[wasm_bindgen_test]
fn a_state_that_is_not_a_session_is_not_saved() {
    clear_all();
    let broken = rust_state(json!({ "messages": [], "status": "error" }));
    let error = save_session("broken", &broken, None, StorageArea::Session).unwrap_err();
    assert_eq!(
        (error.code(), error.path()),
        ("invalid", Some("state.error"))
    );
    assert_eq!(get_raw(false, "broken"), None);
}

#[wasm_bindgen_test]
fn a_full_storage_refuses_the_save_with_quota_and_keeps_what_was_stored() {
    clear_all();
    let earlier = rust_state(mid_reply());
    save_session("earlier", &earlier, None, StorageArea::Session).unwrap();
    assert!(fill() > 0);
    let big = rust_state(json!({ "messages": [
        { "id": "u", "role": "user", "parts": [{ "type": "text", "text": "y".repeat(1024 * 1024) }] }
    ], "status": "idle" }));
    let before = serde_json::to_value(&*big).unwrap();
    let error = save_session("big", &big, None, StorageArea::Session).unwrap_err();
    assert!(matches!(error, StorageError::Quota { .. }), "{error}");
    assert_eq!(serde_json::to_value(&*big).unwrap(), before);
    assert_eq!(load_session("big", StorageArea::Session), Ok(None));
    assert_eq!(
        loaded("earlier", StorageArea::Session).state.messages.len(),
        2
    );
    clear_all();
}

#[wasm_bindgen_test]
fn a_storage_that_throws_on_access_is_unavailable_with_no_exception() {
    clear_all();
    let state = rust_state(mid_reply());
    block();
    let errors = [
        save_session("blocked", &state, None, StorageArea::Session).unwrap_err(),
        load_session("blocked", StorageArea::Session).unwrap_err(),
        clear_session("blocked", StorageArea::Session).unwrap_err(),
    ];
    // localStorage is another storage: still there.
    let local = save_session("fine", &state, None, StorageArea::Local);
    unblock();
    for error in errors {
        assert_eq!(error.code(), "unavailable");
        assert!(error.to_string().contains("SecurityError"), "{error}");
    }
    assert_eq!(local, Ok(()));
    assert!(load_session("blocked", StorageArea::Session)
        .unwrap()
        .is_none());
}
