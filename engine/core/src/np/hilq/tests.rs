use super::*;
use proptest::prelude::*;

fn slot(x: u32, y: u32) -> usize {
    Lookup::default().slot(x, y, &mut MemoryAccesses::default())
}

fn token(stream: u32) -> Token {
    Token {
        stream,
        xc: 0,
        yc: 1,
    }
}

/// slot = LOOKUP(x/y) + x, LOOKUP = 20 x the nearest of 0, 0.02, ..., 0.98 (hand-computed).
#[test]
fn slot_formula_by_hand() {
    assert_eq!(slot(0, 5), 0); // 0 -> 0
    assert_eq!(slot(0, 1), 0);
    assert_eq!(slot(1, 2), 25 * 20 + 1); // 0.5 -> 25
    assert_eq!(slot(1, 3), 17 * 20 + 1); // 0.333 -> 16.67 -> 17
    assert_eq!(slot(2, 7), 14 * 20 + 2); // 0.2857 -> 14.29 -> 14
    assert_eq!(slot(19, 20), 48 * 20 + 19); // 0.95 -> 47.5 -> 48 (halves up)
    assert_eq!(slot(1, 1), 49 * 20 + 1); // 1 has no value of its own: 0.98
    assert_eq!(slot(19, 19), 999); // the last slot
    assert_eq!(slot(1, 100), 20 + 1); // 0.01 -> 0.5 -> 1 (computed, y' >= 64)
    assert_eq!(slot(3, 200), 20 + 3); // 0.015 -> 0.75 -> 1
    assert_eq!(slot(2, 500), 2); // 0.004 -> 0.2 -> 0
}

/// The table and the computed index agree wherever the table reaches.
#[test]
fn lookup_table_matches_the_formula() {
    let l = Lookup::default();
    for x in 0..NUMERATORS {
        for y in 0..TABLE_Y {
            let got = l.slot(x, y, &mut MemoryAccesses::default());
            assert_eq!(got as u32, constraint_index(x, y) * NUMERATORS + x);
        }
    }
    // Lower constraints get lower slots, and for equal constraints lower x' goes first.
    assert!(slot(1, 4) < slot(1, 3));
    assert!(slot(1, 2) < slot(2, 4));
}

#[test]
fn bitmap_finds_the_first_slot_in_two_reads() {
    let mut ix = Index::default();
    let mut mem = MemoryAccesses::default();
    ix.insert(0, 999, token(1), &mut mem).unwrap();
    ix.insert(0, 33, token(2), &mut mem).unwrap();
    ix.insert(0, 31, token(3), &mut mem).unwrap();
    assert!(ix.check().is_ok());
    let before = mem;
    let (ms, s, t) = ix.pop_first(&mut mem).unwrap();
    assert_eq!((ms, s, t.stream), (0, 31, 3));
    let used = mem.since(&before);
    // Level 1 (scratchpad) + level 2 (SRAM) + slot read/write and element (SRAM) + bit clear.
    assert_eq!(used.scratchpad, 2);
    assert_eq!(used.sram, 1 + 3 + 1);
    assert_eq!(ix.pop_first(&mut mem).unwrap().1, 33);
    assert_eq!(ix.pop_first(&mut mem).unwrap().1, 999);
    assert!(ix.pop_first(&mut mem).is_none());
    assert!(ix.check().is_ok());
}

#[test]
fn deadlines_100_ms_ahead_are_refused() {
    let mut ix = Index::default();
    let mut mem = MemoryAccesses::default();
    assert!(ix.insert(99, 0, token(0), &mut mem).is_ok());
    let e = ix.insert(100, 0, token(0), &mut mem).unwrap_err();
    assert_eq!(e, TooFar { ahead_ms: 100 });
    assert!(e.to_string().contains("looks only 100 ms ahead"), "{e}");
    ix.advance_to(50, &mut mem, |_, _| {});
    assert!(ix.insert(149, 0, token(0), &mut mem).is_ok());
    assert!(ix.insert(150, 0, token(0), &mut mem).is_err());
}

