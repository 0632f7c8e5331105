//! A chat-session reducer for AI agent UIs.
//!
//! [`core`] is the state machine, pure Rust, complete on every target (native, wasm32): it
//! applies every SPEC row itself. With the `js-binding` feature (the npm package's build only),
//! `wasm` is the thin binding that exposes it to JavaScript, which then holds every JSON value.

pub mod core;

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
