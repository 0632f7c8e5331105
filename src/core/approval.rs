//! SPEC v2 `tool-approval-request` and `tool-approval-response`: the question a call asks and
//! its answer, kept on the call as `approval`.

use super::edit::{CallUpdate, Editor};
use super::find::{input_complete, newest_named, open_below, open_call_below};
use super::model::{Approval, Json, ToolPart, ToolState};
use super::path::RunPath;
use alloc::borrow::ToOwned;

/// What a `tool-approval-request` asks.
pub struct Question<'a> {
    pub approval_id: Option<&'a str>,
    pub prompt: Option<&'a str>,
    pub automatic: Option<bool>,
    pub details: Option<&'a Json>,
}

/// What a `tool-approval-response` answers.
pub struct Answer<'a> {
    pub approved: bool,
    pub reason: Option<&'a str>,
    pub input: Option<&'a Json>,
    pub output: Option<&'a Json>,
}

/// The call (by `id`, else the newest of that `name`, in the run or below it, its input
/// complete) waits for confirmation with the question. No such call: nothing happens.
pub fn ask(
    editor: &mut Editor,
    run: &RunPath,
    id: Option<&str>,
    name: Option<&str>,
    question: Question,
) -> Option<()> {
    let path = match (id, name) {
        (Some(id), _) => {
            open_call_below(editor, run, id).filter(|path| input_complete(editor, path))
        }
        (None, Some(name)) => newest_named(editor, run, name),
        (None, None) => None,
    };
    let Some(path) = path else { return Some(()) };
    let call = editor.call(&path)?;
    let approval = Approval {
        id: question.approval_id.unwrap_or(&call.id).to_owned(),
        automatic: question.automatic,
        details: question.details.cloned(),
        approved: None,
        reason: None,
    };
    // Details are never compared (as in the package, whose host holds them): given ones always
    // count as a change.
    let unchanged = call.state == ToolState::AwaitingConfirmation
        && call.prompt.as_deref() == question.prompt
        && question.details.is_none()
        && approval_is(call, &approval);
    if unchanged {
        return Some(());
    }
    let update = CallUpdate::ApprovalAsked {
        prompt: question.prompt,
        approval,
    };
    editor.set_call(&path, ToolState::AwaitingConfirmation, update)
}

/// The open call (by `id`, else by its approval's id, in the run or below it) gets the answer:
/// approved, it runs, or is `done` when the answer is its output; refused, it is an `error`
/// with code `denied`. No such call: nothing happens.
pub fn answer(
    editor: &mut Editor,
    run: &RunPath,
    id: Option<&str>,
    approval_id: Option<&str>,
    answer: Answer,
) -> Option<()> {
    let path = match (id, approval_id) {
        (Some(id), _) => open_call_below(editor, run, id),
        (None, Some(approval_id)) => open_below(editor, run)
            .find(|open| {
                editor
                    .call(&open.path)
                    .and_then(|call| call.approval.as_ref())
                    .is_some_and(|approval| approval.id == approval_id)
            })
            .map(|open| open.path.clone()),
        (None, None) => None,
    };
    let Some(path) = path else { return Some(()) };
    let call = editor.call(&path)?;
    let mut approval = call
        .approval
        .as_deref()
        .cloned()
        .unwrap_or_else(|| Approval {
            id: call.id.clone(),
            automatic: None,
            details: None,
            approved: None,
            reason: None,
        });
    approval.approved = Some(answer.approved);
    approval.reason = answer.reason.map(str::to_owned);
    if !answer.approved {
        return editor.set_call(&path, ToolState::Error, CallUpdate::Denied { approval });
    }
    let state = match answer.output {
        Some(_) => ToolState::Done,
        None => ToolState::Running,
    };
    // Input and output are opaque: given ones always count as a change.
    let unchanged = call.state == state
        && call.prompt.is_none()
        && answer.input.is_none()
        && answer.output.is_none()
        && approval_is(call, &approval);
    if unchanged {
        return Some(());
    }
    let update = CallUpdate::Approved {
        approval,
        input: answer.input,
        output: answer.output,
    };
    editor.set_call(&path, state, update)
}

/// Whether the call's approval is `approval`, whose details are absent or the call's own:
/// details are opaque and never compared (nor is the code to compare JSON built in).
fn approval_is(call: &ToolPart, approval: &Approval) -> bool {
    call.approval.as_ref().is_some_and(|held| {
        held.id == approval.id
            && held.automatic == approval.automatic
            && held.approved == approval.approved
            && held.reason == approval.reason
            && held.details.is_some() == approval.details.is_some()
    })
}
