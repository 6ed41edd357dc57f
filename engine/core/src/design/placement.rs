//! Latency: placing each class's entries so that any `d_i` consecutive entries of the
//! cyclic table hold at least one entry of class `i` (`shared/spec/20-table-design.md` §1).
//!
//! Classes with a distance are placed by increasing distance (ties in input order). Each
//! takes the chain of free entries found by a "latest jump" greedy: start at an offset `o`
//! in `0..d` (every valid placement has an entry there), then repeatedly take the latest
//! free entry at most `d` after the previous one, until the chain closes cyclically
//! (`last + d >= o + N`). Among the offsets, the chain with the fewest entries wins (ties
//! to the lowest offset); a chain of exactly `ceil(N / d)` entries stops the search. For
//! powers of two dividing `N` this is the spec's rule (lowest offset with `o, o + d, ...`
//! all free): an evenly spaced chain is the only one with `N / d` entries, and the spec
//! shows one exists whenever `sum(N / d_i) <= N`. For other distances the greedy is a
//! heuristic (the general problem, pinwheel scheduling, is NP-hard): when it finds no
//! chain the error names the class, and the result is always verified by
//! [`max_cyclic_distance`].
//!
//! Free entries then go to the classes without a distance, round robin in input order
//! (counts differ by at most one, interleaved); without such classes they go to the class
//! with the smallest distance (the network-control class, which can use the bandwidth).

use crate::error::EngineError;

/// Most entries a class needs at distance `d` in a table of `n` entries: `ceil(n / d)`.
fn least_entries(n: usize, d: usize) -> usize {
    n.div_ceil(d)
}

/// The latest-jump chain from offset `o`, or `None` if a gap cannot be bridged.
fn chain(free: &[bool], o: usize, d: usize) -> Option<Vec<usize>> {
    let n = free.len();
    let mut positions = vec![o];
    let mut p = o;
    while p + d < o + n {
        let q = (p + 1..=p + d).rev().find(|&q| free[q % n])?;
        positions.push(q % n);
        p = q;
    }
    Some(positions)
}

/// The class index of every entry of a table of `entries` entries (`entries >= 1`).
///
/// `distances[i]` is class `i`'s distance (`None`: no latency need); each must be in
/// `1..=entries` (the caller validates). Errors name `classes[i].distance` for a class whose
/// distance cannot be met, or `classes[i]` for a class without distance left without
/// entries.
pub fn place(entries: usize, distances: &[Option<u32>]) -> Result<Vec<usize>, EngineError> {
    let n = entries;
    let mut order: Vec<(usize, usize)> = distances
        .iter()
        .enumerate()
        .filter_map(|(i, d)| d.map(|d| (d as usize, i)))
        .collect();
    order.sort_unstable();
    let mut needed = 0;
    for &(d, i) in &order {
        needed += least_entries(n, d);
        if needed > n {
            return Err(EngineError::invalid(
                format!("classes[{i}].distance"),
                format!(
                    "distance {d} needs at least {} of the {n} entries, and with the classes of \
                     smaller or equal distance placed first the table would need {needed}; \
                     raise this or another distance, or use more entries",
                    least_entries(n, d)
                ),
            ));
        }
    }
    let mut slots: Vec<Option<usize>> = vec![None; n];
    for &(d, i) in &order {
        let free: Vec<bool> = slots.iter().map(Option::is_none).collect();
        let least = least_entries(n, d);
        let mut best: Option<Vec<usize>> = None;
        for o in (0..d.min(n)).filter(|&o| free[o]) {
            if let Some(c) = chain(&free, o, d) {
                let done = c.len() == least;
                if best.as_ref().is_none_or(|b| c.len() < b.len()) {
                    best = Some(c);
                }
                if done {
                    break;
                }
            }
        }
        let Some(best) = best else {
            return Err(EngineError::invalid(
                format!("classes[{i}].distance"),
                format!(
                    "distance {d} cannot be met: after placing the classes of smaller or equal \
                     distance, some {d} consecutive entries are all taken (the placement is \
                     greedy, not exhaustive, for distances that are not powers of two); raise \
                     the distance or use more entries"
                ),
            ));
        };
        for p in best {
            slots[p] = Some(i);
        }
    }
    let latency_free: Vec<usize> = (0..distances.len())
        .filter(|&i| distances[i].is_none())
        .collect();
    let free: Vec<usize> = (0..n).filter(|&p| slots[p].is_none()).collect();
    if let Some(&starved) = latency_free.get(free.len()) {
        return Err(EngineError::invalid(
            format!("classes[{starved}]"),
            format!(
                "a class without distance takes the entries the others leave free, but only \
                 {} are free for {} such classes; raise some distances or use more entries",
                free.len(),
                latency_free.len()
            ),
        ));
    }
    let fallback = order.first().map(|&(_, i)| i);
    for (j, &p) in free.iter().enumerate() {
        slots[p] = match latency_free.len() {
            0 => fallback,
            c => Some(latency_free[j % c]),
        };
    }
    slots
        .into_iter()
        .map(|s| s.ok_or_else(|| EngineError::invalid("classes", "at least one class is needed")))
        .collect()
}

