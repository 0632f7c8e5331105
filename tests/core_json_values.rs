//! The JSON values a state holds, as the core itself merges, patches and compares them (SPEC
//! "any part's metadata", `data`, `agent-state`, `snapshot`), as the package's src/wasm/json.js
//! does: whatever changes nothing gives the same state back, and every untouched message and
//! part keeps its identity.

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

mod common;

use std::rc::Rc;

use chat_session_reducer::core::session_reducer;
use chat_session_reducer::Error;
use common::*;
use serde_json::{json, Value};

fn with_metadata(metadata: Value) -> Value {
    streaming(
        json!([{ "id": "a-1", "role": "assistant", "parts": [text("x")], "metadata": metadata }]),
    )
}

fn metadata_part(metadata: Value) -> Value {
    part(json!({ "type": "message-metadata", "metadata": metadata }))
}

fn with_data(data: Value) -> Value {
    streaming(json!([assistant(
        "a-1",
        json!([text("x"), { "type": "data", "name": "n", "id": "i", "data": data }])
    )]))
}

fn data_patch(patch: Value) -> Value {
    part(json!({ "type": "data", "name": "n", "id": "i", "patch": patch }))
}

fn with_agent_state(agent_state: Value) -> Value {
    json!({ "messages": [], "status": "streaming", "agentState": agent_state })
}

fn agent_state_patch(patch: Value) -> Value {
    part(json!({ "type": "agent-state", "patch": patch }))
}

// ---- metadata ----

#[test]
fn metadata_merges_plain_objects_key_by_key_and_any_other_value_replaces() {
    let held = json!({ "usage": { "input": 1, "output": 2 }, "model": "m", "tags": ["a", "b"] });
    assert_becomes(
        with_metadata(held.clone()),
        metadata_part(json!({ "usage": { "output": 3 }, "tags": ["c"], "extra": null })),
        with_metadata(json!({
            "usage": { "input": 1, "output": 3 }, "model": "m", "tags": ["c"], "extra": null
        })),
    );
    assert_becomes(
        with_metadata(held.clone()),
        metadata_part(json!("replaced")),
        with_metadata(json!("replaced")),
    );
    assert_becomes(
        with_metadata(json!({ "a": { "b": 1 } })),
        metadata_part(json!({ "a": [1] })),
        with_metadata(json!({ "a": [1] })),
    );
}

#[test]
fn metadata_that_changes_nothing_gives_the_same_state_back() {
    let held = json!({ "usage": { "input": 1, "output": 2 }, "model": "m", "tags": ["a"] });
    for same in [
        json!({}),
        json!({ "usage": { "input": 1 }, "model": "m" }),
        json!({ "tags": ["a"], "usage": {} }),
        // Numbers are equal by value, as in JavaScript.
        json!({ "usage": { "output": 2.0 } }),
    ] {
        assert_unchanged(with_metadata(held.clone()), metadata_part(same));
    }
    assert_unchanged(with_metadata(json!(1)), metadata_part(json!(1.0)));
    // Into a part: the text-delta's metadata merged into the last text part.
    let held_part = streaming(json!([assistant(
        "a-1",
        json!([{ "type": "text", "text": "x", "metadata": { "k": [1] } }])
    )]));
    assert_unchanged(
        held_part,
        part(json!({ "type": "text-delta", "text": "", "metadata": { "k": [1] } })),
    );
}

#[test]
fn a_merge_copies_only_the_message_it_changes() {
    let old = state(streaming(json!([
        assistant("a-0", json!([text("first")])),
        { "id": "a-1", "role": "assistant", "parts": [text("x")], "metadata": { "k": 1 } }
    ])));
    let new = apply(&old, metadata_part(json!({ "k": 2 })));
    assert!(Rc::ptr_eq(&old.messages[0], &new.messages[0]));
    assert!(Rc::ptr_eq(
        &old.messages[1].parts[0],
        &new.messages[1].parts[0]
    ));
    assert_eq!(new.messages[1].metadata, Some(json!({ "k": 2 })));
}

// ---- data ----

#[test]
fn data_equal_to_the_held_data_changes_nothing() {
    let held = json!({ "temp": 21, "list": [1, { "a": null }] });
    for same in [
        held.clone(),
        json!({ "list": [1.0, { "a": null }], "temp": 21.0 }),
    ] {
        assert_unchanged(
            with_data(held.clone()),
            part(json!({ "type": "data", "name": "n", "id": "i", "data": same })),
        );
    }
    assert_becomes(
        with_data(held),
        part(json!({ "type": "data", "name": "n", "id": "i", "data": { "temp": 22 } })),
        with_data(json!({ "temp": 22 })),
    );
}

