//! The operations on the JSON values a state holds (`metadata`, `data`, `agentState`, a
//! snapshot's messages): metadata merging (SPEC "any part's metadata"), JSON Patch (`data` and
//! `agent-state` with `patch`) and equality as JSON (`snapshot`, and a replacing value equal to
//! the held one). Each says what an edit does to the value it holds, and says `Keep` when the
//! value stays, so that the reducer returns the same state when nothing changes.
//!
//! The complete core (the default) holds the values and does the work here, as the package's
//! JavaScript does (src/wasm/json.js). With the `js-binding` feature the values are the host's
//! (`Json` is a placeholder): the edits are logged and the host, which holds the values, finds out
//! whether they change anything.

use super::model::Json;

/// What an operation on a held JSON value does to it.
#[derive(Debug)]
pub enum Update {
    /// The value stays as it is.
    Keep,
    /// The value becomes this one.
    Set(Json),
    /// The host holds the values and finds out: the edit is logged, the value here stays.
    #[cfg(feature = "js-binding")]
    Host,
}

/// Whether the host holds the values and decides what an edit of one changes (`js-binding`).
pub const HOST_DECIDES: bool = cfg!(feature = "js-binding");

#[cfg(not(feature = "js-binding"))]
pub use owned::{
    keeps_messages, merged, patch_problem, patched, patched_state, reconciled, replaced,
};

#[cfg(not(any(feature = "js-binding", feature = "json-patch")))]
compile_error!("the core applies JSON Patch with the `json-patch` feature (a default one)");

#[cfg(feature = "js-binding")]
pub use held::{keeps_messages, merged, patched, patched_state, reconciled, replaced};

#[cfg(not(feature = "js-binding"))]
mod owned {
    use alloc::rc::Rc;

    use json_patch::PatchOperation;
    use serde::Deserialize;
    use serde_json::{Map, Value};

    use super::Update;
    use crate::core::model::{AgentMessage, Json};

