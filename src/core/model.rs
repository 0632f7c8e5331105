//! The SPEC's value types. They serialize to exactly the SPEC's JSON shapes, and with the
//! `ts-types` feature (the package's declarations build) tsify turns them into its TypeScript types.

use alloc::rc::Rc;
use alloc::{borrow::ToOwned, boxed::Box, string::String, vec::Vec};

use serde::{Deserialize, Serialize};

#[cfg(feature = "ts-types")]
use tsify::Tsify;

/// A JSON value (`input`, `output`, `metadata`, `data`, `agentState`): carried, and merged,
/// patched and compared by the core (`json`).
#[cfg(not(feature = "js-binding"))]
pub type Json = serde_json::Value;

/// With `js-binding` the host (the JavaScript binding) keeps every JSON value, and merges,
/// compares and patches them itself; the core only ever holds `Json::Null`: a placeholder with
/// nothing to clone, drop or compare keeps `serde_json::Value`'s code out of the package's wasm.
#[cfg(feature = "js-binding")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Json {
    /// The placeholder for the host's value.
    Null,
}

#[cfg(feature = "js-binding")]
impl Serialize for Json {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit()
    }
}

#[cfg(feature = "js-binding")]
impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(deserializer).map(|_| Json::Null)
    }
}

/// Message text: carried and appended to, never read. A host that keeps the text in its own
/// objects (so a reply is never copied across on each delta) passes only whether it is empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Text {
    /// The text itself.
    Owned(String),
    /// Text the host holds itself; only whether it is empty.
    Held {
        /// Whether the text is empty.
        empty: bool,
    },
}

impl Text {
    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        match self {
            Text::Owned(text) => text.is_empty(),
            Text::Held { empty } => *empty,
        }
    }

    /// Whether appending `more` leaves this value as it is.
    pub fn unchanged_by(&self, more: &Text) -> bool {
        more.is_empty() || matches!(self, Text::Held { empty: false })
    }

    /// Appends `more` (a held text stays held, non-empty once `more` is).
    pub fn push(&mut self, more: &Text) {
        match (&mut *self, more) {
            (Text::Owned(text), Text::Owned(more)) => text.push_str(more),
            _ => {
                *self = Text::Held {
                    empty: self.is_empty() && more.is_empty(),
                }
            }
        }
    }
}

/// Reads a present `null` as `Some(Json::Null)`: an optional JSON field keeps the value given.
fn present_json<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Json>, D::Error> {
    Json::deserialize(deserializer).map(Some)
}

impl From<&str> for Text {
    fn from(text: &str) -> Self {
        Text::Owned(text.to_owned())
    }
}

impl Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Text::Owned(text) => serializer.serialize_str(text),
            Text::Held { .. } => Err(serde::ser::Error::custom("the text is held by the host")),
        }
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Text::Owned)
    }
}

/// SPEC "State": `status`, the run's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum SessionStatus {
    /// Not streaming: the last run finished, was stopped, or none began.
    Idle,
    /// A run is streaming.
    Streaming,
    /// The run failed; `error` says why.
    Error,
}

/// SPEC "State": `error.code`, what kind of failure it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
#[serde(rename_all = "snake_case")]
pub enum SessionErrorCode {
    /// The chat is turned off.
    ChatDisabled,
    /// Too many requests.
    RateLimited,
    /// The request was refused as malformed.
    BadRequest,
    /// The connection failed.
    Network,
}

/// SPEC "State": `error`, why the run failed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
pub struct SessionError {
    /// What went wrong, for the user.
    pub message: String,
    /// What kind of failure, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<SessionErrorCode>,
}

pub use super::protocol::MAX_NESTING;

/// A conversation, or a sub-agent's run behind a tool call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
pub struct SessionState {
    /// The run's messages, in order (the active path when it has forks).
    pub messages: Vec<Rc<AgentMessage>>,
    /// Whether a run is streaming, idle or failed.
    pub status: SessionStatus,
    /// Present exactly when `status` is `"error"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<SessionError>,
    /// The agent's shared state (AG-UI `STATE_*`, LangGraph values), set by `agent-state`.
    #[serde(
        default,
        rename = "agentState",
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present_json"
    )]
    #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
    pub agent_state: Option<Json>,
    /// v3: the places on the active path (`messages`) that have alternatives, in path order;
    /// the top-level state's only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts-types", tsify(optional))]
    pub forks: Vec<Rc<Fork>>,
    /// v3: messages sent while the run streamed, in order; absent, never empty. Only the
    /// top-level state has one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub queue: Vec<QueuedMessage>,
}

