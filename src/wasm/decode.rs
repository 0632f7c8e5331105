//! Turns what `read.js` read and checked (an action, a state, a message list) into the core's
//! types. `read.js` walks the caller's values in JavaScript, where a field costs no crossing of
//! the wasm boundary and a throwing getter is caught, and encodes them as numbers, plus the
//! strings the core compares (ids, names, prompts, approval ids) joined in one string.
//!
//! The encoding, in the order written: first the number of strings; then the value, each field in
//! the order of the core's type:
//!
//! - a string: its length in UTF-16 code units (its text is next in the joined strings; a string
//!   that is not well-formed UTF-16 arrives in `read.js`'s exact form); an optional one: -1 or that;
//! - a text: 1 when it is empty, else 0; an optional one: -1 or that;
//! - a JSON value that may be absent: 1 present, 0 absent (one that must be present: nothing);
//! - a boolean: 1 or 0; an optional one: -1 or that;
//! - one of a set of literals: its code (`crate::core::protocol`, from which `read.js`'s tables
//!   are generated); an optional one: -1 or that;
//! - a list: its length, then its items; an optional object: -1, or 0 then its fields;
//! - an action: its type's code, then its fields; a batch's actions flattened;
//! - a stream part: its type's code (-1: unknown), then its fields;
//! - a state: its messages, status, error and agentState, then its forks (none in a sub-agent run).
//!
//! Texts and JSON payloads are not copied: the core gets `Text::Held` and `Json::Null`, and the
//! values stay in the JavaScript objects (see `write`). The encoding is the module's own, made
//! by `read.js`; should it ever run short, the decoder reads -1s and empty strings, never panics.

use alloc::rc::Rc;
use alloc::{borrow::ToOwned, boxed::Box, string::String, vec::Vec};

use crate::core::model::{
    AgentMessage, AgentPart, AgentStreamPart, Approval, Branch, DataPart, Fork, Json,
    OpenToolState, QueuedMessage, ReasoningPart, Role, SessionAction, SessionError, SessionState,
    SessionStatus, Text, TextPart, ToolError, ToolPart, ToolState,
};
use crate::core::protocol::{
    action_type, error_code, finish_reason, message_part_type, open_tool_state, part_type, role,
    status, tool_state,
};

/// An encoding being decoded.
pub struct Decoder<'a> {
    codes: &'a [i32],
    at: usize,
    strings: &'a str,
    /// Whether `strings` is ASCII, where a UTF-16 length is a length in bytes.
    ascii: bool,
    /// The text and reasoning parts decoded so far, one of each kind: the core holds no more of
    /// such a part than whether its text is empty and whether it has metadata (the values stay
    /// in JavaScript), so equal ones share one allocation, copied on write like any shared part.
    texts: [Option<Rc<AgentPart>>; 8],
}

impl<'a> Decoder<'a> {
    /// `codes` as `read.js` wrote them, `strings` its joined strings. The leading count of
    /// strings is skipped: it only told the caller whether to fetch them.
    pub fn new(codes: &'a [i32], strings: &'a str) -> Self {
        Decoder {
            codes,
            at: 1,
            strings,
            ascii: strings.is_ascii(),
            texts: Default::default(),
        }
    }

    fn next(&mut self) -> i32 {
        let code = self.codes.get(self.at).copied().unwrap_or(-1);
        self.at += 1;
        code
    }

    fn present(&mut self) -> bool {
        self.next() >= 0
    }

    fn flag(&mut self) -> bool {
        self.next() == 1
    }

    fn count(&mut self) -> usize {
        usize::try_from(self.next()).unwrap_or(0)
    }

    /// One of a table's literals, by its code.
    fn literal<T: Copy>(&mut self, table: &[T]) -> Option<T> {
        let index = usize::try_from(self.next()).ok()?;
        table.get(index).copied()
    }

    /// A type's code; -1, a type this version does not know, becomes one no type has.
    fn code(&mut self) -> u32 {
        self.next() as u32
    }

