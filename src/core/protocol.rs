//! The protocol between the Rust module and its JavaScript half (src/wasm/*.js), declared once:
//! the constants both use, the codes of every literal and variant that crosses the wasm
//! boundary as a number, and the names the JavaScript reads and writes for them.
//!
//! src/wasm/protocol.js is generated from this module (`javascript`) and checked in;
//! `cargo test --test protocol_js` fails when it differs, and `UPDATE_PROTOCOL=1 cargo test
//! --test protocol_js` writes it again. Each table lists every variant of its Rust enum in the
//! order of their codes: its `code` is an exhaustive `match`, so a variant added to the enum
//! without a code does not compile. The names of plain literals are serde's (the SPEC's JSON).
//! Nothing here touches wasm: the core uses the constants on every target.

use alloc::{
    borrow::ToOwned,
    format,
    string::{String, ToString},
    vec,
    vec::Vec,
};
use serde::Serialize;

use super::model::{
    AgentPart, AgentStreamPart, FinishReason, OpenToolState, Role, SessionAction, SessionErrorCode,
    SessionStatus, ToolState,
};
use super::patch::{CallChange, NewMessage, NewPart, Patch};

/// A value generated into the JavaScript module as `export const NAME = value;`.
pub trait JsLiteral {
    /// The value as a JavaScript literal.
    fn js_literal(&self) -> String;
}

impl JsLiteral for usize {
    fn js_literal(&self) -> String {
        self.to_string()
    }
}