impl SessionState {
    /// The state of a new conversation: no messages, `idle`.
    pub fn empty() -> Self {
        SessionState {
            messages: Vec::new(),
            status: SessionStatus::Idle,
            error: None,
            agent_state: None,
            forks: Vec::new(),
            queue: Vec::new(),
        }
    }
}

/// v3: a message `send` queued while a run streamed, sent when the run finishes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
pub struct QueuedMessage {
    /// The id the user message gets when it is sent.
    pub id: String,
    /// The message's text.
    #[cfg_attr(feature = "ts-types", tsify(type = "string"))]
    pub text: Text,
    /// Text and data parts sent with the text (attachments, sources, app data).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts-types", tsify(type = "UserPart[]"))]
    pub parts: Vec<Rc<AgentPart>>,
    /// The user message's metadata.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present_json"
    )]
    #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
    pub metadata: Option<Json>,
}

/// v3: a place on a path that has alternatives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
#[serde(from = "ForkFields")]
pub struct Fork {
    /// The id of the path's message the alternatives follow; null: they begin the conversation.
    #[cfg_attr(feature = "ts-types", tsify(type = "string | null"))]
    pub after: Option<String>,
    /// The index of the alternative the path shows after `after`.
    pub active: usize,
    /// In creation order; null exactly at `active` (that one is live).
    #[cfg_attr(feature = "ts-types", tsify(type = "(Branch | null)[]"))]
    pub alternatives: Vec<Option<Rc<Branch>>>,
    /// How deep its deepest branch is, counted from it (1: its branches hold no forks), kept so
    /// that the nesting limit is checked without walking the branches.
    #[serde(skip)]
    pub(crate) height: usize,
}

/// What a `Fork` deserializes from: its height is computed, never read.
#[derive(Deserialize)]
struct ForkFields {
    after: Option<String>,
    active: usize,
    alternatives: Vec<Option<Rc<Branch>>>,
}

impl From<ForkFields> for Fork {
    fn from(fields: ForkFields) -> Self {
        Fork::new(fields.after, fields.active, fields.alternatives)
    }
}

impl Fork {
    /// A fork with these fields, its height computed from its branches.
    pub fn new(
        after: Option<String>,
        active: usize,
        alternatives: Vec<Option<Rc<Branch>>>,
    ) -> Self {
        let mut fork = Fork {
            after,
            active,
            alternatives,
            height: 0,
        };
        fork.measure();
        fork
    }

    /// How deep its deepest branch is, counted from it: a fork of `forks` with height `h` holds
    /// branches down to depth `h`.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Computes the height again, from its branches' forks' (one level, never deeper).
    pub(crate) fn measure(&mut self) {
        let mut deepest = 0;
        for branch in self.alternatives.iter().flatten() {
            deepest = deepest.max(branch.height());
        }
        self.height = 1 + deepest;
    }
}

/// v3: an alternative set aside: everything that followed its fork's `after` in it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
pub struct Branch {
    /// The messages of the alternative, from the one after the fork's `after` on.
    pub messages: Vec<Rc<AgentMessage>>,
    /// The forks inside this alternative, as `forks` holds them for the path.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts-types", tsify(optional))]
    pub forks: Vec<Rc<Fork>>,
}

impl Branch {
    /// The height of its highest fork (0: none): how deep its branches nest below it.
    pub fn height(&self) -> usize {
        let mut highest = 0;
        for fork in &self.forks {
            highest = highest.max(fork.height);
        }
        highest
    }
}

/// What a UI needs to draw "< active+1 / count >" beside a message (`branch_at`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BranchAt {
    /// The id of the message the alternatives follow; `None`: they begin the conversation.
    pub after: Option<String>,
    /// The index of the alternative on the path.
    pub active: usize,
    /// How many alternatives there are.
    pub count: usize,
}

