//! Random and malformed input through the binding: it never traps, bad input is always a
//! `TypeError` with `code: "invalid"`, and valid input gives exactly what the core gives on
//! its own, v1, v2 and v3 actions and parts mixed, JSON payloads aside (the host's: see
//! `without_payloads`; JSON Patch, which the core leaves to its host, is checked in
//! tests/js/). Run in Node and in headless Chromium.
#![cfg(all(feature = "js-binding", target_arch = "wasm32"))]

mod wasm_support;

use std::rc::Rc;

use chat_session_reducer::core::model::{SessionAction, SessionState};
use chat_session_reducer::core::session_reducer;
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;
use wasm_support::*;

/// A small deterministic generator (xorshift64*): the same cases on every run.
struct Cases(u64);

impl Cases {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, options: &[&'a str]) -> &'a str {
        options[self.below(options.len())]
    }

    /// A JSON value from a small set, so that merges and replacements meet equal values.
    fn value(&mut self) -> Value {
        match self.below(5) {
            0 => json!(null),
            1 => json!({ "a": 1, "b": { "c": [1] } }),
            2 => json!({ "b": { "d": 2 } }),
            3 => json!([1, 2]),
            _ => json!("s"),
        }
    }

    /// A snapshot's messages: some held ids, some new, calls whose ids collide.
    fn snapshot_messages(&mut self) -> Value {
        let pool = [
            json!({ "id": "m1", "role": "assistant", "parts": [{ "type": "text", "text": "a" }] }),
            json!({ "id": "m2", "role": "assistant", "parts": [{ "type": "tool", "id": "c9", "name": "search", "input": {}, "state": "running" }], "metadata": { "a": 1 } }),
            json!({ "id": "u1", "role": "user", "parts": [{ "type": "text", "text": "hello" }] }),
            json!({ "id": "m3", "role": "assistant", "parts": [{ "type": "data", "name": "plan", "id": "p", "data": [1] }, { "type": "tool", "id": "c1", "name": "confirm", "input": 1, "state": "awaiting-confirmation" }] }),
        ];
        let count = self.below(3);
        Value::Array(
            (0..count)
                .map(|_| pool[self.below(pool.len())].clone())
                .collect(),
        )
    }

    /// A state for `load`: stored while streaming, waiting on the user with a queue, or with an
    /// open call whose sub-agent run still streams.
    fn loaded_state(&mut self) -> Value {
        let call = |id: &str, state: &str| json!({ "type": "tool", "id": id, "name": "confirm", "input": {}, "state": state });
        let reply = |parts: Value| json!({ "id": "m1", "role": "assistant", "parts": parts });
        let asked =
            json!({ "id": "u1", "role": "user", "parts": [{ "type": "text", "text": "hi" }] });
        let mut nested = call("c2", "running");
        nested["agent"] =
            json!({ "messages": [reply(json!([call("c3", "running")]))], "status": "streaming" });
        match self.below(3) {
            0 => {
                json!({ "messages": [asked, reply(json!([call("c1", "running"), { "type": "step" }]))], "status": "streaming" })
            }
            1 => {
                json!({ "messages": [asked, reply(json!([call("c1", "awaiting-confirmation")]))], "status": "idle",
                         "queue": [{ "id": "m2", "text": "later", "metadata": { "a": 1 } }] })
            }
            _ => {
                json!({ "messages": [asked, reply(json!([call("c1", "running"), nested]))], "status": "idle" })
            }
        }
    }

    /// A valid action over a small alphabet, so that ids and names collide.
    fn action(&mut self) -> Value {
        self.action_nested(0)
    }

    fn action_nested(&mut self, depth: usize) -> Value {
        let ids = ["c1", "c2", "c3", "c4"];
        let messages = ["m1", "m2", "u1"];
        let names = ["search", "delegate_to_a", "confirm"];
        let mut part = match self.below(25) {
            0 => json!({ "type": "message-start", "messageId": self.pick(&messages) }),
            1 | 2 => json!({ "type": "text-delta", "text": self.pick(&["a", "bc", ""]) }),
            3 => json!({ "type": "reasoning", "text": "r", "metadata": { "k": [1, 2] } }),
            4 | 5 => {
                json!({ "type": "tool-call", "id": self.pick(&ids), "name": self.pick(&names), "input": { "q": 1 } })
            }
            6 => {
                json!({ "type": "tool-result", "id": self.pick(&ids), "output": [1, { "x": null }] })
            }
            7 => {
                json!({ "type": "tool-error", "id": self.pick(&ids), "error": { "message": "e", "code": self.pick(&["cancelled", "boom"]) } })
            }
            8 => json!({ "type": "finish", "reason": self.pick(&["stop", "aborted"]) }),
            9 => json!({ "type": "error", "error": "lost", "code": "network" }),
            10 => json!({ "type": "reasoning-delta", "text": self.pick(&["r", ""]) }),
            11 | 12 => {
                // Pieces that make JSON, text that is not, and blank text. (No number with a
                // fraction or exponent: the native core's parser writes 1.0 where JSON.parse
                // gives 1.)
                let text = self.pick(&["{", "}", "\"a\"", ":", "[1", "]", " ", ""]);
                let mut part =
                    json!({ "type": "tool-input-delta", "id": self.pick(&ids), "text": text });
                if self.below(2) == 0 {
                    part["name"] = json!(self.pick(&names));
                }
                part
            }
            13 => json!({ "type": "tool-input-end", "id": self.pick(&ids) }),
            14 => {
                json!({ "type": "tool-result", "id": self.pick(&ids), "output": "partial", "preliminary": self.below(2) == 0 })
            }
            15 => {
                let mut part = json!({ "type": "tool-approval-request", "name": self.pick(&names), "prompt": "ok?" });
                if self.below(2) == 0 {
                    part["id"] = json!(self.pick(&ids));
                }
                if self.below(2) == 0 {
                    part["approvalId"] = json!(self.pick(&["ap1", "ap2"]));
                }
                if self.below(2) == 0 {
                    part["details"] = json!({ "d": [1] });
                }
                part
            }
            16 => {
                let mut part =
                    json!({ "type": "tool-approval-response", "approved": self.below(2) == 0 });
                match self.below(3) {
                    0 => part["approvalId"] = json!(self.pick(&["ap1", "ap2"])),
                    _ => part["id"] = json!(self.pick(&ids)),
                }
                if self.below(2) == 0 {
                    part["reason"] = json!("because");
                }
                match self.below(3) {
                    0 => part["input"] = json!({ "edited": true }),
                    1 => part["output"] = json!("answered"),
                    _ => {}
                }
                part
            }
            17 => json!({ "type": "step-finish" }),
            18 | 19 => {
                let mut data = json!({ "type": "data", "name": self.pick(&["plan", "source"]), "data": self.value() });
                if self.below(2) == 0 {
                    data["id"] = json!(self.pick(&["p", "q"]));
                }
                data
            }
            20 => json!({ "type": "message-metadata", "metadata": self.value() }),
            21 => {
                json!({ "type": "snapshot", "messages": self.snapshot_messages(), "exact": self.below(3) == 0 })
            }
            23 => json!({ "type": "step-start" }),
            24 => json!({ "type": "step-reset" }),
            _ => json!({ "type": "agent-state", "snapshot": self.value() }),
        };
        let targeted = [
            "text-delta",
            "reasoning",
            "reasoning-delta",
            "tool-call",
            "tool-input-delta",
            "data",
            "message-metadata",
            "step-start",
            "step-reset",
        ];
        if self.below(3) == 0 && targeted.contains(&part["type"].as_str().unwrap_or_default()) {
            part["messageId"] = json!(self.pick(&messages));
        }
        let carries = [
            "message-start",
            "text-delta",
            "reasoning-delta",
            "tool-call",
            "tool-input-delta",
            "tool-input-end",
            "tool-result",
            "tool-error",
            "data",
        ];
        if self.below(3) == 0 && carries.contains(&part["type"].as_str().unwrap_or_default()) {
            part["metadata"] = self.value();
        }
        match self.below(21) {
            14 if depth < 2 => {
                let actions: Vec<Value> = (0..self.below(4))
                    .map(|_| self.action_nested(depth + 1))
                    .collect();
                json!({ "type": "batch", "actions": actions })
            }
            0 => json!({ "type": "send", "id": self.pick(&messages), "text": "hello" }),
            1 => {
                json!({ "type": "toolPhase", "name": self.pick(&names), "state": self.pick(&["running", "awaiting-confirmation"]), "prompt": "ok?" })
            }
            2 => json!({ "type": "toolPhase", "name": self.pick(&names), "state": "running" }),
            3 => json!({ "type": self.pick(&["stop", "retry", "reset", "continue"]) }),
            15 => {
                let mut send = json!({ "type": "send", "id": self.pick(&messages), "text": "look",
                    "parts": [{ "type": "data", "name": "file", "data": self.value() }, { "type": "text", "text": "t" }] });
                if self.below(2) == 0 {
                    send["metadata"] = self.value();
                }
                send
            }
            16 => json!({ "type": "unqueue", "id": self.pick(&messages) }),
            17 => json!({ "type": "load", "state": self.loaded_state() }),
            4..=7 => json!({ "type": "part", "part": part, "within": self.pick(&ids) }),
            // v3: branches.
            18 => {
                json!({ "type": "edit", "messageId": self.pick(&messages), "id": self.pick(&messages), "text": "edited" })
            }
            19 => match self.below(2) {
                0 => json!({ "type": "regenerate" }),
                _ => json!({ "type": "regenerate", "messageId": self.pick(&messages) }),
            },
            20 => {
                let after = match self.below(4) {
                    0 => Value::Null,
                    _ => json!(self.pick(&messages)),
                };
                json!({ "type": "switchBranch", "after": after, "to": self.below(3) })
            }
            _ => json!({ "type": "part", "part": part }),
        }
    }

    /// A copy of `value` with one place replaced by something of the wrong shape.
    fn malformed(&mut self, value: &Value) -> Value {
        let junk = [
            json!(null),
            json!(7),
            json!("x"),
            json!([]),
            json!({}),
            json!(true),
            json!(-0.0),
        ];
        let mut value = value.clone();
        let mut place = &mut value;
        loop {
            let keys: Vec<String> = match place {
                Value::Object(map) => map.keys().cloned().collect(),
                Value::Array(list) => (0..list.len()).map(|index| index.to_string()).collect(),
                _ => Vec::new(),
            };
            if keys.is_empty() || self.below(3) == 0 {
                *place = junk[self.below(junk.len())].clone();
                return value;
            }
            let key = keys[self.below(keys.len())].clone();
            if self.below(4) == 0 {
                if let Value::Object(map) = place {
                    map.remove(&key);
                    return value;
                }
            }
            place = match place {
                Value::Object(map) => map.get_mut(&key).unwrap(),
                Value::Array(list) => &mut list[key.parse::<usize>().unwrap()],
                _ => unreachable!(),
            };
        }
    }
}

fn to_js(value: &Value) -> JsValue {
    js(&value.to_string())
}

fn from_js(value: &JsValue) -> Value {
    serde_json::from_str(&text_of(value)).unwrap()
}

/// The JSON payloads the host keeps. On wasm the core holds a placeholder for each (see
/// `model::Json`), so `value` is compared with every payload `null` (kept where present) and
/// no `metadata` (which the host also merges): the payloads themselves are checked against an
/// independent reducer by the JavaScript fuzz (tests/fuzz/).
const PAYLOADS: [&str; 5] = ["input", "output", "data", "agentState", "details"];

fn without_payloads(mut value: Value) -> Value {
    match &mut value {
        Value::Object(map) => {
            map.remove("metadata");
            for (key, item) in map.iter_mut() {
                *item = match PAYLOADS.contains(&key.as_str()) {
                    true => Value::Null,
                    false => without_payloads(item.take()),
                };
            }
        }
        Value::Array(list) => {
            for item in list.iter_mut() {
                *item = without_payloads(item.take());
            }
        }
        _ => {}
    }
    value
}

#[wasm_bindgen_test]
fn valid_action_sequences_and_branches_give_what_the_native_core_gives() {
    let mut cases = Cases(0x9e37_79b9_7f4a_7c15);
    let mut with_forks = 0;
    for _ in 0..60 {
        let mut native = Rc::new(SessionState::empty());
        let mut state = js(EMPTY);
        let mut history = Vec::new();
        for _ in 0..40 {
            // Now and then go back to an earlier state, as time travel or a React rebase does.
            if !history.is_empty() && cases.below(6) == 0 {
                (state, native) = history.swap_remove(cases.below(history.len()));
            }
            history.push((state.clone(), native.clone()));
            let action = cases.action();
            let next = reduce(&state, &to_js(&action))
                .unwrap_or_else(|error| panic!("{action}: {}", text_of(&error)));
            let parsed: SessionAction = serde_json::from_value(action.clone()).unwrap();
            let native_next = session_reducer(&native, &parsed)
                .expect("what the package accepts, the Rust API accepts");
            // The same object exactly when nothing changed. Operations on JSON values are the
            // host's to find unchanged (patch.rs), so the native core may give an equal copy.
            if Rc::ptr_eq(&native_next, &native) {
                assert!(
                    same(&next, &state),
                    "nothing changed, the same object: {action}"
                );
            }
            let native_json = without_payloads(serde_json::to_value(&*native_next).unwrap());
            if same(&next, &state) {
                assert_eq!(
                    native_json,
                    without_payloads(serde_json::to_value(&*native).unwrap()),
                    "the same object, so nothing changed: {action}"
                );
            }
            assert_eq!(
                without_payloads(from_js(&next)),
                native_json,
                "after {action}"
            );
            with_forks += usize::from(!native_next.forks.is_empty());
            (state, native) = (next, native_next);
        }
    }
    assert!(
        with_forks > 100,
        "v3: the sequences made branches: {with_forks} steps"
    );
}

#[wasm_bindgen_test]
fn malformed_actions_and_states_are_type_errors_and_the_module_keeps_working() {
    let mut cases = Cases(0x0123_4567_89ab_cdef);
    for _ in 0..400 {
        let mut state = js(EMPTY);
        let mut state_json = json!({ "messages": [], "status": "idle" });
        for _ in 0..cases.below(12) {
            let action = cases.action();
            state = reduce(&state, &to_js(&action)).unwrap();
        }
        if cases.below(2) == 0 {
            state_json = from_js(&state);
        }
        let action = cases.action();
        let (bad_state, bad_action) = match cases.below(2) {
            0 => (to_js(&cases.malformed(&state_json)), to_js(&action)),
            _ => (state.clone(), to_js(&cases.malformed(&action))),
        };
        if let Err(thrown) = reduce(&bad_state, &bad_action) {
            assert!(
                thrown.is_instance_of::<js_sys::TypeError>(),
                "{}",
                text_of(&thrown)
            );
            assert_eq!(error_field(&thrown, "code"), "invalid");
            assert!(!error_field(&thrown, "path").is_empty());
        }
        reduce(&state, &to_js(&action)).expect("a valid action still applies");
    }
}
