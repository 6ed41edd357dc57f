//! A binary min-heap of streams with a position index, so a stream's key can be changed or
//! removed in O(log n). It counts the levels items move (the heap DWCS cost model charges
//! SRAM accesses per level moved).

/// A min-heap of `(key, stream)` with each stream at most once.
#[derive(Clone, Debug)]
pub struct IndexedHeap<K: Ord + Copy> {
    items: Vec<(K, u32)>,
    /// Position of each stream in `items`, or `NONE`.
    pos: Vec<u32>,
    /// Levels moved by sifts so far.
    moves: u64,
}

const NONE: u32 = u32::MAX;

impl<K: Ord + Copy> IndexedHeap<K> {
    /// An empty heap for streams `0..streams`.
    pub fn new(streams: usize) -> Self {
        IndexedHeap {
            items: Vec::with_capacity(streams),
            pos: vec![NONE; streams],
            moves: 0,
        }
    }

    /// Streams in the heap.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Levels moved by sifts so far.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// Whether `stream` is in the heap.
    pub fn contains(&self, stream: u32) -> bool {
        self.pos[stream as usize] != NONE
    }

    /// The smallest item.
    pub fn peek(&self) -> Option<(K, u32)> {
        self.items.first().copied()
    }

    /// Inserts `stream` with `key`, or changes its key if it is there.
    pub fn set(&mut self, stream: u32, key: K) {
        let p = self.pos[stream as usize];
        if p == NONE {
            self.items.push((key, stream));
            let at = self.items.len() - 1;
            self.pos[stream as usize] = at as u32;
            self.sift_up(at);
        } else {
            let at = p as usize;
            let old = self.items[at].0;
            self.items[at].0 = key;
            if key < old {
                self.sift_up(at);
            } else {
                self.sift_down(at);
            }
        }
    }

    /// Removes `stream` if it is there.
    pub fn remove(&mut self, stream: u32) {
        let p = self.pos[stream as usize];
        if p == NONE {
            return;
        }
        let at = p as usize;
        let last = self.items.len() - 1;
        self.swap(at, last);
        self.items.pop();
        self.pos[stream as usize] = NONE;
        if at < self.items.len() {
            self.sift_down(at);
            self.sift_up(at);
        }
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.items.swap(a, b);
        self.pos[self.items[a].1 as usize] = a as u32;
        self.pos[self.items[b].1 as usize] = b as u32;
    }

    fn sift_up(&mut self, mut at: usize) {
        while at > 0 {
            let parent = (at - 1) / 2;
            if self.items[at].0 < self.items[parent].0 {
                self.swap(at, parent);
                self.moves += 1;
                at = parent;
            } else {
                break;
            }
        }
    }

    fn sift_down(&mut self, mut at: usize) {
        let n = self.items.len();
        loop {
            let (l, r) = (2 * at + 1, 2 * at + 2);
            let mut best = at;
            if l < n && self.items[l].0 < self.items[best].0 {
                best = l;
            }
            if r < n && self.items[r].0 < self.items[best].0 {
                best = r;
            }
            if best == at {
                break;
            }
            self.swap(at, best);
            self.moves += 1;
            at = best;
        }
    }

    /// Checks the heap order and the index (tests and audits).
    pub fn check(&self) -> Result<(), String> {
        for (i, &(k, s)) in self.items.iter().enumerate() {
            if self.pos[s as usize] as usize != i {
                return Err(format!(
                    "stream {s} at {i} indexed at {}",
                    self.pos[s as usize]
                ));
            }
            if i > 0 && k < self.items[(i - 1) / 2].0 {
                return Err(format!("item {i} precedes its parent"));
            }
        }
        let indexed = self.pos.iter().filter(|&&p| p != NONE).count();
        if indexed != self.items.len() {
            return Err(format!("{indexed} indexed, {} held", self.items.len()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    proptest! {
        /// The heap agrees with an ordered map under sets, removes and peeks.
        #[test]
        fn matches_a_map(ops in proptest::collection::vec((0u32..20, 0u32..50, any::<bool>()), 1..300)) {
            let mut h = IndexedHeap::new(20);
            let mut m: BTreeMap<u32, u32> = BTreeMap::new();
            for (s, k, remove) in ops {
                if remove { h.remove(s); m.remove(&s); } else { h.set(s, (k, s)); m.insert(s, k); }
                prop_assert!(h.check().is_ok());
                let want = m.iter().map(|(&s, &k)| (k, s)).min();
                prop_assert_eq!(h.peek().map(|(k, _)| k), want);
                prop_assert_eq!(h.len(), m.len());
            }
        }
    }
}