#[test]
fn the_scan_looks_ahead_and_goes_back() {
    let mut ix = Index::default();
    let mut mem = MemoryAccesses::default();
    ix.insert(7, 5, token(1), &mut mem).unwrap();
    ix.insert(9, 0, token(2), &mut mem).unwrap();
    assert_eq!(ix.pop_first(&mut mem).map(|p| p.0), Some(7));
    assert_eq!(ix.scan_ms(), 7);
    // A packet lands before the scan position: the scan goes back.
    ix.insert(3, 900, token(3), &mut mem).unwrap();
    assert_eq!(ix.scan_ms(), 3);
    assert_eq!(
        ix.pop_first(&mut mem).map(|p| (p.0, p.2.stream)),
        Some((3, 3))
    );
    assert_eq!(
        ix.pop_first(&mut mem).map(|p| (p.0, p.2.stream)),
        Some((9, 2))
    );
}

#[test]
fn advancing_collects_the_passed_segments() {
    let mut ix = Index::default();
    let mut mem = MemoryAccesses::default();
    ix.insert(0, 10, token(1), &mut mem).unwrap();
    ix.insert(1, 5, token(2), &mut mem).unwrap();
    ix.insert(1, 2, token(3), &mut mem).unwrap();
    ix.insert(2, 0, token(4), &mut mem).unwrap();
    let mut got = Vec::new();
    ix.advance_to(2, &mut mem, |ms, t| got.push((ms, t.stream)));
    assert_eq!(got, vec![(0, 1), (1, 3), (1, 2)]);
    assert_eq!(ix.len(), 1);
    assert!(ix.check().is_ok());
    // A past millisecond counts as the current one.
    ix.insert(0, 1, token(5), &mut mem).unwrap();
    assert_eq!(
        ix.pop_first(&mut mem).map(|p| (p.0, p.2.stream)),
        Some((2, 4))
    );
    assert_eq!(
        ix.pop_first(&mut mem).map(|p| (p.0, p.2.stream)),
        Some((2, 5))
    );
}

proptest! {
    /// Against a brute-force model: every pop takes the earliest millisecond, then the
    /// lowest slot, then the oldest element (EDF to 1 ms granularity), and the collector
    /// gets exactly the elements of the passed milliseconds.
    #[test]
    fn pops_in_ms_slot_fifo_order(ops in proptest::collection::vec((0u8..4, 0u64..120, 0usize..SLOTS), 1..300)) {
        let mut ix = Index::default();
        let mut mem = MemoryAccesses::default();
        // (ms, slot, seq)
        let mut model: Vec<(u64, usize, u32)> = Vec::new();
        for (i, (op, a, slot)) in ops.into_iter().enumerate() {
            let i = i as u32;
            match op {
                0 | 1 => {
                    let ms = ix.now_ms() + a;
                    let r = ix.insert(ms, slot, token(i), &mut mem);
                    if a >= SEGMENTS as u64 {
                        prop_assert!(r.is_err());
                    } else {
                        prop_assert!(r.is_ok());
                        model.push((ms, slot, i));
                    }
                }
                2 => {
                    let want = model.iter().copied().min();
                    let got = ix.pop_first(&mut mem);
                    prop_assert_eq!(got.map(|(ms, s, t)| (ms, s, t.stream)), want);
                    if let Some(w) = want { model.retain(|&m| m != w); }
                }
                _ => {
                    let to = ix.now_ms() + a % 5;
                    let mut got = Vec::new();
                    ix.advance_to(to, &mut mem, |ms, t| got.push((ms, t.stream)));
                    let mut want: Vec<(u64, usize, u32)> = model.iter().copied().filter(|m| m.0 < to).collect();
                    want.sort();
                    model.retain(|m| m.0 >= to);
                    prop_assert_eq!(got, want.iter().map(|w| (w.0, w.2)).collect::<Vec<_>>());
                }
            }
            prop_assert_eq!(ix.len(), model.len());
        }
        prop_assert!(ix.check().is_ok());
    }
}
