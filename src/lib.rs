//! A chat-session reducer for AI agent UIs.
//!
//! [`core`] is the state machine, pure Rust with no wasm dependencies; [`wasm`] is the thin
//! binding that exposes it to JavaScript and is the only code that touches JS values.

pub mod core;

#[cfg(target_arch = "wasm32")]
pub mod wasm;