    /// Equality as JSON, as `jsonEqual` in src/wasm/json.js: numbers by value (`1` equals
    /// `1.0`, as in JavaScript), objects whatever the order of their keys.
    pub fn json_equal(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
            (Value::Array(a), Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(a, b)| json_equal(a, b))
            }
            (Value::Object(a), Value::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(key, a)| b.get(key).is_some_and(|b| json_equal(a, b)))
            }
            _ => a == b,
        }
    }

    /// `held` with `incoming` merged in (SPEC "any part's metadata"): plain objects key by key,
    /// recursively; any other value replaces, and an equal one keeps the held value.
    pub fn merged(held: Option<&Json>, incoming: &Json) -> Update {
        match held {
            None => Update::Set(incoming.clone()),
            Some(held) => merge(held, incoming).map_or(Update::Keep, Update::Set),
        }
    }

    /// The merge of `incoming` into `held`, or `None` when it is `held` itself.
    fn merge(held: &Value, incoming: &Value) -> Option<Value> {
        let (Value::Object(held_map), Value::Object(incoming_map)) = (held, incoming) else {
            return (!json_equal(held, incoming)).then(|| incoming.clone());
        };
        let mut merged: Option<Map<String, Value>> = None;
        for (key, value) in incoming_map {
            let value = match held_map.get(key) {
                Some(held_value) => match merge(held_value, value) {
                    Some(value) => value,
                    None => continue,
                },
                None => value.clone(),
            };
            merged
                .get_or_insert_with(|| held_map.clone())
                .insert(key.clone(), value);
        }
        merged.map(Value::Object)
    }

    /// A value given in place of the held one (`data`, an agent-state `snapshot`): the held one
    /// stays when they are equal as JSON.
    pub fn replaced(held: Option<&Json>, given: &Json) -> Update {
        match held {
            Some(held) if json_equal(held, given) => Update::Keep,
            _ => Update::Set(given.clone()),
        }
    }

    /// `held` with the RFC 6902 `patch` applied, all or nothing: `None` when it does not apply
    /// (a failed `test`, a missing path, a malformed patch), `Keep` when the result is `held`
    /// itself, as `applyJsonPatch` in src/wasm/json.js decides it: every operation leaves the
    /// value where it is (a `test`, a `move` onto itself, a `copy` of the whole value onto
    /// itself), or the result is a scalar equal to `held` (JavaScript's `===`).
    pub fn patched(held: Option<&Json>, patch: &Json) -> Option<Update> {
        let (held, operations) = (held?, operations(patch)?);
        let mut next = held.clone();
        for operation in &operations {
            match operation {
                // `test` compares as JSON: json-patch's own compares numbers by representation.
                PatchOperation::Test(test) => {
                    let at = next.pointer(test.path.as_str())?;
                    if !json_equal(at, &test.value) {
                        return None;
                    }
                }
                _ => json_patch::patch_unsafe(&mut next, core::slice::from_ref(operation)).ok()?,
            }
        }
        let scalar = !matches!(next, Value::Array(_) | Value::Object(_));
        let same = operations.iter().all(leaves_in_place) || scalar && json_equal(&next, held);
        Some(if same {
            Update::Keep
        } else {
            Update::Set(next)
        })
    }

    /// Whether the operation leaves the value it applies to where it is, copying nothing.
    fn leaves_in_place(operation: &PatchOperation) -> bool {
        match operation {
            PatchOperation::Test(_) => true,
            PatchOperation::Move(op) => op.from == op.path,
            PatchOperation::Copy(op) => op.from.is_root() && op.path.is_root(),
            _ => false,
        }
    }

    /// The operations of a patch, or `None` when it is not one (`patch_problem`).
    fn operations(patch: &Json) -> Option<Vec<PatchOperation>> {
        if patch_problem(patch).is_some() {
            return None;
        }
        patch
            .as_array()?
            .iter()
            .map(|operation| PatchOperation::deserialize(operation).ok())
            .collect()
    }

    const OPERATIONS: [&str; 6] = ["add", "remove", "replace", "move", "copy", "test"];

    /// What is wrong with a patch, as (the path below the patch, the problem), or `None`: as
    /// `patchProblem` in src/wasm/json.js. An `add`, `replace` or `test` needs its `value`
    /// (which serde would otherwise read as `null`).
    pub fn patch_problem(patch: &Json) -> Option<(String, String)> {
        let Some(operations) = patch.as_array() else {
            return Some((
                String::new(),
                "expected an array of JSON Patch operations".into(),
            ));
        };
        const POINTER: &str = "expected a JSON Pointer (\"\" or starting with \"/\")";
        for (index, operation) in operations.iter().enumerate() {
            let at = |key: &str, problem: &str| Some((format!("[{index}]{key}"), problem.into()));
            let Some(fields) = operation.as_object() else {
                return at("", "expected an object");
            };
            let op = fields.get("op").and_then(Value::as_str).unwrap_or("");
            if !OPERATIONS.contains(&op) {
                let names: Vec<String> = OPERATIONS
                    .iter()
                    .map(|name| format!("\"{name}\""))
                    .collect();
                return at(".op", &format!("expected one of {}", names.join(", ")));
            }
            if !is_pointer(fields.get("path")) {
                return at(".path", POINTER);
            }
            if matches!(op, "move" | "copy") && !is_pointer(fields.get("from")) {
                return at(".from", POINTER);
            }
            if matches!(op, "add" | "replace" | "test") && !fields.contains_key("value") {
                return at(".value", "expected a JSON value");
            }
        }
        None
    }

    /// A JSON Pointer (RFC 6901): `""`, or starting with `/`, each `~` escaping `0` or `1`.
    fn is_pointer(value: Option<&Value>) -> bool {
        let Some(pointer) = value.and_then(Value::as_str) else {
            return false;
        };
        let escapes_ok = pointer
            .split('~')
            .skip(1)
            .all(|after| after.starts_with('0') || after.starts_with('1'));
        (pointer.is_empty() || pointer.starts_with('/')) && escapes_ok
    }

    /// An agent-state `patch` applied to the run's `agentState`, `{}` when it has none: a patch
    /// that does not apply, or gives the value itself, keeps it (and so does not create one).
    pub fn patched_state(
        held: Option<&Json>,
        patch: &Json,
        _host_says: impl FnOnce() -> Option<bool>,
    ) -> Update {
        let empty = Value::Object(Map::new());
        match patched(Some(held.unwrap_or(&empty)), patch) {
            Some(Update::Set(next)) => Update::Set(next),
            _ => Update::Keep,
        }
    }

    /// Whether two messages, or two parts, are equal as JSON: as the derived `==` but for
    /// numbers, which `json_equal` compares by value, so only unequal ones are compared again.
    fn equal_as_json<T: PartialEq + serde::Serialize>(a: &T, b: &T) -> bool {
        a == b
            || match (serde_json::to_value(a), serde_json::to_value(b)) {
                (Ok(a), Ok(b)) => json_equal(&a, &b),
                _ => false,
            }
    }

    /// Whether a snapshot's messages, reconciled, are the held ones: it then changes nothing.
    pub fn keeps_messages(held: &[Rc<AgentMessage>], messages: &[Rc<AgentMessage>]) -> bool {
        held.len() == messages.len() && held.iter().zip(messages).all(|(a, b)| Rc::ptr_eq(a, b))
    }

    /// A snapshot's message in place of the held one (SPEC `snapshot`): the held one when equal
    /// as JSON, else the given one sharing each equal part at the same place.
    pub fn reconciled(held: &Rc<AgentMessage>, given: &Rc<AgentMessage>) -> Rc<AgentMessage> {
        if equal_as_json(held.as_ref(), given.as_ref()) {
            return held.clone();
        }
        let parts: Vec<_> = given
            .parts
            .iter()
            .enumerate()
            .map(|(at, part)| match held.parts.get(at) {
                Some(kept) if equal_as_json(kept, part) => kept.clone(),
                _ => part.clone(),
            })
            .collect();
        if parts
            .iter()
            .zip(&given.parts)
            .all(|(a, b)| Rc::ptr_eq(a, b))
        {
            return given.clone();
        }
        Rc::new(AgentMessage {
            id: given.id.clone(),
            role: given.role,
            parts,
            metadata: given.metadata.clone(),
        })
    }
}

