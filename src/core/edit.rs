//! The edits a reducer step makes. Each one changes the session in place (copying only the
//! nodes on its path that are shared with another state) and logs the matching `Patch`, so
//! the Rust state and the host's objects change in the same way.

use super::own;
use alloc::rc::Rc;
use alloc::{borrow::ToOwned, boxed::Box, format, string::String, vec, vec::Vec};

use super::json::{self, Update};
use super::model::{
    AgentMessage, AgentPart, Approval, Branch, DataPart, Fork, Json, QueuedMessage, ReasoningPart,
    Role, SessionError, SessionState, SessionStatus, Text, TextPart, ToolError, ToolPart,
    ToolState,
};
use super::patch::{CallChange, NewMessage, NewPart, Patch, Slot};
use super::path::{call_at, call_at_mut, run_at, run_at_mut, CallPath, CallPos, RunPath};
use super::protocol::{DENIED, DENIED_CODE, INVALID_INPUT, INVALID_INPUT_CODE, MAX_BRANCH_NESTING};
use super::resumable::Cut;
use super::session::{OpenCall, Session};
use super::{insert_at, remove_at};

/// Parses a call's streamed input at `tool-input-end` as JavaScript's `JSON.parse` does, blank
/// text as `{}`: the input, or `None` when the text is not JSON. It gets the call, its text as
/// the core holds it, and the step's patches so far: a host that holds the texts in its own
/// objects (`Text::Held`) reads the text there, with those patches applied.
pub type ParseInput<'a> = dyn FnMut(&CallPath, &Text, &[Patch]) -> Option<Json> + 'a;

/// Whether an agent-state JSON Patch gives a run that has no `agentState` one: applied to `{}`,
/// it applies and changes it. It gets the patch and the batch leaf the step takes its values
/// from (0 outside a batch): a host that holds the patch in its own objects reads it there.
/// `None`: not known; the patch is logged and whoever applies the patches finds out. Asked only
/// with `js-binding`: the complete core applies the patch itself.
pub type PatchSetsState<'a> = dyn FnMut(&Json, usize) -> Option<bool> + 'a;

/// The core's own `ParseInput`, for texts it holds.
pub fn parse_owned_input(_call: &CallPath, text: &Text, _patches: &[Patch]) -> Option<Json> {
    let Text::Owned(text) = text else { return None };
    // JSON's white space: what `JSON.parse` skips around a value.
    let blank = text.trim_matches([' ', '\t', '\n', '\r']).is_empty();
    serde_json::from_str(if blank { "{}" } else { text }).ok()
}

pub struct Editor<'a> {
    pub session: &'a mut Session,
    pub patches: Vec<Patch>,
    /// Whether the session was touched: with no patches, it must not have been.
    pub touched: bool,
    parse_input: &'a mut ParseInput<'a>,
    patch_sets_state: &'a mut PatchSetsState<'a>,
    /// The batch leaf whose values the next patches use, and the one the last `Source`
    /// patch named (0 before any).
    source: usize,
    logged_source: usize,
    /// How many batch leaves have been started.
    leaves: usize,
    /// v4: why the action is bad input that only the state shows (`prepend`), once found.
    pub refused: Option<Refusal>,
}

/// v4: an action that is bad input against the state it is applied to (a `prepend` whose call id
/// the conversation holds): where in the action, and the problem (`protocol`'s message).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The batch leaf (its index among the flattened leaves) when the action is a batch.
    pub leaf: Option<usize>,
    /// The call, its first position in the action's `messages`.
    pub call: CallPath,
    /// What is wrong with the call's `id`.
    pub problem: &'static str,
}

impl Refusal {
    /// The bad-input error, with the package's path (`action.messages[2].parts[0].id`; in a
    /// batch `action.actions[leaf]…`, the leaf counted among the flattened ones).
    pub fn error(&self) -> crate::Error {
        let mut path = match self.leaf {
            None => "action".to_owned(),
            Some(leaf) => format!("action.actions[{leaf}]"),
        };
        for (depth, pos) in self.call.iter().enumerate() {
            let run = if depth == 0 { "" } else { ".agent" };
            path.push_str(&format!(
                "{run}.messages[{}].parts[{}]",
                pos.message, pos.part
            ));
        }
        path.push_str(".id");
        crate::Error::invalid(path, self.problem)
    }
}

/// The state of the log before a tentative edit, to take the edit back.
pub struct Mark {
    patches: usize,
    touched: bool,
    logged_source: usize,
}

/// What a `SetCall` edit writes besides the state.
pub enum CallUpdate<'a> {
    Phase {
        prompt: Option<&'a str>,
    },
    Result {
        output: &'a Json,
    },
    Progress {
        output: &'a Json,
    },
    Error {
        error: &'a ToolError,
    },
    Cancel,
    Called {
        name: &'a str,
        input: &'a Json,
    },
    InputParsed {
        input: Json,
    },
    InputInvalid,
    ApprovalAsked {
        prompt: Option<&'a str>,
        approval: Approval,
    },
    Approved {
        approval: Approval,
        input: Option<&'a Json>,
        output: Option<&'a Json>,
    },
    Denied {
        approval: Approval,
    },
}