#[test]
fn a_data_patch_is_all_or_nothing_and_one_that_does_not_apply_merges_no_metadata() {
    let held = json!({ "steps": ["plan"] });
    assert_becomes(
        with_data(held.clone()),
        data_patch(json!([
            { "op": "add", "path": "/steps/-", "value": "book" },
            { "op": "replace", "path": "/steps/0", "value": "search" }
        ])),
        with_data(json!({ "steps": ["search", "book"] })),
    );
    for does_not_apply in [
        json!([{ "op": "add", "path": "/steps/-", "value": "book" }, { "op": "test", "path": "/steps/0", "value": "x" }]),
        json!([{ "op": "remove", "path": "/missing" }]),
        json!([{ "op": "move", "from": "/steps", "path": "/steps/0" }]),
    ] {
        assert_unchanged(
            with_data(held.clone()),
            part(
                json!({ "type": "data", "name": "n", "id": "i", "patch": does_not_apply, "metadata": { "m": 1 } }),
            ),
        );
    }
}

#[test]
fn a_malformed_patch_is_bad_input_named_by_its_path_as_in_the_package() {
    let held = state(with_data(json!({ "steps": ["plan"] })));
    for (malformed, path, problem) in [
        (
            json!([{ "op": "add", "path": "/a" }]),
            "action.part.patch[0].value",
            "expected a JSON value",
        ),
        (
            json!([{ "op": "spam", "path": "/a" }]),
            "action.part.patch[0].op",
            r#"expected one of "add", "remove", "replace", "move", "copy", "test""#,
        ),
        (
            json!([{ "op": "test", "path": "/a", "value": 1 }, { "op": "add", "path": "a", "value": 1 }]),
            "action.part.patch[1].path",
            r#"expected a JSON Pointer ("" or starting with "/")"#,
        ),
        (
            json!([{ "op": "copy", "from": "/~2", "path": "/a" }]),
            "action.part.patch[0].from",
            r#"expected a JSON Pointer ("" or starting with "/")"#,
        ),
        (
            json!({ "op": "add", "path": "/a", "value": 1 }),
            "action.part.patch",
            "expected an array of JSON Patch operations",
        ),
    ] {
        let action = action(part(
            json!({ "type": "data", "name": "n", "id": "i", "patch": malformed, "metadata": { "m": 1 } }),
        ));
        assert_eq!(
            session_reducer(&held, &action),
            Err(Error::invalid(path, problem)),
            "{malformed}"
        );
    }
}

#[test]
fn a_data_patch_of_passing_tests_gives_the_same_state_back() {
    let held = json!({ "a": [1, { "b": null }], "n": 1 });
    for same in [
        json!([]),
        json!([{ "op": "test", "path": "/a/1/b", "value": null }]),
        // `test` compares numbers by value, as JavaScript does.
        json!([{ "op": "test", "path": "/n", "value": 1.0 }, { "op": "test", "path": "", "value": { "n": 1, "a": [1.0, { "b": null }] } }]),
        // A move onto itself, and a copy of the whole value onto itself, leave it where it is.
        json!([{ "op": "move", "from": "/a", "path": "/a" }, { "op": "copy", "from": "", "path": "" }]),
    ] {
        assert_unchanged(with_data(held.clone()), data_patch(same));
    }
    // With metadata that changes: the patch applies and the metadata is merged.
    let after = apply(
        &state(with_data(held.clone())),
        part(
            json!({ "type": "data", "name": "n", "id": "i", "patch": [], "metadata": { "m": 1 } }),
        ),
    );
    assert_eq!(
        to_json(&after)["messages"][0]["parts"][1],
        json!({ "type": "data", "name": "n", "id": "i", "data": held, "metadata": { "m": 1 } })
    );
}