    /// The next string, `units` UTF-16 code units long.
    fn string_of(&mut self, units: i32) -> String {
        let mut left = usize::try_from(units).unwrap_or(0);
        let mut end = self.strings.len();
        if self.ascii {
            end = left.min(end);
        } else {
            // By bytes, not chars (whose decoding the wasm would carry): a char starts at each
            // byte that does not continue one, and takes two code units when it takes four
            // bytes (a lead byte from 0xF0).
            for (at, byte) in self.strings.bytes().enumerate() {
                if byte & 0xC0 != 0x80 {
                    if left == 0 {
                        end = at;
                        break;
                    }
                    left = left.saturating_sub(if byte >= 0xF0 { 2 } else { 1 });
                }
            }
        }
        // `end` is a char boundary: `get` cannot fail (and, unlike `split_at`, brings in no
        // panic formatting).
        let string = self.strings.get(..end).unwrap_or_default().to_owned();
        self.strings = self.strings.get(end..).unwrap_or_default();
        string
    }

    fn string(&mut self) -> String {
        let units = self.next();
        self.string_of(units)
    }

    fn optional_string(&mut self) -> Option<String> {
        let units = self.next();
        (units >= 0).then(|| self.string_of(units))
    }

    fn text(&mut self) -> Text {
        Text::Held { empty: self.flag() }
    }

    fn optional_text(&mut self) -> Option<Text> {
        let code = self.next();
        (code >= 0).then_some(Text::Held { empty: code == 1 })
    }

    fn json(&mut self) -> Option<Json> {
        self.flag().then_some(Json::Null)
    }

    fn optional_boolean(&mut self) -> Option<bool> {
        let code = self.next();
        (code >= 0).then_some(code == 1)
    }

    /// An action; `None` for an empty encoding (a type this version does not know, skipped).
    pub fn action(&mut self) -> Option<SessionAction> {
        if self.codes.is_empty() {
            return None;
        }
        Some(self.action_fields())
    }

    fn action_fields(&mut self) -> SessionAction {
        match self.code() {
            action_type::SEND => SessionAction::Send {
                id: self.string(),
                text: self.text(),
                parts: self.parts(),
                metadata: self.json(),
            },
            action_type::UNQUEUE => SessionAction::Unqueue { id: self.string() },
            action_type::LOAD => SessionAction::Load {
                state: Rc::new(self.session_state()),
            },
            action_type::PREPEND => SessionAction::Prepend {
                messages: self.messages(),
                forks: self.forks(),
            },
            action_type::PART => SessionAction::Part {
                part: self.stream_part(),
                within: self.optional_string(),
            },
            action_type::TOOL_PHASE => SessionAction::ToolPhase {
                name: self.string(),
                state: self
                    .literal(open_tool_state::ALL)
                    .unwrap_or(OpenToolState::Running),
                prompt: self.optional_string(),
            },
            action_type::STOP => SessionAction::Stop,
            action_type::RETRY => SessionAction::Retry,
            action_type::RESET => SessionAction::Reset,
            action_type::CONTINUE => SessionAction::Continue,
            action_type::EDIT => SessionAction::Edit {
                message_id: self.string(),
                id: self.string(),
                text: self.text(),
            },
            action_type::REGENERATE => SessionAction::Regenerate {
                message_id: self.optional_string(),
            },
            action_type::SWITCH_BRANCH => SessionAction::SwitchBranch {
                after: self.optional_string(),
                to: self.count(),
            },
            // `action_type::BATCH`, the one type left.
            _ => {
                let count = self.count();
                let mut actions = Vec::with_capacity(count);
                for _ in 0..count {
                    actions.push(self.action_fields());
                }
                SessionAction::Batch { actions }
            }
        }
    }