impl CallUpdate<'_> {
    /// Writes the update on the call (its state is set apart) and says what kind of change it
    /// is, for the `SetCall` patch.
    fn write(self, call: &mut ToolPart) -> CallChange {
        match self {
            CallUpdate::Phase { prompt } => {
                call.prompt = prompt.map(str::to_owned);
                CallChange::Phase
            }
            CallUpdate::Result { output } => {
                call.output = Some(output.clone());
                call.prompt = None;
                CallChange::Result
            }
            CallUpdate::Progress { output } => {
                call.output = Some(output.clone());
                CallChange::Progress
            }
            CallUpdate::Error { error } => {
                call.error = Some(error.clone());
                call.prompt = None;
                CallChange::Error
            }
            CallUpdate::Cancel => CallChange::Cancel,
            CallUpdate::Called { name, input } => {
                call.name = name.to_owned();
                call.input = input.clone();
                CallChange::Called
            }
            CallUpdate::InputParsed { input } => {
                call.input = input;
                CallChange::InputParsed
            }
            CallUpdate::InputInvalid => {
                call.error = Some(ToolError {
                    message: INVALID_INPUT.to_owned(),
                    code: Some(INVALID_INPUT_CODE.to_owned()),
                });
                CallChange::InputInvalid
            }
            CallUpdate::ApprovalAsked { prompt, approval } => {
                call.prompt = prompt.map(str::to_owned);
                call.approval = Some(Box::new(approval));
                CallChange::ApprovalAsked
            }
            CallUpdate::Approved {
                approval,
                input,
                output,
            } => {
                call.approval = Some(Box::new(approval));
                call.prompt = None;
                if let Some(input) = input {
                    call.input = input.clone();
                }
                if let Some(output) = output {
                    call.output = Some(output.clone());
                }
                CallChange::Approved
            }
            CallUpdate::Denied { approval } => {
                call.error = Some(ToolError {
                    message: approval.reason.as_deref().unwrap_or(DENIED).to_owned(),
                    code: Some(DENIED_CODE.to_owned()),
                });
                call.approval = Some(Box::new(approval));
                call.prompt = None;
                CallChange::Denied
            }
        }
    }
}

impl<'a> Editor<'a> {
    pub fn new(
        session: &'a mut Session,
        parse_input: &'a mut ParseInput<'a>,
        patch_sets_state: &'a mut PatchSetsState<'a>,
    ) -> Self {
        Editor {
            session,
            patches: Vec::new(),
            touched: false,
            parse_input,
            patch_sets_state,
            source: 0,
            logged_source: 0,
            leaves: 0,
            refused: None,
        }
    }

    /// The next action of a batch begins: the patches it makes take their values from it.
    pub fn begin_leaf(&mut self) {
        self.source = self.leaves;
        self.leaves += 1;
    }

    /// Logs a patch, after a `Source` patch when it comes from another leaf than the last.
    fn log(&mut self, patch: Patch) {
        if self.source != self.logged_source {
            self.patches.push(Patch::Source {
                action: self.source,
            });
            self.logged_source = self.source;
        }
        self.patches.push(patch);
    }

    pub fn mark(&self) -> Mark {
        Mark {
            patches: self.patches.len(),
            touched: self.touched,
            logged_source: self.logged_source,
        }
    }

    /// How many patches (not counting `Source` ones) were logged since `mark`.
    pub fn logged_since(&self, mark: &Mark) -> usize {
        self.patches.get(mark.patches..).map_or(0, |since| {
            since
                .iter()
                .filter(|patch| !matches!(patch, Patch::Source { .. }))
                .count()
        })
    }

    fn root_mut(&mut self) -> &mut SessionState {
        self.touched = true;
        own(&mut self.session.state)
    }

    fn open_mut(&mut self) -> &mut Vec<OpenCall> {
        self.touched = true;
        own(&mut self.session.open)
    }

    pub fn state(&self) -> &SessionState {
        &self.session.state
    }

    pub fn run(&self, run: &RunPath) -> Option<&SessionState> {
        run_at(&self.session.state, run)
    }

    /// What `find` finds in the run, for `json` to decide an edit of a JSON value with; with
    /// `js-binding` the host decides, and the core does not look.
    fn held<'s, T>(
        &'s self,
        run: &RunPath,
        find: impl FnOnce(&'s SessionState) -> Option<T>,
    ) -> Option<T> {
        if json::HOST_DECIDES {
            return None;
        }
        self.run(run).and_then(find)
    }

