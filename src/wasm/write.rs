//! Applies the core's patches to the caller's JavaScript state, copying only the objects on
//! each patch's path (as automerge's `applyPatches` does): every untouched message, part and
//! nested object stays the very same object. Texts and JSON payloads are taken from the
//! JavaScript action, so they arrive exactly as given.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::fields::Fields;
use crate::core::model::{SessionStatus, ToolState};
use crate::core::patch::{CallChange, NewMessage, NewPart, Patch};
use crate::core::path::CallPos;

/// The objects created by one step: they are the step's own and are changed in place.
struct Step {
    fresh: Vec<JsValue>,
}

impl Step {
    fn own(&mut self, object: JsValue) -> Fields {
        if self.fresh.iter().any(|fresh| *fresh == object) {
            return object.unchecked_into();
        }
        let copy = object.unchecked_into::<Fields>().copy();
        self.fresh.push(copy.clone().into());
        copy
    }

    fn own_array(&mut self, array: JsValue) -> js_sys::Array {
        if self.fresh.iter().any(|fresh| *fresh == array) {
            return array.unchecked_into();
        }
        let copy = array.unchecked_into::<js_sys::Array>().slice(0, u32::MAX);
        self.fresh.push(copy.clone().into());
        copy
    }

    fn mark<T: Into<JsValue> + Clone>(&mut self, value: &T) {
        self.fresh.push(value.clone().into());
    }

    /// The run's `messages`, owned by this step.
    fn messages(&mut self, run: &Fields) -> js_sys::Array {
        let messages = self.own_array(run.messages().unwrap_or_default());
        run.set_messages(&messages);
        messages
    }

    /// `messages[index]` of the run, owned by this step.
    fn message(&mut self, run: &Fields, index: usize) -> Fields {
        let messages = self.messages(run);
        let message = self.own(messages.get(index as u32));
        messages.set(index as u32, message.clone().into());
        message
    }

    fn parts(&mut self, message: &Fields) -> js_sys::Array {
        let parts = self.own_array(message.parts().unwrap_or_default());
        message.set_parts(&parts);
        parts
    }

    fn part(&mut self, run: &Fields, message: usize, part: usize) -> Fields {
        let message = self.message(run, message);
        let parts = self.parts(&message);
        let owned = self.own(parts.get(part as u32));
        parts.set(part as u32, owned.clone().into());
        owned
    }

    /// The run at `path` below `root`, owned by this step.
    fn run(&mut self, root: &Fields, path: &[CallPos]) -> Fields {
        let mut run = root.clone();
        for pos in path {
            let call = self.part(&run, pos.message, pos.part);
            let agent = self.own(call.agent().unwrap_or_default());
            call.set_agent(&agent);
            run = agent;
        }
        run
    }

    fn call(&mut self, root: &Fields, path: &[CallPos]) -> Option<Fields> {
        let (last, run) = path.split_last()?;
        let run = self.run(root, run);
        Some(self.part(&run, last.message, last.part))
    }
}

/// The fields of the action that patches take values from.
struct Source {
    action: Fields,
    part: Fields,
}

impl Source {
    fn new(action: &JsValue) -> Source {
        let action: Fields = action.clone().unchecked_into();
        let part = action.part().unwrap_or_default().unchecked_into();
        Source { action, part }
    }
}