    fn stream_part(&mut self) -> AgentStreamPart {
        match self.code() {
            part_type::MESSAGE_START => AgentStreamPart::MessageStart {
                message_id: self.string(),
                metadata: self.json(),
            },
            part_type::TEXT_DELTA => AgentStreamPart::TextDelta {
                message_id: self.optional_string(),
                text: self.text(),
                metadata: self.json(),
            },
            part_type::REASONING => AgentStreamPart::Reasoning {
                message_id: self.optional_string(),
                text: self.text(),
                metadata: self.json(),
            },
            part_type::TOOL_CALL => AgentStreamPart::ToolCall {
                message_id: self.optional_string(),
                id: self.string(),
                name: self.string(),
                input: Json::Null,
                metadata: self.json(),
            },
            part_type::TOOL_RESULT => AgentStreamPart::ToolResult {
                id: self.string(),
                output: Json::Null,
                preliminary: self.optional_boolean(),
                metadata: self.json(),
            },
            part_type::TOOL_ERROR => AgentStreamPart::ToolError {
                id: self.string(),
                error: self.tool_error(),
                metadata: self.json(),
            },
            part_type::STEP_FINISH => AgentStreamPart::StepFinish,
            part_type::FINISH => AgentStreamPart::Finish {
                reason: self.literal(finish_reason::ALL),
            },
            part_type::ERROR => AgentStreamPart::Error {
                error: self.string(),
                code: self.literal(error_code::ALL),
            },
            part_type::REASONING_DELTA => AgentStreamPart::ReasoningDelta {
                message_id: self.optional_string(),
                text: self.text(),
                metadata: self.json(),
            },
            part_type::TOOL_INPUT_DELTA => AgentStreamPart::ToolInputDelta {
                message_id: self.optional_string(),
                id: self.string(),
                name: self.optional_string(),
                text: self.text(),
                metadata: self.json(),
            },
            part_type::TOOL_INPUT_END => AgentStreamPart::ToolInputEnd {
                id: self.string(),
                metadata: self.json(),
            },
            part_type::TOOL_APPROVAL_REQUEST => AgentStreamPart::ToolApprovalRequest {
                id: self.optional_string(),
                name: self.optional_string(),
                approval_id: self.optional_string(),
                prompt: self.optional_string(),
                automatic: self.optional_boolean(),
                details: self.json(),
            },
            part_type::TOOL_APPROVAL_RESPONSE => AgentStreamPart::ToolApprovalResponse {
                id: self.optional_string(),
                approval_id: self.optional_string(),
                approved: self.flag(),
                reason: self.optional_string(),
                input: self.json(),
                output: self.json(),
            },
            part_type::DATA => {
                let message_id = self.optional_string();
                let metadata = self.json();
                let id = self.optional_string();
                let data = self.json();
                let patch = self.json();
                AgentStreamPart::Data {
                    message_id,
                    name: self.string(),
                    id,
                    data,
                    patch,
                    metadata,
                }
            }
            part_type::MESSAGE_METADATA => AgentStreamPart::MessageMetadata {
                message_id: self.optional_string(),
                metadata: Json::Null,
            },
            part_type::SNAPSHOT => AgentStreamPart::Snapshot {
                messages: self.messages(),
                exact: self.optional_boolean(),
            },
            part_type::AGENT_STATE => AgentStreamPart::AgentState {
                snapshot: self.json(),
                patch: self.json(),
            },
            part_type::STEP_START => AgentStreamPart::StepStart {
                message_id: self.optional_string(),
            },
            part_type::STEP_RESET => AgentStreamPart::StepReset {
                message_id: self.optional_string(),
            },
            _ => AgentStreamPart::Unknown,
        }
    }

    pub fn session_state(&mut self) -> SessionState {
        SessionState {
            messages: self.messages(),
            status: self.literal(status::ALL).unwrap_or(SessionStatus::Idle),
            error: self.present().then(|| SessionError {
                message: self.string(),
                code: self.literal(error_code::ALL),
            }),
            agent_state: self.json(),
            forks: self.forks(),
            queue: self.queue(),
        }
    }

