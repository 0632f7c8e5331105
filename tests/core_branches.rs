//! SPEC v3 branches: `edit`, `regenerate`, `switchBranch`, `forks` through `retry`, `reset` and
//! `snapshot`, the nesting limit, the indexes after a tail leaves or joins the path, and
//! `branch_at`. The JavaScript side is tests/js/branches.test.mjs and tests/wasm_branches.rs.

#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
mod common;

use std::rc::Rc;

use chat_session_reducer::core::model::{Branch, Fork, SessionState, ToolState};
use chat_session_reducer::core::protocol::MAX_BRANCH_NESTING;
use chat_session_reducer::core::{branch_at, BranchAt};
use common::*;
use serde_json::{json, Value};

fn reply(id: &str, text_: &str) -> Value {
    assistant(id, json!([text(text_)]))
}

/// u-1, a-1, u-2, a-2, idle.
fn two_turns() -> Value {
    json!({
        "messages": [user("u-1", "Hi"), reply("a-1", "Hello"), user("u-2", "Plan a trip"), reply("a-2", "To Lyon")],
        "status": "idle"
    })
}

fn edit(message_id: &str, id: &str, text: &str) -> Value {
    json!({ "type": "edit", "messageId": message_id, "id": id, "text": text })
}

fn switch(after: Option<&str>, to: usize) -> Value {
    json!({ "type": "switchBranch", "after": after, "to": to })
}

fn ids(state: &SessionState) -> Vec<&str> {
    state
        .messages
        .iter()
        .map(|message| message.id.as_str())
        .collect()
}

fn finish() -> Value {
    part(json!({ "type": "finish" }))
}

fn chain(state: &Rc<SessionState>, actions: &[Value]) -> Rc<SessionState> {
    actions
        .iter()
        .fold(state.clone(), |state, next| apply(&state, next.clone()))
}

// ---- edit ----

#[test]
fn edit_sets_the_tail_aside_at_a_new_fork_and_sends_the_new_message() {
    assert_becomes(
        two_turns(),
        edit("u-2", "u-2b", "Plan a cheap trip"),
        json!({
            "messages": [user("u-1", "Hi"), reply("a-1", "Hello"), user("u-2b", "Plan a cheap trip")],
            "status": "streaming",
            "forks": [{
                "after": "a-1",
                "active": 1,
                "alternatives": [{ "messages": [user("u-2", "Plan a trip"), reply("a-2", "To Lyon")] }, null]
            }]
        }),
    );
}

#[test]
fn editing_the_first_message_makes_a_fork_after_null_and_an_edit_at_a_fork_appends_an_alternative()
{
    let once = apply(&state(two_turns()), edit("u-1", "v-1", "Hey"));
    assert_eq!(once.forks[0].after, None);
    let twice = chain(&once, &[finish(), edit("v-1", "w-1", "Yo")]);
    assert_eq!(ids(&twice), ["w-1"]);
    assert_eq!(twice.forks.len(), 1);
    let fork = &twice.forks[0];
    assert_eq!((fork.active, fork.alternatives.len()), (2, 3));
    assert!(fork.alternatives[2].is_none());
    assert!(Rc::ptr_eq(
        fork.alternatives[0].as_ref().unwrap(),
        once.forks[0].alternatives[0].as_ref().unwrap()
    ));
    assert_eq!(ids_of(fork.alternatives[1].as_ref().unwrap()), ["v-1"]);
}

fn ids_of(branch: &Branch) -> Vec<&str> {
    branch
        .messages
        .iter()
        .map(|message| message.id.as_str())
        .collect()
}

#[test]
fn edit_ignores_what_is_not_a_user_message_of_the_path() {
    assert_unchanged(two_turns(), edit("a-1", "x", "no"));
    assert_unchanged(two_turns(), edit("nope", "x", "no"));
}

#[test]
fn edit_while_streaming_cancels_the_open_calls_of_the_tail_only() {
    let before = state(json!({
        "messages": [
            user("u-1", "Hi"),
            assistant("a-1", json!([tool_with("c-1", "confirm", "awaiting-confirmation", json!({ "prompt": "OK?" }))])),
            user("u-2", "Go"),
            assistant("a-2", json!([tool("c-2", "search", "running")]))
        ],
        "status": "streaming"
    }));
    let edited = apply(&before, edit("u-2", "u-2b", "Go on"));
    assert_eq!(call(&edited, 1, 0).state, ToolState::AwaitingConfirmation);
    let branch = edited.forks[0].alternatives[0].as_ref().unwrap();
    assert_eq!(call_in_branch(branch, 1), ToolState::Cancelled);
    // The call before the tail is still open and answerable; the one set aside is not.
    let answered = apply(
        &edited,
        part(json!({ "type": "tool-result", "id": "c-1", "output": 1 })),
    );
    assert_eq!(call(&answered, 1, 0).state, ToolState::Done);
    assert_same_back(
        &edited,
        &action(part(
            json!({ "type": "tool-result", "id": "c-2", "output": 1 }),
        )),
    );
}

