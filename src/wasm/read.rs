//! Reads JavaScript values into the core's types, checking them against the package's
//! types and naming the path of the first thing that does not match.
//!
//! Texts and JSON payloads are not copied: the core gets `Text::Held` and `Json::Null`, and
//! the values stay in the JavaScript objects (see `write`).

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::error::{InputError, Path};
use super::fields::{self, Fields};
use crate::core::model::{
    AgentMessage, AgentPart, AgentStreamPart, Approval, DataPart, FinishReason, Json,
    OpenToolState, ReasoningPart, Role, SessionAction, SessionError, SessionErrorCode,
    SessionState, SessionStatus, Text, TextPart, ToolError, ToolPart, ToolState, MAX_NESTING,
};

/// Batches nested deeper than this are refused rather than risk the stack.
const MAX_BATCH_NESTING: usize = 64;

type Read<T> = Result<T, InputError>;

fn field<T>(value: Result<T, JsValue>, path: &Path) -> Read<T> {
    value.map_err(|_| InputError::new(path, "could not be read (its getter threw)"))
}

/// An object that is not an array. (`instanceof`, which the glue guards and which costs less
/// than `Array.isArray` with `catch`: an array of another realm passes, and is then found to
/// miss the fields of an object.)
pub fn object(value: &JsValue, path: &Path) -> Read<Fields> {
    if value.is_object() && !value.is_instance_of::<js_sys::Array>() {
        Ok(value.clone().unchecked_into())
    } else {
        Err(InputError::expected(path, "an object"))
    }
}

/// The items of an array, each read by `item`. Its `length` is only the loop's bound, never a
/// size to allocate: a sparse array claims any length, and the first hole is an error.
fn list<T>(
    value: &JsValue,
    path: &Path,
    mut item: impl FnMut(&JsValue, &Path) -> Read<T>,
) -> Read<Vec<T>> {
    let length = field(fields::array_length(value), path)?;
    if length < 0.0 {
        return Err(InputError::expected(path, "an array"));
    }
    let array: &Fields = value.unchecked_ref();
    let mut items = Vec::new();
    for index in 0..length as u32 {
        let path = path.index(index as usize);
        items.push(item(&field(array.at(index), &path)?, &path)?);
    }
    Ok(items)
}

/// Starts the Rust form of a string that is not well-formed UTF-16, or that starts with it.
const ESCAPE: &str = "\u{FFFF}";
/// What converting a string to Rust puts in place of a lone surrogate.
const REPLACEMENT: &str = "\u{FFFD}";

/// A string as Rust compares it (ids, names, prompts), kept exact: converting to Rust replaces a
/// lone surrogate with U+FFFD, so a string that comes back holding one is checked, and one that
/// was not well formed (or that starts with `ESCAPE`) becomes `ESCAPE` and its UTF-16 code units
/// in hex, distinct from every other string. (Bytes are compared, not chars: the char searcher
/// would double the module's size.)
fn exact_string(value: &JsValue) -> Option<String> {
    let converted = value.as_string()?;
    let bytes = converted.as_bytes();
    let escaped_start = bytes.starts_with(ESCAPE.as_bytes());
    if !escaped_start
        && !bytes
            .windows(REPLACEMENT.len())
            .any(|window| window == REPLACEMENT.as_bytes())
    {
        return Some(converted);
    }
    Some(fields::escaped_form(value).ok()?.unwrap_or(converted))
}

fn string(value: &JsValue, path: &Path) -> Read<String> {
    exact_string(value).ok_or_else(|| InputError::expected(path, "a string"))
}

fn optional_string(value: &JsValue, path: &Path) -> Read<Option<String>> {
    if value.is_undefined() {
        Ok(None)
    } else {
        string(value, path).map(Some)
    }
}

fn boolean(value: &JsValue, path: &Path) -> Read<bool> {
    value
        .as_bool()
        .ok_or_else(|| InputError::expected(path, "a boolean"))
}

