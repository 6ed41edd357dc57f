//! Bandwidth to integer weights (`shared/spec/20-table-design.md` §2, "Weights").
//!
//! Class totals: quotas `q_i = target_i * pool` rounded by largest remainder (each class
//! first gets `floor(q_i)` clamped to its bounds; the units left go one by one to the class
//! with the largest remainder `q_i - T_i` that is still below its upper bound; units
//! over go back from the smallest remainder above its lower bound). So `|T_i - q_i| < 1`
//! and the totals add up to `pool` whenever `sum(lower) <= pool <= sum(upper)` and the
//! quotas are within the bounds, which the decoupling search guarantees. Otherwise the
//! totals stay as close to `pool` as the bounds allow.
//!
//! Entries: a class total `T` over `n` entries gives `floor(T / n)` to each, plus one to
//! the first `T mod n` entries in table order (entries of a class differ by at most one).

/// Integer totals near `quotas` (which should add up to `pool`), each within
/// `[lower_i, upper_i]` (callers keep `lower_i <= upper_i`), by largest remainder.
pub fn apportion(pool: u64, quotas: &[f64], lower: &[u64], upper: &[u64]) -> Vec<u64> {
    let mut totals: Vec<u64> = quotas
        .iter()
        .zip(lower.iter().zip(upper))
        .map(|(&q, (&lo, &hi))| (q.max(0.0).floor() as u64).clamp(lo, hi.max(lo)))
        .collect();
    let remainder = |totals: &[u64], i: usize| quotas[i] - totals[i] as f64;
    loop {
        let sum: u64 = totals.iter().sum();
        if sum == pool {
            break;
        }
        let pick = if sum < pool {
            (0..totals.len())
                .filter(|&i| totals[i] < upper[i])
                .max_by(|&a, &b| {
                    remainder(&totals, a)
                        .total_cmp(&remainder(&totals, b))
                        .then(b.cmp(&a))
                })
        } else {
            (0..totals.len())
                .filter(|&i| totals[i] > lower[i])
                .min_by(|&a, &b| {
                    remainder(&totals, a)
                        .total_cmp(&remainder(&totals, b))
                        .then(b.cmp(&a))
                })
        };
        match pick {
            Some(i) if sum < pool => totals[i] += 1,
            Some(i) => totals[i] -= 1,
            None => break,
        }
    }
    totals
}

/// `total` spread over `n` entries (`n >= 1`): the first `total mod n` get one more.
pub fn spread(total: u64, n: u64) -> Vec<u64> {
    let n = n.max(1);
    (0..n)
        .map(|j| total / n + u64::from(j < total % n))
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn exact_quotas_are_kept() {
        let q = [96.0, 48.0, 512.0, 208.0, 96.0, 48.0, 16.0];
        let t = apportion(1024, &q, &[96, 48, 256, 128, 32, 16, 16], &[2048; 7]);
        assert_eq!(t, vec![96, 48, 512, 208, 96, 48, 16]);
    }

    #[test]
    fn largest_remainders_get_the_units() {
        // 10 over thirds: 3.33 each, one unit to the first (ties to the lower index).
        assert_eq!(
            apportion(10, &[10.0 / 3.0; 3], &[0; 3], &[10; 3]),
            vec![4, 3, 3]
        );
        assert_eq!(
            apportion(10, &[2.6, 3.3, 4.1], &[0; 3], &[10; 3]),
            vec![3, 3, 4]
        );
        // Bounds win over remainders.
        assert_eq!(
            apportion(10, &[2.6, 3.3, 4.1], &[0; 3], &[2, 10, 10]),
            vec![2, 4, 4]
        );
        // Raised lower bounds give units back from the smallest remainders.
        assert_eq!(
            apportion(10, &[0.5, 4.9, 4.6], &[2, 0, 0], &[10; 3]),
            vec![2, 4, 4]
        );
    }

    #[test]
    fn spread_differs_by_at_most_one() {
        assert_eq!(spread(208, 4), vec![52; 4]);
        assert_eq!(spread(10, 4), vec![3, 3, 2, 2]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn totals_add_up_and_stay_within_one(pool in 1u64..100_000, raw in proptest::collection::vec(1u32..1000, 1..20)) {
            let s: f64 = raw.iter().map(|&r| f64::from(r)).sum();
            let q: Vec<f64> = raw.iter().map(|&r| f64::from(r) / s * pool as f64).collect();
            let t = apportion(pool, &q, &vec![0; q.len()], &vec![pool; q.len()]);
            prop_assert_eq!(t.iter().sum::<u64>(), pool);
            for (ti, qi) in t.iter().zip(&q) {
                prop_assert!((*ti as f64 - qi).abs() < 1.0 + 1e-9);
            }
        }
    }

    #[test]
    fn the_unit_left_goes_to_the_largest_remainder_not_the_largest_ratio() {
        // 12 over quotas 1.4 and 10.6: floors 1 and 10, one unit left; remainders 0.4 and
        // 0.6, so class 1 gets it (1.4 / 1 is the larger ratio, which must not count).
        assert_eq!(apportion(12, &[1.4, 10.6], &[0; 2], &[12; 2]), vec![1, 11]);
    }

    #[test]
    fn units_over_the_pool_go_back_from_the_smallest_remainder_above_its_lower_bound() {
        // Floors 0 (raised to 2 by its lower bound), 5 and 4: 11 for a pool of 10. Class 0
        // is at its lower bound; of the others class 2 has the smaller remainder (0.6).
        assert_eq!(
            apportion(10, &[0.5, 5.9, 4.6], &[2, 0, 0], &[10; 3]),
            vec![2, 5, 3]
        );
        // Two units over: first from class 2 (remainder 0.6), then from class 1 (0.9, now
        // smaller than class 2's 1.6).
        assert_eq!(
            apportion(9, &[0.5, 5.9, 4.6], &[2, 0, 0], &[10; 3]),
            vec![2, 4, 3]
        );
        // Every class at its lower bound: nothing can go back, the totals stay over.
        assert_eq!(apportion(3, &[0.5, 0.5], &[2, 2], &[10; 2]), vec![2, 2]);
    }
}
