//! A Rust web app's chat logic on the crate: what the user's message and the agent's streamed
//! reply do to the conversation. (An app's UI, Leptos, Dioxus or Yew, would call these.)

use std::rc::Rc;

use chat_session_reducer::core::model::{AgentPart, SessionAction, SessionState, Text, TextPart};
use chat_session_reducer::core::session_reducer;
use chat_session_reducer::Error;
use serde_json::json;

fn action(value: serde_json::Value) -> SessionAction {
    serde_json::from_value(value).expect("a SessionAction")
}

/// The user asks `text`: a user message, and a run streaming.
pub fn ask(state: &Rc<SessionState>, text: &str) -> Result<Rc<SessionState>, Error> {
    let id = format!("u-{}", state.messages.len() + 1);
    session_reducer(
        state,
        &action(json!({ "type": "send", "id": id, "text": text })),
    )
}

/// The agent's reply arrives in `chunks`, then the run finishes.
pub fn stream_reply(state: &Rc<SessionState>, chunks: &[&str]) -> Result<Rc<SessionState>, Error> {
    let id = format!("a-{}", state.messages.len() + 1);
    let mut next = session_reducer(
        state,
        &action(json!({ "type": "part", "part": { "type": "message-start", "messageId": id } })),
    )?;
    for chunk in chunks {
        next = session_reducer(
            &next,
            &action(json!({ "type": "part", "part": { "type": "text-delta", "text": chunk } })),
        )?;
    }
    session_reducer(
        &next,
        &action(json!({ "type": "part", "part": { "type": "finish" } })),
    )
}

/// The text of the last message, as the UI shows it.
pub fn last_text(state: &SessionState) -> String {
    let Some(message) = state.messages.last() else {
        return String::new();
    };
    let mut text = String::new();
    for part in &message.parts {
        if let AgentPart::Text(TextPart {
            text: Text::Owned(chunk),
            ..
        }) = &**part
        {
            text.push_str(chunk);
        }
    }
    text
}
