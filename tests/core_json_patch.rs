//! The json-patch-tests suite (tests/fixtures/json-patch-tests, Apache-2.0) through the core's
//! JSON Patch, as a `data` part's `patch` and as an `agent-state` part's: every enabled case
//! gives its `expected` document, or, for an `error` case, changes nothing (the same state back),
//! as tests/js/json.test.mjs checks the package's.

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

mod common;

use std::rc::Rc;

use chat_session_reducer::core::model::AgentPart;
use chat_session_reducer::core::session_reducer;
use chat_session_reducer::Error;
use common::*;
use serde_json::{json, Value};

const FILES: [(&str, &str); 2] = [
    (
        "tests.json",
        include_str!("fixtures/json-patch-tests/tests.json"),
    ),
    (
        "spec_tests.json",
        include_str!("fixtures/json-patch-tests/spec_tests.json"),
    ),
];

/// The enabled cases of a file that have a patch: (name, doc, patch, expected or `None` for an
/// error case).
fn cases(file: &str, text: &str) -> Vec<(String, Value, Value, Option<Value>)> {
    let records: Vec<Value> = serde_json::from_str(text).expect("a JSON array");
    records
        .into_iter()
        .enumerate()
        .filter(|(_, record)| record["disabled"] != json!(true) && record.get("patch").is_some())
        .map(|(index, record)| {
            let label = record.get("comment").or(record.get("error"));
            let name = format!("{file}[{index}] {}", label.unwrap_or(&json!("")));
            let expected = match record.get("error") {
                Some(_) => None,
                None => Some(record.get("expected").unwrap_or(&record["doc"]).clone()),
            };
            (
                name,
                record["doc"].clone(),
                record["patch"].clone(),
                expected,
            )
        })
        .collect()
}

fn data_of(state: &chat_session_reducer::core::model::SessionState) -> &Value {
    match state.messages[0].parts[0].as_ref() {
        AgentPart::Data(part) => &part.data,
        other => panic!("not a data part: {other:?}"),
    }
}

#[test]
fn every_case_applies_to_data_as_the_suite_says() {
    let mut run = 0;
    for (file, text) in FILES {
        for (name, doc, patch, expected) in cases(file, text) {
            let held = state(streaming(json!([assistant(
                "a-1",
                json!([{ "type": "data", "name": "n", "id": "i", "data": doc }])
            )])));
            let patch_part =
                part(json!({ "type": "data", "name": "n", "id": "i", "patch": patch }));
            let next = match (session_reducer(&held, &action(patch_part)), &expected) {
                (Ok(next), _) => next,
                // A malformed patch is bad input, as in the package.
                (Err(Error::Invalid { .. }), None) => continue,
                (Err(error), _) => panic!("{name}: {error}"),
            };
            match expected {
                None => assert!(Rc::ptr_eq(&held, &next), "{name}: must not apply"),
                Some(expected) => assert_eq!(data_of(&next), &expected, "{name}"),
            }
            assert_eq!(data_of(&held), &doc, "{name}: the held state was changed");
            run += 1;
        }
    }
    assert!(run > 80, "{run} cases run");
}

#[test]
fn every_case_applies_to_agent_state_as_the_suite_says() {
    for (file, text) in FILES {
        for (name, doc, patch, expected) in cases(file, text) {
            let held = state(json!({ "messages": [], "status": "streaming", "agentState": doc }));
            let patch_part = part(json!({ "type": "agent-state", "patch": patch }));
            let next = match (session_reducer(&held, &action(patch_part)), &expected) {
                (Ok(next), _) => next,
                // A malformed patch is bad input, as in the package.
                (Err(Error::Invalid { .. }), None) => continue,
                (Err(error), _) => panic!("{name}: {error}"),
            };
            match expected {
                None => assert!(Rc::ptr_eq(&held, &next), "{name}: must not apply"),
                Some(expected) => assert_eq!(next.agent_state.as_ref(), Some(&expected), "{name}"),
            }
        }
    }
}
