//! A chat-session reducer for AI agent UIs.
//!
//! [`core`] is the state machine, pure Rust, complete on every target (native, wasm32): it
//! applies every SPEC row itself. With the `js-binding` feature (the npm package's build only),
//! `wasm` is the thin binding that exposes it to JavaScript, which then holds every JSON value.
//!
//! # The reducer
//!
//! [`core::session_reducer`] is a pure function over shared values: it takes a
//! `&Rc<SessionState>` and a [`SessionAction`](core::model::SessionAction) and returns the next
//! `Rc<SessionState>`, leaving its input as it was. Only the nodes an action changes are new:
//! every untouched message is the same `Rc` (`Rc::ptr_eq`) in the old and the new state, so a
//! fine-grained reactive UI can skip it, and an action that changes nothing returns the same
//! `Rc` back. States and actions (de)serialize with serde to exactly the SPEC's JSON shapes.
//! [`core::Session`] and [`core::reduce`] are the same reducer in place, with its indexes kept
//! between actions.
//!
//! ```
//! use std::rc::Rc;
//!
//! use chat_session_reducer::core::model::{AgentPart, SessionAction, SessionState, Text};
//! use chat_session_reducer::core::session_reducer;
//! use serde_json::{from_value, json};
//!
//! let state: Rc<SessionState> = Rc::new(
//!     from_value(json!({
//!         "messages": [
//!             { "id": "a-0", "role": "assistant", "parts": [{ "type": "text", "text": "Welcome" }] }
//!         ],
//!         "status": "idle"
//!     }))
//!     .unwrap(),
//! );
//! let actions: Vec<SessionAction> = from_value(json!([
//!     { "type": "send", "id": "u-1", "text": "Hi" },
//!     { "type": "part", "part": { "type": "message-start", "messageId": "a-1" } },
//!     { "type": "part", "part": { "type": "text-delta", "text": "Hello" } },
//!     { "type": "part", "part": { "type": "text-delta", "text": ", world" } },
//!     { "type": "part", "part": { "type": "finish" } }
//! ]))
//! .unwrap();
//!
//! let mut next = Rc::clone(&state);
//! for action in &actions {
//!     next = session_reducer(&next, action)?;
//! }
//!
//! let reply = &next.messages[2];
//! assert_eq!(reply.id, "a-1");
//! assert!(matches!(
//!     &*reply.parts[0],
//!     AgentPart::Text(part) if part.text == Text::from("Hello, world")
//! ));
//! // The welcome message, untouched, is shared with the first state, not copied.
//! assert!(Rc::ptr_eq(&state.messages[0], &next.messages[0]));
//! // `state` itself is as it was.
//! assert_eq!(state.messages.len(), 1);
//! # Ok::<(), chat_session_reducer::Error>(())
//! ```
//!
//! Bad input is an [`Error`]: `Error::Invalid` with the path of what is wrong
//! (`action.part.id`), the same path and message the npm package throws; nothing is changed.
//!
//! # Features
//!
//! - `json-patch` (default): the core's RFC 6902 JSON Patch, for `data` and `agent-state`
//!   patches. A build needs it or `js-binding`.
//! - `std` (default): the standard library. Without it (the npm package's wasm) the crate is
//!   `no_std` with `alloc`, and a panic traps without formatting its message.
//! - `js-binding`: the npm package's build only (with `--no-default-features`), the
//!   JavaScript binding; JSON values are then placeholders held by JavaScript. A Rust
//!   program leaves it off.
//! - `ts-types`: the package's declarations build, the binding with tsify's TypeScript types
//!   of the model (with `std`, which tsify needs).
//! - `web-storage`: `web_storage`, sessions in `sessionStorage` or `localStorage` (gloo-storage,
//!   web-sys), in the JavaScript helpers' envelope, for a Rust web app.
//! - `js-interop`: `js_interop`, actions and states to and from `JsValue`
//!   (serde-wasm-bindgen), checked as the package checks them, for a Rust app that shares them
//!   with JavaScript.

#![warn(missing_docs)]
// The npm package's wasm (`js-binding` without `std`): `alloc` without the standard library, so a
// panic traps (`panic_trap` below) instead of going through std's hook and message formatting.
#![cfg_attr(
    all(feature = "js-binding", not(feature = "std"), target_arch = "wasm32"),
    no_std
)]

extern crate alloc;

#[macro_use]
mod per_thread;

pub mod core;
mod error;

pub use error::Error;

#[cfg(any(feature = "web-storage", feature = "js-interop"))]
mod js_reader;

#[cfg(any(
    feature = "js-binding",
    feature = "web-storage",
    feature = "js-interop"
))]
mod js_modules;

#[cfg(feature = "js-interop")]
pub mod js_interop;

#[cfg(feature = "web-storage")]
pub mod web_storage;

#[cfg(feature = "js-binding")]
pub mod wasm;

// Talc instead of Rust's default wasm allocator, dlmalloc: a smaller wasm and faster. The module is single-threaded (no atomics).
#[cfg(all(
    feature = "js-binding",
    target_arch = "wasm32",
    not(target_feature = "atomics")
))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// The package's wasm never formats a panic's message: the binding checks its input before the
/// core runs, so a panic is a bug, and the trap reaches JavaScript as a `RuntimeError`, as std's
/// `panic = "abort"` did, without the standard library's formatting code in the download.
#[cfg(all(feature = "js-binding", not(feature = "std"), target_arch = "wasm32"))]
#[panic_handler]
fn panic_trap(_: &::core::panic::PanicInfo<'_>) -> ! {
    ::core::arch::wasm32::unreachable()
}
