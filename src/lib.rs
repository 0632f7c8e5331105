//! A chat-session reducer for AI agent UIs.
//!
//! [`core`] is the state machine, pure Rust with no wasm dependencies; [`wasm`] is the thin
//! binding that exposes it to JavaScript and is the only code that touches JS values.

pub mod core;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

// Talc instead of Rust's default wasm allocator, dlmalloc: 4 kB less wasm and faster (see
// Cargo.toml). The module is single-threaded (no atomics).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
