//! SPEC "Bad input" for Rust values: the rules of the package's reader (src/wasm/read.js) that
//! the types do not already enforce, with the reader's paths and messages. The npm package
//! checks JavaScript values with its reader and never calls this; a Rust program's actions and
//! states are checked here by `session_reducer` and `reduce`. Nesting is checked before each
//! descent, so no input can overflow the stack.

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::{format, string::String};

use super::model::{
    AgentMessage, AgentPart, AgentStreamPart, Fork, Json, SessionAction, SessionState,
    SessionStatus,
};
use super::protocol::{
    ACTIVE_IN_RANGE, AFTER_IN_BRANCH, AFTER_IN_PAGE, AFTER_ON_PATH, BATCHES_NEST_DEEPER,
    BRANCHES_NEST_DEEPER, DATA_OR_PATCH, ERROR_ONLY_IN_ERROR, ERROR_REQUIRED, FORKS_IN_ORDER,
    LIVE_ALTERNATIVE, MAX_BATCH_NESTING, MAX_BRANCH_NESTING, MAX_NESTING, OPEN_CALL_IN_BRANCH,
    OPEN_CALL_IN_HISTORY, REQUIRED_WITHOUT, REQUIRED_WITH_PATCH, RUNS_NEST_DEEPER,
    SET_ASIDE_ALTERNATIVE, SNAPSHOT_OR_PATCH, TOP_LEVEL_ONLY, TWO_ALTERNATIVES, USER_PART_TYPES,
};
use crate::Error;

/// Checks an action (`action…` paths), its `load` state, `snapshot` messages and `prepend`
/// page included.
pub fn check_action(action: &SessionAction) -> Result<(), Error> {
    action_at(action, "action", 0)
}

/// Checks a state (`state…` paths): sub-agent runs and branches within the nesting limits,
/// `error` exactly when `status` is `"error"`, forks that name messages of their path in order
/// with a branch at every index but `active`, no open call in a branch, forks and a queue only
/// at the top.
pub fn check_state(state: &SessionState) -> Result<(), Error> {
    state_at(state, "state", 0, None)
}

fn invalid(path: &str, key: &str, problem: impl Into<String>) -> Error {
    Error::invalid(format!("{path}.{key}"), problem)
}