/// The values a patch takes from the document (copy, move) are copies: a later edit of one
/// place never shows in the other, and a copy of the whole value into itself holds the value
/// as it was (the cases tests/js/json.test.mjs checks the package's aliasing with).
#[test]
fn a_value_copied_or_moved_by_a_patch_is_its_own() {
    let doc = json!({ "a": { "x": 1 } });
    let cases = [
        (
            json!([{ "op": "add", "path": "/n", "value": 1 }, { "op": "copy", "from": "", "path": "/b" }]),
            json!({ "a": { "x": 1 }, "n": 1, "b": { "a": { "x": 1 }, "n": 1 } }),
        ),
        (
            json!([{ "op": "add", "path": "/a/y", "value": 2 }, { "op": "copy", "from": "/a", "path": "/a/z" }]),
            json!({ "a": { "x": 1, "y": 2, "z": { "x": 1, "y": 2 } } }),
        ),
        (
            json!([
                { "op": "add", "path": "/a/y", "value": 2 }, { "op": "copy", "from": "/a", "path": "/b" },
                { "op": "add", "path": "/a/s", "value": 3 }, { "op": "add", "path": "/b/t", "value": 4 }
            ]),
            json!({ "a": { "x": 1, "y": 2, "s": 3 }, "b": { "x": 1, "y": 2, "t": 4 } }),
        ),
        (
            json!([
                { "op": "add", "path": "/a/y", "value": 2 }, { "op": "move", "from": "/a", "path": "/b" },
                { "op": "add", "path": "/b/t", "value": 4 }, { "op": "copy", "from": "/b", "path": "/c" },
                { "op": "remove", "path": "/c/x" }
            ]),
            json!({ "b": { "x": 1, "y": 2, "t": 4 }, "c": { "y": 2, "t": 4 } }),
        ),
        (
            json!([{ "op": "add", "path": "", "value": { "r": [1] } }, { "op": "copy", "from": "/r", "path": "/r/-" }]),
            json!({ "r": [1, [1]] }),
        ),
    ];
    for (patch, expected) in cases {
        assert_becomes(
            with_data(doc.clone()),
            data_patch(patch),
            with_data(expected),
        );
    }
}

// ---- agent-state ----

#[test]
fn an_agent_state_equal_to_the_held_one_changes_nothing() {
    assert_unchanged(
        with_agent_state(json!({ "step": 2, "todo": [1] })),
        part(json!({ "type": "agent-state", "snapshot": { "todo": [1.0], "step": 2 } })),
    );
    assert_becomes(
        json!({ "messages": [], "status": "streaming" }),
        part(json!({ "type": "agent-state", "snapshot": null })),
        with_agent_state(json!(null)),
    );
}

/// As `applyJsonPatch` decides it: a patch that gives back a scalar equal to the held one
/// changes nothing (JavaScript's `===`), while one that writes into an object makes a new one,
/// even with an equal value.
#[test]
fn an_agent_state_patch_changes_the_state_as_javascript_would() {
    assert_unchanged(
        with_agent_state(json!(5)),
        agent_state_patch(json!([{ "op": "replace", "path": "", "value": 5.0 }])),
    );
    assert_becomes(
        with_agent_state(json!({ "a": 1 })),
        agent_state_patch(json!([{ "op": "replace", "path": "/a", "value": 1 }])),
        with_agent_state(json!({ "a": 1 })),
    );
    assert_becomes(
        json!({ "messages": [], "status": "streaming" }),
        agent_state_patch(json!([{ "op": "add", "path": "/todo", "value": [] }])),
        with_agent_state(json!({ "todo": [] })),
    );
    assert_unchanged(
        with_agent_state(json!({ "a": 1 })),
        agent_state_patch(json!([{ "op": "test", "path": "/a", "value": 2 }])),
    );
}

// ---- snapshot ----

#[test]
fn a_snapshot_message_equal_to_the_held_one_keeps_it_and_a_changed_one_keeps_its_equal_parts() {
    let held = streaming(json!([
        user("u-1", "Hi"),
        assistant(
            "a-1",
            json!([
                text("Hello"),
                tool_with("c-1", "t", "done", json!({ "output": 1 }))
            ])
        ),
    ]));
    // Equal as JSON (numbers by value): the same state back.
    assert_unchanged(
        held.clone(),
        part(json!({ "type": "snapshot", "messages": [
            user("u-1", "Hi"),
            assistant("a-1", json!([text("Hello"), tool_with("c-1", "t", "done", json!({ "output": 1.0 }))]))
        ] })),
    );
    assert_unchanged(
        held.clone(),
        part(json!({ "type": "snapshot", "exact": true, "messages": [
            user("u-1", "Hi"),
            assistant("a-1", json!([text("Hello"), tool_with("c-1", "t", "done", json!({ "output": 1 }))]))
        ] })),
    );
    let old = state(held);
    let new = apply(
        &old,
        part(json!({ "type": "snapshot", "messages": [
            assistant("a-1", json!([text("Hello!"), tool_with("c-1", "t", "done", json!({ "output": 1 }))]))
        ] })),
    );
    assert!(
        Rc::ptr_eq(&old.messages[0], &new.messages[0]),
        "a message not in the snapshot stays"
    );
    assert!(!Rc::ptr_eq(&old.messages[1], &new.messages[1]));
    assert!(
        Rc::ptr_eq(&old.messages[1].parts[1], &new.messages[1].parts[1]),
        "the equal part is kept"
    );
    assert_eq!(to_json(&new)["messages"][1]["parts"][0], text("Hello!"));
}