    fn run_mut(&mut self, run: &RunPath) -> Option<&mut SessionState> {
        run_at_mut(self.root_mut(), run)
    }

    /// Appends a message; returns its index.
    pub fn push_message(&mut self, run: &RunPath, message: AgentMessage) -> Option<usize> {
        let new = match message.role {
            Role::User => NewMessage::User,
            Role::Assistant => NewMessage::Assistant {
                id: message.id.clone(),
                metadata: message.metadata.is_some(),
            },
        };
        let id = message.id.clone();
        let messages = &mut self.run_mut(run)?.messages;
        messages.push(Rc::new(message));
        let index = messages.len() - 1;
        self.session
            .messages
            .record(&self.session.state, run, &id, index);
        self.log(Patch::PushMessage {
            run: run.to_vec(),
            message: new,
        });
        Some(index)
    }

    /// Appends a part to a message of the run. A tool part joins the indexes.
    pub fn push_part(&mut self, run: &RunPath, message: usize, part: AgentPart) -> Option<()> {
        let new = match &part {
            AgentPart::Text(_) => NewPart::Text,
            AgentPart::Reasoning(_) => NewPart::Reasoning,
            AgentPart::Tool(call) if call.state == ToolState::InputStreaming => {
                NewPart::StreamingTool
            }
            AgentPart::Tool(_) => NewPart::Tool,
            AgentPart::Data(_) => NewPart::Data,
            AgentPart::Step => NewPart::Step,
        };
        let opened = match &part {
            AgentPart::Tool(call) if call.state.is_open() => {
                Some((call.id.clone(), call.name.clone()))
            }
            _ => None,
        };
        let recorded = match &part {
            AgentPart::Tool(call) => Some(call.id.clone()),
            _ => None,
        };
        let parts = &mut own(self.run_mut(run)?.messages.get_mut(message)?).parts;
        parts.push(Rc::new(part));
        let mut path = run.to_vec();
        path.push(CallPos {
            message,
            part: parts.len() - 1,
        });
        if let Some(id) = recorded {
            self.session.calls.record(&id, &path);
        }
        if let Some((id, name)) = opened {
            let open = self.open_mut();
            let at = open.partition_point(|call| call.path < path);
            insert_at(
                open,
                at,
                OpenCall {
                    path: path.clone(),
                    id,
                    name,
                },
            );
        }
        let _ = path.pop();
        self.log(Patch::PushPart {
            run: run.to_vec(),
            message,
            part: new,
        });
        Some(())
    }

    pub fn append_text(
        &mut self,
        run: &RunPath,
        message: usize,
        part: usize,
        text: &Text,
    ) -> Option<()> {
        // A text the host holds is only known to be non-empty: appending to it changes
        // nothing here, so nothing is copied (the patch still tells the host to append).
        let current = self.run(run)?.messages.get(message)?.parts.get(part)?;
        if streamed_text(current)?.unchanged_by(text) {
            self.log(Patch::AppendText {
                run: run.to_vec(),
                message,
                part,
            });
            return Some(());
        }
        let message_node = own(self.run_mut(run)?.messages.get_mut(message)?);
        match own(message_node.parts.get_mut(part)?) {
            AgentPart::Text(TextPart {
                text: accumulated, ..
            })
            | AgentPart::Reasoning(ReasoningPart {
                text: accumulated, ..
            }) => accumulated.push(text),
            AgentPart::Tool(_) | AgentPart::Data(_) | AgentPart::Step => return None,
        }
        self.log(Patch::AppendText {
            run: run.to_vec(),
            message,
            part,
        });
        Some(())
    }

    /// Appends to a call's `inputText` (an absent one is empty). Appending nothing changes
    /// nothing; appending to a text the host holds changes nothing here (see `append_text`).
    pub fn append_input(&mut self, path: &CallPath, text: &Text) -> Option<()> {
        let current = self.call(path)?.input_text.as_ref();
        if text.is_empty() {
            return Some(());
        }
        if !current.is_some_and(|current| current.unchanged_by(text)) {
            call_at_mut(self.root_mut(), path)?
                .input_text
                .get_or_insert_with(|| Text::from(""))
                .push(text);
        }
        self.log(Patch::AppendInput { call: path.clone() });
        Some(())
    }

    /// Ends a call's streamed input: `running` with the parsed input, or `error` with code
    /// `invalid_input` when the text is not JSON.
    pub fn end_input(&mut self, path: &CallPath) -> Option<()> {
        let text = self
            .call(path)?
            .input_text
            .clone()
            .unwrap_or_else(|| Text::from(""));
        match (self.parse_input)(path, &text, &self.patches) {
            Some(input) => {
                self.set_call(path, ToolState::Running, CallUpdate::InputParsed { input })
            }
            None => self.set_call(path, ToolState::Error, CallUpdate::InputInvalid),
        }
    }