fn action_at(action: &SessionAction, path: &str, batch_depth: usize) -> Result<(), Error> {
    match action {
        SessionAction::Send { parts, .. } => user_parts(parts, path, "parts"),
        SessionAction::Load { state } => state_at(state, &format!("{path}.state"), 0, None),
        SessionAction::Prepend { messages, forks } => {
            let history = Some(OPEN_CALL_IN_HISTORY);
            message_list(messages, &format!("{path}.messages"), 0, history)?;
            fork_list(forks, path, messages, 1, AFTER_IN_PAGE)
        }
        SessionAction::Part { part, .. } => stream_part(part, &format!("{path}.part")),
        SessionAction::Batch { actions } => {
            let path = format!("{path}.actions");
            if batch_depth + 1 > MAX_BATCH_NESTING {
                return Err(Error::invalid(
                    path,
                    format!("{BATCHES_NEST_DEEPER} {MAX_BATCH_NESTING}"),
                ));
            }
            for (index, action) in actions.iter().enumerate() {
                action_at(action, &format!("{path}[{index}]"), batch_depth + 1)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn stream_part(part: &AgentStreamPart, path: &str) -> Result<(), Error> {
    match part {
        AgentStreamPart::ToolApprovalRequest { id, name, .. } if id.is_none() && name.is_none() => {
            Err(invalid(path, "id", format!("{REQUIRED_WITHOUT} name")))
        }
        AgentStreamPart::ToolApprovalResponse {
            id, approval_id, ..
        } if id.is_none() && approval_id.is_none() => Err(invalid(
            path,
            "id",
            format!("{REQUIRED_WITHOUT} approvalId"),
        )),
        AgentStreamPart::Data {
            id, data, patch, ..
        } => {
            json_patch(patch.as_ref(), path)?;
            if data.is_some() == patch.is_some() {
                return Err(Error::invalid(path, DATA_OR_PATCH));
            }
            if patch.is_some() && id.is_none() {
                return Err(invalid(path, "id", REQUIRED_WITH_PATCH));
            }
            Ok(())
        }
        AgentStreamPart::AgentState { snapshot, patch } => {
            json_patch(patch.as_ref(), path)?;
            if snapshot.is_some() == patch.is_some() {
                return Err(Error::invalid(path, SNAPSHOT_OR_PATCH));
            }
            Ok(())
        }
        AgentStreamPart::Snapshot { messages, .. } => {
            message_list(messages, &format!("{path}.messages"), 0, None)
        }
        _ => Ok(()),
    }
}

/// A `patch` field: an RFC 6902 JSON Patch (`json::patch_problem`, as `patchProblem` in
/// src/wasm/json.js). With `js-binding` the host holds the patch and checks it.
fn json_patch(patch: Option<&Json>, path: &str) -> Result<(), Error> {
    #[cfg(not(feature = "js-binding"))]
    if let Some((below, problem)) = patch.and_then(super::json::patch_problem) {
        return Err(Error::invalid(format!("{path}.patch{below}"), problem));
    }
    let _ = (patch, path);
    Ok(())
}

/// `send`'s and a queued message's parts: text and data parts only.
fn user_parts(parts: &[Rc<AgentPart>], path: &str, key: &str) -> Result<(), Error> {
    for (index, part) in parts.iter().enumerate() {
        if !matches!(**part, AgentPart::Text(_) | AgentPart::Data(_)) {
            return Err(Error::invalid(
                format!("{path}.{key}[{index}].type"),
                USER_PART_TYPES,
            ));
        }
    }
    Ok(())
}

/// `closed`: the problem a call open in these messages is (a branch's, older history), if any.
fn state_at(
    state: &SessionState,
    path: &str,
    depth: usize,
    closed: Option<&str>,
) -> Result<(), Error> {
    if depth > MAX_NESTING {
        return Err(Error::invalid(
            path,
            format!("{RUNS_NEST_DEEPER} {MAX_NESTING}"),
        ));
    }
    message_list(&state.messages, &format!("{path}.messages"), depth, closed)?;
    match (state.status, &state.error) {
        (SessionStatus::Error, None) => return Err(invalid(path, "error", ERROR_REQUIRED)),
        (SessionStatus::Idle | SessionStatus::Streaming, Some(_)) => {
            return Err(invalid(path, "error", ERROR_ONLY_IN_ERROR))
        }
        _ => {}
    }
    if depth > 0 && !state.forks.is_empty() {
        return Err(invalid(path, "forks", TOP_LEVEL_ONLY));
    }
    fork_list(&state.forks, path, &state.messages, 1, AFTER_ON_PATH)?;
    if depth > 0 && !state.queue.is_empty() {
        return Err(invalid(path, "queue", TOP_LEVEL_ONLY));
    }
    for (index, queued) in state.queue.iter().enumerate() {
        user_parts(&queued.parts, &format!("{path}.queue[{index}]"), "parts")?;
    }
    Ok(())
}

fn message_list(
    messages: &[Rc<AgentMessage>],
    path: &str,
    depth: usize,
    closed: Option<&str>,
) -> Result<(), Error> {
    for (index, message) in messages.iter().enumerate() {
        for (at, part) in message.parts.iter().enumerate() {
            let AgentPart::Tool(call) = &**part else {
                continue;
            };
            let part_path = || format!("{path}[{index}].parts[{at}]");
            if let Some(problem) = closed.filter(|_| call.state.is_open()) {
                return Err(invalid(&part_path(), "state", problem));
            }
            if let Some(agent) = &call.agent {
                state_at(agent, &format!("{}.agent", part_path()), depth + 1, closed)?;
            }
        }
    }
    Ok(())
}

/// v3: the forks on `messages` (the path's, a branch's, or v4 a prepended page's), holding
/// branches at `depth`; `on_path` is the problem of a top-level `after` naming none of them.
fn fork_list(
    forks: &[Rc<Fork>],
    path: &str,
    messages: &[Rc<AgentMessage>],
    depth: usize,
    on_path: &'static str,
) -> Result<(), Error> {
    if forks.is_empty() {
        return Ok(());
    }
    if depth > MAX_BRANCH_NESTING {
        return Err(invalid(
            path,
            "forks",
            format!("{BRANCHES_NEST_DEEPER} {MAX_BRANCH_NESTING}"),
        ));
    }
    // Where each message is by id (the first with it, as a fork's `after` names it).
    let mut positions: BTreeMap<&str, usize> = BTreeMap::new();
    for (index, message) in messages.iter().enumerate().rev() {
        positions.insert(&message.id, index);
    }
    // Where the previous fork's `after` is: -1 for none (the start), -2 before the first fork.
    let mut last: isize = -2;
    for (index, fork) in forks.iter().enumerate() {
        last = fork_at(
            fork,
            &format!("{path}.forks[{index}]"),
            &positions,
            last,
            (depth, on_path),
        )?;
    }
    Ok(())
}

fn fork_at(
    fork: &Fork,
    path: &str,
    positions: &BTreeMap<&str, usize>,
    last: isize,
    (depth, on_path): (usize, &'static str),
) -> Result<isize, Error> {
    let at = match &fork.after {
        None if depth == 1 => -1,
        None => return Err(invalid(path, "after", "expected a string")),
        Some(after) => match positions.get(after.as_str()) {
            Some(&at) => at as isize,
            None => {
                let problem = if depth == 1 { on_path } else { AFTER_IN_BRANCH };
                return Err(invalid(path, "after", problem));
            }
        },
    };
    if at <= last {
        return Err(invalid(path, "after", FORKS_IN_ORDER));
    }
    for (index, alternative) in fork.alternatives.iter().enumerate() {
        let item = format!("{path}.alternatives[{index}]");
        match alternative {
            Some(_) if index == fork.active => return Err(Error::invalid(item, LIVE_ALTERNATIVE)),
            None if index != fork.active => {
                return Err(Error::invalid(item, SET_ASIDE_ALTERNATIVE))
            }
            None => {}
            Some(branch) => {
                let messages = &branch.messages;
                let in_branch = Some(OPEN_CALL_IN_BRANCH);
                message_list(messages, &format!("{item}.messages"), 0, in_branch)?;
                fork_list(&branch.forks, &item, messages, depth + 1, AFTER_IN_BRANCH)?;
            }
        }
    }
    if fork.alternatives.len() < 2 {
        return Err(invalid(path, "alternatives", TWO_ALTERNATIVES));
    }
    if fork.active >= fork.alternatives.len() {
        return Err(invalid(path, "active", ACTIVE_IN_RANGE));
    }
    Ok(at)
}
