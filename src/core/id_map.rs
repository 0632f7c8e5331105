//! A map keyed by ids (`String`s), looked up by `&str`: the indexes' map and the crate's only
//! one. Hand-written rather than std's `HashMap` (hashbrown) for the package's size: hashbrown's
//! code in the wasm took about three times this map's (docs/decisions.md has the figures).
//!
//! Open addressing with linear probing over a power-of-two number of slots, at most three
//! quarters full; removal shifts the entries after the hole back (no tombstones), so a map that
//! keeps adding and removing ids never needs a rebuild. Each slot keeps its key's hash, so that
//! probing compares strings only on a hash match and growing hashes nothing again.

use alloc::{borrow::ToOwned, string::String, vec::Vec};
/// A map from ids to `V`.
#[derive(Debug)]
pub(crate) struct IdMap<V> {
    /// A power of two slots (none before the first insertion), at least one of them empty.
    slots: Vec<Option<Slot<V>>>,
    len: usize,
}

#[derive(Debug)]
struct Slot<V> {
    hash: u32,
    key: String,
    value: V,
}

impl<V> Default for IdMap<V> {
    fn default() -> Self {
        IdMap {
            slots: Vec::new(),
            len: 0,
        }
    }
}

/// The slots of a map that has none yet.
const FIRST_CAPACITY: usize = 8;

impl<V> IdMap<V> {
    /// How many entries the map holds.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn get(&self, id: &str) -> Option<&V> {
        let at = self.find(id)?;
        self.slots[at].as_ref().map(|slot| &slot.value)
    }

    pub(crate) fn get_mut(&mut self, id: &str) -> Option<&mut V> {
        let at = self.find(id)?;
        self.slots[at].as_mut().map(|slot| &mut slot.value)
    }

    /// Sets the value of `id`; returns the one it replaced.
    pub(crate) fn insert(&mut self, id: String, value: V) -> Option<V> {
        let hash = hash(&id);
        match self.slot_for(hash, &id) {
            Some(slot) => Some(core::mem::replace(&mut slot.value, value)),
            empty => {
                *empty = Some(Slot {
                    hash,
                    key: id,
                    value,
                });
                None
            }
        }
    }

    /// The value of `id`, made by `make` (and its key allocated) only when absent.
    pub(crate) fn get_or_insert_with(&mut self, id: &str, make: impl FnOnce() -> V) -> &mut V {
        let hash = hash(id);
        let slot = self.slot_for(hash, id).get_or_insert_with(|| Slot {
            hash,
            key: id.to_owned(),
            value: make(),
        });
        &mut slot.value
    }

    /// The slot holding `id`, or the empty one it goes in, counted already.
    fn slot_for(&mut self, hash: u32, id: &str) -> &mut Option<Slot<V>> {
        self.make_room();
        let at = self.probe(hash, id).unwrap_or_else(|empty| {
            self.len += 1;
            empty
        });
        &mut self.slots[at]
    }

    /// Takes `id` out; returns its value. The entries after it in its cluster that may move
    /// back (their home slot is not between the hole and them) fill the hole, one by one, so
    /// every entry stays reachable from its home without a gap.
    pub(crate) fn remove(&mut self, id: &str) -> Option<V> {
        let mut hole = self.find(id)?;
        let removed = self.slots[hole].take()?;
        self.len -= 1;
        let mask = self.slots.len() - 1;
        let mut at = hole;
        loop {
            at = (at + 1) & mask;
            let Some(slot) = &self.slots[at] else { break };
            let from_home = at.wrapping_sub(self.home(slot.hash)) & mask;
            if from_home >= at.wrapping_sub(hole) & mask {
                self.slots[hole] = self.slots[at].take();
                hole = at;
            }
        }
        Some(removed.value)
    }

    /// The slot holding `id`.
    fn find(&self, id: &str) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        self.probe(hash(id), id).ok()
    }

    /// The slot holding `id` (`Ok`), or the empty slot that ends its probe (`Err`), where it
    /// goes. The map must have slots.
    fn probe(&self, hash: u32, id: &str) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let mut at = self.home(hash);
        loop {
            match &self.slots[at] {
                None => return Err(at),
                Some(slot) if slot.hash == hash && slot.key == id => return Ok(at),
                Some(_) => at = (at + 1) & mask,
            }
        }
    }

    /// The first slot probed for `hash`: from its top bits, the well-mixed ones of a
    /// multiplicative hash.
    fn home(&self, hash: u32) -> usize {
        ((u64::from(hash) * self.slots.len() as u64) >> 32) as usize
    }

    /// Doubles the slots when one more entry would fill more than three quarters of them
    /// (linear probing's clusters grow fast beyond that).
    fn make_room(&mut self) {
        if (self.len + 1) * 4 <= self.slots.len() * 3 {
            return;
        }
        let capacity = (self.slots.len() * 2).max(FIRST_CAPACITY);
        let mut slots = Vec::with_capacity(capacity);
        slots.resize_with(capacity, || None);
        let mut old = core::mem::replace(&mut self.slots, slots);
        let mask = capacity - 1;
        for slot in old.iter_mut().filter_map(Option::take) {
            let mut at = self.home(slot.hash);
            while self.slots[at].is_some() {
                at = (at + 1) & mask;
            }
            self.slots[at] = Some(slot);
        }
    }
}