fn call_in_branch(branch: &Branch, message: usize) -> ToolState {
    match branch.messages[message].parts[0].as_ref() {
        chat_session_reducer::core::model::AgentPart::Tool(call) => call.state,
        other => panic!("not a call: {other:?}"),
    }
}

// ---- regenerate ----

#[test]
fn regenerate_sets_the_reply_after_the_last_user_message_aside() {
    assert_becomes(
        two_turns(),
        json!({ "type": "regenerate" }),
        json!({
            "messages": [user("u-1", "Hi"), reply("a-1", "Hello"), user("u-2", "Plan a trip")],
            "status": "streaming",
            "forks": [{ "after": "u-2", "active": 1, "alternatives": [{ "messages": [reply("a-2", "To Lyon")] }, null] }]
        }),
    );
}

#[test]
fn regenerate_with_a_message_id_sets_aside_everything_after_the_user_message_before_it() {
    let regenerated = apply(
        &state(two_turns()),
        json!({ "type": "regenerate", "messageId": "a-1" }),
    );
    assert_eq!(ids(&regenerated), ["u-1"]);
    assert_eq!(
        ids_of(regenerated.forks[0].alternatives[0].as_ref().unwrap()),
        ["a-1", "u-2", "a-2"]
    );
}

#[test]
fn regenerate_is_ignored_without_its_assistant_message_or_a_user_message() {
    assert_unchanged(
        two_turns(),
        json!({ "type": "regenerate", "messageId": "u-2" }),
    );
    assert_unchanged(
        two_turns(),
        json!({ "type": "regenerate", "messageId": "nope" }),
    );
    assert_unchanged(
        json!({ "messages": [reply("a-0", "Welcome")], "status": "idle" }),
        json!({ "type": "regenerate" }),
    );
}

#[test]
fn regenerate_with_nothing_after_the_user_message_is_a_retry_without_a_cut() {
    assert_becomes(
        json!({ "messages": [user("u-1", "Hi")], "status": "error", "error": { "message": "down" } }),
        json!({ "type": "regenerate" }),
        json!({ "messages": [user("u-1", "Hi")], "status": "streaming" }),
    );
}

// ---- switchBranch ----

#[test]
fn switch_branch_brings_the_branch_back_as_it_was_stored_and_switching_back_too() {
    let start = state(two_turns());
    let edited = chain(&start, &[edit("u-2", "u-2b", "Cheap"), finish()]);
    let back = apply(&edited, switch(Some("a-1"), 0));
    assert_eq!(ids(&back), ["u-1", "a-1", "u-2", "a-2"]);
    assert!(Rc::ptr_eq(&back.messages[2], &start.messages[2]));
    assert!(Rc::ptr_eq(&back.messages[3], &start.messages[3]));
    assert_eq!(back.forks[0].active, 0);
    assert!(back.forks[0].alternatives[0].is_none());
    let forth = apply(&back, switch(Some("a-1"), 1));
    assert!(Rc::ptr_eq(&forth.messages[2], &edited.messages[2]));
    assert_eq!(to_json(&forth), to_json(&edited));
}

#[test]
fn switch_branch_clears_the_error_and_ends_idle() {
    let failed = chain(
        &state(two_turns()),
        &[
            edit("u-2", "u-2b", "Cheap"),
            part(json!({ "type": "error", "error": "down" })),
        ],
    );
    let back = apply(&failed, switch(Some("a-1"), 0));
    assert_eq!(
        to_json(&back)["status"],
        json!("idle"),
        "the error belonged to the path left behind"
    );
    assert!(back.error.is_none());
}