/// SPEC v3 "Actions": branchAt: the fork that `messages[index]` begins an alternative of
/// (`index` may be `messages.len()`: the fork after the last message). The package's `branchAt`
/// is this rule in JavaScript (src/main/branch-at.js: a UI calls it per row, where a call into the
/// module would cost more than the walk); tests/wasm_branches.rs checks that they agree.
///
/// ```
/// use chat_session_reducer::core::branch_at;
/// use chat_session_reducer::core::model::{BranchAt, SessionState};
/// use serde_json::{from_value, json};
///
/// // The second of two replies to u-1 is on the path; the first is set aside.
/// let state: SessionState = from_value(json!({
///     "messages": [
///         { "id": "u-1", "role": "user", "parts": [{ "type": "text", "text": "Hi" }] },
///         { "id": "a-2", "role": "assistant", "parts": [{ "type": "text", "text": "Hello" }] }
///     ],
///     "status": "idle",
///     "forks": [{ "after": "u-1", "active": 1, "alternatives": [
///         { "messages": [{ "id": "a-1", "role": "assistant", "parts": [{ "type": "text", "text": "Hey" }] }] },
///         null
///     ] }]
/// })).unwrap();
/// let at = BranchAt { after: Some("u-1".to_owned()), active: 1, count: 2 };
/// assert_eq!(branch_at(&state, 1), Some(at)); // "< 2 / 2 >" beside a-2
/// assert_eq!(branch_at(&state, 0), None);
/// ```
pub fn branch_at(state: &SessionState, index: usize) -> Option<BranchAt> {
    let after = match index {
        0 => None,
        _ => Some(state.messages.get(index - 1)?.id.as_str()),
    };
    let fork = state
        .forks
        .iter()
        .find(|fork| fork.after.as_deref() == after)?;
    Some(BranchAt {
        after: fork.after.clone(),
        active: fork.active,
        count: fork.alternatives.len(),
    })
}

/// SPEC "State": a message's `role`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Sent by the user.
    User,
    /// Written by the agent.
    Assistant,
}

/// SPEC "State": a message of the conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
pub struct AgentMessage {
    /// The message's id, unique in the conversation.
    pub id: String,
    /// Who wrote it.
    pub role: Role,
    /// What it holds, in order.
    pub parts: Vec<Rc<AgentPart>>,
    /// Usage, model, provider fields, a protocol's own ids.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present_json"
    )]
    #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
    pub metadata: Option<Json>,
}

/// SPEC "State": a part of a message, by its `type`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum AgentPart {
    /// Text to show.
    Text(TextPart),
    /// Kept for the next request, not rendered.
    Reasoning(ReasoningPart),
    /// A tool call.
    Tool(ToolPart),
    /// Sources, files, citations, generative-UI data, activities.
    Data(DataPart),
    /// v3: where a step began (AI SDK `step-start`); not rendered.
    Step,
}

/// A `text` part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
pub struct TextPart {
    /// The text.
    #[cfg_attr(feature = "ts-types", tsify(type = "string"))]
    pub text: Text,
    /// The part's metadata.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present_json"
    )]
    #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
    pub metadata: Option<Json>,
}

/// A `data` part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
pub struct DataPart {
    /// What kind of data it is (an AI SDK `data-NAME`, an AG-UI activity type).
    pub name: String,
    /// With an id, later `data` parts of the same name and id replace or patch this one's data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The data part's id: a `data` stream part with the same name and id updates it.
    #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
    pub data: Json,
    /// The data itself.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present_json"
    )]
    #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
    pub metadata: Option<Json>,
}

/// A `reasoning` part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
pub struct ReasoningPart {
    /// The reasoning text.
    #[cfg_attr(feature = "ts-types", tsify(type = "string"))]
    pub text: Text,
    /// The part's metadata.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present_json"
    )]
    #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
    pub metadata: Option<Json>,
}

/// `input-streaming`, `running` and `awaiting-confirmation` are open; `done` and `error` are
/// finished; `cancelled` is neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
#[serde(rename_all = "kebab-case")]
pub enum ToolState {
    /// Its input is still arriving (`tool-input-delta`).
    InputStreaming,
    /// Running: its result has not arrived.
    Running,
    /// Waiting for the user to confirm or approve it.
    AwaitingConfirmation,
    /// Finished with an output.
    Done,
    /// Finished with an error.
    Error,
    /// Cancelled before it finished (by `stop`, say); nothing else about it changes.
    Cancelled,
}

impl ToolState {
    /// Whether the call is still open: its input is streaming, it runs, or it awaits confirmation.
    pub fn is_open(self) -> bool {
        matches!(
            self,
            ToolState::InputStreaming | ToolState::Running | ToolState::AwaitingConfirmation
        )
    }

    /// Whether the call finished, `done` or `error` (not `cancelled`).
    pub fn is_finished(self) -> bool {
        matches!(self, ToolState::Done | ToolState::Error)
    }
}