fn optional_boolean(value: &JsValue, path: &Path) -> Read<Option<bool>> {
    if value.is_undefined() {
        Ok(None)
    } else {
        boolean(value, path).map(Some)
    }
}

/// A text, kept in JavaScript: only whether it is empty crosses over.
fn text(value: &JsValue, path: &Path) -> Read<Text> {
    if !value.is_string() {
        return Err(InputError::expected(path, "a string"));
    }
    const EMPTY: &[(&str, ()); 1] = &[("", ())];
    Ok(Text::Held {
        empty: index_of_literal(value, EMPTY).is_some(),
    })
}

fn optional_text(value: &JsValue, path: &Path) -> Read<Option<Text>> {
    if value.is_undefined() {
        Ok(None)
    } else {
        text(value, path).map(Some)
    }
}

/// A JSON payload, kept in JavaScript: it only has to be present.
fn json(value: &JsValue, path: &Path) -> Read<Json> {
    if value.is_undefined() {
        Err(InputError::expected(path, "a JSON value"))
    } else {
        Ok(Json::Null)
    }
}

fn optional_json(value: &JsValue) -> Option<Json> {
    (!value.is_undefined()).then_some(Json::Null)
}

#[wasm_bindgen(module = "/src/wasm/json.js")]
extern "C" {
    /// What is wrong with a JSON Patch, as `[path below the patch, problem]`, or `null`.
    #[wasm_bindgen(js_name = patchProblem, catch)]
    fn patch_problem(patch: &JsValue) -> Result<JsValue, JsValue>;
}

/// An RFC 6902 JSON Patch, kept in JavaScript: its operations are checked here, and applied
/// where the patches are (`apply.js`).
fn json_patch(value: &JsValue, path: &Path) -> Read<Json> {
    let problem = field(patch_problem(value), path)?;
    if problem.is_null() {
        return Ok(Json::Null);
    }
    let problem: &Fields = problem.unchecked_ref();
    let text = |index| problem.at(index).ok().and_then(|text| text.as_string());
    Err(InputError {
        path: path.render() + &text(0).unwrap_or_default(),
        problem: text(1).unwrap_or_default(),
    })
}

fn optional_json_patch(value: &JsValue, path: &Path) -> Read<Option<Json>> {
    if value.is_undefined() {
        Ok(None)
    } else {
        json_patch(value, path).map(Some)
    }
}

thread_local! {
    /// Each table of literals as JavaScript strings, with the table's address, so that a
    /// literal is found by `===` and no string crosses into Rust.
    static LITERALS: RefCell<Vec<(usize, Vec<JsValue>)>> = const { RefCell::new(Vec::new()) };
}

fn index_of_literal<T>(value: &JsValue, options: &'static [(&'static str, T)]) -> Option<usize> {
    let table = options.as_ptr() as usize;
    LITERALS.with(|literals| {
        let mut literals = literals.borrow_mut();
        let index = match literals.iter().position(|(address, _)| *address == table) {
            Some(index) => index,
            None => {
                let names = options.iter().map(|(name, _)| JsValue::from_str(name));
                literals.push((table, names.collect()));
                literals.len() - 1
            }
        };
        let (_, names) = literals.get(index)?;
        names.iter().position(|name| name == value)
    })
}

/// One of a set of string literals.
fn literal<T: Copy>(
    value: &JsValue,
    path: &Path,
    options: &'static [(&'static str, T)],
) -> Read<T> {
    let found = index_of_literal(value, options)
        .and_then(|index| options.get(index))
        .map(|(_, value)| *value);
    found.ok_or_else(|| {
        let names: Vec<String> = options
            .iter()
            .map(|(name, _)| format!("\"{name}\""))
            .collect();
        InputError::expected(path, &format!("one of {}", names.join(", ")))
    })
}

