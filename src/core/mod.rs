//! The session reducer: pure Rust, no wasm dependencies, complete on every target and tested
//! natively and on wasm32.

mod actions;
mod approval;
mod edit;
mod find;
mod id_map;
mod json;
pub mod model;
mod parts;
pub mod patch;
pub mod path;
pub mod protocol;
mod reducer;
mod resumable;
mod session;
mod target;

pub use edit::{parse_owned_input, ParseInput, PatchSetsState};
pub use model::{branch_at, BranchAt};
pub use reducer::{load_rule, plain_append_target, reduce, reduce_with, session_reducer, Outcome};
pub use resumable::{resumable, resumable_cut, Cut};
pub use session::Session;
