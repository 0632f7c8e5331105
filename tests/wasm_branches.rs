//! SPEC v3 branches through the binding, as JavaScript calls it (the package's own
//! `sessionReducer` wrapper): switching to a branch and back returns the very objects, a state
//! with forks that the module did not make is read and switched, and `branchAt` (JavaScript,
//! src/main/branch-at.js) agrees with the core's `branch_at` on random conversations. Run in Node and
//! in headless Chromium.
#![cfg(all(feature = "js-binding", target_arch = "wasm32"))]

mod wasm_support;

use std::rc::Rc;

use chat_session_reducer::core::model::{SessionAction, SessionState};
use chat_session_reducer::core::{branch_at, session_reducer};
use js_sys::Reflect;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;
use wasm_support::*;

#[wasm_bindgen(module = "/src/main/branch-at.js")]
extern "C" {
    #[wasm_bindgen(js_name = branchAt)]
    fn branch_at_js(state: &JsValue, index: f64) -> JsValue;
}

const TWO_TURNS: &[&str] = &[
    r#"{ "type": "send", "id": "u-1", "text": "Hi" }"#,
    r#"{ "type": "part", "part": { "type": "message-start", "messageId": "a-1" } }"#,
    r#"{ "type": "part", "part": { "type": "text-delta", "text": "Hello" } }"#,
    r#"{ "type": "part", "part": { "type": "finish" } }"#,
    r#"{ "type": "send", "id": "u-2", "text": "Plan a trip" }"#,
    r#"{ "type": "part", "part": { "type": "message-start", "messageId": "a-2" } }"#,
    r#"{ "type": "part", "part": { "type": "text-delta", "text": "To Lyon" } }"#,
    r#"{ "type": "part", "part": { "type": "finish" } }"#,
];