impl AgentStreamPart {
    /// Whether the part answers a call (a client-side tool, an approval): such a part applies
    /// in any status, since the call waits on the client after its run has finished.
    pub fn is_answer(&self) -> bool {
        matches!(
            self,
            AgentStreamPart::ToolResult { .. }
                | AgentStreamPart::ToolError { .. }
                | AgentStreamPart::ToolApprovalResponse { .. }
        )
    }
}

/// The two states a `toolPhase` event may set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
#[serde(rename_all = "kebab-case")]
pub enum OpenToolState {
    /// `running`.
    Running,
    /// `awaiting-confirmation`.
    AwaitingConfirmation,
}

impl From<OpenToolState> for ToolState {
    fn from(state: OpenToolState) -> Self {
        match state {
            OpenToolState::Running => ToolState::Running,
            OpenToolState::AwaitingConfirmation => ToolState::AwaitingConfirmation,
        }
    }
}

/// SPEC "State": a call's `error`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
pub struct ToolError {
    /// What went wrong.
    pub message: String,
    /// `"cancelled"` means cancelled by the user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

pub use super::protocol::{DENIED, INVALID_INPUT};

/// `isCancelled(error)`: the call was cancelled by the user.
pub fn is_cancelled(error: &ToolError) -> bool {
    error.code.as_deref() == Some(super::protocol::CANCELLED_CODE)
}

/// SPEC "State": a `tool` part, one call of a tool, in the state its life has reached.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
pub struct ToolPart {
    /// The call id, unique in the whole conversation.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// `null` while the input is streaming.
    #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
    pub input: Json,
    /// The input as it was streamed (`tool-input-delta`), kept once complete.
    #[serde(default, rename = "inputText", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts-types", tsify(type = "string"))]
    pub input_text: Option<Text>,
    /// Where the call is in its life.
    pub state: ToolState,
    /// The call's output, once it has one (a streaming tool's progress included).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present_json"
    )]
    #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
    pub output: Option<Json>,
    /// Why the call failed, when its state is `error` (code `"cancelled"`: the user cancelled it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ToolError>,
    /// The confirmation question, set by `toolPhase` and `tool-approval-request`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// The approval asked for (`tool-approval-request`) and its answer. (Boxed: most calls
    /// have none, and every part is as large as the largest kind.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<Box<Approval>>,
    /// A sub-agent's run behind this call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<Rc<SessionState>>,
    /// The part's metadata.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present_json"
    )]
    #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
    pub metadata: Option<Json>,
}

/// Drops the sub-agent run behind a call without recursion: each run below is taken out of its
/// call (when nothing else shares it) before it is dropped, so a drop never goes more than one
/// run deep, however deep the runs nest.
impl Drop for ToolPart {
    fn drop(&mut self) {
        let mut runs: Vec<Rc<SessionState>> = Vec::new();
        runs.extend(self.agent.take());
        while let Some(run) = runs.pop() {
            let Ok(mut run) = Rc::try_unwrap(run) else {
                continue;
            };
            for message in run.messages.iter_mut().filter_map(Rc::get_mut) {
                for part in message.parts.iter_mut().filter_map(Rc::get_mut) {
                    if let AgentPart::Tool(call) = part {
                        runs.extend(call.agent.take());
                    }
                }
            }
        }
    }
}

/// An approval asked for a call, and the answer once given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
pub struct Approval {
    /// The protocol's approval or interrupt id; the call id when it has none.
    pub id: String,
    /// Decided by a policy, not the user: shown, with no buttons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub automatic: Option<bool>,
    /// Opaque: the protocol's descriptor of what is asked.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present_json"
    )]
    #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
    pub details: Option<Json>,
    /// The answer: `None` until given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approved: Option<bool>,
    /// The reason given with the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// SPEC "Stream parts": `finish.reason`, why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
#[serde(rename_all = "kebab-case")]
pub enum FinishReason {
    /// The agent finished its reply.
    Stop,
    /// The run was aborted: open calls are cancelled.
    Aborted,
    /// The reply hit the length limit.
    Length,
    /// The agent stopped to call tools.
    ToolCalls,
    /// The reply was filtered.
    ContentFilter,
    /// Any other reason.
    Other,
}

