//! A chat page in Yew driven by `chat-session-reducer`: a reply streams from the demo's scripted
//! agent (www/agent, its NDJSON actions endpoint), Stop, Retry, Edit and Regenerate keep what
//! they replace as a branch ("< 1/2 >" switches between them), and a reload restores the
//! conversation from storage.
//!
//! Each message is its own component whose props are its `Rc` and compare by pointer: the
//! reducer gives an untouched message back as the same `Rc`, so while a reply streams only
//! that reply renders again (`data-renders` on each message counts its renders).

mod chat;
mod storage;
mod transport;

use std::rc::Rc;

use chat_session_reducer::core::branch_at;
use chat_session_reducer::core::model::{
    AgentMessage, AgentPart, BranchAt, Role, SessionAction, SessionState, SessionStatus, Text,
};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement};
use yew::prelude::*;
use yew::AppHandle;

pub use chat::Chat;
pub use transport::Transport;

/// The page in a browser: mounted on `#app`, its runs on the demo's NDJSON actions endpoint
/// (same origin), its conversation kept in the tab's sessionStorage (index.html calls it).
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn start() {
    let root = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.get_element_by_id("app"));
    let (Some(window), Some(root)) = (web_sys::window(), root) else {
        return;
    };
    let chat = Chat::new(Transport::fetch("/api/chat/actions"), "yew-chat");
    // The page is leaving (a reload, a closed tab): its run is aborted first, so the request the
    // browser cancels is not saved as a failed run, and what streamed is saved, not only what
    // the last throttled save kept; the next load stops the reply there (the load rule).
    let leaving = Rc::clone(&chat);
    let close = Closure::<dyn Fn()>::new(move || leaving.close());
    let _ = window.add_event_listener_with_callback("pagehide", close.as_ref().unchecked_ref());
    // The listener and the page stay for the document's life.
    close.forget();
    std::mem::forget(mount(root, chat));
}

/// The page mounted in `root`, showing `chat`; `unmount` takes it down again.
pub fn mount(root: Element, chat: Rc<Chat>) -> Page {
    let props = ChatPageProps {
        chat: ChatRef(chat),
    };
    Page(yew::Renderer::<ChatPage>::with_root_and_props(root, props).render())
}

/// A mounted page.
pub struct Page(AppHandle<ChatPage>);

impl Page {
    /// Takes the page down: its request is aborted, its DOM removed.
    pub fn unmount(self) {
        self.0.destroy();
    }
}

/// A `Chat` as a prop: equal when it is the same chat.
#[derive(Clone)]
pub struct ChatRef(pub Rc<Chat>);

impl PartialEq for ChatRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// A message as a prop: equal when it is the same `Rc`, which is how the reducer says a message
/// is untouched (no deep comparison on each frame).
#[derive(Clone)]
pub struct Shared(pub Rc<AgentMessage>);

impl PartialEq for Shared {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The page's props.
#[derive(Properties, PartialEq)]
pub struct ChatPageProps {
    /// The conversation shown.
    pub chat: ChatRef,
}

/// The page: the messages, the error with Retry, the composer with Send or Stop.
#[function_component]
pub fn ChatPage(props: &ChatPageProps) -> Html {
    let chat = props.chat.clone();
    let state = use_state(|| chat.0.state());
    {
        let setter = state.setter();
        use_effect_with(chat.clone(), move |chat| {
            chat.0.listen(move |next| setter.set(next));
            let chat = chat.clone();
            move || chat.0.close()
        });
    }
    let streaming = state.status == SessionStatus::Streaming;
    let messages = state.messages.iter().enumerate().map(|(index, message)| {
        html! {
            <MessageView
                key={message.id.clone()}
                message={Shared(Rc::clone(message))}
                branch={branch_at(&state, index)}
                chat={chat.clone()}
                streaming={streaming}
            />
        }
    });
    html! {
        <main class="chat" data-status={status_name(state.status)}>
            <ol class="messages">{ for messages }</ol>
            { error_view(&state, &chat) }
            { queue_view(&state, &chat) }
            <Composer chat={chat.clone()} streaming={streaming} />
        </main>
    }
}

fn status_name(status: SessionStatus) -> &'static str {
    match status {
        SessionStatus::Idle => "idle",
        SessionStatus::Streaming => "streaming",
        SessionStatus::Error => "error",
    }
}

