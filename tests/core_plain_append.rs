//! `plain_append_target`: where a host that holds the texts may apply a plain text delta
//! itself. It must name exactly the part the reducer would append to, and only when the
//! reducer's own state would not change.
#![cfg(not(feature = "js-binding"))]
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::rc::Rc;

use chat_session_reducer::core::model::{
    AgentMessage, AgentPart, AgentStreamPart, Role, SessionAction, SessionState, SessionStatus,
    Text, TextPart,
};
use chat_session_reducer::core::patch::Patch;
use chat_session_reducer::core::{plain_append_target, reduce, Outcome, Session};

fn message(id: &str, role: Role, parts: Vec<AgentPart>) -> Rc<AgentMessage> {
    Rc::new(AgentMessage {
        id: id.into(),
        role,
        parts: parts.into_iter().map(Rc::new).collect(),
        metadata: None,
    })
}

fn text(text: Text) -> AgentPart {
    AgentPart::Text(TextPart {
        text,
        metadata: None,
    })
}

fn session(status: SessionStatus, last: Vec<AgentPart>) -> Session {
    let messages = vec![
        message("u", Role::User, vec![text(Text::Held { empty: false })]),
        message("a", Role::Assistant, last),
    ];
    Session::new(Rc::new(SessionState {
        messages,
        status,
        ..SessionState::empty()
    }))
}

fn plain_delta() -> SessionAction {
    let part = AgentStreamPart::TextDelta {
        message_id: None,
        text: Text::Held { empty: false },
        metadata: None,
    };
    SessionAction::Part { part, within: None }
}

#[test]
fn a_held_text_at_the_end_of_a_streaming_reply_is_where_the_reducer_appends() {
    let mut session = session(
        SessionStatus::Streaming,
        vec![text(Text::Held { empty: false })],
    );
    assert_eq!(plain_append_target(&session), Some((1, 0)));
    let before = session.state.clone();
    let outcome = reduce(&mut session, &plain_delta());
    assert_eq!(
        outcome,
        Ok(Outcome::Changed(vec![Patch::AppendText {
            run: vec![],
            message: 1,
            part: 0
        }]))
    );
    assert!(
        Rc::ptr_eq(&before, &session.state),
        "the reducer's own state did not change"
    );
}

#[test]
fn anything_else_is_left_to_the_reducer() {
    let held = || text(Text::Held { empty: false });
    let cases = [
        session(SessionStatus::Idle, vec![held()]),
        session(
            SessionStatus::Streaming,
            vec![text(Text::Held { empty: true })],
        ),
        session(
            SessionStatus::Streaming,
            vec![text(Text::Owned("owned".into()))],
        ),
        session(SessionStatus::Streaming, vec![]),
        session(
            SessionStatus::Streaming,
            vec![
                held(),
                AgentPart::Reasoning(chat_session_reducer::core::model::ReasoningPart {
                    text: Text::Held { empty: false },
                    metadata: None,
                }),
            ],
        ),
    ];
    for case in cases {
        assert_eq!(plain_append_target(&case), None, "{:?}", case.state);
    }
    let user_last = Session::new(Rc::new(SessionState {
        messages: vec![message(
            "u",
            Role::User,
            vec![text(Text::Held { empty: false })],
        )],
        status: SessionStatus::Streaming,
        ..SessionState::empty()
    }));
    assert_eq!(plain_append_target(&user_last), None);
}