/// One part of what an adapter streams.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
#[serde(
    tag = "type",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum AgentStreamPart {
    /// SPEC "Stream parts": `message-start`, a new assistant message with this id.
    MessageStart {
        /// The new message's id.
        message_id: String,
        /// The message's metadata.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        metadata: Option<Json>,
    },
    /// SPEC "Stream parts": `text-delta`, text appended to the target message.
    TextDelta {
        /// The target message by id; `None`: the last message if it is an assistant's, else a new one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
        /// The text appended.
        #[cfg_attr(feature = "ts-types", tsify(type = "string"))]
        text: Text,
        /// Metadata merged into the text part.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        metadata: Option<Json>,
    },
    /// SPEC "Stream parts": `reasoning`, a whole reasoning part added to the target message.
    Reasoning {
        /// The target message, as for `text-delta`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
        /// The reasoning text.
        #[cfg_attr(feature = "ts-types", tsify(type = "string"))]
        text: Text,
        /// The part's metadata.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        metadata: Option<Json>,
    },
    /// SPEC "Stream parts": `tool-call`, a call begins running (or a streamed input completes).
    ToolCall {
        /// The target message, as for `text-delta`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
        /// The call id.
        id: String,
        /// The tool's name.
        name: String,
        /// The call's input.
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        input: Json,
        /// The part's metadata.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        metadata: Option<Json>,
    },
    /// SPEC "Stream parts": `tool-result`, a call's output.
    ToolResult {
        /// The call id.
        id: String,
        /// The output.
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        output: Json,
        /// A streaming tool's progress: `output` is set and the call stays as it is.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        preliminary: Option<bool>,
        /// Metadata merged into the call.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        metadata: Option<Json>,
    },
    /// SPEC "Stream parts": `tool-error`, a call failed.
    ToolError {
        /// The call id.
        id: String,
        /// Why it failed.
        error: ToolError,
        /// Metadata merged into the call.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        metadata: Option<Json>,
    },
    /// SPEC "Stream parts": `step-finish`, a step of the run ended.
    StepFinish,
    /// SPEC "Stream parts": `finish`, the run ended.
    Finish {
        /// Why it ended.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<FinishReason>,
    },
    /// SPEC "Stream parts": `error`, the run failed.
    Error {
        /// What went wrong.
        error: String,
        /// What kind of failure, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<SessionErrorCode>,
    },
    /// Appends to the target's last part when it is a reasoning part, else adds one.
    ReasoningDelta {
        /// The target message, as for `text-delta`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
        /// The text appended.
        #[cfg_attr(feature = "ts-types", tsify(type = "string"))]
        text: Text,
        /// Metadata merged into the reasoning part.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        metadata: Option<Json>,
    },
    /// A piece of a call's input; with `name`, the first one adds the call.
    ToolInputDelta {
        /// The target message, as for `text-delta`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
        /// The call id.
        id: String,
        /// The tool's name (the first delta of a call needs it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// The piece of input text.
        #[cfg_attr(feature = "ts-types", tsify(type = "string"))]
        text: Text,
        /// Metadata merged into the call.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        metadata: Option<Json>,
    },
    /// The call's input is complete: it is parsed, once, here.
    ToolInputEnd {
        /// The call id.
        id: String,
        /// Metadata merged into the call.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        metadata: Option<Json>,
    },
    /// The agent asks for approval of a call, by call `id` or, without one, by tool `name`.
    ToolApprovalRequest {
        /// The call id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// The tool's name, when there is no call id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// The protocol's approval id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        approval_id: Option<String>,
        /// The question to show.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        prompt: Option<String>,
        /// Decided by a policy, not the user.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        automatic: Option<bool>,
        /// Opaque: the protocol's descriptor of what is asked.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        details: Option<Json>,
    },
    /// The answer to an approval, by call `id` or by `approvalId`.
    ToolApprovalResponse {
        /// The call id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// The approval id, when there is no call id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        approval_id: Option<String>,
        /// Whether the call was approved.
        approved: bool,
        /// The reason given with the answer.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
        /// Approved with edits: replaces the call's input.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        input: Option<Json>,
        /// The user's answer is the result: the call becomes `done` with it.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        output: Option<Json>,
    },
    /// Data for the target message: with `id`, it replaces (`data`) or patches (`patch`) the
    /// data of the message's data part with that name and id. The wasm reader lets exactly one
    /// of `data` and `patch` through, and `patch` only with an `id`.
    Data {
        /// The target message, as for `text-delta`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
        /// What kind of data it is.
        name: String,
        /// The data part's id: with one, the part with this name and id is updated.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// The data (replacing the part's data).
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        data: Option<Json>,
        /// An RFC 6902 JSON Patch, applied all or nothing (`json::patched`).
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonPatch"))]
        patch: Option<Json>,
        /// Metadata merged into the data part.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        metadata: Option<Json>,
    },
    /// Metadata merged into the target message.
    MessageMetadata {
        /// The target message, as for `text-delta`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
        /// The metadata merged.
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        metadata: Json,
    },
    /// The run's messages as the agent holds them, reconciled by id (`exact`: exactly these).
    Snapshot {
        /// The agent's messages.
        messages: Vec<Rc<AgentMessage>>,
        /// Exactly these messages: held messages not in it go.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exact: Option<bool>,
    },
    /// The agent's shared state: a `snapshot` that replaces it, or a JSON `patch` to it.
    AgentState {
        /// The new agent state, replacing it.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        snapshot: Option<Json>,
        /// An RFC 6902 JSON Patch applied to it (all or nothing).
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonPatch"))]
        patch: Option<Json>,
    },
    /// v3: a step begins in the target message.
    StepStart {
        /// The target message, as for `text-delta`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
    },
    /// v3: the provider restarted the current step: the target's parts after its last step
    /// part go.
    StepReset {
        /// The target message, as for `text-delta`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
    },
    /// A part type this version does not know (a newer adapter): ignored. (Read from any other
    /// `type` by serde, as the package's reader reads it; the binding decodes it itself.)
    #[cfg_attr(feature = "js-binding", serde(skip))]
    #[cfg_attr(not(feature = "js-binding"), serde(other))]
    Unknown,
}

