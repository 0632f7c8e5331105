//! What a reducer step changed, addressed by path, so that a host holding the state in its
//! own objects (JavaScript) can copy just the nodes on each path. Values that come from the
//! action (texts, JSON payloads, prompts, errors) are not carried: the host takes them from
//! its own copy of the action, so they cross the boundary untouched.
//!
//! The operations on those values (merging `metadata`, replacing or patching `data` and
//! `agentState`, comparing a snapshot's messages with the held ones) are the core's own
//! (`json`), and such a patch is logged only when the edit changes the state. With the
//! `js-binding` feature the values are the host's, and so are the operations: the core says
//! where each goes, and the host finds out whether it changes anything and returns the same
//! state when nothing did.

use super::model::{SessionStatus, ToolState};
use super::path::{CallPath, CallPos};
use alloc::{string::String, vec::Vec};

/// One change a reducer step made, addressed by path (SPEC rows name each kind's effect).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Patch {
    /// Append a message to the run's `messages`.
    PushMessage {
        /// The run (root: empty).
        run: Vec<CallPos>,
        /// What message it is.
        message: NewMessage,
    },
    /// Append a part to `messages[message].parts` of the run.
    PushPart {
        /// The run (root: empty).
        run: Vec<CallPos>,
        /// The message's index in the run.
        message: usize,
        /// What part it is.
        part: NewPart,
    },
    /// Append the action's text to the text or reasoning part at
    /// `messages[message].parts[part]`.
    AppendText {
        /// The run (root: empty).
        run: Vec<CallPos>,
        /// The message's index in the run.
        message: usize,
        /// The part's index in the message.
        part: usize,
    },
    /// Append the action's text to the call's `inputText`.
    AppendInput {
        /// The call.
        call: CallPath,
    },
    /// Set the run's status; the error is the action's (`error` part) when the status is
    /// `error`, and removed otherwise.
    SetStatus {
        /// The run (root: empty).
        run: Vec<CallPos>,
        /// The status it takes.
        status: SessionStatus,
    },
    /// Set a call's state, and the fields that go with the change.
    SetCall {
        /// The call.
        call: CallPath,
        /// The state it takes.
        state: ToolState,
        /// What else changes with it.
        change: CallChange,
    },
    /// Give a call the sub-agent run `{ messages: [], status: "streaming" }`.
    StartAgent {
        /// The call.
        call: CallPath,
    },
    /// Keep the first `messages` messages of the root run and, when `parts` is set, only
    /// that many parts of the last one kept (`retry`).
    Truncate {
        /// How many messages are kept.
        messages: usize,
        /// How many parts of the last one kept are, when set.
        parts: Option<usize>,
    },
    /// Back to the empty session.
    Reset,
    /// Merge the action part's `metadata` into `messages[message]` of the run, or into its
    /// part `part`: plain objects key by key, recursively; any other value replaces.
    MergeMetadata {
        /// The run (root: empty).
        run: Vec<CallPos>,
        /// The message's index in the run.
        message: usize,
        /// The part's index, for a part's metadata.
        part: Option<usize>,
    },
    /// The data part at `messages[message].parts[part]` takes the action part's `data`
    /// (replaced) or `patch` (applied, all or nothing), then its `metadata` merged; a patch
    /// that does not apply changes nothing.
    UpdateData {
        /// The run (root: empty).
        run: Vec<CallPos>,
        /// The message's index in the run.
        message: usize,
        /// The data part's index in the message.
        part: usize,
    },
    /// The run's `agentState` takes the action part's `snapshot`, or its `patch` applied (all
    /// or nothing; a missing `agentState` is patched as `{}`).
    AgentState {
        /// The run (root: empty).
        run: Vec<CallPos>,
    },
    /// The run's messages become one message per slot: the held message at the slot's first
    /// index, replaced by the snapshot's message at its second when there is one.
    Snapshot {
        /// The run (root: empty).
        run: Vec<CallPos>,
        /// The resulting messages, in order.
        slots: Vec<Slot>,
    },
    /// The patches that follow take their values from this action of the batch (its leaves,
    /// nested batches flattened, in order). Until the first, from the first.
    Source {
        /// The action's index among the batch's leaves.
        action: usize,
    },
    /// v3 (`edit`, `regenerate`): the root's messages after the first `messages`, with its forks
    /// after the first `forks` (those whose `after` is in that tail), trimmed as `trims` says
    /// (too deep one level down: `edit::trim_to`), become a `Branch`. It takes the live slot of
    /// the fork after the last message kept (made, the branch at 0, when `created`, and inserted
    /// after the forks kept), which gets a new live alternative, appended and made `active`.
    /// `trims`: the number of forks trimmed, then for each its index among those set aside and
    /// what `trim_to` logged for it.
    SetAside {
        /// How many root messages are kept.
        messages: usize,
        /// How many root forks are kept.
        forks: usize,
        /// Whether the fork is made.
        created: bool,
        /// How the forks set aside are trimmed.
        trims: Vec<usize>,
    },
    /// v3 (`switchBranch`): the root's messages after the first `messages`, with its forks after
    /// `fork`, trimmed as `trims` says (as for `SetAside`), become the branch at the `active`
    /// slot of fork `fork`; its alternative `to` becomes the live tail (its messages appended,
    /// its forks after the fork) and `active`.
    SwitchBranch {
        /// The fork's index in the root's forks.
        fork: usize,
        /// How many root messages are kept.
        messages: usize,
        /// The alternative that becomes the live tail.
        to: usize,
        /// How the forks set aside are trimmed.
        trims: Vec<usize>,
    },
    /// v3 (`retry`, an exact `snapshot`): the root's forks become these of its forks, in this
    /// order (none: `forks` goes).
    KeepForks {
        /// The indexes, in the root's forks, of those kept.
        forks: Vec<usize>,
    },
    /// v3: append the `send` action's message (`{ id, text, parts, metadata }`, absent fields
    /// left out) to the root's `queue`, created when absent.
    Enqueue,
    /// v3: append each queued message of the root, in order, as a user message; `queue` goes.
    SendQueue,
    /// v3: remove `queue[index]` of the root; `queue` goes with its last message.
    Unqueue {
        /// The index of the queued message removed.
        index: usize,
    },
    /// v3: the state becomes the `load` action's `state`; the patches after it apply to that.
    Load,
    /// v3: keep only the first `keep` parts of `messages[message]` of the run (`step-reset`).
    CutParts {
        /// The run (root: empty).
        run: Vec<CallPos>,
        /// The message's index in the run.
        message: usize,
        /// How many parts are kept.
        keep: usize,
    },
    /// v4 (`prepend`): the action's messages but those at `skipped` go before the root's
    /// messages, in order, and its forks but those at `dropped` before the root's forks; with
    /// `after_moved`, the root's first fork (its `after` null) now follows the last message
    /// prepended.
    Prepend {
        /// The indexes, in the action's messages, of those skipped (already held), ascending.
        skipped: Vec<usize>,
        /// The indexes, in the action's forks, of those dropped, ascending.
        dropped: Vec<usize>,
        /// Whether the root's fork at the start now follows the last message prepended.
        after_moved: bool,
    },
}