/// FxHash's (as rustc uses), a word at a time: a few instructions a word where SipHash takes
/// far more wasm. SipHash would not resist crafted ids here anyway: on wasm32 the standard
/// library has no randomness to key it with.
fn hash(id: &str) -> u32 {
    const SEED: u32 = 0x9e37_79b9;
    let mut hash = 0u32;
    let mut chunks = id.as_bytes().chunks_exact(4);
    for chunk in &mut chunks {
        let word = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        hash = (hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
    for byte in chunks.remainder() {
        hash = (hash.rotate_left(5) ^ u32::from(*byte)).wrapping_mul(SEED);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn an_empty_map_finds_nothing_and_allocates_nothing() {
        let mut map = IdMap::<u32>::default();
        assert_eq!(map.get("a"), None);
        assert_eq!(map.get_mut("a"), None);
        assert_eq!(map.remove("a"), None);
        assert_eq!(map.len(), 0);
        assert_eq!(map.slots.capacity(), 0);
    }

    #[test]
    fn insert_replaces_and_returns_the_old_value() {
        let mut map = IdMap::default();
        assert_eq!(map.insert("a".to_owned(), 1), None);
        assert_eq!(map.insert("a".to_owned(), 2), Some(1));
        assert_eq!(map.get("a"), Some(&2));
        assert_eq!(map.len(), 1);
    }

    #[test]
    fn get_or_insert_with_makes_a_value_only_when_absent() {
        let mut map = IdMap::default();
        *map.get_or_insert_with("a", || 1) += 10;
        *map.get_or_insert_with("a", || panic!("made twice")) += 10;
        assert_eq!(map.get("a"), Some(&21));
        assert_eq!(map.len(), 1);
    }

    #[test]
    fn thousands_of_ids_grow_the_map_and_stay_found() {
        let mut map = IdMap::default();
        for n in 0..5000 {
            map.insert(format!("call-{n}"), n);
        }
        assert_eq!(map.len(), 5000);
        assert!(map.slots.len().is_power_of_two());
        assert!(map.len() * 4 <= map.slots.len() * 3);
        for n in 0..5000 {
            assert_eq!(map.get(&format!("call-{n}")), Some(&n));
        }
        assert_eq!(map.get("call-5000"), None);
    }

    /// Every key sits in its home slot's cluster, with no empty slot between: the invariant
    /// backward-shift deletion keeps.
    fn assert_reachable<V>(map: &IdMap<V>) {
        let mask = map.slots.len().wrapping_sub(1);
        for (at, slot) in map.slots.iter().enumerate() {
            if let Some(slot) = slot {
                let mut probe = map.home(slot.hash);
                while probe != at {
                    assert!(map.slots[probe].is_some(), "a gap before {:?}", slot.key);
                    probe = (probe + 1) & mask;
                }
            }
        }
        assert_eq!(map.slots.iter().flatten().count(), map.len());
    }

    /// An id whose home among `FIRST_CAPACITY` slots is `home`, not among `taken`.
    fn id_at_home(home: usize, taken: &[String]) -> String {
        let map = IdMap::<()> {
            slots: (0..FIRST_CAPACITY).map(|_| None).collect(),
            len: 0,
        };
        (0..)
            .map(|n| format!("m{n}"))
            .find(|id| map.home(hash(id)) == home && !taken.contains(id))
            .unwrap()
    }

    #[test]
    fn removing_from_a_cluster_keeps_the_rest_found() {
        // One cluster that wraps around the end of the slots, of entries whose homes differ:
        // some may move back into a hole, some may not.
        let mut ids = Vec::new();
        for home in [6, 7, 7, 0, 7, 0] {
            ids.push(id_at_home(home, &ids));
        }
        for order in [[0, 1, 2, 3, 4, 5], [1, 3, 0, 5, 2, 4], [5, 4, 3, 2, 1, 0]] {
            let mut map = IdMap::default();
            for (value, id) in ids.iter().enumerate() {
                map.insert(id.clone(), value);
            }
            assert_eq!(map.slots.len(), FIRST_CAPACITY);
            assert_reachable(&map);
            for (gone, &value) in order.iter().enumerate() {
                assert_eq!(map.remove(&ids[value]), Some(value));
                assert_reachable(&map);
                assert_eq!(map.get(&ids[value]), None);
                for &kept in &order[gone + 1..] {
                    assert_eq!(map.get(&ids[kept]), Some(&kept));
                }
            }
            assert_eq!(map.len(), 0);
        }
    }

    #[test]
    fn adding_and_removing_forever_keeps_the_slots_bounded() {
        let mut map = IdMap::default();
        for n in 0..10_000 {
            map.insert(format!("m{n}"), n);
            if n >= 10 {
                assert_eq!(map.remove(&format!("m{}", n - 10)), Some(n - 10));
            }
        }
        assert_eq!(map.len(), 10);
        assert!(map.slots.len() <= 16);
        assert_reachable(&map);
    }

    #[derive(Clone, Debug)]
    enum Op {
        Insert(String, u32),
        GetOrInsert(String, u32),
        Remove(String),
        Bump(String),
    }

    /// Few distinct ids, so that operations hit the same keys often.
    fn id() -> impl Strategy<Value = String> {
        "[a-c]{0,3}"
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (id(), any::<u32>()).prop_map(|(id, value)| Op::Insert(id, value)),
            (id(), any::<u32>()).prop_map(|(id, value)| Op::GetOrInsert(id, value)),
            id().prop_map(Op::Remove),
            id().prop_map(Op::Bump),
        ]
    }

    proptest! {
        #[test]
        fn agrees_with_std_hash_map(ops in prop::collection::vec(op(), 0..300)) {
            let mut map = IdMap::default();
            let mut model = HashMap::new();
            for op in ops {
                match op {
                    Op::Insert(id, value) => {
                        prop_assert_eq!(map.insert(id.clone(), value), model.insert(id, value));
                    }
                    Op::GetOrInsert(id, value) => {
                        let got = *map.get_or_insert_with(&id, || value);
                        prop_assert_eq!(got, *model.entry(id).or_insert(value));
                    }
                    Op::Remove(id) => prop_assert_eq!(map.remove(&id), model.remove(&id)),
                    Op::Bump(id) => {
                        if let Some(value) = map.get_mut(&id) {
                            *value = value.wrapping_add(1);
                        }
                        if let Some(value) = model.get_mut(&id) {
                            *value = value.wrapping_add(1);
                        }
                    }
                }
                prop_assert_eq!(map.len(), model.len());
                assert_reachable(&map);
            }
            for (id, value) in &model {
                prop_assert_eq!(map.get(id), Some(value));
            }
        }
    }
}
