//! The session reducer: pure Rust, no wasm dependencies, tested natively.

mod approval;
mod edit;
mod find;
pub mod model;
pub mod patch;
pub mod path;
pub mod protocol;
mod reducer;
mod resumable;
mod session;

pub use edit::{parse_owned_input, ParseInput, PatchSetsState};
pub use reducer::{plain_append_target, reduce, reduce_with, session_reducer, Outcome};
pub use resumable::{resumable, resumable_cut, Cut};
pub use session::Session;