/// SPEC "Actions": what the host dispatches to the reducer, by its `type`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts-types", derive(Tsify))]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum SessionAction {
    /// SPEC "Actions": send, a user message (queued while a run streams).
    Send {
        /// The new message's id.
        id: String,
        /// The message's text.
        #[cfg_attr(feature = "ts-types", tsify(type = "string"))]
        text: Text,
        /// v3: text and data parts sent after the text (the core ignores a send with any other).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[cfg_attr(feature = "ts-types", tsify(type = "UserPart[]"))]
        parts: Vec<Rc<AgentPart>>,
        /// v3: the user message's metadata.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "present_json"
        )]
        #[cfg_attr(feature = "ts-types", tsify(type = "JsonValue"))]
        metadata: Option<Json>,
    },
    /// SPEC "Actions": part, a stream part from the agent.
    Part {
        /// The stream part.
        part: AgentStreamPart,
        /// The call whose sub-agent run this part belongs to.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        within: Option<String>,
    },
    /// SPEC "Actions": toolPhase, the open call of this tool changes state.
    ToolPhase {
        /// The tool's name.
        name: String,
        /// The state the call takes.
        state: OpenToolState,
        /// The confirmation question (`awaiting-confirmation`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        prompt: Option<String>,
    },
    /// SPEC "Actions": stop, the user stops the run (open calls are cancelled).
    Stop,
    /// SPEC "Actions": retry, the messages cut to `resumable(messages)`, streaming again.
    Retry,
    /// SPEC "Actions": reset, back to the empty session.
    Reset,
    /// The agent goes on without a new user message.
    Continue,
    /// Its actions applied in order, as one action.
    Batch {
        /// The actions, in order.
        actions: Vec<SessionAction>,
    },
    /// v3: the user message `message_id` (and what follows it) set aside for a new one.
    Edit {
        /// The id of the user message edited.
        message_id: String,
        /// The id of the new user message.
        id: String,
        /// The new message's text.
        #[cfg_attr(feature = "ts-types", tsify(type = "string"))]
        text: Text,
    },
    /// v3: the reply after the last user message (before `message_id`) set aside for a new one.
    Regenerate {
        /// An assistant message: the reply after the last user message before it is regenerated;
        /// `None`: the reply after the last user message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
    },
    /// v3: the alternative `to` of the fork after `after` becomes the path.
    SwitchBranch {
        /// The id of the message the fork follows; `None`: the fork at the start.
        #[cfg_attr(feature = "ts-types", tsify(type = "string | null"))]
        after: Option<String>,
        /// The index of the alternative that becomes the path.
        to: usize,
    },
    /// v3: removes the first queued message with this id.
    Unqueue {
        /// The queued message's id.
        id: String,
    },
    /// v3: the state becomes `state`, with the load rule applied (`core::load_rule`).
    Load {
        /// The state loaded (a stored conversation).
        state: Rc<SessionState>,
    },
    /// v4: older history put before `messages[0]`, the messages already held skipped.
    Prepend {
        /// The older messages, in order (no call open in them).
        messages: Vec<Rc<AgentMessage>>,
        /// The forks on those messages, in path order (`after` one of them, or null).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[cfg_attr(feature = "ts-types", tsify(optional))]
        forks: Vec<Rc<Fork>>,
    },
}