/// The binding's: the values are the host's, and so is every decision on them.
#[cfg(feature = "js-binding")]
mod held {
    use alloc::rc::Rc;

    use super::Update;
    use crate::core::model::{AgentMessage, Json};

    /// The core holds that there is metadata.
    pub fn merged(_held: Option<&Json>, _incoming: &Json) -> Update {
        Update::Set(Json::Null)
    }

    pub fn replaced(_held: Option<&Json>, _given: &Json) -> Update {
        Update::Set(Json::Null)
    }

    pub fn patched(_held: Option<&Json>, _patch: &Json) -> Option<Update> {
        Some(Update::Host)
    }

    /// A run with an `agentState` keeps one; for a run without, the host says whether the patch
    /// gives it one (`None`: not known; the patch is logged and the host finds out).
    pub fn patched_state(
        held: Option<&Json>,
        _patch: &Json,
        host_says: impl FnOnce() -> Option<bool>,
    ) -> Update {
        if held.is_some() {
            return Update::Host;
        }
        match host_says() {
            Some(true) => Update::Set(Json::Null),
            Some(false) => Update::Keep,
            None => Update::Host,
        }
    }

    pub fn reconciled(_held: &Rc<AgentMessage>, given: &Rc<AgentMessage>) -> Rc<AgentMessage> {
        given.clone()
    }

    /// The host compares the messages.
    pub fn keeps_messages(_held: &[Rc<AgentMessage>], _messages: &[Rc<AgentMessage>]) -> bool {
        false
    }
}