/// The largest cyclic gap between consecutive entries of `class` in `table` (the number of
/// entries from one of its entries to the next, `table.len()` for a single entry), or
/// `None` if the class has no entry. The class meets distance `d` iff this is `<= d`.
pub fn max_cyclic_distance(table: &[usize], class: usize) -> Option<usize> {
    let positions: Vec<usize> = (0..table.len()).filter(|&p| table[p] == class).collect();
    let first = *positions.first()?;
    let last = *positions.last()?;
    let wrap = first + table.len() - last;
    Some(
        positions
            .windows(2)
            .map(|w| w[1] - w[0])
            .fold(wrap, usize::max),
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn offsets(table: &[usize], class: usize) -> Vec<usize> {
        (0..table.len()).filter(|&p| table[p] == class).collect()
    }

    /// Distances that are not powers of two, worked by hand (module doc: the latest-jump
    /// chain from each free offset in `0..d`, the fewest entries winning, ties to the
    /// lowest offset, a chain of `ceil(N / d)` entries ending the search; free entries go
    /// to the class of smallest distance).
    /// N = 10, d = 3, 5: class 0 takes 0, 3, 6, 9 (offset 0, 4 = ceil(10 / 3) entries).
    /// Class 1 (at least 2): offset 1 gives 1, 5, 8 (3 entries, not the least: go on),
    /// offset 2 gives 2, 7, the least.
    /// N = 10, d = 2, 5: class 0 takes 0, 2, 4, 6, 8. Class 1: offset 1 gives 1, 5, 9 and
    /// offset 3 gives 3, 7, 1, both 3 entries: the lower offset's.
    /// N = 7, d = 3, 3: class 0 takes 0, 3, 6. Class 1: offset 1 jumps to 4, then to 5,
    /// whose next step (8 = 1 + 7) closes the cycle exactly: 1, 4, 5 has the least 3
    /// entries.
    #[test]
    fn fewest_entries_win_ties_to_the_lowest_offset() {
        assert_eq!(
            place(10, &[Some(3), Some(5)]).unwrap(),
            vec![0, 0, 1, 0, 0, 0, 0, 1, 0, 0]
        );
        assert_eq!(
            place(10, &[Some(2), Some(5)]).unwrap(),
            vec![0, 1, 0, 0, 0, 1, 0, 0, 0, 1]
        );
        assert_eq!(
            place(7, &[Some(3), Some(3)]).unwrap(),
            vec![0, 1, 0, 0, 1, 1, 0]
        );
    }

    /// The spec's N = 64 example: d = 2, 4, 8, 16, 32, 64, 64.
    #[test]
    fn spec_example_offsets() {
        let d = [2, 4, 8, 16, 32, 64, 64].map(Some);
        let t = place(64, &d).unwrap();
        assert_eq!(offsets(&t, 0), (0..64).step_by(2).collect::<Vec<_>>());
        assert_eq!(offsets(&t, 1), (1..64).step_by(4).collect::<Vec<_>>());
        assert_eq!(offsets(&t, 2), (3..64).step_by(8).collect::<Vec<_>>());
        assert_eq!(offsets(&t, 3), vec![7, 23, 39, 55]);
        assert_eq!(offsets(&t, 4), vec![15, 47]);
        assert_eq!(offsets(&t, 5), vec![31]);
        assert_eq!(offsets(&t, 6), vec![63]);
        for (c, want) in [2, 4, 8, 16, 32, 64, 64].iter().enumerate() {
            assert_eq!(max_cyclic_distance(&t, c), Some(*want));
        }
    }

    #[test]
    fn free_entries_go_to_classes_without_distance() {
        let t = place(8, &[Some(2), None, None]).unwrap();
        assert_eq!(t, vec![0, 1, 0, 2, 0, 1, 0, 2]);
        let t = place(8, &[Some(4), Some(2)]).unwrap();
        // Distance 2 first (offsets 0, 2, 4, 6), distance 4 at 1, 5; the rest to class 1.
        assert_eq!(t, vec![1, 0, 1, 1, 1, 0, 1, 1]);
    }

    #[test]
    fn non_powers_of_two() {
        let t = place(10, &[Some(3), Some(3), None]).unwrap();
        assert!(max_cyclic_distance(&t, 0).unwrap() <= 3);
        assert!(max_cyclic_distance(&t, 1).unwrap() <= 3);
        let t = place(7, &[Some(3)]).unwrap();
        assert!(max_cyclic_distance(&t, 0).unwrap() <= 3);
    }

    #[test]
    fn infeasible_distances_name_the_class() {
        let Err(EngineError::Invalid { errors }) = place(8, &[Some(2), Some(2), Some(4)]) else {
            panic!("accepted");
        };
        assert_eq!(errors[0].path, "classes[2].distance");
        let Err(EngineError::Invalid { errors }) = place(4, &[Some(2), Some(2), None]) else {
            panic!("accepted");
        };
        assert_eq!(errors[0].path, "classes[2]");
        // Distances 2, 3, 12 fit by count (6 + 4 + 1 <= 12) but not in place: the odd entries
        // are 2 apart, so distance 3 needs all six of them.
        let Err(EngineError::Invalid { errors }) = place(12, &[Some(2), Some(3), Some(12)]) else {
            panic!("accepted");
        };
        assert_eq!(errors[0].path, "classes[2].distance");
    }

    #[test]
    fn max_cyclic_distance_edge_cases() {
        assert_eq!(max_cyclic_distance(&[0, 1, 1, 0], 0), Some(3));
        assert_eq!(max_cyclic_distance(&[1, 1, 0], 0), Some(3));
        assert_eq!(max_cyclic_distance(&[1, 1], 0), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        /// Powers of two always succeed when sum(N / d_i) <= N, with exactly N / d_i entries.
        #[test]
        fn powers_of_two_always_fit(log_n in 0u32..8, logs in proptest::collection::vec(0u32..8, 1..10)) {
            let n = 1usize << log_n;
            let d: Vec<Option<u32>> = logs.iter().map(|&l| Some(1u32 << l.min(log_n))).collect();
            let used: usize = d.iter().map(|d| n / d.unwrap() as usize).sum();
            let r = place(n, &d);
            if used <= n {
                let t = r.unwrap();
                for (c, dc) in d.iter().enumerate() {
                    prop_assert!(max_cyclic_distance(&t, c).unwrap() <= dc.unwrap() as usize);
                }
            } else {
                prop_assert!(r.is_err());
            }
        }

        /// Whatever the distances, an accepted placement meets every one of them.
        #[test]
        fn accepted_placements_meet_distances(n in 1usize..80, raw in proptest::collection::vec(proptest::option::of(1u32..80), 1..8)) {
            let d: Vec<Option<u32>> = raw.iter().map(|d| d.map(|d| d.min(n as u32))).collect();
            if let Ok(t) = place(n, &d) {
                prop_assert_eq!(t.len(), n);
                for (c, dc) in d.iter().enumerate() {
                    let m = max_cyclic_distance(&t, c);
                    prop_assert!(m.is_some());
                    if let Some(dc) = dc {
                        prop_assert!(m.unwrap() <= *dc as usize);
                    }
                }
            }
        }
    }

    /// The count comes first: distances 2, 2 and 4 in 8 entries need 4 + 4 + 2 = 10, and
    /// the message says so. Distances 3, 3 and 4 fit by count (3 + 3 + 2 = 8) but after
    /// 0, 3, 6 and 1, 4, 7 only 2 and 5 are free, 5 to 2 round the end is 5 apart: the
    /// greedy chain cannot bridge it.
    #[test]
    fn infeasible_distances_say_why() {
        let Err(EngineError::Invalid { errors }) = place(8, &[Some(2), Some(2), Some(4)]) else {
            panic!("accepted");
        };
        assert!(
            errors[0]
                .message
                .starts_with("distance 4 needs at least 2 of the 8 entries")
                && errors[0].message.contains("the table would need 10;"),
            "{}",
            errors[0].message
        );
        let Err(EngineError::Invalid { errors }) = place(8, &[Some(3), Some(3), Some(4)]) else {
            panic!("accepted");
        };
        assert_eq!(errors[0].path, "classes[2].distance");
        assert!(
            errors[0].message.starts_with("distance 4 cannot be met"),
            "{}",
            errors[0].message
        );
    }
}