    /// Sets a run's status (and its error, which exists exactly in status `error`).
    /// Does nothing when both are already so.
    pub fn set_status(
        &mut self,
        run: &RunPath,
        status: SessionStatus,
        error: Option<SessionError>,
    ) -> Option<()> {
        let current = self.run(run)?;
        if current.status == status && current.error == error {
            return Some(());
        }
        let target = self.run_mut(run)?;
        target.status = status;
        target.error = error;
        self.log(Patch::SetStatus {
            run: run.to_vec(),
            status,
        });
        Some(())
    }

    /// Moves a call to `state`. A call that leaves the open states also ends a sub-agent run
    /// behind it that is still streaming, as `stop` ends a run.
    pub fn set_call(
        &mut self,
        path: &CallPath,
        state: ToolState,
        update: CallUpdate,
    ) -> Option<()> {
        let call = call_at_mut(self.root_mut(), path)?;
        call.state = state;
        let change = update.write(call);
        let renamed = (change == CallChange::Called).then(|| call.name.clone());
        self.log(Patch::SetCall {
            call: path.clone(),
            state,
            change,
        });
        if let Some(name) = renamed {
            let open = self.open_mut();
            if let Some(entry) = open.iter_mut().find(|call| call.path == *path) {
                entry.name = name;
            }
        }
        if !state.is_open() {
            self.close_call(path)?;
        }
        Some(())
    }

    /// A call left the open states: it leaves the open-call index, and a sub-agent run behind
    /// it that is still streaming ends as `stop` ends a run.
    fn close_call(&mut self, path: &CallPath) -> Option<()> {
        self.forget_open(&|call| call == path);
        let streaming = self
            .call(path)?
            .agent
            .as_ref()
            .is_some_and(|agent| agent.status == SessionStatus::Streaming);
        if streaming {
            self.set_status(path, SessionStatus::Idle, None)?;
            self.cancel_open(path)?;
        }
        Some(())
    }

    /// Takes the calls whose paths are `gone` out of the open-call index. (One `retain` for
    /// every caller: each closure type would be a copy of its code in the wasm.)
    fn forget_open(&mut self, gone: &dyn Fn(&CallPath) -> bool) {
        self.open_mut().retain(|call| !gone(&call.path));
    }

    /// Cancels every open call in `run` and the runs nested in it (never the call that holds
    /// `run`, which belongs to the run above).
    pub fn cancel_open(&mut self, run: &RunPath) -> Option<()> {
        self.cancel_open_where(&|_, call| call.path.len() > run.len() && call.path.starts_with(run))
    }

    /// Cancels, as `stop` does, every open call that `cancels` picks, first to last in document
    /// order (cancelling one may end a nested run, and so the open calls in it). One loop for
    /// every caller: each closure type would be a copy of it in the wasm.
    pub fn cancel_open_where(&mut self, cancels: &dyn Fn(&Self, &OpenCall) -> bool) -> Option<()> {
        while let Some(open) = self.session.open.iter().find(|call| cancels(self, call)) {
            let path = open.path.clone();
            self.set_call(&path, ToolState::Cancelled, CallUpdate::Cancel)?;
        }
        Some(())
    }

    pub fn start_agent(&mut self, path: &CallPath) -> Option<()> {
        let call = call_at_mut(self.root_mut(), path)?;
        call.agent = Some(Rc::new(SessionState {
            status: SessionStatus::Streaming,
            ..SessionState::empty()
        }));
        self.log(Patch::StartAgent { call: path.clone() });
        Some(())
    }

    /// Takes back a `start_agent`, made after `mark`, that turned out to be the only edit
    /// since: the session is then as it was at `mark`.
    pub fn undo_start_agent(&mut self, path: &CallPath, mark: Mark) -> Option<()> {
        let start = Patch::StartAgent { call: path.clone() };
        if self.logged_since(&mark) != 1 || self.patches.last() != Some(&start) {
            return None;
        }
        call_at_mut(self.root_mut(), path)?.agent = None;
        self.patches.truncate(mark.patches);
        self.touched = mark.touched;
        self.logged_source = mark.logged_source;
        Some(())
    }

    /// Merges `metadata` into `messages[message]` of the run, or into its part `part` (see
    /// `json::merged`); a merge that changes nothing leaves the session as it is.
    pub fn merge_metadata(
        &mut self,
        run: &RunPath,
        message: usize,
        part: Option<usize>,
        metadata: &Json,
    ) -> Option<()> {
        let held = self.held(run, |run| metadata_of(run.messages.get(message)?, part));
        let Update::Set(merged) = json::merged(held.and_then(Option::as_ref), metadata) else {
            return Some(());
        };
        let owner = own(self.run_mut(run)?.messages.get_mut(message)?);
        *metadata_of_mut(owner, part)? = Some(merged);
        self.log(Patch::MergeMetadata {
            run: run.to_vec(),
            message,
            part,
        });
        Some(())
    }