#[test]
fn switch_branch_is_ignored_for_no_fork_the_active_one_outside_or_while_streaming() {
    let edited = chain(
        &state(two_turns()),
        &[edit("u-2", "u-2b", "Cheap"), finish()],
    );
    for ignored in [
        switch(Some("a-1"), 1),
        switch(Some("a-1"), 2),
        switch(Some("u-1"), 0),
        switch(None, 0),
    ] {
        assert_same_back(&edited, &action(ignored));
    }
    let streaming = apply(&edited, json!({ "type": "continue" }));
    assert_same_back(&streaming, &action(switch(Some("a-1"), 0)));
}

#[test]
fn switch_branch_cancels_the_open_calls_of_the_tail_it_sets_aside() {
    let waiting = state(json!({
        "messages": [user("u-1", "Hi"), assistant("a-1", json!([tool_with("c-1", "confirm", "awaiting-confirmation", json!({ "prompt": "OK?" }))]))],
        "status": "idle",
        "forks": [{ "after": "u-1", "active": 1, "alternatives": [{ "messages": [reply("a-0", "old")] }, null] }]
    }));
    let switched = apply(&waiting, switch(Some("u-1"), 0));
    let set_aside = switched.forks[0].alternatives[1].as_ref().unwrap();
    assert_eq!(call_in_branch(set_aside, 0), ToolState::Cancelled);
    assert_eq!(
        to_json(&switched)["forks"][0]["alternatives"][1]["messages"][0]["parts"][0]["prompt"],
        json!("OK?"),
        "cancelling changes nothing else on the call"
    );
}

#[test]
fn the_forks_inside_a_branch_come_back_with_it_in_path_order() {
    let inner = chain(&state(two_turns()), &[edit("u-2", "u-2b", "B"), finish()]);
    let outer = chain(&inner, &[edit("u-1", "v-1", "Other"), finish()]);
    assert_eq!(outer.forks.len(), 1);
    let branch = outer.forks[0].alternatives[0].as_ref().unwrap();
    assert!(Rc::ptr_eq(&branch.forks[0], &inner.forks[0]));
    let back = apply(&outer, switch(None, 0));
    assert_eq!(ids(&back), ["u-1", "a-1", "u-2b"]);
    let afters: Vec<_> = back.forks.iter().map(|fork| fork.after.clone()).collect();
    assert_eq!(afters, [None, Some("a-1".to_owned())]);
    assert!(Rc::ptr_eq(&back.forks[1], &inner.forks[0]));
}

// ---- the other actions on the active path ----

#[test]
fn actions_on_the_path_leave_every_fork_as_it_is() {
    let edited = chain(&state(two_turns()), &[edit("u-2", "u-2b", "B")]);
    for next in [
        part(json!({ "type": "message-start", "messageId": "a-2b" })),
        part(json!({ "type": "text-delta", "text": "On it" })),
        json!({ "type": "stop" }),
        json!({ "type": "send", "id": "u-3", "text": "More" }),
        json!({ "type": "continue" }),
    ] {
        let after = apply(&edited, next.clone());
        assert!(Rc::ptr_eq(&after.forks[0], &edited.forks[0]), "{next}");
    }
}

#[test]
fn retry_drops_the_forks_whose_after_it_cuts_and_keeps_the_others() {
    let shortened = state(json!({
        "messages": [user("u-1", "Hi"), reply("a-1", "Hello")],
        "status": "error",
        "error": { "message": "down" },
        "forks": [
            { "after": "u-1", "active": 1, "alternatives": [{ "messages": [reply("a-0", "old")] }, null] },
            { "after": "a-1", "active": 1, "alternatives": [{ "messages": [user("x", "x")] }, null] }
        ]
    }));
    let retried = apply(&shortened, json!({ "type": "retry" }));
    assert_eq!(ids(&retried), ["u-1"]);
    assert_eq!(retried.forks.len(), 1);
    assert!(Rc::ptr_eq(&retried.forks[0], &shortened.forks[0]));
    // Nothing cut after a fork's `after`: every fork stays.
    let kept = apply(&retried, json!({ "type": "retry" }));
    assert!(Rc::ptr_eq(&kept.forks[0], &shortened.forks[0]));
}

#[test]
fn reset_drops_the_forks_too() {
    assert_becomes(
        json!({
            "messages": [],
            "status": "idle",
            "forks": [{ "after": null, "active": 1, "alternatives": [{ "messages": [user("u-1", "Hi")] }, null] }]
        }),
        json!({ "type": "reset" }),
        json!({ "messages": [], "status": "idle" }),
    );
}