fn optional_literal<T: Copy>(
    value: &JsValue,
    path: &Path,
    options: &'static [(&'static str, T)],
) -> Read<Option<T>> {
    if value.is_undefined() {
        Ok(None)
    } else {
        literal(value, path, options).map(Some)
    }
}

pub(super) const STATUSES: &[(&str, SessionStatus)] = &[
    ("idle", SessionStatus::Idle),
    ("streaming", SessionStatus::Streaming),
    ("error", SessionStatus::Error),
];

const ERROR_CODES: &[(&str, SessionErrorCode)] = &[
    ("chat_disabled", SessionErrorCode::ChatDisabled),
    ("rate_limited", SessionErrorCode::RateLimited),
    ("bad_request", SessionErrorCode::BadRequest),
    ("network", SessionErrorCode::Network),
];

/// The stream part types this version knows; any other is ignored.
const PART_TYPES: &[(&str, ())] = &[
    ("message-start", ()),
    ("text-delta", ()),
    ("reasoning", ()),
    ("tool-call", ()),
    ("tool-result", ()),
    ("tool-error", ()),
    ("step-finish", ()),
    ("finish", ()),
    ("error", ()),
    ("reasoning-delta", ()),
    ("tool-input-delta", ()),
    ("tool-input-end", ()),
    ("tool-approval-request", ()),
    ("tool-approval-response", ()),
    ("data", ()),
    ("message-metadata", ()),
    ("snapshot", ()),
    ("agent-state", ()),
];

const ROLES: &[(&str, Role)] = &[("user", Role::User), ("assistant", Role::Assistant)];

pub(super) const TOOL_STATES: &[(&str, ToolState)] = &[
    ("running", ToolState::Running),
    ("awaiting-confirmation", ToolState::AwaitingConfirmation),
    ("done", ToolState::Done),
    ("error", ToolState::Error),
    ("cancelled", ToolState::Cancelled),
    ("input-streaming", ToolState::InputStreaming),
];

const OPEN_TOOL_STATES: &[(&str, OpenToolState)] = &[
    ("running", OpenToolState::Running),
    ("awaiting-confirmation", OpenToolState::AwaitingConfirmation),
];

const FINISH_REASONS: &[(&str, FinishReason)] = &[
    ("stop", FinishReason::Stop),
    ("aborted", FinishReason::Aborted),
    ("length", FinishReason::Length),
    ("tool-calls", FinishReason::ToolCalls),
    ("content-filter", FinishReason::ContentFilter),
    ("other", FinishReason::Other),
];

pub fn session_state(value: &JsValue, path: &Path) -> Read<SessionState> {
    if path.steps("agent") > MAX_NESTING {
        return Err(InputError::new(
            path,
            format!("sub-agent runs nest deeper than {MAX_NESTING}"),
        ));
    }
    let state = object(value, path)?;
    let messages_path = path.key("messages");
    let messages = messages(&field(state.messages(), &messages_path)?, &messages_path)?;
    let status_path = path.key("status");
    let status = literal(
        &field(state.status(), &status_path)?,
        &status_path,
        STATUSES,
    )?;
    let error_path = path.key("error");
    let error = field(state.error(), &error_path)?;
    let error = match (status, error.is_undefined()) {
        (SessionStatus::Error, false) => Some(session_error(&error, &error_path)?),
        (SessionStatus::Error, true) => {
            return Err(InputError::new(
                &error_path,
                "required when status is \"error\"",
            ))
        }
        (_, true) => None,
        (_, false) => {
            return Err(InputError::new(
                &error_path,
                "present only when status is \"error\"",
            ))
        }
    };
    Ok(SessionState {
        messages,
        status,
        error,
        agent_state: optional_json(&field(state.agent_state(), &path.key("agentState"))?),
    })
}

pub fn messages(value: &JsValue, path: &Path) -> Read<Vec<Rc<AgentMessage>>> {
    list(value, path, |message, path| {
        Ok(Rc::new(agent_message(message, path)?))
    })
}