#[wasm_bindgen_test]
fn switching_to_a_branch_and_back_returns_the_very_objects() {
    let start = play(&js(EMPTY), TWO_TURNS);
    deep_freeze(&start);
    let edited = play(
        &start,
        &[
            r#"{ "type": "edit", "messageId": "u-2", "id": "u-2b", "text": "Cheap" }"#,
            r#"{ "type": "part", "part": { "type": "message-start", "messageId": "a-2b" } }"#,
            r#"{ "type": "part", "part": { "type": "text-delta", "text": "To Dijon" } }"#,
            r#"{ "type": "part", "part": { "type": "finish" } }"#,
        ],
    );
    let back = play(
        &edited,
        &[r#"{ "type": "switchBranch", "after": "a-1", "to": 0 }"#],
    );
    for index in ["0", "1", "2", "3"] {
        assert!(same(
            &get(&back, &format!("messages.{index}")),
            &get(&start, &format!("messages.{index}"))
        ));
    }
    let forth = play(
        &back,
        &[r#"{ "type": "switchBranch", "after": "a-1", "to": 1 }"#],
    );
    for index in ["2", "3"] {
        assert!(same(
            &get(&forth, &format!("messages.{index}")),
            &get(&edited, &format!("messages.{index}"))
        ));
    }
    assert!(same(
        &get(&forth, "forks.0.alternatives.0.messages.0"),
        &get(&start, "messages.2")
    ));
    assert_eq!(
        text_of(&get(&forth, "forks")),
        text_of(&get(&edited, "forks"))
    );
}

#[wasm_bindgen_test]
fn a_state_with_forks_the_module_did_not_make_is_read_and_switched() {
    let literal = js(r#"{
        "messages": [{ "id": "u-1", "role": "user", "parts": [{ "type": "text", "text": "Hi" }] }],
        "status": "idle",
        "forks": [{
            "after": "u-1",
            "active": 2,
            "alternatives": [
                { "messages": [{ "id": "a-0", "role": "assistant", "parts": [{ "type": "text", "text": "zero" }] }] },
                { "messages": [{ "id": "a-1", "role": "assistant", "parts": [{ "type": "text", "text": "one" }] }] },
                null
            ]
        }]
    }"#);
    let switched = reduce(
        &literal,
        &js(r#"{ "type": "switchBranch", "after": "u-1", "to": 1 }"#),
    )
    .unwrap();
    assert!(same(
        &get(&switched, "messages.1"),
        &get(&literal, "forks.0.alternatives.1.messages.0")
    ));
    assert!(same(
        &get(&switched, "forks.0.alternatives.0"),
        &get(&literal, "forks.0.alternatives.0")
    ));
    assert!(get(&switched, "forks.0.alternatives.1").is_null());
    assert_eq!(
        text_of(&get(&switched, "forks.0.alternatives.2")),
        r#"{"messages":[]}"#,
        "the live tail (empty: a regenerate whose reply had not begun) is set aside"
    );
    let one = js(
        r#"{ "messages": [], "status": "idle", "forks": [{ "after": null, "active": 0, "alternatives": [null] }] }"#,
    );
    let error = reduce(&one, &js(r#"{ "type": "stop" }"#)).unwrap_err();
    assert_eq!(error_field(&error, "path"), "state.forks[0].alternatives");
    let bad = reduce(
        &literal,
        &js(r#"{ "type": "switchBranch", "after": "u-1", "to": "1" }"#),
    )
    .unwrap_err();
    assert_eq!(error_field(&bad, "path"), "action.to");
    assert_eq!(
        error_field(&bad, "message"),
        "action.to: expected an integer"
    );
}

/// A small deterministic generator (xorshift64*).
struct Cases(u64);

impl Cases {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n as u64) as usize
    }

    fn pick<'a>(&mut self, options: &[&'a str]) -> &'a str {
        options[self.below(options.len())]
    }

    /// Turns and branch actions over a few ids, so that edits and switches meet forks.
    fn action(&mut self) -> Value {
        let ids = ["u1", "u2", "u3", "a1", "a2"];
        match self.below(9) {
            0 | 1 => json!({ "type": "send", "id": self.pick(&ids[..3]), "text": "hi" }),
            2 => {
                json!({ "type": "part", "part": { "type": "message-start", "messageId": self.pick(&ids[3..]) } })
            }
            3 => json!({ "type": "part", "part": { "type": "text-delta", "text": "x" } }),
            4 => json!({ "type": "part", "part": { "type": "finish" } }),
            5 => {
                json!({ "type": "edit", "messageId": self.pick(&ids[..3]), "id": self.pick(&ids[..3]), "text": "e" })
            }
            6 => json!({ "type": "regenerate" }),
            _ => {
                let after = match self.below(4) {
                    0 => Value::Null,
                    _ => json!(self.pick(&ids)),
                };
                json!({ "type": "switchBranch", "after": after, "to": self.below(3) })
            }
        }
    }
}

#[wasm_bindgen_test]
fn branch_at_in_javascript_agrees_with_the_core_on_random_conversations() {
    let mut cases = Cases(0x2545_f491_4f6c_dd1d);
    let mut forks_seen = 0;
    for _ in 0..40 {
        let mut state = js(EMPTY);
        let mut native = Rc::new(SessionState::empty());
        for _ in 0..40 {
            let action = cases.action();
            state = reduce(&state, &js(&action.to_string())).unwrap();
            let parsed: SessionAction = serde_json::from_value(action).unwrap();
            native = session_reducer(&native, &parsed).unwrap();
            let count = native.messages.len();
            for index in 0..=count + 1 {
                let expected = branch_at(&native, index).map(|found| {
                    json!({ "after": found.after, "active": found.active, "count": found.count })
                });
                let got = branch_at_js(&state, index as f64);
                let got = (!got.is_undefined())
                    .then(|| serde_json::from_str::<Value>(&text_of(&got)).unwrap());
                forks_seen += usize::from(expected.is_some());
                assert_eq!(got, expected, "branchAt(state, {index})");
            }
        }
        assert!(Reflect::get(&state, &"messages".into()).is_ok());
    }
    assert!(
        forks_seen > 100,
        "the conversations had forks to find: {forks_seen}"
    );
}

/// `JSON.stringify` with every object's keys sorted, as serde_json's `Value` writes them.
fn sorted_text(value: &JsValue) -> String {
    let sorted = js_sys::Function::new_with_args(
        "key, value",
        "return value && typeof value === 'object' && !Array.isArray(value) \
         ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))) : value",
    );
    js_sys::JSON::stringify_with_replacer(value, &sorted)
        .unwrap()
        .into()
}

/// A chain of branches `levels` deep below a fork after u-2, with a small fork beside the chain
/// every third level and a second alternative every fifth.
fn deep_state(levels: usize) -> Value {
    let text =
        |id: &str| json!({ "id": id, "role": "user", "parts": [{ "type": "text", "text": id }] });
    let mut branch = json!({ "messages": [text("m-0")] });
    for level in 1..levels {
        let (chain, side) = (format!("m-{level}"), format!("x-{level}"));
        let mut alternatives = vec![branch, Value::Null];
        if level % 5 == 0 {
            alternatives.push(json!({ "messages": [text(&format!("z-{level}"))] }));
        }
        let mut forks = vec![json!({ "after": chain, "active": 1, "alternatives": alternatives })];
        if level % 3 == 0 {
            forks.push(json!({ "after": side, "active": 0, "alternatives": [null, { "messages": [text(&format!("y-{level}"))] }] }));
        }
        branch = json!({ "messages": [text(&chain), text(&side)], "forks": forks });
    }
    json!({
        "messages": [text("u-1"), { "id": "a-1", "role": "assistant", "parts": [] }, text("u-2")],
        "status": "idle",
        "forks": [{ "after": "u-2", "active": 1, "alternatives": [branch, null] }]
    })
}

#[wasm_bindgen_test]
fn a_trim_of_branches_too_deep_gives_what_the_core_gives() {
    for levels in [63, 64] {
        let value = deep_state(levels);
        let native: Rc<SessionState> = Rc::new(serde_json::from_value(value.clone()).unwrap());
        for action in [
            json!({ "type": "edit", "messageId": "u-1", "id": "v-1", "text": "v" }),
            json!({ "type": "regenerate", "messageId": "a-1" }),
        ] {
            let next = reduce(&js(&value.to_string()), &js(&action.to_string())).unwrap();
            let parsed: SessionAction = serde_json::from_value(action.clone()).unwrap();
            // As text with sorted keys (serde_json parses at most 128 levels).
            let expected =
                serde_json::to_value(&*session_reducer(&native, &parsed).unwrap()).unwrap();
            assert_eq!(
                sorted_text(&next),
                expected.to_string(),
                "{levels} levels, {action}"
            );
            // What it made reads back: within the limit.
            reduce(&js(&text_of(&next)), &js(r#"{ "type": "stop" }"#)).unwrap();
        }
    }
}
