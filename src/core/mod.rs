//! The session reducer: pure Rust, no wasm dependencies, complete on every target and tested
//! natively and on wasm32.

use alloc::rc::Rc;
use alloc::vec::Vec;

mod actions;
mod approval;
pub mod check;
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

pub use check::{check_action, check_state};
pub use edit::{parse_owned_input, ParseInput, PatchSetsState, Refusal};
pub use model::{branch_at, BranchAt};
pub use reducer::{load_rule, plain_append_target, reduce, reduce_with, session_reducer, Outcome};
pub use resumable::{resumable, resumable_cut, Cut};
pub use session::Session;

/// `Rc::make_mut` for the core's values, which no `Weak` points at: the value, cloned first
/// when shared. `make_mut`'s handling of weak pointers (its own allocation and copy code for
/// each type) would be in the wasm besides each type's `Rc::new`.
pub(crate) fn own<T: Clone>(shared: &mut Rc<T>) -> &mut T {
    if Rc::get_mut(shared).is_none() {
        *shared = Rc::new(T::clone(shared));
    }
    match Rc::get_mut(shared) {
        Some(value) => value,
        // Unique by now. (Not `unwrap`: its panic would be one more in the wasm.)
        None => unreachable!(),
    }
}

/// `list.remove(index)`, `None` past its end, without `Vec::remove`'s panic: its message
/// formats the index and the length, and would bring integer formatting into the wasm.
pub(crate) fn remove_at<T>(list: &mut Vec<T>, index: usize) -> Option<T> {
    list.get(index)?;
    carry_to_last(list.get_mut(index..)?.iter_mut());
    list.pop()
}

/// `list.insert(index, item)` (at the end past it), without `Vec::insert`'s panic (`remove_at`).
pub(crate) fn insert_at<T>(list: &mut Vec<T>, index: usize, item: T) {
    list.push(item);
    if let Some(tail) = list.get_mut(index..) {
        carry_to_last(tail.iter_mut().rev());
    }
}

/// Moves the first of `slots` to the last, each other one step up: by swaps, with neither
/// `rotate_left`'s three algorithms nor indexing's bounds-check panics.
fn carry_to_last<'a, T: 'a>(mut slots: impl Iterator<Item = &'a mut T>) {
    let Some(mut carried) = slots.next() else {
        return;
    };
    for slot in slots {
        core::mem::swap(carried, slot);
        carried = slot;
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::{insert_at, own, remove_at};

    #[test]
    fn own_clones_a_shared_value_only() {
        let mut value = Rc::new(vec![1]);
        let before = Rc::as_ptr(&value);
        own(&mut value).push(2);
        assert_eq!(
            Rc::as_ptr(&value),
            before,
            "a value nothing shares is changed in place"
        );
        let other = Rc::clone(&value);
        own(&mut value).push(3);
        assert_eq!(*other, [1, 2], "the other holder keeps its value");
        assert_eq!(*value, [1, 2, 3]);
        assert_eq!(Rc::strong_count(&other), 1);
    }

    #[test]
    fn remove_at_and_insert_at_do_what_vec_remove_and_insert_do() {
        for len in 0..5 {
            let list: Vec<usize> = (0..len).collect();
            for index in 0..=len + 1 {
                let mut ours = list.clone();
                let mut std = list.clone();
                let removed = remove_at(&mut ours, index);
                assert_eq!(removed, (index < len).then(|| std.remove(index)));
                assert_eq!(ours, std);
                let mut ours = list.clone();
                let mut std = list.clone();
                insert_at(&mut ours, index, 9);
                std.insert(index.min(len), 9);
                assert_eq!(ours, std);
            }
        }
    }
}