    /// Gives the data part at `messages[message].parts[part]` of the run its new `data` (a
    /// `patch` applied, all or nothing, or `data` in place of the held one) and `metadata`
    /// merged in; a patch that does not apply changes nothing.
    pub fn update_data(
        &mut self,
        run: &RunPath,
        message: usize,
        part: usize,
        data: Option<&Json>,
        patch: Option<&Json>,
        metadata: Option<&Json>,
    ) -> Option<()> {
        let held = self.held(run, |run| {
            match run.messages.get(message)?.parts.get(part)?.as_ref() {
                AgentPart::Data(held) => Some(held),
                _ => None,
            }
        });
        let data = match (patch, data) {
            (Some(patch), _) => match json::patched(held.map(|held| &held.data), patch) {
                Some(update) => update,
                None => return Some(()),
            },
            (None, Some(data)) => json::replaced(held.map(|held| &held.data), data),
            (None, None) => Update::Keep,
        };
        let metadata = match metadata {
            Some(metadata) => json::merged(held.and_then(|held| held.metadata.as_ref()), metadata),
            None => Update::Keep,
        };
        if matches!((&data, &metadata), (Update::Keep, Update::Keep)) {
            return Some(());
        }
        let owner = own(self.run_mut(run)?.messages.get_mut(message)?);
        let AgentPart::Data(target) = own(owner.parts.get_mut(part)?) else {
            return None;
        };
        if let Update::Set(data) = data {
            target.data = data;
        }
        if let Update::Set(metadata) = metadata {
            target.metadata = Some(metadata);
        }
        self.log(Patch::UpdateData {
            run: run.to_vec(),
            message,
            part,
        });
        Some(())
    }

    /// The run's `agentState` takes an agent-state `snapshot` (an equal one keeps it).
    pub fn set_agent_state(&mut self, run: &RunPath, snapshot: &Json) -> Option<()> {
        let held = self.held(run, |run| run.agent_state.as_ref());
        let update = json::replaced(held, snapshot);
        self.update_agent_state(run, update)
    }

    /// The run's `agentState` takes an agent-state `patch`, all or nothing (a missing one is
    /// patched as `{}`; see `json::patched_state`).
    pub fn patch_agent_state(&mut self, run: &RunPath, patch: &Json) -> Option<()> {
        let held = run_at(&self.session.state, run)?.agent_state.as_ref();
        let (ask, source) = (&mut self.patch_sets_state, self.source);
        let update = json::patched_state(held, patch, || ask(patch, source));
        self.update_agent_state(run, update)
    }

    fn update_agent_state(&mut self, run: &RunPath, update: Update) -> Option<()> {
        match update {
            Update::Keep => return Some(()),
            Update::Set(value) => self.run_mut(run)?.agent_state = Some(value),
            #[cfg(feature = "js-binding")]
            Update::Host => {
                self.run_mut(run)?;
            }
        }
        self.log(Patch::AgentState { run: run.to_vec() });
        Some(())
    }

    /// The run's messages become one per slot (see `Patch::Snapshot`), a given message equal to
    /// the held one keeping it (`json::reconciled`); a snapshot that keeps every held message
    /// changes nothing. The indexes are made again: one walk over the conversation.
    pub fn snapshot(
        &mut self,
        run: &RunPath,
        slots: Vec<Slot>,
        given: &[Rc<AgentMessage>],
    ) -> Option<()> {
        let held = &self.run(run)?.messages;
        let mut messages = Vec::with_capacity(slots.len());
        for &(at, new) in &slots {
            let kept = at.and_then(|at| held.get(at));
            messages.push(match (kept, new.and_then(|new| given.get(new))) {
                (Some(kept), Some(new)) => json::reconciled(kept, new),
                (None, Some(new)) => new.clone(),
                (Some(kept), None) => kept.clone(),
                (None, None) => return None,
            });
        }
        if json::keeps_messages(held, &messages) {
            return Some(());
        }
        self.run_mut(run)?.messages = messages;
        let state = self.session.state.clone();
        *self.session = Session::new(state);
        self.log(Patch::Snapshot {
            run: run.to_vec(),
            slots,
        });
        Some(())
    }

    pub fn call(&self, path: &[CallPos]) -> Option<&ToolPart> {
        call_at(&self.session.state, path)
    }

    /// Cuts the root run where Retry cuts it.
    pub fn truncate(&mut self, cut: Cut) {
        let state = Rc::clone(&self.session.state);
        let messages = &state.messages;
        self.session
            .forget_messages(messages.get(cut.messages..).unwrap_or_default());
        let last = cut
            .messages
            .checked_sub(1)
            .and_then(|last| messages.get(last));
        if let (Some(parts), Some(last)) = (cut.parts, last) {
            self.session
                .forget_parts(last.parts.get(parts..).unwrap_or_default());
        }
        // Let go of the state before changing it, or it would be copied.
        drop(state);
        cut.apply_to(&mut self.root_mut().messages);
        self.forget_open(&|call| call.first().is_some_and(|&pos| !cut.keeps(pos)));
        self.log(Patch::Truncate {
            messages: cut.messages,
            parts: cut.parts,
        });
    }