fn error_view(state: &SessionState, chat: &ChatRef) -> Html {
    let Some(error) = &state.error else {
        return html! {};
    };
    let retry = {
        let chat = chat.clone();
        Callback::from(move |_| chat.0.dispatch(SessionAction::Retry))
    };
    html! {
        <p class="error" role="alert">
            <span class="error-message">{ error.message.clone() }</span>
            <button class="retry" onclick={retry}>{ "Retry" }</button>
        </p>
    }
}

/// The messages sent while the reply streams, each with Remove (`unqueue`); they go out as one
/// turn when the reply ends.
fn queue_view(state: &SessionState, chat: &ChatRef) -> Html {
    let queued = state.queue.iter().map(|message| {
        let chat = chat.clone();
        let id = message.id.clone();
        let remove = move |_| chat.0.dispatch(SessionAction::Unqueue { id: id.clone() });
        html! {
            <li class="queued">
                <span class="queued-text">{ format!("queued: {}", owned_text(&message.text)) }</span>
                <button class="unqueue" onclick={remove}>{ "Remove" }</button>
            </li>
        }
    });
    html! { <ul class="queue">{ for queued }</ul> }
}

#[derive(Properties, PartialEq)]
struct ComposerProps {
    chat: ChatRef,
    streaming: bool,
}

/// The draft and Send (queued while a reply streams), and Stop while one does.
#[function_component]
fn Composer(props: &ComposerProps) -> Html {
    let draft = use_node_ref();
    let send = {
        let chat = props.chat.clone();
        let draft = draft.clone();
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            let Some(input) = draft.cast::<HtmlInputElement>() else {
                return;
            };
            let text = input.value();
            if text.trim().is_empty() {
                return;
            }
            input.set_value("");
            chat.0.dispatch(SessionAction::Send {
                id: new_id("user"),
                text: Text::from(text.as_str()),
                parts: Vec::new(),
                metadata: None,
            });
        })
    };
    let stop = {
        let chat = props.chat.clone();
        Callback::from(move |_| chat.0.dispatch(SessionAction::Stop))
    };
    html! {
        <form class="composer" onsubmit={send}>
            <input class="draft" ref={draft} placeholder="Message the agent" />
            <button class="send" type="submit">{ "Send" }</button>
            if props.streaming {
                <button class="stop" type="button" onclick={stop}>{ "Stop" }</button>
            }
        </form>
    }
}

#[derive(Properties, PartialEq)]
struct MessageProps {
    message: Shared,
    branch: Option<BranchAt>,
    chat: ChatRef,
    streaming: bool,
}

/// One message: its text and calls, "< n/m >" when it begins an alternative, Edit (a user
/// message) or Regenerate (a reply).
#[function_component]
fn MessageView(props: &MessageProps) -> Html {
    let renders = use_mut_ref(|| 0u32);
    *renders.borrow_mut() += 1;
    let editing = use_state(|| false);
    let message = &props.message.0;
    let role = match message.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    let actions = if *editing {
        edit_form(message, &props.chat, &editing)
    } else if props.streaming {
        html! {}
    } else if message.role == Role::User {
        let editing = editing.clone();
        html! { <button class="edit" onclick={move |_| editing.set(true)}>{ "Edit" }</button> }
    } else {
        let chat = props.chat.clone();
        let message_id = message.id.clone();
        let regenerate = move |_| {
            chat.0.dispatch(SessionAction::Regenerate {
                message_id: Some(message_id.clone()),
            })
        };
        html! { <button class="regenerate" onclick={regenerate}>{ "Regenerate" }</button> }
    };
    html! {
        <li class={classes!("message", role)} data-id={message.id.clone()} data-renders={renders.borrow().to_string()}>
            { props.branch.as_ref().map(|branch| branch_nav(branch, &props.chat, props.streaming)) }
            { for message.parts.iter().map(|part| part_view(part)) }
            { actions }
        </li>
    }
}