    /// v3: a state's queue (in a loop: a `collect` would be a copy of its code for the type).
    fn queue(&mut self) -> Vec<QueuedMessage> {
        let mut queue = Vec::new();
        for _ in 0..self.count() {
            queue.push(self.queued_message());
        }
        queue
    }

    fn queued_message(&mut self) -> QueuedMessage {
        QueuedMessage {
            id: self.string(),
            text: self.text(),
            parts: self.parts(),
            metadata: self.json(),
        }
    }

    fn parts(&mut self) -> Vec<Rc<AgentPart>> {
        let count = self.count();
        let mut parts = Vec::with_capacity(count);
        for _ in 0..count {
            parts.push(self.agent_part());
        }
        parts
    }

    /// v3: a list of forks: each its `after` (an optional string), `active`, then its
    /// alternatives, each -1 (the live one) or 0 then a branch's messages and forks.
    fn forks(&mut self) -> Vec<Rc<Fork>> {
        let mut forks = Vec::new();
        for _ in 0..self.count() {
            let after = self.optional_string();
            let active = self.count();
            let mut alternatives = Vec::new();
            for _ in 0..self.count() {
                alternatives.push(self.present().then(|| {
                    Rc::new(Branch {
                        messages: self.messages(),
                        forks: self.forks(),
                    })
                }));
            }
            forks.push(Rc::new(Fork::new(after, active, alternatives)));
        }
        forks
    }

    pub fn messages(&mut self) -> Vec<Rc<AgentMessage>> {
        let count = self.count();
        let mut messages = Vec::with_capacity(count);
        for _ in 0..count {
            messages.push(Rc::new(AgentMessage {
                id: self.string(),
                role: self.literal(role::ALL).unwrap_or(Role::User),
                parts: self.parts(),
                metadata: self.json(),
            }));
        }
        messages
    }

    fn agent_part(&mut self) -> Rc<AgentPart> {
        match self.code() {
            kind @ (message_part_type::TEXT | message_part_type::REASONING) => {
                let empty = self.flag();
                let metadata = self.flag();
                let reasoning = kind == message_part_type::REASONING;
                let slot =
                    usize::from(reasoning) * 4 + usize::from(empty) * 2 + usize::from(metadata);
                if let Some(Some(part)) = self.texts.get(slot) {
                    return Rc::clone(part);
                }
                let metadata = metadata.then_some(Json::Null);
                let text = Text::Held { empty };
                let part = Rc::new(if reasoning {
                    AgentPart::Reasoning(ReasoningPart { text, metadata })
                } else {
                    AgentPart::Text(TextPart { text, metadata })
                });
                if let Some(cached) = self.texts.get_mut(slot) {
                    *cached = Some(Rc::clone(&part));
                }
                part
            }
            message_part_type::TOOL => Rc::new(AgentPart::Tool(self.tool_part())),
            message_part_type::STEP => Rc::new(AgentPart::Step),
            // `message_part_type::DATA`, the one type left.
            _ => Rc::new(AgentPart::Data(DataPart {
                name: self.string(),
                id: self.optional_string(),
                data: Json::Null,
                metadata: self.json(),
            })),
        }
    }

    fn tool_part(&mut self) -> ToolPart {
        ToolPart {
            id: self.string(),
            name: self.string(),
            input: Json::Null,
            input_text: self.optional_text(),
            state: self.literal(tool_state::ALL).unwrap_or(ToolState::Done),
            output: self.json(),
            error: self.present().then(|| self.tool_error()),
            prompt: self.optional_string(),
            approval: self.present().then(|| {
                Box::new(Approval {
                    id: self.string(),
                    automatic: self.optional_boolean(),
                    details: self.json(),
                    approved: self.optional_boolean(),
                    reason: self.optional_string(),
                })
            }),
            agent: self.present().then(|| Rc::new(self.session_state())),
            metadata: self.json(),
        }
    }

    pub fn tool_error(&mut self) -> ToolError {
        ToolError {
            message: self.string(),
            code: self.optional_string(),
        }
    }
}