fn agent_message(value: &JsValue, path: &Path) -> Read<AgentMessage> {
    let message = object(value, path)?;
    let id_path = path.key("id");
    let id = string(&field(message.id(), &id_path)?, &id_path)?;
    let role_path = path.key("role");
    let role = literal(&field(message.role(), &role_path)?, &role_path, ROLES)?;
    let parts_path = path.key("parts");
    let parts = list(
        &field(message.parts(), &parts_path)?,
        &parts_path,
        |part, path| Ok(Rc::new(agent_part(part, path)?)),
    )?;
    let metadata = optional_json(&field(message.metadata(), &path.key("metadata"))?);
    Ok(AgentMessage {
        id,
        role,
        parts,
        metadata,
    })
}

fn agent_part(value: &JsValue, path: &Path) -> Read<AgentPart> {
    let part = object(value, path)?;
    let kind_path = path.key("type");
    const KINDS: &[(&str, u8)] = &[("text", 0), ("reasoning", 1), ("tool", 2), ("data", 3)];
    let kinds = KINDS;
    let text_path = path.key("text");
    let metadata = || -> Read<Option<Json>> {
        Ok(optional_json(&field(
            part.metadata(),
            &path.key("metadata"),
        )?))
    };
    Ok(
        match literal(&field(part.kind(), &kind_path)?, &kind_path, kinds)? {
            0 => AgentPart::Text(TextPart {
                text: text(&field(part.text(), &text_path)?, &text_path)?,
                metadata: metadata()?,
            }),
            1 => AgentPart::Reasoning(ReasoningPart {
                text: text(&field(part.text(), &text_path)?, &text_path)?,
                metadata: metadata()?,
            }),
            2 => AgentPart::Tool(tool_part(&part, path)?),
            _ => {
                let name_path = path.key("name");
                let id_path = path.key("id");
                let data_path = path.key("data");
                AgentPart::Data(DataPart {
                    name: string(&field(part.name(), &name_path)?, &name_path)?,
                    id: optional_string(&field(part.id(), &id_path)?, &id_path)?,
                    data: json(&field(part.data(), &data_path)?, &data_path)?,
                    metadata: metadata()?,
                })
            }
        },
    )
}

fn tool_part(part: &Fields, path: &Path) -> Read<ToolPart> {
    let id_path = path.key("id");
    let name_path = path.key("name");
    let input_path = path.key("input");
    let state_path = path.key("state");
    let output_path = path.key("output");
    let error_path = path.key("error");
    let prompt_path = path.key("prompt");
    let agent_path = path.key("agent");
    let input_text_path = path.key("inputText");
    let approval_path = path.key("approval");
    let error = field(part.error(), &error_path)?;
    let agent = field(part.agent(), &agent_path)?;
    let approval = field(part.approval(), &approval_path)?;
    Ok(ToolPart {
        id: string(&field(part.id(), &id_path)?, &id_path)?,
        name: string(&field(part.name(), &name_path)?, &name_path)?,
        input: json(&field(part.input(), &input_path)?, &input_path)?,
        input_text: optional_text(
            &field(part.input_text(), &input_text_path)?,
            &input_text_path,
        )?,
        state: literal(&field(part.state(), &state_path)?, &state_path, TOOL_STATES)?,
        output: optional_json(&field(part.output(), &output_path)?),
        error: if error.is_undefined() {
            None
        } else {
            Some(tool_error(&error, &error_path)?)
        },
        prompt: optional_string(&field(part.prompt(), &prompt_path)?, &prompt_path)?,
        approval: if approval.is_undefined() {
            None
        } else {
            Some(Box::new(read_approval(&approval, &approval_path)?))
        },
        agent: if agent.is_undefined() {
            None
        } else {
            Some(Rc::new(session_state(&agent, &agent_path)?))
        },
        metadata: optional_json(&field(part.metadata(), &path.key("metadata"))?),
    })
}