#[test]
fn an_exact_snapshot_drops_the_forks_whose_after_is_gone_and_keeps_the_others() {
    let before = json!({
        "messages": [user("u-1", "Hi"), reply("a-1", "Hello"), user("u-2", "Go")],
        "status": "streaming",
        "forks": [
            { "after": null, "active": 1, "alternatives": [{ "messages": [user("u-0", "Yo")] }, null] },
            { "after": "a-1", "active": 1, "alternatives": [{ "messages": [user("x", "x")] }, null] },
            { "after": "u-2", "active": 1, "alternatives": [{ "messages": [reply("a-old", "old")] }, null] }
        ]
    });
    let old = state(before.clone());
    let exact = apply(
        &old,
        part(
            json!({ "type": "snapshot", "exact": true, "messages": [user("u-1", "Hi"), user("u-2", "Go")] }),
        ),
    );
    let afters: Vec<_> = exact.forks.iter().map(|fork| fork.after.clone()).collect();
    assert_eq!(afters, [None, Some("u-2".to_owned())]);
    assert!(Rc::ptr_eq(&exact.forks[1], &old.forks[2]));
    // Reordered messages: the forks follow them.
    let reordered = apply(
        &old,
        part(
            json!({ "type": "snapshot", "exact": true, "messages": [user("u-2", "Go"), reply("a-1", "Hello"), user("u-1", "Hi")] }),
        ),
    );
    let afters: Vec<_> = reordered
        .forks
        .iter()
        .map(|fork| fork.after.clone())
        .collect();
    assert_eq!(
        afters,
        [None, Some("u-2".to_owned()), Some("a-1".to_owned())]
    );
    let merged = apply(
        &old,
        part(json!({ "type": "snapshot", "messages": [reply("a-1", "Hello there")] })),
    );
    assert_eq!(
        merged.forks.len(),
        3,
        "a snapshot that is not exact leaves the forks"
    );
}

// ---- the indexes ----

#[test]
fn ids_in_a_branch_do_not_count_and_ids_that_join_the_path_do() {
    let with_call = state(json!({
        "messages": [user("u-1", "Hi"), assistant("a-1", json!([tool("c-1", "search", "done")]))],
        "status": "idle"
    }));
    let regenerated = apply(&with_call, json!({ "type": "regenerate" }));
    // The regenerated reply may reuse the call id of the one it replaces.
    let reused = chain(
        &regenerated,
        &[
            part(json!({ "type": "message-start", "messageId": "a-1" })),
            part(json!({ "type": "tool-call", "id": "c-1", "name": "search", "input": {} })),
            finish(),
        ],
    );
    assert_eq!(call(&reused, 1, 0).state, ToolState::Running);
    // Switching back brings c-1 (done) onto the path: its running twin is set aside, cancelled.
    let back = apply(&reused, switch(Some("u-1"), 0));
    assert_eq!(call(&back, 1, 0).state, ToolState::Done);
    assert_same_back(
        &back,
        &action(part(
            json!({ "type": "tool-result", "id": "c-1", "output": 2 }),
        )),
    );
    let resumed = chain(&back, &[json!({ "type": "continue" })]);
    assert_same_back(
        &resumed,
        &action(part(
            json!({ "type": "tool-call", "id": "c-1", "name": "search", "input": {} }),
        )),
    );
    assert_same_back(
        &resumed,
        &action(part(json!({ "type": "message-start", "messageId": "a-1" }))),
    );
}

#[test]
fn the_open_calls_before_the_fork_stay_open_through_a_switch() {
    let waiting = state(json!({
        "messages": [
            user("u-1", "Hi"),
            assistant("a-1", json!([tool_with("c-1", "confirm", "awaiting-confirmation", json!({ "prompt": "OK?" }))])),
            user("u-2", "Go"),
            reply("a-2", "Gone")
        ],
        "status": "idle",
        "forks": [{ "after": "u-2", "active": 1, "alternatives": [{ "messages": [reply("a-0", "old")] }, null] }]
    }));
    let switched = apply(&waiting, switch(Some("u-2"), 0));
    assert_eq!(call(&switched, 1, 0).state, ToolState::AwaitingConfirmation);
    let answered = apply(
        &switched,
        part(json!({ "type": "tool-result", "id": "c-1", "output": "yes" })),
    );
    assert_eq!(call(&answered, 1, 0).state, ToolState::Done);
}

// ---- the nesting limit ----

/// A branch whose forks nest `levels` deep below it (0: none).
fn nested_branch(levels: usize) -> Value {
    let mut branch = json!({ "messages": [user("m-0", "0")] });
    for level in 1..=levels {
        let id = format!("m-{level}");
        branch = json!({
            "messages": [user(&id, "x")],
            "forks": [{ "after": id, "active": 1, "alternatives": [branch, null] }]
        });
    }
    branch
}