impl JsLiteral for &str {
    fn js_literal(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// One `export const` of the generated module.
pub struct JsExport {
    /// The doc comment of the constant.
    pub doc: &'static str,
    /// The constant's name.
    pub name: String,
    /// Its value, as JavaScript source.
    pub value: String,
}

/// Declares constants, and `$list`, what the generated module exports of them.
macro_rules! constants {
    ($list:ident: $($(#[doc = $doc:literal])+ pub const $name:ident: $ty:ty = $value:expr;)+) => {
        $($(#[doc = $doc])+ pub const $name: $ty = $value;)+

        /// The constants, as the generated module exports them.
        pub fn $list() -> Vec<JsExport> {
            vec![$(JsExport {
                doc: concat!($($doc, "\n"),+),
                name: stringify!($name).to_owned(),
                value: JsLiteral::js_literal(&$name),
            }),+]
        }
    };
}

constants! {
    constants:
    /// How deep sub-agent runs nest, everywhere: in a state that is read (deeper is bad input)
    /// and in one built by `within` (a part that would start a deeper run is ignored). The run
    /// behind a top-level call is at depth 1. It bounds every walk of the tree.
    pub const MAX_NESTING: usize = 64;
    /// v3: how deep branches nest (a fork of `forks` holds branches at depth 1): in a state that
    /// is read, deeper is bad input; an action that would nest deeper drops forks.
    pub const MAX_BRANCH_NESTING: usize = 64;
    /// How deep batches nest in an action the binding reads (deeper is bad input); it reads a
    /// batch's actions flattened, so the core never sees the nesting.
    pub const MAX_BATCH_NESTING: usize = 64;
    /// The error message of a call whose streamed input is not JSON (`tool-input-end`).
    pub const INVALID_INPUT: &str = "The tool input is not valid JSON";
    /// The code of the `INVALID_INPUT` error.
    pub const INVALID_INPUT_CODE: &str = "invalid_input";
    /// The error message of a refused approval that gives no reason.
    pub const DENIED: &str = "Denied by the user";
    /// The code of a refused approval's error.
    pub const DENIED_CODE: &str = "denied";
    /// The code of a tool error that means the user cancelled the call (`isCancelled`).
    pub const CANCELLED_CODE: &str = "cancelled";
    /// The id the core makes up for an assistant message the stream names none for is this
    /// followed by the message's index in its run.
    pub const MADE_UP_ID_PREFIX: &str = "assistant-";
    /// v4: the problem of a prepended call whose id a call of the conversation (or an earlier
    /// one of the page) already has; the core finds it (`Refusal`), the package's path is made
    /// in JavaScript.
    pub const CALL_ID_TAKEN: &str = "expected a call id not already in the conversation";
}

// SPEC "Bad input": the problems that both readers of bad input name, src/wasm/read.js for
// JavaScript values and src/core/check.rs for Rust values, with one message each (after the
// path, `action.part.id: required with patch`). A message that ends in a limit is followed by
// it (`sub-agent runs nest deeper than 64`).
constants! {
    messages:
    /// An approval request without `id` names its call by `name`, a response by `approvalId`:
    /// followed by the field's name.
    pub const REQUIRED_WITHOUT: &str = "required when there is no";
    /// A `data` part: one of `data` and `patch`.
    pub const DATA_OR_PATCH: &str = "expected exactly one of data and patch";
    /// An `agent-state` part: one of `snapshot` and `patch`.
    pub const SNAPSHOT_OR_PATCH: &str = "expected exactly one of snapshot and patch";
    /// A `data` part's `patch` updates the part of its `id`.
    pub const REQUIRED_WITH_PATCH: &str = "required with patch";
    /// The parts of `send` and of a queued message.
    pub const USER_PART_TYPES: &str = r#"expected one of "text", "data""#;
    /// Followed by `MAX_NESTING`.
    pub const RUNS_NEST_DEEPER: &str = "sub-agent runs nest deeper than";
    /// Followed by `MAX_BRANCH_NESTING`.
    pub const BRANCHES_NEST_DEEPER: &str = "branches nest deeper than";
    /// Followed by `MAX_BATCH_NESTING`.
    pub const BATCHES_NEST_DEEPER: &str = "batches nest deeper than";
    /// A state's `error`, when its `status` is `"error"`.
    pub const ERROR_REQUIRED: &str = r#"required when status is "error""#;
    /// A state's `error`, when its `status` is not `"error"`.
    pub const ERROR_ONLY_IN_ERROR: &str = r#"present only when status is "error""#;
    /// `forks` or `queue` in a sub-agent run.
    pub const TOP_LEVEL_ONLY: &str = "present only in the top-level state";
    /// A call of a branch that is running, waiting for confirmation or streaming its input.
    pub const OPEN_CALL_IN_BRANCH: &str = "expected no open call in a branch";
    /// A top-level fork's `after` that names no message of the path.
    pub const AFTER_ON_PATH: &str = "expected the id of a message of the path";
    /// v4: a call of a prepended message that is running, waiting for confirmation or
    /// streaming its input (older history has no live call).
    pub const OPEN_CALL_IN_HISTORY: &str = "expected no open call in older history";
    /// v4: a prepended fork's `after` that names none of the prepended messages.
    pub const AFTER_IN_PAGE: &str = "expected the id of one of the given messages";
    /// A nested fork's `after` that names no message of its branch.
    pub const AFTER_IN_BRANCH: &str = "expected the id of a message of its branch";
    /// Forks in the order of their `after`, each `after` once.
    pub const FORKS_IN_ORDER: &str = "expected after the previous fork's, in path order";
    /// The alternative at `active` is the path's (null).
    pub const LIVE_ALTERNATIVE: &str = "expected null (the live alternative, at active)";
    /// Every other alternative is a branch.
    pub const SET_ASIDE_ALTERNATIVE: &str = "expected a branch (null only at active)";
    /// A fork's `alternatives`.
    pub const TWO_ALTERNATIVES: &str = "expected at least two alternatives";
    /// A fork's `active`.
    pub const ACTIVE_IN_RANGE: &str = "expected an index of alternatives";
}

/// A table of codes, as the generated module exports it.
pub struct JsTable {
    /// The doc comment of the table.
    pub doc: &'static str,
    /// The name of the list of the names, or the prefix of each code's constant.
    pub name: &'static str,
    /// The names by code, when the JavaScript reads or writes names.
    pub names: Option<Vec<String>>,
    /// Otherwise each code's constant (its name without the prefix), which the JavaScript
    /// switches on.
    pub codes: Vec<(&'static str, u32)>,
}

/// The JSON name serde gives a literal.
fn serde_name<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        _ => String::new(),
    }
}

/// Declares the codes of a field-less enum whose values are JSON strings (SPEC literals): a
/// module with `ALL` (every variant, at the index of its code), `code` and `from_code`, and the
/// table the JavaScript gets (`NAME`: the list of the literals' names, by code).
macro_rules! literals {
    ($(#[doc = $doc:literal])+ $module:ident, $js:literal: $ty:ident { $($variant:ident),+ $(,)? }) => {
        $(#[doc = $doc])+
        pub mod $module {
            use super::$ty;

            /// Every variant, at the index of its code.
            pub const ALL: &[$ty] = &[$($ty::$variant),+];

            /// The variant's code: its index in `ALL`.
            pub const fn code(value: $ty) -> u32 {
                #[allow(dead_code)]
                enum Order {
                    $($variant),+
                }
                match value {
                    $($ty::$variant => Order::$variant as u32),+
                }
            }

            /// The variant of a code (`None`: no variant has it).
            pub fn from_code(code: i32) -> Option<$ty> {
                ALL.get(usize::try_from(code).ok()?).copied()
            }

            pub(super) fn table() -> super::JsTable {
                super::JsTable {
                    doc: concat!($($doc, "\n"),+),
                    name: $js,
                    names: Some(ALL.iter().map(super::serde_name).collect()),
                    codes: alloc::vec::Vec::new(),
                }
            }
        }
    };
}

/// Declares the codes of an enum's variants as constants (`NAME = pattern`; `=> "name"` gives
/// the name the JavaScript reads), and `code`, the code of a value; a variant matched by the
/// pattern after `unknown` has none.
macro_rules! codes {
    ($(#[doc = $doc:literal])+ $module:ident, $js:literal: $ty:ident {
        $($code:ident = $pattern:pat $(=> $name:literal)?),+ $(,)?
    } $(unknown $unknown:pat)?) => {
        $(#[doc = $doc])+
        pub mod $module {
            #[allow(unused_imports)]
            use super::*;

            #[allow(non_camel_case_types, clippy::upper_case_acronyms, dead_code)]
            enum Order {
                $($code),+
            }

            $(
                #[doc = concat!("The code of `", stringify!($code), "`.")]
                pub const $code: u32 = Order::$code as u32;
            )+

            codes!(@code $ty { $($pattern => $code),+ } $(unknown $unknown)?);

            pub(super) fn table() -> super::JsTable {
                let names: Vec<String> = vec![$($($name.to_owned(),)?)+];
                // A table of names is read by name; one without, by its codes' constants.
                let codes = if names.is_empty() {
                    vec![$((stringify!($code), $code)),+]
                } else {
                    Vec::new()
                };
                super::JsTable {
                    doc: concat!($($doc, "\n"),+),
                    name: $js,
                    names: (!names.is_empty()).then_some(names),
                    codes,
                }
            }
        }
    };
    (@code $ty:ident { $($pattern:pat => $code:ident),+ }) => {
        /// The value's code.
        pub fn code(value: &$ty) -> u32 {
            match value {
                $($pattern => $code),+
            }
        }
    };
    (@code $ty:ident { $($pattern:pat => $code:ident),+ } unknown $unknown:pat) => {
        /// The value's code (`None`: the variant that stands for one this version does not know).
        pub fn code(value: &$ty) -> Option<u32> {
            match value {
                $($pattern => Some($code),)+
                $unknown => None,
            }
        }
    };
}

codes! {
    /// The types of a `SessionAction`.
    action_type, "ACTION_TYPES": SessionAction {
        SEND = SessionAction::Send { .. } => "send",
        PART = SessionAction::Part { .. } => "part",
        TOOL_PHASE = SessionAction::ToolPhase { .. } => "toolPhase",
        STOP = SessionAction::Stop => "stop",
        RETRY = SessionAction::Retry => "retry",
        RESET = SessionAction::Reset => "reset",
        CONTINUE = SessionAction::Continue => "continue",
        BATCH = SessionAction::Batch { .. } => "batch",
        EDIT = SessionAction::Edit { .. } => "edit",
        REGENERATE = SessionAction::Regenerate { .. } => "regenerate",
        SWITCH_BRANCH = SessionAction::SwitchBranch { .. } => "switchBranch",
        UNQUEUE = SessionAction::Unqueue { .. } => "unqueue",
        LOAD = SessionAction::Load { .. } => "load",
        PREPEND = SessionAction::Prepend { .. } => "prepend",
    }
}

codes! {
    /// The types of an `AgentStreamPart` (read.js writes -1 for a type this version does not
    /// know).
    part_type, "PART_TYPES": AgentStreamPart {
        MESSAGE_START = AgentStreamPart::MessageStart { .. } => "message-start",
        TEXT_DELTA = AgentStreamPart::TextDelta { .. } => "text-delta",
        REASONING = AgentStreamPart::Reasoning { .. } => "reasoning",
        TOOL_CALL = AgentStreamPart::ToolCall { .. } => "tool-call",
        TOOL_RESULT = AgentStreamPart::ToolResult { .. } => "tool-result",
        TOOL_ERROR = AgentStreamPart::ToolError { .. } => "tool-error",
        STEP_FINISH = AgentStreamPart::StepFinish => "step-finish",
        FINISH = AgentStreamPart::Finish { .. } => "finish",
        ERROR = AgentStreamPart::Error { .. } => "error",
        REASONING_DELTA = AgentStreamPart::ReasoningDelta { .. } => "reasoning-delta",
        TOOL_INPUT_DELTA = AgentStreamPart::ToolInputDelta { .. } => "tool-input-delta",
        TOOL_INPUT_END = AgentStreamPart::ToolInputEnd { .. } => "tool-input-end",
        TOOL_APPROVAL_REQUEST = AgentStreamPart::ToolApprovalRequest { .. } => "tool-approval-request",
        TOOL_APPROVAL_RESPONSE = AgentStreamPart::ToolApprovalResponse { .. } => "tool-approval-response",
        DATA = AgentStreamPart::Data { .. } => "data",
        MESSAGE_METADATA = AgentStreamPart::MessageMetadata { .. } => "message-metadata",
        SNAPSHOT = AgentStreamPart::Snapshot { .. } => "snapshot",
        AGENT_STATE = AgentStreamPart::AgentState { .. } => "agent-state",
        STEP_START = AgentStreamPart::StepStart { .. } => "step-start",
        STEP_RESET = AgentStreamPart::StepReset { .. } => "step-reset",
    } unknown AgentStreamPart::Unknown
}

codes! {
    /// The types of a message's `AgentPart`.
    message_part_type, "MESSAGE_PART_TYPES": AgentPart {
        TEXT = AgentPart::Text(_) => "text",
        REASONING = AgentPart::Reasoning(_) => "reasoning",
        TOOL = AgentPart::Tool(_) => "tool",
        DATA = AgentPart::Data(_) => "data",
        STEP = AgentPart::Step => "step",
    }
}

literals! {
    /// A message's `role`.
    role, "ROLES": Role { User, Assistant }
}

literals! {
    /// A run's `status`.
    status, "STATUSES": SessionStatus { Idle, Streaming, Error }
}

literals! {
    /// A call's `state`.
    tool_state, "TOOL_STATES": ToolState {
        Running, AwaitingConfirmation, Done, Error, Cancelled, InputStreaming,
    }
}

literals! {
    /// The `state` a `toolPhase` action sets.
    open_tool_state, "OPEN_TOOL_STATES": OpenToolState { Running, AwaitingConfirmation }
}

literals! {
    /// A `finish` part's `reason`.
    finish_reason, "FINISH_REASONS": FinishReason {
        Stop, Aborted, Length, ToolCalls, ContentFilter, Other,
    }
}

literals! {
    /// A run error's `code`.
    error_code, "ERROR_CODES": SessionErrorCode { ChatDisabled, RateLimited, BadRequest, Network }
}

codes! {
    /// The patches (src/core/patch.rs), as src/wasm/write.rs encodes them for apply.js.
    patch, "PATCH": Patch {
        PUSH_MESSAGE = Patch::PushMessage { .. },
        PUSH_PART = Patch::PushPart { .. },
        APPEND_TEXT = Patch::AppendText { .. },
        SET_STATUS = Patch::SetStatus { .. },
        SET_CALL = Patch::SetCall { .. },
        START_AGENT = Patch::StartAgent { .. },
        TRUNCATE = Patch::Truncate { .. },
        RESET = Patch::Reset,
        APPEND_INPUT = Patch::AppendInput { .. },
        MERGE_METADATA = Patch::MergeMetadata { .. },
        UPDATE_DATA = Patch::UpdateData { .. },
        AGENT_STATE = Patch::AgentState { .. },
        SNAPSHOT = Patch::Snapshot { .. },
        SOURCE = Patch::Source { .. },
        SET_ASIDE = Patch::SetAside { .. },
        SWITCH_BRANCH = Patch::SwitchBranch { .. },
        KEEP_FORKS = Patch::KeepForks { .. },
        ENQUEUE = Patch::Enqueue,
        SEND_QUEUE = Patch::SendQueue,
        UNQUEUE = Patch::Unqueue { .. },
        LOAD = Patch::Load,
        CUT_PARTS = Patch::CutParts { .. },
        PREPEND = Patch::Prepend { .. },
    }
}

codes! {
    /// The message a `PushMessage` patch appends.
    new_message, "NEW_MESSAGE": NewMessage {
        USER = NewMessage::User,
        ASSISTANT = NewMessage::Assistant { metadata: false, .. },
        ASSISTANT_WITH_METADATA = NewMessage::Assistant { metadata: true, .. },
    }
}

codes! {
    /// The part a `PushPart` patch appends.
    new_part, "NEW_PART": NewPart {
        TEXT = NewPart::Text,
        REASONING = NewPart::Reasoning,
        TOOL = NewPart::Tool,
        STREAMING_TOOL = NewPart::StreamingTool,
        DATA = NewPart::Data,
        STEP = NewPart::Step,
    }
}

codes! {
    /// What a `SetCall` patch writes besides the call's state.
    call_change, "CHANGE": CallChange {
        PHASE = CallChange::Phase,
        RESULT = CallChange::Result,
        ERROR = CallChange::Error,
        CANCEL = CallChange::Cancel,
        PROGRESS = CallChange::Progress,
        CALLED = CallChange::Called,
        INPUT_PARSED = CallChange::InputParsed,
        INPUT_INVALID = CallChange::InputInvalid,
        APPROVAL_ASKED = CallChange::ApprovalAsked,
        APPROVED = CallChange::Approved,
        DENIED = CallChange::Denied,
    }
}

/// The tables, in the order the generated module lists them.
pub fn tables() -> Vec<JsTable> {
    vec![
        action_type::table(),
        part_type::table(),
        message_part_type::table(),
        role::table(),
        status::table(),
        tool_state::table(),
        open_tool_state::table(),
        finish_reason::table(),
        error_code::table(),
        patch::table(),
        new_message::table(),
        new_part::table(),
        call_change::table(),
    ]
}

/// Where the generated module is, from the crate's root, and the command that writes it again.
pub const JS_PATH: &str = "src/wasm/protocol.js";
/// The command that writes the generated module again.
pub const JS_COMMAND: &str = "UPDATE_PROTOCOL=1 cargo test --test protocol_js";

/// The generated JavaScript module: every constant and table above, as `export const`s.
pub fn javascript() -> String {
    let mut out = format!(
        "// Generated from src/core/protocol.rs by tests/protocol_js.rs; do not edit.\n\
         // Regenerate with `{JS_COMMAND}`.\n"
    );
    let comment = |out: &mut String, doc: &str| {
        out.push('\n');
        for line in doc.lines() {
            out.push_str("//");
            if !line.trim().is_empty() {
                out.push(' ');
                out.push_str(line.trim());
            }
            out.push('\n');
        }
    };
    for constant in constants().into_iter().chain(messages()) {
        comment(&mut out, constant.doc);
        out.push_str(&format!(
            "export const {} = {};\n",
            constant.name, constant.value
        ));
    }
    for table in tables() {
        comment(&mut out, table.doc);
        if let Some(names) = &table.names {
            let list: Vec<String> = names
                .iter()
                .map(|name| name.as_str().js_literal())
                .collect();
            out.push_str(&format!(
                "export const {} = [{}];\n",
                table.name,
                list.join(", ")
            ));
        }
        for (code, value) in &table.codes {
            out.push_str(&format!("export const {}_{code} = {value};\n", table.name));
        }
    }
    out
}