fn read_approval(value: &JsValue, path: &Path) -> Read<Approval> {
    let approval = object(value, path)?;
    let id_path = path.key("id");
    let automatic_path = path.key("automatic");
    let approved_path = path.key("approved");
    let reason_path = path.key("reason");
    Ok(Approval {
        id: string(&field(approval.id(), &id_path)?, &id_path)?,
        automatic: optional_boolean(
            &field(approval.automatic(), &automatic_path)?,
            &automatic_path,
        )?,
        details: optional_json(&field(approval.details(), &path.key("details"))?),
        approved: optional_boolean(&field(approval.approved(), &approved_path)?, &approved_path)?,
        reason: optional_string(&field(approval.reason(), &reason_path)?, &reason_path)?,
    })
}

fn session_error(value: &JsValue, path: &Path) -> Read<SessionError> {
    let error = object(value, path)?;
    let message_path = path.key("message");
    let code_path = path.key("code");
    Ok(SessionError {
        message: string(&field(error.message(), &message_path)?, &message_path)?,
        code: optional_literal(&field(error.code(), &code_path)?, &code_path, ERROR_CODES)?,
    })
}

pub fn tool_error(value: &JsValue, path: &Path) -> Read<ToolError> {
    let error = object(value, path)?;
    let message_path = path.key("message");
    let code_path = path.key("code");
    Ok(ToolError {
        message: string(&field(error.message(), &message_path)?, &message_path)?,
        code: optional_string(&field(error.code(), &code_path)?, &code_path)?,
    })
}

#[wasm_bindgen(module = "/src/wasm/text_delta.js")]
extern "C" {
    #[wasm_bindgen(js_name = textDeltaShape, catch)]
    fn text_delta_shape(action: &JsValue) -> Result<i32, JsValue>;
}

/// A text delta, recognised in one call; `None` for any other action, which the full reader
/// then reads.
fn text_delta(value: &JsValue) -> Option<SessionAction> {
    // A getter that throws: the full reader names it.
    let shape = text_delta_shape(value).unwrap_or(-1);
    if shape < 0 {
        return None;
    }
    let action: &Fields = value.unchecked_ref();
    let message_id = match shape & 2 {
        0 => None,
        _ => Some(
            action
                .part()
                .ok()?
                .unchecked_into::<Fields>()
                .message_id()
                .ok()
                .and_then(|id| exact_string(&id))?,
        ),
    };
    let within = match shape & 4 {
        0 => None,
        _ => Some(exact_string(&action.within().ok()?)?),
    };
    let text = Text::Held {
        empty: shape & 1 != 0,
    };
    Some(SessionAction::Part {
        part: AgentStreamPart::TextDelta {
            message_id,
            text,
            metadata: None,
        },
        within,
    })
}

/// How an action of a type this version does not know is read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum UnknownTypes {
    /// Skipped (`None`): Redux sends its own actions to every reducer.
    Skip,
    /// Refused: `checkAction` checks a frame from the network.
    Refuse,
}

/// An action as the core applies it, and the JavaScript actions its values come from: the
/// action itself, or for a batch the list of its actions (nested batches flattened), in the
/// order of the core's `Patch::Source` numbers.
pub struct ReadAction {
    pub action: SessionAction,
    pub leaves: Option<js_sys::Array>,
}

/// Reads an action; `None` for one of a type this version does not know, when `unknown`
/// says to skip it.
pub fn session_action(
    value: &JsValue,
    path: &Path,
    unknown: UnknownTypes,
) -> Read<Option<ReadAction>> {
    if let Some(action) = text_delta(value) {
        return Ok(Some(ReadAction {
            action,
            leaves: None,
        }));
    }
    let leaves = js_sys::Array::new();
    let Some(action) = action(value, path, unknown, &leaves)? else {
        return Ok(None);
    };
    let leaves = matches!(action, SessionAction::Batch { .. }).then_some(leaves);
    Ok(Some(ReadAction { action, leaves }))
}

