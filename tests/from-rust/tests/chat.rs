// The app's chat logic, run in Node by `wasm-pack test --node` (and in the browser by
// tests/chat_in_browser.rs, which includes this file).

use std::rc::Rc;

use chat_session_reducer::core::model::{SessionState, SessionStatus};
use wasm_bindgen_test::wasm_bindgen_test;

// README: from here
#[wasm_bindgen_test]
fn a_streamed_reply_is_shown_and_the_question_stays_the_same_rc() {
    let asked = my_chat::ask(&Rc::new(SessionState::empty()), "Hi").unwrap();
    let answered = my_chat::stream_reply(&asked, &["Hel", "lo"]).unwrap();
    assert_eq!(my_chat::last_text(&answered), "Hello");
    assert!(Rc::ptr_eq(&asked.messages[0], &answered.messages[0]));
}
// README: to here

#[wasm_bindgen_test]
fn the_run_ends_idle_and_the_next_question_follows_the_reply() {
    let first = my_chat::stream_reply(
        &my_chat::ask(&Rc::new(SessionState::empty()), "Hi").unwrap(),
        &["Hello"],
    )
    .unwrap();
    assert_eq!(first.status, SessionStatus::Idle);
    let again = my_chat::ask(&first, "And?").unwrap();
    assert_eq!(again.status, SessionStatus::Streaming);
    assert_eq!(again.messages.len(), 3);
    assert_eq!(my_chat::last_text(&again), "And?");
}
