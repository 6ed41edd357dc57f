//! Finding the next table entry whose class is active without a linear scan.
//!
//! Each class has a bitmap of the table positions it owns. The next active entry after a
//! position is the first set bit of the OR of the active classes' bitmaps, found word by
//! word with `trailing_zeros` (find-first-set): O(active classes x N / 64) per decision
//! instead of O(N).

/// Per-class bitmaps of table positions.
#[derive(Clone, Debug)]
pub struct TableIndex {
    len: usize,
    words: usize,
    /// `bits[class * words + w]`: bit `b` set when entry `64 * w + b` belongs to `class`.
    bits: Vec<u64>,
}

impl TableIndex {
    /// The index of a table whose entry `i` belongs to class `owners[i]`.
    pub fn new(owners: &[usize], classes: usize) -> TableIndex {
        let len = owners.len();
        let words = len.div_ceil(64).max(1);
        let mut bits = vec![0u64; classes * words];
        for (i, &c) in owners.iter().enumerate() {
            if c < classes {
                bits[c * words + i / 64] |= 1 << (i % 64);
            }
        }
        TableIndex { len, words, bits }
    }

    /// Number of table entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True for an empty table.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first entry at or after `start` (cyclic) that belongs to one of `active`,
    /// and the number of bitmap words examined.
    pub fn next_owned_by(&self, active: &[usize], start: usize) -> (Option<usize>, u64) {
        self.next_owned_by_any(class_mask(active), start)
    }

    /// [`TableIndex::next_owned_by`] with the active classes as a mask (bit `c` for class
    /// `c`): what a port's [`super::PortView::active_mask`] answers, with no list to build.
    pub fn next_owned_by_any(&self, active: u64, start: usize) -> (Option<usize>, u64) {
        if self.len == 0 || active == 0 {
            return (None, 0);
        }
        let start = start % self.len;
        let (w0, b0) = (start / 64, start % 64);
        let mut examined = 0;
        for k in 0..=self.words {
            let w = (w0 + k) % self.words;
            let mask = if k == 0 {
                !0u64 << b0
            } else if k == self.words {
                if b0 == 0 {
                    break;
                }
                (1u64 << b0) - 1
            } else {
                !0u64
            };
            examined += 1;
            let word =
                classes_in(active).fold(0, |acc, c| acc | self.bits[c * self.words + w]) & mask;
            if word != 0 {
                return (Some(w * 64 + word.trailing_zeros() as usize), examined);
            }
        }
        (None, examined)
    }

    /// The class among `classes` (a mask) that owns entry `entry`, if any: the table
    /// need not be read to know whose entry [`TableIndex::next_owned_by_any`] found.
    pub fn owner_among(&self, classes: u64, entry: usize) -> Option<usize> {
        let (w, bit) = (entry / 64, 1u64 << (entry % 64));
        classes_in(classes).find(|&c| {
            self.bits
                .get(c * self.words + w)
                .is_some_and(|word| word & bit != 0)
        })
    }
}

/// The classes of mask `classes`, in increasing order.
pub(crate) fn classes_in(classes: u64) -> impl Iterator<Item = usize> {
    let mut rest = classes;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            c
        })
    })
}

/// The mask of `classes` (each below 64, the most classes a scenario has).
fn class_mask(classes: &[usize]) -> u64 {
    classes.iter().fold(0, |m, &c| m | 1 << c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn linear(owners: &[usize], active: &[usize], start: usize) -> Option<usize> {
        let n = owners.len();
        (0..n)
            .map(|k| (start + k) % n)
            .find(|&i| active.contains(&owners[i]))
    }

    #[test]
    fn wraps_around() {
        let owners = [0, 1, 0, 1];
        let idx = TableIndex::new(&owners, 2);
        assert_eq!(idx.next_owned_by(&[0], 1).0, Some(2));
        assert_eq!(idx.next_owned_by(&[0], 3).0, Some(0));
        assert_eq!(idx.next_owned_by(&[1], 3).0, Some(3));
        assert_eq!(idx.next_owned_by(&[], 0).0, None);
    }

    #[test]
    fn length_and_emptiness_are_the_table_s() {
        let idx = TableIndex::new(&[0, 1, 0], 2);
        assert_eq!((idx.len(), idx.is_empty()), (3, false));
        let idx = TableIndex::new(&[1; 200], 2);
        assert_eq!((idx.len(), idx.is_empty()), (200, false));
        // An empty table finds nothing and examines no word.
        let empty = TableIndex::new(&[], 2);
        assert_eq!((empty.len(), empty.is_empty()), (0, true));
        assert_eq!(empty.next_owned_by(&[0, 1], 0), (None, 0));
    }

    proptest! {
        /// The bitmap search agrees with a plain linear scan for any table, start and set
        /// of active classes, including tables longer than one word.
        #[test]
        fn agrees_with_linear_scan(
            owners in proptest::collection::vec(0usize..6, 1..300),
            active_mask in 0u8..64,
            start in 0usize..400,
        ) {
            let active: Vec<usize> = (0..6).filter(|c| active_mask & (1 << c) != 0).collect();
            let idx = TableIndex::new(&owners, 6);
            let start = start % owners.len();
            prop_assert_eq!(idx.next_owned_by(&active, start).0, linear(&owners, &active, start));
            let found = idx.next_owned_by_any(u64::from(active_mask), start);
            prop_assert_eq!(found, idx.next_owned_by(&active, start));
            if let (Some(entry), _) = found {
                prop_assert_eq!(idx.owner_among(u64::from(active_mask), entry), Some(owners[entry]));
            }
            for (entry, &owner) in owners.iter().enumerate() {
                prop_assert_eq!(idx.owner_among(u64::from(active_mask), entry), (active_mask & (1 << owner) != 0).then_some(owner));
            }
        }
    }
}