/// The actions of a batch, nested batches flattened, each pushed onto `leaves` too.
fn batch(
    value: &JsValue,
    path: &Path,
    unknown: UnknownTypes,
    leaves: &js_sys::Array,
    into: &mut Vec<SessionAction>,
) -> Read<()> {
    if path.steps("actions") > MAX_BATCH_NESTING {
        return Err(InputError::new(
            path,
            format!("batches nest deeper than {MAX_BATCH_NESTING}"),
        ));
    }
    let keep = |leaf: &JsValue, path: &Path| field(fields::append(leaves, leaf), path);
    list(value, path, |item, item_path| {
        if let Some(action) = text_delta(item) {
            keep(item, item_path)?;
            into.push(action);
            return Ok(());
        }
        let fields = object(item, item_path)?;
        let kind_path = item_path.key("type");
        if field(fields.kind(), &kind_path)?.as_string().as_deref() == Some("batch") {
            let actions_path = item_path.key("actions");
            batch(
                &field(fields.actions(), &actions_path)?,
                &actions_path,
                unknown,
                leaves,
                into,
            )?;
        } else if let Some(action) = action(item, item_path, unknown, leaves)? {
            keep(item, item_path)?;
            into.push(action);
        }
        Ok(())
    })?;
    Ok(())
}

fn action(
    value: &JsValue,
    path: &Path,
    unknown: UnknownTypes,
    leaves: &js_sys::Array,
) -> Read<Option<SessionAction>> {
    let action = object(value, path)?;
    let kind_path = path.key("type");
    const KINDS: &[(&str, u8)] = &[
        ("send", 0),
        ("part", 1),
        ("toolPhase", 2),
        ("stop", 3),
        ("retry", 4),
        ("reset", 5),
        ("continue", 6),
        ("batch", 7),
    ];
    let kinds = KINDS;
    let kind = field(action.kind(), &kind_path)?;
    if unknown == UnknownTypes::Skip && kind.is_string() && index_of_literal(&kind, kinds).is_none()
    {
        return Ok(None);
    }
    Ok(Some(match literal(&kind, &kind_path, kinds)? {
        0 => {
            let id_path = path.key("id");
            let text_path = path.key("text");
            SessionAction::Send {
                id: string(&field(action.id(), &id_path)?, &id_path)?,
                text: text(&field(action.text(), &text_path)?, &text_path)?,
            }
        }
        1 => {
            let part_path = path.key("part");
            let within_path = path.key("within");
            SessionAction::Part {
                part: stream_part(&field(action.part(), &part_path)?, &part_path)?,
                within: optional_string(&field(action.within(), &within_path)?, &within_path)?,
            }
        }
        2 => {
            let name_path = path.key("name");
            let state_path = path.key("state");
            let prompt_path = path.key("prompt");
            SessionAction::ToolPhase {
                name: string(&field(action.name(), &name_path)?, &name_path)?,
                state: literal(
                    &field(action.state(), &state_path)?,
                    &state_path,
                    OPEN_TOOL_STATES,
                )?,
                prompt: optional_string(&field(action.prompt(), &prompt_path)?, &prompt_path)?,
            }
        }
        3 => SessionAction::Stop,
        4 => SessionAction::Retry,
        5 => SessionAction::Reset,
        6 => SessionAction::Continue,
        _ => {
            let actions_path = path.key("actions");
            let mut actions = Vec::new();
            batch(
                &field(action.actions(), &actions_path)?,
                &actions_path,
                unknown,
                leaves,
                &mut actions,
            )?;
            SessionAction::Batch { actions }
        }
    }))
}