    pub fn reset(&mut self) {
        self.touched = true;
        *self.session = Session::new(Rc::new(SessionState::empty()));
        self.log(Patch::Reset);
    }

    /// Appends a message to the root's queue.
    pub fn enqueue(&mut self, message: QueuedMessage) {
        self.root_mut().queue.push(message);
        self.log(Patch::Enqueue);
    }

    /// Appends the root's queued messages as user messages, in order, and empties the queue.
    pub fn send_queue(&mut self) {
        let queue = core::mem::take(&mut self.root_mut().queue);
        for queued in &queue {
            let id = queued.id.clone();
            let metadata = queued.metadata.clone();
            let message = user_message(queued.id.clone(), &queued.text, &queued.parts, metadata);
            let messages = &mut self.root_mut().messages;
            messages.push(Rc::new(message));
            let index = messages.len() - 1;
            self.session
                .messages
                .record(&self.session.state, &[], &id, index);
        }
        self.log(Patch::SendQueue);
    }

    /// Removes `queue[index]` of the root.
    pub fn unqueue(&mut self, index: usize) -> Option<()> {
        remove_at(&mut self.root_mut().queue, index)?;
        self.log(Patch::Unqueue { index });
        Some(())
    }

    /// The session becomes `state`, indexed afresh; the edits after this one apply to it.
    pub fn load(&mut self, state: Rc<SessionState>) {
        self.touched = true;
        *self.session = Session::new(state);
        self.log(Patch::Load);
    }

    /// v4: refuses the action: the call at `call` (in the action's messages) breaks `problem`.
    pub fn refuse(&mut self, call: CallPath, problem: &'static str) {
        let leaf = (self.leaves > 0).then_some(self.source);
        self.refused = Some(Refusal {
            leaf,
            call,
            problem,
        });
    }

    /// v4: `messages` (none with an open call; `skipped` and `dropped` say which of the
    /// action's were left out) go before the root's messages, and `forks` before its forks; with
    /// `after_moved` the root's fork at the start now follows the last of `messages`. The
    /// indexes move by the page's length and learn the page: its cost, not the conversation's.
    pub fn prepend(&mut self, messages: Vec<Rc<AgentMessage>>, forks: Vec<Rc<Fork>>, patch: Patch) {
        let count = messages.len();
        let after_moved = matches!(
            patch,
            Patch::Prepend {
                after_moved: true,
                ..
            }
        );
        let last = messages.last().map(|message| message.id.clone());
        let state = self.root_mut();
        in_front(&mut state.messages, messages);
        if let (true, Some(first)) = (after_moved, state.forks.first_mut()) {
            own(first).after = last;
        }
        if !forks.is_empty() {
            in_front(&mut state.forks, forks);
        }
        self.session.learn_prepended(count);
        self.log(patch);
    }

    /// Keeps the first `keep` parts of `messages[message]` of the run: the calls among the
    /// others leave the indexes, open or not, with the runs behind them.
    pub fn cut_parts(&mut self, run: &RunPath, message: usize, keep: usize) -> Option<()> {
        let held = Rc::clone(self.run(run)?.messages.get(message)?);
        self.session
            .forget_parts(held.parts.get(keep..).unwrap_or_default());
        // Let go of the message before changing it, or it would be copied twice.
        drop(held);
        self.forget_open(&|path| {
            path.starts_with(run)
                && path
                    .get(run.len())
                    .is_some_and(|pos| pos.message == message && pos.part >= keep)
        });
        own(self.run_mut(run)?.messages.get_mut(message)?)
            .parts
            .truncate(keep);
        self.log(Patch::CutParts {
            run: run.to_vec(),
            message,
            keep,
        });
        Some(())
    }
}

/// A user message: its text, then the parts sent with it.
pub fn user_message(
    id: String,
    text: &Text,
    parts: &[Rc<AgentPart>],
    metadata: Option<Json>,
) -> AgentMessage {
    let mut all = vec![Rc::new(text_part(text, None))];
    all.extend_from_slice(parts);
    AgentMessage {
        id,
        role: Role::User,
        parts: all,
        metadata,
    }
}