/// A message of a snapshot's result: the held message at this index, replaced by the
/// snapshot's message at the second when there is one.
pub type Slot = (Option<usize>, Option<usize>);

/// A message `PushMessage` appends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NewMessage {
    /// The `send` action's message: its id, text, and (v3) parts and metadata.
    User,
    /// An empty assistant message with this id, carrying the part's `metadata` when
    /// `metadata` is set (`message-start`).
    Assistant {
        /// The message's id.
        id: String,
        /// Whether it carries the part's `metadata`.
        metadata: bool,
    },
}

/// A part made from the action's stream part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewPart {
    /// A text part with the action's text.
    Text,
    /// A reasoning part with the action's text.
    Reasoning,
    /// A `running` call (`tool-call`).
    Tool,
    /// An `input-streaming` call (`tool-input-delta`): `input` null, `inputText` the text.
    StreamingTool,
    /// A data part from the action's `data` part.
    Data,
    /// v3: `{ type: "step" }` (`step-start`).
    Step,
}

/// What changes with a call's state (`SetCall`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallChange {
    /// `toolPhase`: the prompt becomes the action's, or goes when the action has none.
    Phase,
    /// `tool-result`: `output` from the part; the prompt goes.
    Result,
    /// `tool-error`: `error` from the part; the prompt goes.
    Error,
    /// Cancelled by `stop`, `finish` (aborted) or `error`: nothing else changes.
    Cancel,
    /// `tool-result` with `preliminary`: `output` from the part; nothing else changes.
    Progress,
    /// `tool-call` completing a streamed input: `name` and `input` from the part.
    Called,
    /// `tool-input-end`: `input` is the next of the inputs the host parsed in this step.
    InputParsed,
    /// `tool-input-end` on text that is not JSON: `error` is `INVALID_INPUT`.
    InputInvalid,
    /// `tool-approval-request`: `prompt` from the part (or removed), `approval` made from it.
    ApprovalAsked,
    /// `tool-approval-response`, approved: `approval` answered, `prompt` removed, `input` and
    /// `output` from the part when it has them.
    Approved,
    /// `tool-approval-response`, refused: `approval` answered, `prompt` removed, `error` with
    /// code `denied`.
    Denied,
}
