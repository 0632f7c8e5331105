//! The edits a reducer step makes. Each one changes the session in place (copying only the
//! nodes on its path that are shared with another state) and logs the matching `Patch`, so
//! the Rust state and the host's objects change in the same way.

use std::rc::Rc;

use super::model::{
    AgentMessage, AgentPart, ReasoningPart, Role, SessionError, SessionState, SessionStatus, Text,
    TextPart, ToolError, ToolPart, ToolState,
};
use super::patch::{CallChange, NewMessage, NewPart, Patch};
use super::path::{call_at, call_at_mut, run_at, run_at_mut, CallPath, CallPos, RunPath};
use super::resumable::Cut;
use super::session::{OpenCall, Session};

pub struct Editor<'a> {
    pub session: &'a mut Session,
    pub patches: Vec<Patch>,
    /// Whether the session was touched: with no patches, it must not have been.
    pub touched: bool,
}

/// What a `SetCall` edit writes besides the state.
pub enum CallUpdate<'a> {
    Phase { prompt: Option<&'a str> },
    Result { output: &'a serde_json::Value },
    Error { error: &'a ToolError },
    Cancel,
}

impl<'a> Editor<'a> {
    pub fn new(session: &'a mut Session) -> Self {
        Editor {
            session,
            patches: Vec::new(),
            touched: false,
        }
    }

    fn root_mut(&mut self) -> &mut SessionState {
        self.touched = true;
        Rc::make_mut(&mut self.session.state)
    }

    fn open_mut(&mut self) -> &mut Vec<OpenCall> {
        self.touched = true;
        Rc::make_mut(&mut self.session.open)
    }

    pub fn state(&self) -> &SessionState {
        &self.session.state
    }

    pub fn run(&self, run: &RunPath) -> Option<&SessionState> {
        run_at(&self.session.state, run)
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
            },
        };
        let id = message.id.clone();
        let messages = &mut self.run_mut(run)?.messages;
        messages.push(Rc::new(message));
        let index = messages.len() - 1;
        self.session.messages.record(run, &id, index);
        self.patches.push(Patch::PushMessage {
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
            AgentPart::Tool(_) => NewPart::Tool,
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
        let parts = &mut Rc::make_mut(self.run_mut(run)?.messages.get_mut(message)?).parts;
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
            open.insert(
                at,
                OpenCall {
                    path: path.clone(),
                    id,
                    name,
                },
            );
        }
        let _ = path.pop();
        self.patches.push(Patch::PushPart {
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
        if let AgentPart::Text(TextPart { text: current }) = current.as_ref() {
            if current.unchanged_by(text) {
                self.patches.push(Patch::AppendText {
                    run: run.to_vec(),
                    message,
                    part,
                });
                return Some(());
            }
        }
        let message_node = Rc::make_mut(self.run_mut(run)?.messages.get_mut(message)?);
        match Rc::make_mut(message_node.parts.get_mut(part)?) {
            AgentPart::Text(TextPart { text: accumulated }) => accumulated.push(text),
            _ => return None,
        }
        self.patches.push(Patch::AppendText {
            run: run.to_vec(),
            message,
            part,
        });
        Some(())
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
        self.patches.push(Patch::SetStatus {
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
        let change = match update {
            CallUpdate::Phase { prompt } => {
                call.prompt = prompt.map(str::to_owned);
                CallChange::Phase
            }
            CallUpdate::Result { output } => {
                call.output = Some(output.clone());
                call.prompt = None;
                CallChange::Result
            }
            CallUpdate::Error { error } => {
                call.error = Some(error.clone());
                call.prompt = None;
                CallChange::Error
            }
            CallUpdate::Cancel => CallChange::Cancel,
        };
        self.patches.push(Patch::SetCall {
            call: path.clone(),
            state,
            change,
        });
        if !state.is_open() {
            let open = self.open_mut();
            open.retain(|call| call.path != *path);
            let streaming = self
                .call(path)?
                .agent
                .as_ref()
                .is_some_and(|agent| agent.status == SessionStatus::Streaming);
            if streaming {
                self.set_status(path, SessionStatus::Idle, None)?;
                self.cancel_open(path)?;
            }
        }
        Some(())
    }

    /// Cancels every open call in `run` and the runs nested in it (never the call that holds
    /// `run`, which belongs to the run above).
    pub fn cancel_open(&mut self, run: &RunPath) -> Option<()> {
        let below = |call: &&OpenCall| call.path.len() > run.len() && call.path.starts_with(run);
        while let Some(open) = self.session.open.iter().find(below) {
            let path = open.path.clone();
            self.set_call(&path, ToolState::Cancelled, CallUpdate::Cancel)?;
        }
        Some(())
    }

    pub fn start_agent(&mut self, path: &CallPath) -> Option<()> {
        let call = call_at_mut(self.root_mut(), path)?;
        call.agent = Some(Rc::new(SessionState {
            messages: Vec::new(),
            status: SessionStatus::Streaming,
            error: None,
        }));
        self.patches.push(Patch::StartAgent { call: path.clone() });
        Some(())
    }

    /// Takes back a `start_agent` that turned out to be the step's only edit: the session is
    /// then as it was.
    pub fn undo_start_agent(&mut self, path: &CallPath) -> Option<()> {
        if self.patches != [Patch::StartAgent { call: path.clone() }] {
            return None;
        }
        call_at_mut(self.root_mut(), path)?.agent = None;
        self.patches.clear();
        self.touched = false;
        Some(())
    }

    pub fn call(&self, path: &[CallPos]) -> Option<&ToolPart> {
        call_at(&self.session.state, path)
    }

    /// Cuts the root run where Retry cuts it.
    pub fn truncate(&mut self, cut: Cut) {
        cut.apply_to(&mut self.root_mut().messages);
        self.open_mut()
            .retain(|call| call.path.first().is_some_and(|&pos| cut.keeps(pos)));
        self.patches.push(Patch::Truncate {
            messages: cut.messages,
            parts: cut.parts,
        });
    }

    pub fn reset(&mut self) {
        self.touched = true;
        *self.session = Session::new(Rc::new(SessionState::empty()));
        self.patches.push(Patch::Reset);
    }
}

pub fn text_part(text: &Text) -> AgentPart {
    AgentPart::Text(TextPart { text: text.clone() })
}

pub fn reasoning_part(text: &Text, metadata: Option<&serde_json::Value>) -> AgentPart {
    AgentPart::Reasoning(ReasoningPart {
        text: text.clone(),
        metadata: metadata.cloned(),
    })
}
