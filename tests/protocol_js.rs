//! src/wasm/protocol.js is what src/core/protocol.rs generates, and the names it declares are
//! serde's. `UPDATE_PROTOCOL=1 cargo test --test protocol_js` writes the module again.
// Natively only: it reads and writes the source tree.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

use chat_session_reducer::core::model::{AgentPart, AgentStreamPart, SessionAction};
use chat_session_reducer::core::protocol::{self, javascript, JS_COMMAND, JS_PATH};
use serde::de::DeserializeOwned;
use serde_json::json;

#[test]
fn the_checked_in_module_is_the_generated_one() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(JS_PATH);
    let generated = javascript();
    if std::env::var_os("UPDATE_PROTOCOL").is_some() {
        std::fs::write(&path, &generated).expect("writing the protocol module");
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    if checked_in != generated {
        let first = checked_in
            .lines()
            .zip(generated.lines())
            .position(|(held, made)| held != made)
            .unwrap_or(checked_in.lines().count().min(generated.lines().count()));
        panic!(
            "{JS_PATH} is not what src/core/protocol.rs generates; run `{JS_COMMAND}`.\n\
             First difference, line {}:\n  checked in: {:?}\n  generated:  {:?}",
            first + 1,
            checked_in.lines().nth(first).unwrap_or("(end of file)"),
            generated.lines().nth(first).unwrap_or("(end of file)"),
        );
    }
}

/// The `type` names serde reads for an internally tagged enum, in declaration order: those its
/// error for an unknown one lists.
fn serde_type_names<T: DeserializeOwned>() -> Vec<String> {
    let error = serde_json::from_value::<T>(json!({ "type": "\u{1}" }))
        .err()
        .expect("an unknown type is refused")
        .to_string();
    let (_, expected) = error
        .split_once("expected one of ")
        .expect("serde lists the known types");
    expected
        .split(", ")
        .map(|name| name.trim_matches('`').to_owned())
        .collect()
}

fn declared_names(name: &str) -> Vec<String> {
    protocol::tables()
        .into_iter()
        .find(|table| table.name == name)
        .and_then(|table| table.names)
        .expect("the table has names")
}

#[test]
fn the_declared_type_names_are_serdes_in_order() {
    assert_eq!(
        declared_names("ACTION_TYPES"),
        serde_type_names::<SessionAction>()
    );
    // serde reads any other part type as `Unknown` (`serde(other)`: the SPEC ignores it), so it
    // lists no names: each declared one must be a known variant of serde's instead.
    let unknown: AgentStreamPart = serde_json::from_value(json!({ "type": "\u{1}" })).unwrap();
    assert_eq!(unknown, AgentStreamPart::Unknown);
    for name in declared_names("PART_TYPES") {
        let read = serde_json::from_value::<AgentStreamPart>(json!({ "type": name }));
        assert!(
            !matches!(read, Ok(AgentStreamPart::Unknown)),
            "{name} is not a type serde knows"
        );
    }
    assert_eq!(
        declared_names("MESSAGE_PART_TYPES"),
        serde_type_names::<AgentPart>()
    );
}

#[test]
fn every_table_gives_each_code_once() {
    for table in protocol::tables() {
        let count = table.names.as_ref().map_or(table.codes.len(), Vec::len);
        let mut codes: Vec<u32> = table.codes.iter().map(|(_, code)| *code).collect();
        codes.sort_unstable();
        assert!(count > 0, "{} is empty", table.name);
        if table.names.is_none() {
            assert_eq!(
                codes,
                (0..count as u32).collect::<Vec<_>>(),
                "{}",
                table.name
            );
        }
    }
}

/// The messages of bad input that both readers give are declared once, in src/core/protocol.rs:
/// neither reader writes one's text itself (it would drift from the other's), and each uses each.
#[test]
fn the_shared_bad_input_messages_are_written_only_in_the_protocol() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for reader in ["src/wasm/read.js", "src/core/check.rs"] {
        let source = std::fs::read_to_string(root.join(reader)).expect("reading the reader");
        for message in protocol::messages() {
            let text = serde_json::from_str::<String>(&message.value).expect("a string");
            assert!(
                !source.contains(&text),
                "{reader} writes {text:?}: use {} from src/core/protocol.rs",
                message.name
            );
            assert!(
                source.contains(&message.name),
                "{reader} does not use {}",
                message.name
            );
        }
    }
}
