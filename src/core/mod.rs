//! The session reducer: pure Rust, no wasm dependencies, complete on every target and tested
//! natively and on wasm32.

mod approval;
mod edit;
mod find;
mod json;
pub mod model;
pub mod patch;
pub mod path;
mod reducer;
mod resumable;
mod session;

pub use edit::{parse_owned_input, ParseInput, PatchSetsState};
pub use reducer::{plain_append_target, reduce, reduce_with, session_reducer, Outcome};
pub use resumable::{resumable, resumable_cut, Cut};
pub use session::Session;
