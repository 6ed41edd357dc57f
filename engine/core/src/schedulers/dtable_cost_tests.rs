//! The DTable's cost counters checked exactly (issue 16): bitmap words examined by the
//! find-first-set search and table entries a linear arbiter would step over, worked by
//! hand on a table longer than two bitmap words.

use super::*;
use crate::schedulers::testing::MockPort;

/// Words examined by `TableIndex::next_owned_by` on a 200-entry table (words 0-63,
/// 64-127, 128-191, 192-199) whose class 0 owns entries 10 and 150.
#[test]
fn bitmap_words_examined_are_exact() {
    let mut owners = vec![1usize; 200];
    owners[10] = 0;
    owners[150] = 0;
    let idx = TableIndex::new(&owners, 2);
    // Entry 10 is in the start word.
    assert_eq!(idx.next_owned_by(&[0], 0), (Some(10), 1));
    // From 11: the rest of word 0, word 1, then 150 in word 2.
    assert_eq!(idx.next_owned_by(&[0], 11), (Some(150), 3));
    // From 151: the rest of word 2, word 3, then wrap to 10 in word 0.
    assert_eq!(idx.next_owned_by(&[0], 151), (Some(10), 3));
    // Class 1 from 10: entry 11, same word.
    assert_eq!(idx.next_owned_by(&[1], 10), (Some(11), 1));

    let mut lone = vec![1usize; 200];
    lone[10] = 0;
    let idx = TableIndex::new(&lone, 3);
    // From 20: words 0 (bits 20-63), 1, 2, 3, then the low 20 bits of word 0.
    assert_eq!(idx.next_owned_by(&[0], 20), (Some(10), 5));
    // Nobody active in the table: every word once (plus the low part of the start word).
    assert_eq!(idx.next_owned_by(&[2], 0), (None, 4));
    assert_eq!(idx.next_owned_by(&[2], 20), (None, 5));
    assert_eq!(idx.next_owned_by(&[], 20), (None, 0));
}

/// A 130-entry DTable (3 words): entry 0 for class 0 (weight 1), entries 1-129 for class 1;
/// only class 0 has packets (two of 1 credit).
/// Decision 1: search from entry 0 (after the last, 129): word 0 finds entry 0; 1 entry
/// visited, 1 word. Decision 2: the weight is spent; search from entry 1: words 0 (bits
/// 1-63), 1, 2, then bit 0 of word 0: 4 words; entries 1 to 129 and 0: 130 visited.
#[test]
fn dtable_counts_words_and_entries_exactly() {
    let mut table = vec![TableEntry {
        class: 0,
        weight: 1,
    }];
    table.extend((1..130).map(|_| TableEntry {
        class: 1,
        weight: 1,
    }));
    let mut d = DTable::new(&table, 2);
    let mut port = MockPort::new(2, 100);
    port.push(0, 1, 2);
    assert_eq!(port.step(&mut d), Some(0));
    let c = d.cost();
    assert_eq!((c.decisions, c.bitmap_words, c.entries_visited), (1, 1, 1));
    assert_eq!(port.step(&mut d), Some(0));
    let c = d.cost();
    assert_eq!(
        (c.decisions, c.bitmap_words, c.entries_visited),
        (2, 5, 131)
    );
    assert_eq!(port.step(&mut d), None);
}