fn stream_part(value: &JsValue, path: &Path) -> Read<AgentStreamPart> {
    let part = object(value, path)?;
    let kind_path = path.key("type");
    let kind = field(part.kind(), &kind_path)?;
    if !kind.is_string() {
        return Err(InputError::expected(&kind_path, "a string"));
    }
    let message_id_path = path.key("messageId");
    let message_id = || -> Read<Option<String>> {
        optional_string(
            &field(part.message_id(), &message_id_path)?,
            &message_id_path,
        )
    };
    let id_path = path.key("id");
    let id = || -> Read<String> { string(&field(part.id(), &id_path)?, &id_path) };
    let text_path = path.key("text");
    let text = || -> Read<Text> { text(&field(part.text(), &text_path)?, &text_path) };
    let optional_id =
        || -> Read<Option<String>> { optional_string(&field(part.id(), &id_path)?, &id_path) };
    let name_path = path.key("name");
    let optional_name = || -> Read<Option<String>> {
        optional_string(&field(part.name(), &name_path)?, &name_path)
    };
    let metadata_path = path.key("metadata");
    let metadata =
        || -> Read<Option<Json>> { Ok(optional_json(&field(part.metadata(), &metadata_path)?)) };
    let approval_id_path = path.key("approvalId");
    let approval_id = || -> Read<Option<String>> {
        optional_string(
            &field(part.approval_id(), &approval_id_path)?,
            &approval_id_path,
        )
    };
    let input_path = path.key("input");
    let output_path = path.key("output");
    let reason_path = path.key("reason");
    Ok(
        match index_of_literal(&kind, PART_TYPES)
            .and_then(|index| PART_TYPES.get(index))
            .map(|(name, _)| *name)
        {
            Some("message-start") => {
                let message_id = string(
                    &field(part.message_id(), &message_id_path)?,
                    &message_id_path,
                )?;
                AgentStreamPart::MessageStart {
                    message_id,
                    metadata: metadata()?,
                }
            }
            Some("text-delta") => AgentStreamPart::TextDelta {
                message_id: message_id()?,
                text: text()?,
                metadata: metadata()?,
            },
            Some("reasoning") => AgentStreamPart::Reasoning {
                message_id: message_id()?,
                text: text()?,
                metadata: metadata()?,
            },
            Some("reasoning-delta") => AgentStreamPart::ReasoningDelta {
                message_id: message_id()?,
                text: text()?,
                metadata: metadata()?,
            },
            Some("tool-input-delta") => AgentStreamPart::ToolInputDelta {
                message_id: message_id()?,
                id: id()?,
                name: optional_name()?,
                text: text()?,
                metadata: metadata()?,
            },
            Some("tool-input-end") => AgentStreamPart::ToolInputEnd {
                id: id()?,
                metadata: metadata()?,
            },
            Some("tool-approval-request") => {
                let (id, name) = (optional_id()?, optional_name()?);
                if id.is_none() && name.is_none() {
                    return Err(InputError::new(&id_path, "required when there is no name"));
                }
                let prompt_path = path.key("prompt");
                let automatic_path = path.key("automatic");
                AgentStreamPart::ToolApprovalRequest {
                    id,
                    name,
                    approval_id: approval_id()?,
                    prompt: optional_string(&field(part.prompt(), &prompt_path)?, &prompt_path)?,
                    automatic: optional_boolean(
                        &field(part.automatic(), &automatic_path)?,
                        &automatic_path,
                    )?,
                    details: optional_json(&field(part.details(), &path.key("details"))?),
                }
            }
            Some("tool-approval-response") => {
                let (id, approval_id) = (optional_id()?, approval_id()?);
                if id.is_none() && approval_id.is_none() {
                    return Err(InputError::new(
                        &id_path,
                        "required when there is no approvalId",
                    ));
                }
                let approved_path = path.key("approved");
                AgentStreamPart::ToolApprovalResponse {
                    id,
                    approval_id,
                    approved: boolean(&field(part.approved(), &approved_path)?, &approved_path)?,
                    reason: optional_string(&field(part.reason(), &reason_path)?, &reason_path)?,
                    input: optional_json(&field(part.input(), &input_path)?),
                    output: optional_json(&field(part.output(), &output_path)?),
                }
            }
            Some("tool-call") => AgentStreamPart::ToolCall {
                message_id: message_id()?,
                id: id()?,
                name: string(&field(part.name(), &name_path)?, &name_path)?,
                input: json(&field(part.input(), &input_path)?, &input_path)?,
                metadata: metadata()?,
            },
            Some("tool-result") => {
                let preliminary_path = path.key("preliminary");
                AgentStreamPart::ToolResult {
                    id: id()?,
                    output: json(&field(part.output(), &output_path)?, &output_path)?,
                    preliminary: optional_boolean(
                        &field(part.preliminary(), &preliminary_path)?,
                        &preliminary_path,
                    )?,
                    metadata: metadata()?,
                }
            }
            Some("tool-error") => {
                let error_path = path.key("error");
                AgentStreamPart::ToolError {
                    id: id()?,
                    error: tool_error(&field(part.error(), &error_path)?, &error_path)?,
                    metadata: metadata()?,
                }
            }
            Some("step-finish") => AgentStreamPart::StepFinish,
            Some("finish") => AgentStreamPart::Finish {
                reason: optional_literal(
                    &field(part.reason(), &reason_path)?,
                    &reason_path,
                    FINISH_REASONS,
                )?,
            },
            Some("error") => {
                let error_path = path.key("error");
                let code_path = path.key("code");
                AgentStreamPart::Error {
                    error: string(&field(part.error(), &error_path)?, &error_path)?,
                    code: optional_literal(
                        &field(part.code(), &code_path)?,
                        &code_path,
                        ERROR_CODES,
                    )?,
                }
            }
            Some("data") => data_part(&part, path, message_id()?, metadata()?)?,
            Some("message-metadata") => AgentStreamPart::MessageMetadata {
                message_id: message_id()?,
                metadata: json(&field(part.metadata(), &metadata_path)?, &metadata_path)?,
            },
            Some("snapshot") => {
                let messages_path = path.key("messages");
                let exact_path = path.key("exact");
                AgentStreamPart::Snapshot {
                    messages: messages(&field(part.messages(), &messages_path)?, &messages_path)?,
                    exact: optional_boolean(&field(part.exact(), &exact_path)?, &exact_path)?,
                }
            }
            Some("agent-state") => {
                let snapshot_path = path.key("snapshot");
                let patch_path = path.key("patch");
                let snapshot = optional_json(&field(part.snapshot(), &snapshot_path)?);
                let patch = optional_json_patch(&field(part.patch(), &patch_path)?, &patch_path)?;
                if snapshot.is_some() == patch.is_some() {
                    return Err(InputError::new(
                        path,
                        "expected exactly one of snapshot and patch",
                    ));
                }
                AgentStreamPart::AgentState { snapshot, patch }
            }
            _ => AgentStreamPart::Unknown,
        },
    )
}

/// A `data` stream part: exactly one of `data` and `patch`, and `patch` only with an `id`.
fn data_part(
    part: &Fields,
    path: &Path,
    message_id: Option<String>,
    metadata: Option<Json>,
) -> Read<AgentStreamPart> {
    let name_path = path.key("name");
    let id_path = path.key("id");
    let data_path = path.key("data");
    let patch_path = path.key("patch");
    let id = optional_string(&field(part.id(), &id_path)?, &id_path)?;
    let data = optional_json(&field(part.data(), &data_path)?);
    let patch = optional_json_patch(&field(part.patch(), &patch_path)?, &patch_path)?;
    if data.is_some() == patch.is_some() {
        return Err(InputError::new(
            path,
            "expected exactly one of data and patch",
        ));
    }
    if patch.is_some() && id.is_none() {
        return Err(InputError::new(&id_path, "required with patch"));
    }
    Ok(AgentStreamPart::Data {
        message_id,
        name: string(&field(part.name(), &name_path)?, &name_path)?,
        id,
        data,
        patch,
        metadata,
    })
}