/// The next state: `state` with `patches` applied. `state` itself is not touched.
pub fn apply(state: &JsValue, action: &JsValue, patches: &[Patch]) -> JsValue {
    let source = Source::new(action);
    let mut step = Step { fresh: Vec::new() };
    let mut root = step.own(state.clone());
    for patch in patches {
        match patch {
            Patch::PushMessage { run, message } => {
                let run = step.run(&root, run);
                let object = new_message(&mut step, &source, message);
                step.messages(&run).push(&object);
            }
            Patch::PushPart { run, message, part } => {
                let run = step.run(&root, run);
                let message = step.message(&run, *message);
                let object = new_part(&mut step, &source, *part);
                step.parts(&message).push(&object);
            }
            Patch::AppendText { run, message, part } => {
                let run = step.run(&root, run);
                let part = step.part(&run, *message, *part);
                let text: js_sys::JsString = part.text().unwrap_or_default().unchecked_into();
                part.set_text(&text.concat(&source.part.text().unwrap_or_default()).into());
            }
            Patch::SetStatus { run, status } => {
                let run = step.run(&root, run);
                run.set_status(status_name(*status));
                if *status == SessionStatus::Error {
                    let error = Fields::new();
                    error.set_message(&source.part.error().unwrap_or_default());
                    set_if_present(&source.part.code(), |code| error.set_code(code));
                    run.set_error(&error);
                } else {
                    run.remove("error");
                }
            }
            Patch::SetCall {
                call,
                state,
                change,
            } => {
                let Some(call) = step.call(&root, call) else {
                    continue;
                };
                call.set_state(tool_state_name(*state));
                match change {
                    CallChange::Phase => match source.action.prompt() {
                        Ok(prompt) if !prompt.is_undefined() => call.set_prompt(&prompt),
                        _ => call.remove("prompt"),
                    },
                    CallChange::Result => {
                        call.set_output(&source.part.output().unwrap_or_default());
                        call.remove("prompt");
                    }
                    CallChange::Error => {
                        call.set_error(&tool_error(&source.part.error().unwrap_or_default()));
                        call.remove("prompt");
                    }
                    CallChange::Cancel => {}
                }
            }
            Patch::StartAgent { call } => {
                let Some(call) = step.call(&root, call) else {
                    continue;
                };
                let agent = Fields::new();
                agent.set_messages(&js_sys::Array::new());
                agent.set_status("streaming");
                step.mark(&agent);
                call.set_agent(&agent);
            }
            Patch::Truncate { messages, parts } => {
                let kept = root
                    .messages()
                    .unwrap_or_default()
                    .unchecked_into::<js_sys::Array>()
                    .slice(0, *messages as u32);
                step.mark(&kept);
                root.set_messages(&kept);
                if let (Some(parts), Some(last)) = (parts, messages.checked_sub(1)) {
                    let message = step.message(&root, last);
                    let sliced = message
                        .parts()
                        .unwrap_or_default()
                        .unchecked_into::<js_sys::Array>()
                        .slice(0, *parts as u32);
                    message.set_parts(&sliced);
                }
            }
            Patch::Reset => {
                root = empty_state();
                step.mark(&root);
            }
        }
    }
    root.into()
}

/// `{ messages: [], status: "idle" }`
pub fn empty_state() -> Fields {
    let state = Fields::new();
    state.set_messages(&js_sys::Array::new());
    state.set_status("idle");
    state
}

fn new_message(step: &mut Step, source: &Source, message: &NewMessage) -> Fields {
    let object = Fields::new();
    let parts = js_sys::Array::new();
    match message {
        NewMessage::User => {
            object.set_id(&source.action.id().unwrap_or_default());
            object.set_role("user");
            let text = Fields::new();
            text.set_kind("text");
            text.set_text(&source.action.text().unwrap_or_default());
            parts.push(&text);
        }
        NewMessage::Assistant { id } => {
            match source.part.message_id() {
                Ok(given) if given.as_string().as_deref() == Some(id.as_str()) => {
                    object.set_id(&given)
                }
                _ => object.set_id(&JsValue::from_str(id)),
            }
            object.set_role("assistant");
        }
    }
    object.set_parts(&parts);
    step.mark(&object);
    step.mark(&parts);
    object
}

fn new_part(step: &mut Step, source: &Source, kind: NewPart) -> Fields {
    let part = source.part.clone();
    let object = Fields::new();
    match kind {
        NewPart::Text => {
            object.set_kind("text");
            object.set_text(&part.text().unwrap_or_default());
        }
        NewPart::Reasoning => {
            object.set_kind("reasoning");
            object.set_text(&part.text().unwrap_or_default());
            set_if_present(&part.metadata(), |metadata| object.set_metadata(metadata));
        }
        NewPart::Tool => {
            object.set_kind("tool");
            object.set_id(&part.id().unwrap_or_default());
            object.set_name(&part.name().unwrap_or_default());
            object.set_input(&part.input().unwrap_or_default());
            object.set_state("running");
        }
    }
    step.mark(&object);
    object
}

/// `{ message, code? }` from the action's tool error: its known fields only.
fn tool_error(given: &JsValue) -> Fields {
    let given: &Fields = given.unchecked_ref();
    let error = Fields::new();
    error.set_message(&given.message().unwrap_or_default());
    set_if_present(&given.code(), |code| error.set_code(code));
    error
}

fn set_if_present(value: &Result<JsValue, JsValue>, set: impl FnOnce(&JsValue)) {
    if let Ok(value) = value {
        if !value.is_undefined() {
            set(value);
        }
    }
}

fn status_name(status: SessionStatus) -> &'static str {
    match status {
        SessionStatus::Idle => "idle",
        SessionStatus::Streaming => "streaming",
        SessionStatus::Error => "error",
    }
}

fn tool_state_name(state: ToolState) -> &'static str {
    match state {
        ToolState::Running => "running",
        ToolState::AwaitingConfirmation => "awaiting-confirmation",
        ToolState::Done => "done",
        ToolState::Error => "error",
        ToolState::Cancelled => "cancelled",
    }
}