/// The edit box of a user message: Save sends the new text as an alternative.
fn edit_form(message: &AgentMessage, chat: &ChatRef, editing: &UseStateHandle<bool>) -> Html {
    let chat = chat.clone();
    let message_id = message.id.clone();
    let closing = editing.clone();
    let save = Callback::from(move |event: SubmitEvent| {
        event.prevent_default();
        let input = event
            .target_dyn_into::<web_sys::HtmlFormElement>()
            .and_then(|form| form.query_selector("input").ok().flatten())
            .and_then(|input| input.dyn_into::<HtmlInputElement>().ok());
        let Some(input) = input else {
            return;
        };
        closing.set(false);
        chat.0.dispatch(SessionAction::Edit {
            message_id: message_id.clone(),
            id: new_id("user"),
            text: Text::from(input.value().as_str()),
        });
    });
    let cancel = {
        let editing = editing.clone();
        move |_| editing.set(false)
    };
    html! {
        <form class="edit-form" onsubmit={save}>
            <input class="edit-text" value={text_of(message)} />
            <button class="save" type="submit">{ "Save" }</button>
            <button class="cancel" type="button" onclick={cancel}>{ "Cancel" }</button>
        </form>
    }
}

/// "< n/m >": the alternatives of the fork this message begins (`branch_at`).
fn branch_nav(branch: &BranchAt, chat: &ChatRef, streaming: bool) -> Html {
    let switch_to = |to: usize| {
        let chat = chat.clone();
        let after = branch.after.clone();
        Callback::from(move |_| {
            chat.0.dispatch(SessionAction::SwitchBranch {
                after: after.clone(),
                to,
            })
        })
    };
    let first = branch.active == 0;
    let last = branch.active + 1 >= branch.count;
    html! {
        <nav class="branch">
            <button class="previous" disabled={streaming || first}
                onclick={switch_to(branch.active.saturating_sub(1))}>{ "<" }</button>
            <span class="position">{ format!("{}/{}", branch.active + 1, branch.count) }</span>
            <button class="next" disabled={streaming || last}
                onclick={switch_to(branch.active + 1)}>{ ">" }</button>
        </nav>
    }
}

/// The message's text (a user message's one text part, for Edit).
fn text_of(message: &AgentMessage) -> String {
    message
        .parts
        .iter()
        .filter_map(|part| match &**part {
            AgentPart::Text(part) => Some(owned_text(&part.text)),
            _ => None,
        })
        .collect()
}

/// What a part shows: a text part its text, a tool call its name and where it is in its life;
/// reasoning, data and step parts show nothing here.
fn part_view(part: &AgentPart) -> Html {
    match part {
        AgentPart::Text(part) => html! { <p class="text">{ owned_text(&part.text) }</p> },
        AgentPart::Tool(call) => {
            let state = serde_json::to_value(call.state)
                .ok()
                .and_then(|state| state.as_str().map(str::to_owned))
                .unwrap_or_default();
            html! { <div class="tool" data-state={state.clone()}>{ format!("{}: {state}", call.name) }</div> }
        }
        _ => html! {},
    }
}

/// The text itself: a Rust program's core owns every text (`Text::Held` is the JavaScript
/// binding's).
fn owned_text(text: &Text) -> &str {
    match text {
        Text::Owned(text) => text,
        Text::Held { .. } => "",
    }
}

/// A new message id: random enough for one conversation.
fn new_id(prefix: &str) -> String {
    let random = (js_sys::Math::random() * f64::from(u32::MAX)) as u32;
    format!("{prefix}_{random:08x}")
}
