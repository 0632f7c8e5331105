//! Finding the open call a part is about, through the open-call index: the cost is the number
//! of open calls, never the size of the conversation.

use super::edit::Editor;
use super::model::ToolState;
use super::path::{CallPath, RunPath};
use super::session::OpenCall;

/// The open calls in the run and the runs nested in it, in document order.
pub fn open_below<'e>(
    editor: &'e Editor,
    run: &'e RunPath,
) -> impl DoubleEndedIterator<Item = &'e OpenCall> + 'e {
    editor
        .session
        .open
        .iter()
        .filter(move |call| call.path.len() > run.len() && call.path.starts_with(run))
}

/// The open call with this id in the run or the runs nested in it.
pub fn open_call_below(editor: &Editor, run: &RunPath, id: &str) -> Option<CallPath> {
    open_below(editor, run)
        .find(|call| call.id == id)
        .map(|call| call.path.clone())
}

/// The `input-streaming` call with this id in the run or the runs nested in it.
pub fn input_streaming_below(editor: &Editor, run: &RunPath, id: &str) -> Option<CallPath> {
    open_call_below(editor, run, id).filter(|path| !input_complete(editor, path))
}

/// Whether the call's input is complete (it is not `input-streaming`).
pub fn input_complete(editor: &Editor, path: &CallPath) -> bool {
    editor
        .call(path)
        .is_some_and(|call| call.state != ToolState::InputStreaming)
}

/// The newest open call of this tool name in the run or the runs nested in it whose input is
/// complete (`toolPhase` and `tool-approval-request` never pick an `input-streaming` call).
pub fn newest_named(editor: &Editor, run: &RunPath, name: &str) -> Option<CallPath> {
    open_below(editor, run)
        .rev()
        .find(|call| call.name == name && input_complete(editor, &call.path))
        .map(|call| call.path.clone())
}