/// u-1, a-1, u-2 with a fork after u-2 whose height is `height`.
fn with_fork_of_height(height: usize) -> Rc<SessionState> {
    state(json!({
        "messages": [user("u-1", "Hi"), reply("a-1", "Hello"), user("u-2", "Go")],
        "status": "idle",
        "forks": [{ "after": "u-2", "active": 1, "alternatives": [nested_branch(height - 1), null] }]
    }))
}

#[test]
fn a_forks_height_is_how_deep_its_deepest_branch_is() {
    assert_eq!(with_fork_of_height(1).forks[0].height(), 1);
    assert_eq!(with_fork_of_height(7).forks[0].height(), 7);
    let fork = Fork::new(
        None,
        0,
        vec![
            None,
            Some(Rc::new(Branch {
                messages: Vec::new(),
                forks: with_fork_of_height(3).forks.clone(),
            })),
        ],
    );
    assert_eq!(fork.height(), 4);
}

/// The first fork's first branch, level by level down from `fork`: how many levels, and the
/// ids of the deepest branch's messages and whether it holds forks.
fn bottom_of(fork: &Fork) -> (usize, Vec<String>, bool) {
    let mut levels = 1;
    let mut branch = fork.alternatives[0].as_ref().unwrap();
    while let Some(inner) = branch.forks.first() {
        levels += 1;
        branch = inner.alternatives[0].as_ref().unwrap();
    }
    let ids = branch
        .messages
        .iter()
        .map(|message| message.id.clone())
        .collect();
    (levels, ids, !branch.forks.is_empty())
}

#[test]
fn an_edit_that_would_nest_branches_65_deep_drops_only_the_forks_that_would_hold_them() {
    let deepest = with_fork_of_height(MAX_BRANCH_NESTING);
    assert_eq!(
        bottom_of(&deepest.forks[0]),
        (64, vec!["m-0".to_owned()], false)
    );
    let edited = apply(&deepest, edit("u-1", "v-1", "v"));
    assert_eq!(edited.forks[0].height(), MAX_BRANCH_NESTING);
    let branch = edited.forks[0].alternatives[0].as_ref().unwrap();
    assert_eq!(ids_of(branch), ["u-1", "a-1", "u-2"], "the messages stay");
    let moved = &branch.forks[0];
    assert_eq!(moved.height(), MAX_BRANCH_NESTING - 1);
    // The fork inside the deepest branch (after m-1) is gone with its alternative m-0; m-1 stays.
    assert_eq!(bottom_of(moved), (63, vec!["m-1".to_owned()], false));
    let shallower = with_fork_of_height(MAX_BRANCH_NESTING - 1);
    let edited = apply(&shallower, edit("u-1", "v-1", "v"));
    let branch = edited.forks[0].alternatives[0].as_ref().unwrap();
    assert!(
        Rc::ptr_eq(&branch.forks[0], &shallower.forks[0]),
        "nothing to trim: the very fork"
    );
    assert_eq!(edited.forks[0].height(), MAX_BRANCH_NESTING);
}

#[test]
fn a_trim_keeps_the_branches_that_are_not_too_deep() {
    // The fork after u-2 holds a chain 64 deep and, beside it, a branch without forks.
    let mut value = to_json(&with_fork_of_height(MAX_BRANCH_NESTING));
    value["forks"][0]["alternatives"]
        .as_array_mut()
        .unwrap()
        .insert(0, json!({ "messages": [reply("a-side", "side")] }));
    value["forks"][0]["active"] = json!(2);
    let before = state(value);
    let edited = apply(&before, edit("u-1", "v-1", "v"));
    let moved = &edited.forks[0].alternatives[0].as_ref().unwrap().forks[0];
    assert!(Rc::ptr_eq(
        moved.alternatives[0].as_ref().unwrap(),
        before.forks[0].alternatives[0].as_ref().unwrap()
    ));
    assert_eq!(moved.alternatives.len(), 3);
}

