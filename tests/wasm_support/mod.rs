//! Helpers for the wasm-bindgen tests: calling the exports with JavaScript values as a
//! JavaScript caller does.

#![allow(dead_code)]

use chat_session_reducer::wasm;
use js_sys::{Array, Object, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The module's export behind `sessionReducer`, as the package's glue calls it.
type ReduceInWasm = dyn Fn(JsValue, JsValue, f64, Vec<i32>, Vec<u8>) -> Result<JsValue, JsValue>;

// The package's own `sessionReducer` (wasm-bindgen copies its module beside the crate's, which
// it imports), bound to this build's export instead of the package's.
#[wasm_bindgen(module = "/src/main/session-reducer.js")]
extern "C" {
    #[wasm_bindgen(js_name = bindSessionReducer)]
    fn bind_session_reducer(reduce_in_wasm: &Closure<ReduceInWasm>);

    #[wasm_bindgen(js_name = sessionReducer, catch)]
    fn session_reducer(state: &JsValue, action: &JsValue) -> Result<JsValue, JsValue>;
}

// The package's `checkAction`, which reads in JavaScript only.
#[wasm_bindgen(module = "/src/wasm/read.js")]
extern "C" {
    /// `checkAction(value)`, as the package exports it.
    #[wasm_bindgen(js_name = checkAction, catch)]
    pub fn check_action(value: &JsValue) -> Result<JsValue, JsValue>;
}

thread_local! {
    static BOUND: () = {
        let reduce_in_wasm = Closure::<ReduceInWasm>::new(|state, action, session, codes, strings| {
            wasm::session_reducer_read(&state, &action, session, codes, strings)
        });
        bind_session_reducer(&reduce_in_wasm);
        // `sessionReducer` calls it for as long as the tests run.
        reduce_in_wasm.forget();
    };
}

pub fn js(json: &str) -> JsValue {
    JSON::parse(json).expect("test JSON parses")
}

pub fn text_of(value: &JsValue) -> String {
    JSON::stringify(value).expect("stringifies").into()
}

/// `sessionReducer(state, action)`, as the package exports it.
pub fn reduce(state: &JsValue, action: &JsValue) -> Result<JsValue, JsValue> {
    BOUND.with(|_| session_reducer(state, action))
}

pub fn part(part_json: &str) -> JsValue {
    js(&format!(r#"{{ "type": "part", "part": {part_json} }}"#))
}

pub fn get(value: &JsValue, path: &str) -> JsValue {
    path.split('.')
        .fold(value.clone(), |value, key| match key.parse::<u32>() {
            Ok(index) => value.unchecked_into::<Array>().get(index),
            Err(_) => Reflect::get(&value, &key.into()).expect("readable"),
        })
}

/// The string at `path`, e.g. `messages.1.parts.0.text`.
pub fn string_at(value: &JsValue, path: &str) -> String {
    get(value, path)
        .as_string()
        .unwrap_or_else(|| panic!("{path} is not a string"))
}

pub fn same(a: &JsValue, b: &JsValue) -> bool {
    Object::is(a, b)
}

/// Freezes a value and everything in it, as a caller may do to prove nothing is mutated.
pub fn deep_freeze(value: &JsValue) {
    if value.is_object() {
        let object: &Object = value.unchecked_ref();
        for key in Object::keys(object).iter() {
            deep_freeze(&Reflect::get(value, &key).expect("readable"));
        }
        Object::freeze(object);
    }
}

/// Plays actions (JSON) from a state; panics on the first error.
pub fn play(state: &JsValue, actions: &[&str]) -> JsValue {
    actions.iter().fold(state.clone(), |state, action| {
        reduce(&state, &js(action)).expect("action applies")
    })
}

pub fn error_field(error: &JsValue, name: &str) -> String {
    Reflect::get(error, &name.into())
        .ok()
        .and_then(|value| value.as_string())
        .unwrap_or_default()
}

pub const EMPTY: &str = r#"{ "messages": [], "status": "idle" }"#;