/// v3: the edits of branches (SPEC v3 "Actions": edit, regenerate, switchBranch, retry).
impl Editor<'_> {
    /// Cancels every open call of the root's messages from `message` on (nested ones included),
    /// as `stop` cancels them: a tail is set aside only without open calls.
    pub fn cancel_open_from(&mut self, message: usize) -> Option<()> {
        self.cancel_open_where(&|_, call| {
            call.path.first().is_some_and(|pos| pos.message >= message)
        })
    }

    /// Sets the root's messages after the first `kept` aside, with the forks in them, as the
    /// branch in the live slot of the fork after message `kept - 1` (made when absent), which
    /// gets a new live alternative (see `Patch::SetAside`). Their open calls must be cancelled.
    pub fn set_aside(&mut self, kept: usize) -> Option<()> {
        let state = self.root_mut();
        let after = match kept {
            0 => None,
            _ => Some(state.messages.get(kept - 1)?.id.clone()),
        };
        let forks = forks_before(&state.forks, &state.messages, kept);
        let (branch, trims) = tail_branch(state, kept, forks)?;
        let created = state.forks.last().is_none_or(|fork| fork.after != after);
        // The tail's open calls were cancelled: `open` holds none of it.
        self.session.forget_messages(&branch.messages);
        let forks_list = &mut self.root_mut().forks;
        if created {
            forks_list.push(Rc::new(Fork::new(after, 1, vec![Some(branch), None])));
        } else {
            let fork = own(forks_list.last_mut()?);
            fork.height = fork.height.max(1 + branch.height());
            *fork.alternatives.get_mut(fork.active)? = Some(branch);
            fork.active = fork.alternatives.len();
            fork.alternatives.push(None);
        }
        self.log(Patch::SetAside {
            messages: kept,
            forks,
            created,
            trims,
        });
        Some(())
    }

    /// Makes alternative `to` of the root's fork `fork` the live tail, and the live tail (the
    /// messages from `kept` on, which follow the fork's `after`, with its forks) the branch at
    /// the fork's `active` (see `Patch::SwitchBranch`). Its open calls must be cancelled. The
    /// indexes forget the tail and learn what joined: the path's cost, never the branches'.
    pub fn switch_branch(&mut self, fork: usize, kept: usize, to: usize) -> Option<()> {
        let state = self.root_mut();
        let (left, trims) = tail_branch(state, kept, fork + 1)?;
        let node = own(state.forks.get_mut(fork)?);
        let target = node.alternatives.get_mut(to)?.take()?;
        // Only when the branch that comes out was the deepest can the height go down (never
        // below 1: with no forks in any branch, none is read).
        let deepest = node.height > 1 && target.height() + 1 >= node.height;
        node.height = node.height.max(1 + left.height());
        *node.alternatives.get_mut(node.active)? = Some(Rc::clone(&left));
        node.active = to;
        if deepest {
            node.measure();
        }
        state.messages.extend_from_slice(&target.messages);
        state.forks.extend_from_slice(&target.forks);
        self.session.forget_messages(&left.messages);
        self.session.learn_messages(kept);
        self.log(Patch::SwitchBranch {
            fork,
            messages: kept,
            to,
            trims,
        });
        Some(())
    }

    /// The root's forks become these of them, in this order (see `Patch::KeepForks`).
    pub fn keep_forks(&mut self, kept: Vec<usize>) -> Option<()> {
        let state = self.root_mut();
        let mut forks = Vec::with_capacity(kept.len());
        for &index in &kept {
            forks.push(state.forks.get(index)?.clone());
        }
        state.forks = forks;
        self.log(Patch::KeepForks { forks: kept });
        Some(())
    }
}

/// The root's messages from `kept` on and its forks from `forks` on, taken out as a branch, the
/// forks trimmed to go one level down (`trim_to`), and what was trimmed (`Patch::SetAside`).
fn tail_branch(
    state: &mut SessionState,
    kept: usize,
    forks: usize,
) -> Option<(Rc<Branch>, Vec<usize>)> {
    let messages = split_tail(&mut state.messages, kept)?;
    let mut forks = split_tail(&mut state.forks, forks)?;
    let mut trims = vec![0];
    for (index, fork) in forks.iter_mut().enumerate() {
        // At depth 1 its branches went down to its height; one level down, one deeper.
        if fork.height >= MAX_BRANCH_NESTING {
            count_up(&mut trims, 0);
            trims.push(index);
            trim_to(fork, MAX_BRANCH_NESTING - 1, &mut trims);
        }
    }
    Some((Rc::new(Branch { messages, forks }), trims))
}

