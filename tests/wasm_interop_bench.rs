//! Not a test: the measurement behind docs/decisions.md ("serde-wasm-bindgen: not used") and
//! docs/performance.md, run by hand (ignored otherwise):
//!
//! ```sh
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner cargo test --release \
//!   --target wasm32-unknown-unknown --no-default-features --features js-binding,js-interop \
//!   --test wasm_interop_bench -- --include-ignored --nocapture
//! ```
//!
//! The same actions read three ways, in one Node process, rounds interleaved: the package's
//! reader (`readAction` and `readStrings` in JavaScript, the decoder in Rust), serde-wasm-bindgen
//! alone (`from_value::<SessionAction>`), and `js_interop::action_from_js` (the reader's check, a
//! JSON copy, serde-wasm-bindgen). With `js-binding`, as in the package, payloads decode to
//! placeholders.
//!
//! Without `js-binding` (`--features js-interop`, a Rust app's build) the package's reader is not
//! there, and serde-wasm-bindgen converts the payloads too.
#![cfg(all(feature = "js-interop", target_arch = "wasm32"))]

use chat_session_reducer::core::model::SessionAction;
use chat_session_reducer::js_interop;
#[cfg(feature = "js-binding")]
use chat_session_reducer::wasm;
use js_sys::JSON;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

#[cfg(feature = "js-binding")]
#[wasm_bindgen(module = "/src/wasm/read.js")]
extern "C" {
    #[wasm_bindgen(js_name = readAction, catch)]
    // An `Int32Array`, copied as the package's glue copies it (declared unlike the binding's own
    // import of it, whose symbol the linker would otherwise find twice).
    fn read_action(action: &JsValue, refuse: bool) -> Result<js_sys::Int32Array, JsValue>;
    #[wasm_bindgen(js_name = readStrings)]
    fn read_strings() -> Vec<u8>;
}

#[wasm_bindgen(inline_js = "export function now() { return performance.now(); }")]
extern "C" {
    fn now() -> f64;
}

fn part(part: Value) -> Value {
    json!({ "type": "part", "part": part })
}

/// A reply of 2,000 text deltas; 200 tool calls with their results; the deltas in batches of 16.
fn workloads() -> Vec<(&'static str, Vec<Value>)> {
    let deltas: Vec<Value> = (0..2000)
        .map(|i| part(json!({ "type": "text-delta", "text": format!("word {i} ") })))
        .collect();
    let mut reply = vec![
        json!({ "type": "send", "id": "u-1", "text": "Tell me" }),
        part(json!({ "type": "message-start", "messageId": "a-1" })),
    ];
    reply.extend(deltas.iter().cloned());
    let tools = (0..200)
        .flat_map(|i| {
            let id = format!("c-{i}");
            [
                part(json!({ "type": "tool-call", "id": id, "name": "search", "input": { "q": "mugs", "page": i, "filters": ["blue", "large"] } })),
                part(json!({ "type": "tool-result", "id": id, "output": { "items": [{ "slug": "mug", "price": 12.5 }], "total": 1 } })),
            ]
        })
        .collect();
    let batches = deltas
        .chunks(16)
        .map(|chunk| json!({ "type": "batch", "actions": chunk }))
        .collect();
    vec![
        ("reply", reply),
        ("tools", tools),
        ("reply in batches of 16", batches),
    ]
}

/// One way of reading an action.
type Reader = fn(&JsValue) -> SessionAction;

#[cfg(feature = "js-binding")]
fn by_reader(action: &JsValue) -> SessionAction {
    let codes = read_action(action, false).expect("reads").to_vec();
    wasm::decode_action(&codes, &read_strings())
        .expect("decodes")
        .expect("a known type")
}

fn by_serde(action: &JsValue) -> SessionAction {
    serde_wasm_bindgen::from_value(action.clone()).expect("deserializes")
}

fn by_interop(action: &JsValue) -> SessionAction {
    js_interop::action_from_js(action).expect("converts")
}

/// Microseconds per action of `read` over `actions`, the median of `rounds`.
fn median_micros(actions: &[JsValue], read: Reader, rounds: &mut Vec<f64>) {
    let start = now();
    for action in actions {
        std::hint::black_box(read(action));
    }
    rounds.push((now() - start) * 1000.0 / actions.len() as f64);
}

#[wasm_bindgen_test]
#[ignore]
fn serde_wasm_bindgen_against_the_packages_reader() {
    for (name, actions) in workloads() {
        let values: Vec<JsValue> = actions
            .iter()
            .map(|action| JSON::parse(&action.to_string()).unwrap())
            .collect();
        let readers: Vec<(&str, Reader)> = vec![
            #[cfg(feature = "js-binding")]
            ("the package's reader", by_reader),
            ("serde-wasm-bindgen", by_serde),
            ("js_interop::action_from_js", by_interop),
        ];
        let mut rounds = vec![Vec::new(); readers.len()];
        for _ in 0..15 {
            for (index, (_, read)) in readers.iter().enumerate() {
                median_micros(&values, *read, &mut rounds[index]);
            }
        }
        for ((reader, _), mut times) in readers.iter().zip(rounds) {
            times.sort_by(f64::total_cmp);
            console_log!(
                "{name} ({} actions): {reader}: {:.2} µs an action",
                values.len(),
                times[times.len() / 2]
            );
        }
    }
}