#[test]
fn a_switch_that_would_nest_branches_65_deep_drops_only_the_forks_that_would_hold_them() {
    let mut deepest = to_json(&with_fork_of_height(MAX_BRANCH_NESTING));
    deepest["forks"]
        .as_array_mut()
        .unwrap()
        .insert(0, json!({ "after": "u-1", "active": 1, "alternatives": [{ "messages": [reply("a-0", "old")] }, null] }));
    let deepest = state(deepest);
    let switched = apply(&deepest, switch(Some("u-1"), 0));
    assert_eq!(ids(&switched), ["u-1", "a-0"]);
    let set_aside = switched.forks[0].alternatives[1].as_ref().unwrap();
    assert_eq!(ids_of(set_aside), ["a-1", "u-2"]);
    assert_eq!(
        bottom_of(&set_aside.forks[0]),
        (63, vec!["m-1".to_owned()], false)
    );
    assert_eq!(switched.forks[0].height(), MAX_BRANCH_NESTING);
    // Back again: what comes out was the deepest, and the height goes down with it.
    let back = apply(&switched, switch(Some("u-1"), 1));
    assert_eq!(back.forks[0].height(), 1);
    assert_eq!(back.forks[1].height(), MAX_BRANCH_NESTING - 1);
}

#[test]
fn a_switch_moves_the_height_with_the_branches() {
    let inner = chain(&state(two_turns()), &[edit("u-2", "u-2b", "B"), finish()]);
    let outer = chain(&inner, &[edit("u-1", "v-1", "Other"), finish()]);
    assert_eq!(outer.forks[0].height(), 2);
    let back = apply(&outer, switch(None, 0));
    assert_eq!(back.forks[0].height(), 1);
    assert_eq!(back.forks[1].height(), 1);
}

// ---- branch_at ----

#[test]
fn branch_at_names_the_fork_a_message_begins_an_alternative_of() {
    let edited = chain(&state(two_turns()), &[edit("u-2", "u-2b", "B"), finish()]);
    assert_eq!(
        branch_at(&edited, 2),
        Some(BranchAt {
            after: Some("a-1".to_owned()),
            active: 1,
            count: 2
        })
    );
    assert_eq!(branch_at(&edited, 0), None);
    assert_eq!(branch_at(&edited, 1), None);
    assert_eq!(branch_at(&edited, 4), None);
    let replied = chain(
        &edited,
        &[
            json!({ "type": "continue" }),
            part(json!({ "type": "message-start", "messageId": "a-2b" })),
            finish(),
        ],
    );
    let regenerated = apply(&replied, json!({ "type": "regenerate" }));
    assert_eq!(
        branch_at(&regenerated, 3),
        Some(BranchAt {
            after: Some("u-2b".to_owned()),
            active: 1,
            count: 2
        })
    );
    let first = apply(&edited, edit("u-1", "v", "v"));
    assert_eq!(
        branch_at(&first, 0),
        Some(BranchAt {
            after: None,
            active: 1,
            count: 2
        })
    );
}

#[test]
fn forks_round_trip_through_json_absent_when_empty() {
    let edited = chain(&state(two_turns()), &[edit("u-2", "u-2b", "B")]);
    let value = to_json(&edited);
    assert_eq!(to_json(&state(value.clone())), value);
    assert!(to_json(&state(two_turns())).get("forks").is_none());
    let branch = &value["forks"][0]["alternatives"][0];
    assert!(
        branch.get("forks").is_none(),
        "a branch without forks has no field"
    );
}

#[test]
fn a_fork_after_a_repeated_message_id_names_the_first_and_an_edit_after_a_later_one_is_ignored() {
    // Path ids are unique by the SPEC; where a state repeats one, a fork's `after` names the
    // first message with it, so an edit whose fork would follow a later one changes nothing.
    let repeated = json!({
        "messages": [user("u-1", "Hi"), reply("a-1", "Hello"), user("u-1", "Again"), reply("a-2", "Hi again")],
        "status": "idle"
    });
    assert_unchanged(repeated.clone(), json!({ "type": "regenerate" }));
    let edited = apply(&state(repeated), edit("a-2", "x", "x"));
    assert!(edited.forks.is_empty(), "a-2 is not a user message");
    let regenerated = apply(
        &state(two_turns()),
        json!({ "type": "regenerate", "messageId": "a-1" }),
    );
    let resent = chain(
        &regenerated,
        &[
            finish(),
            json!({ "type": "send", "id": "u-1", "text": "same id" }),
        ],
    );
    // The fork after u-1 still names the first u-1: a switch keeps one message before it.
    let back = apply(&chain(&resent, &[finish()]), switch(Some("u-1"), 0));
    assert_eq!(ids(&back), ["u-1", "a-1", "u-2", "a-2"]);
}