/// SPEC v3, the nesting limit: lowers a fork's height to `budget` (at least 1) by dropping,
/// in the branches below it, the forks whose branches would nest deeper, and only those (their
/// other alternatives are lost). Only the branches as deep as the limit are visited (the
/// cached heights say which), at most `MAX_BRANCH_NESTING` levels. Logs what it changed, for
/// the host: the number of branches changed, then for each its index, the number of its forks
/// changed, and for each its index then 0 (dropped) or 1 and the same for it.
fn trim_to(fork: &mut Rc<Fork>, budget: usize, log: &mut Vec<usize>) {
    let node = own(fork);
    let changed = log.len();
    log.push(0);
    for (at, alternative) in node.alternatives.iter_mut().enumerate() {
        let Some(branch) = alternative
            .as_mut()
            .filter(|branch| branch.height() >= budget)
        else {
            continue;
        };
        count_up(log, changed);
        log.push(at);
        let count = log.len();
        log.push(0);
        let branch = own(branch);
        for (index, inner) in branch.forks.iter_mut().enumerate() {
            if inner.height >= budget {
                count_up(log, count);
                log.push(index);
                log.push(usize::from(budget > 1));
                if budget > 1 {
                    trim_to(inner, budget - 1, log);
                }
            }
        }
        if budget == 1 {
            branch.forks.clear();
        }
    }
    node.measure();
}

/// Adds one to the count at `at` of a trim log (no index panic, whose message formatting the
/// wasm would carry).
fn count_up(log: &mut [usize], at: usize) {
    if let Some(count) = log.get_mut(at) {
        *count += 1;
    }
}

/// `list` with `front` before its items (`splice` would bring its drop guard's code into the wasm).
fn in_front<T>(list: &mut Vec<T>, mut front: Vec<T>) {
    front.append(list);
    *list = front;
}

/// Takes the items of `list` from `at` on (checked first, so `split_off`'s panic, whose message
/// formatting the wasm would carry, is left out).
fn split_tail<T>(list: &mut Vec<T>, at: usize) -> Option<Vec<T>> {
    (at <= list.len()).then(|| list.split_off(at))
}

/// How many of `forks` (in path order) come before the first whose `after` is in `messages`
/// from `kept` on (an `after` names the first message with its id). The `after`s follow the
/// path's order: one walk over the messages finds them all.
pub fn forks_before(forks: &[Rc<Fork>], messages: &[Rc<AgentMessage>], kept: usize) -> usize {
    let mut from = 0;
    for (index, fork) in forks.iter().enumerate() {
        let Some(id) = &fork.after else { continue };
        let rest = messages.get(from..).unwrap_or_default();
        if let Some(offset) = rest.iter().position(|message| message.id == *id) {
            if from + offset >= kept {
                return index;
            }
            from += offset + 1;
        }
    }
    forks.len()
}

/// Whether the message before `kept` repeats the id of an earlier one: a fork after it would
/// name that earlier one (path ids are unique by the SPEC; a state that breaks it keeps its
/// forks unambiguous this way).
pub fn repeats_an_id(messages: &[Rc<AgentMessage>], kept: usize) -> bool {
    let Some(last) = kept.checked_sub(1).and_then(|last| messages.get(last)) else {
        return false;
    };
    messages
        .get(..kept - 1)
        .unwrap_or_default()
        .iter()
        .any(|message| message.id == last.id)
}

/// The text of a part a delta appends to (text or reasoning); `None` for another part.
fn streamed_text(part: &AgentPart) -> Option<&Text> {
    match part {
        AgentPart::Text(TextPart { text, .. })
        | AgentPart::Reasoning(ReasoningPart { text, .. }) => Some(text),
        AgentPart::Tool(_) | AgentPart::Data(_) | AgentPart::Step => None,
    }
}

pub fn text_part(text: &Text, metadata: Option<&Json>) -> AgentPart {
    AgentPart::Text(TextPart {
        text: text.clone(),
        metadata: metadata.cloned(),
    })
}

/// The metadata of a message (`part` `None`) or of its part `part`.
fn metadata_of(message: &AgentMessage, part: Option<usize>) -> Option<&Option<Json>> {
    Some(match part {
        None => &message.metadata,
        Some(part) => match message.parts.get(part)?.as_ref() {
            AgentPart::Text(TextPart { metadata, .. })
            | AgentPart::Reasoning(ReasoningPart { metadata, .. })
            | AgentPart::Tool(ToolPart { metadata, .. })
            | AgentPart::Data(DataPart { metadata, .. }) => metadata,
            AgentPart::Step => return None,
        },
    })
}

fn metadata_of_mut(message: &mut AgentMessage, part: Option<usize>) -> Option<&mut Option<Json>> {
    Some(match part {
        None => &mut message.metadata,
        Some(part) => match own(message.parts.get_mut(part)?) {
            AgentPart::Text(TextPart { metadata, .. })
            | AgentPart::Reasoning(ReasoningPart { metadata, .. })
            | AgentPart::Tool(ToolPart { metadata, .. })
            | AgentPart::Data(DataPart { metadata, .. }) => metadata,
            AgentPart::Step => return None,
        },
    })
}

pub fn reasoning_part(text: &Text, metadata: Option<&Json>) -> AgentPart {
    AgentPart::Reasoning(ReasoningPart {
        text: text.clone(),
        metadata: metadata.cloned(),
    })
}
