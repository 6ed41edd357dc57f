//! Weighted round-robin service lists: the order in which `J` flows with integer weights
//! `w_i` take the `N = sum(w_i)` slots of one round (`shared/spec/10-schedulers.md`, "WRR
//! service lists"). Table designers use them to fill arbitration tables.
//!
//! Three interleavings, from worst to best spread:
//! - **Simply interleaved** ([`ServiceListKind::Simple`]): `W_max = max(w_i)` bins; flow
//!   `i` registers in bins `1..=w_i`; the list is bin 1's flows in flow order, then bin 2's,
//!   and so on (the order Nested-DRR produces).
//! - **Uniformly interleaved** ([`ServiceListKind::Uniform`]): `W_LCM = lcm(w_i)` bins; flow
//!   `i` registers in bins `n * W_LCM / w_i` for `n = 1..=w_i`; the list is the bins in
//!   order, flows within a bin in flow order (the order SRR produces). The LCM can be huge,
//!   so bins are never iterated: entries are sorted by (bin, flow), comparing bins
//!   `n_a * W_LCM / w_a` and `n_b * W_LCM / w_b` exactly as `n_a * w_b` against `n_b * w_a`.
//! - **WF2Q interleaved** ([`ServiceListKind::Wf2q`]): WF2Q run for one frame with every flow
//!   always backlogged with equal unit packets on a link of one packet per time unit. With
//!   shares `w_i / N`, packet `k` (1-based) of flow `i` has GPS start `(k - 1) N / w_i` and
//!   finish `k N / w_i`; after `t` packets (time `t`) WF2Q serves, among the packets GPS has
//!   started (`(k - 1) N <= t w_i`), the one with the smallest finish tag, ties to the lower
//!   flow index. Tags are compared exactly as integer cross products. Some packet is always
//!   eligible: the flows have started `sum(floor(t w_i / N) + 1) > t` packets by time `t`,
//!   and only `t` have been served.
//!
//! Zero weights mean the flow is absent (it gets no entry). Flow indices in the list are
//! indices into `weights`.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::EngineError;

/// Longest service list (the same limit as the longest arbitration table of a scenario).
pub const MAX_LIST_ENTRIES: u64 = 4096;

/// How a weighted round-robin list interleaves its flows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum ServiceListKind {
    /// Simply interleaved (bins 1..w_i; the order Nested-DRR produces).
    Simple,
    /// Uniformly interleaved (lcm bins; the order SRR produces).
    Uniform,
    /// WF2Q interleaved (one WF2Q frame with equal packets; best latency).
    Wf2q,
}

/// The list of flow indices (length `sum(weights)`) for integer `weights`.
///
/// Errors (path `weights`) when every weight is 0 or the weights add up to more than
/// [`MAX_LIST_ENTRIES`].
pub fn service_list(kind: ServiceListKind, weights: &[u32]) -> Result<Vec<usize>, EngineError> {
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    if total == 0 {
        return Err(EngineError::invalid(
            "weights",
            "at least one flow needs a weight above 0",
        ));
    }
    if total > MAX_LIST_ENTRIES {
        return Err(EngineError::invalid(
            "weights",
            format!(
                "the weights add up to {total} entries, more than the limit of {MAX_LIST_ENTRIES}"
            ),
        ));
    }
    Ok(match kind {
        ServiceListKind::Simple => simple(weights),
        ServiceListKind::Uniform => uniform(weights),
        ServiceListKind::Wf2q => wf2q(weights, total),
    })
}

fn simple(weights: &[u32]) -> Vec<usize> {
    let max = weights.iter().copied().max().unwrap_or(0);
    let mut list = Vec::new();
    for bin in 1..=max {
        list.extend(
            weights
                .iter()
                .enumerate()
                .filter(|&(_, &w)| w >= bin)
                .map(|(i, _)| i),
        );
    }
    list
}

/// A fraction `num / den` (den > 0) compared exactly.
#[derive(Clone, Copy, Debug)]
struct Ratio {
    num: u64,
    den: u64,
}

impl Ratio {
    fn cmp(self, other: Ratio) -> Ordering {
        (u128::from(self.num) * u128::from(other.den))
            .cmp(&(u128::from(other.num) * u128::from(self.den)))
    }
}

fn uniform(weights: &[u32]) -> Vec<usize> {
    // Entry n of flow i sits in bin n * W_LCM / w_i; ordering by n / w_i is the same order.
    let mut entries: Vec<(Ratio, usize)> = weights
        .iter()
        .enumerate()
        .flat_map(|(i, &w)| {
            (1..=u64::from(w)).map(move |n| {
                (
                    Ratio {
                        num: n,
                        den: u64::from(w),
                    },
                    i,
                )
            })
        })
        .collect();
    entries.sort_by(|a, b| a.0.cmp(b.0).then(a.1.cmp(&b.1)));
    entries.into_iter().map(|(_, i)| i).collect()
}

/// A flow's head packet in the WF2Q frame, ordered by finish tag `k / w` then flow index.
#[derive(Clone, Copy, Debug)]
struct Tagged {
    finish: Ratio,
    flow: usize,
}

impl PartialEq for Tagged {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Tagged {}
impl PartialOrd for Tagged {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Tagged {
    fn cmp(&self, other: &Self) -> Ordering {
        self.finish
            .cmp(other.finish)
            .then(self.flow.cmp(&other.flow))
    }
}

fn wf2q(weights: &[u32], total: u64) -> Vec<usize> {
    // `next[i]` is the (1-based) number of flow i's head packet.
    let mut next: Vec<u64> = vec![1; weights.len()];
    // Heads GPS has started, by finish tag; heads not started yet, by start time
    // `(k - 1) N / w` as (start, flow) so the earliest start pops first.
    let mut eligible: BinaryHeap<Reverse<Tagged>> = BinaryHeap::new();
    let mut waiting: BinaryHeap<Reverse<(StartKey, usize)>> = BinaryHeap::new();
    for (i, &w) in weights.iter().enumerate() {
        if w > 0 {
            // First packets start at 0: all eligible at t = 0.
            eligible.push(Reverse(Tagged {
                finish: Ratio {
                    num: 1,
                    den: u64::from(w),
                },
                flow: i,
            }));
        }
    }
    let mut list = Vec::with_capacity(usize::try_from(total).unwrap_or(0));
    for t in 0..total {
        // Move heads whose GPS start (k - 1) N / w_i <= t into the eligible set.
        while let Some(Reverse((start, flow))) = waiting.peek().copied() {
            if start.0.cmp(Ratio { num: t, den: 1 }) == Ordering::Greater {
                break;
            }
            waiting.pop();
            let w = u64::from(weights[flow]);
            eligible.push(Reverse(Tagged {
                finish: Ratio {
                    num: next[flow],
                    den: w,
                },
                flow,
            }));
        }
        // The module doc proves a head is always eligible here; if that ever failed, the
        // earliest-starting head is served so the list stays complete.
        let flow = match eligible.pop() {
            Some(Reverse(head)) => head.flow,
            None => match waiting.pop() {
                Some(Reverse((_, flow))) => flow,
                None => break,
            },
        };
        list.push(flow);
        next[flow] += 1;
        let w = u64::from(weights[flow]);
        if next[flow] <= w {
            let start = StartKey(Ratio {
                num: (next[flow] - 1) * total,
                den: w,
            });
            waiting.push(Reverse((start, flow)));
        }
    }
    list
}

/// A GPS start time, ordered exactly.
#[derive(Clone, Copy, Debug)]
struct StartKey(Ratio);

impl PartialEq for StartKey {
    fn eq(&self, other: &Self) -> bool {
        self.0.cmp(other.0) == Ordering::Equal
    }
}
impl Eq for StartKey {}
impl PartialOrd for StartKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for StartKey {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.cmp(other.0)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use ServiceListKind::{Simple, Uniform, Wf2q};
    use proptest::prelude::*;

    fn list(kind: ServiceListKind, w: &[u32]) -> Vec<usize> {
        service_list(kind, w).unwrap()
    }

    /// Weights [3, 2, 1], worked by hand.
    /// Simple: bins 1 {0, 1, 2}, 2 {0, 1}, 3 {0}.
    /// Uniform: W_LCM = 6; flow 0 in bins 2, 4, 6; flow 1 in 3, 6; flow 2 in 6.
    /// WF2Q (N = 6; start (k-1)/w, finish k/w, in frames): t0 all start, finishes 1/3, 1/2,
    /// 1 -> 0; t1 flow 0's second packet starts at 6/3 = 2 > 1, so 1 (1/2); t2 flow 0
    /// (2/3) beats 2 (1), flow 1's second starts at 3; t3 flow 1 (1) ties flow 2 (1): lower
    /// index 1; t4 flow 0's third (start 4, finish 1) ties flow 2: 0; t5 2.
    #[test]
    fn worked_example_3_2_1() {
        assert_eq!(list(Simple, &[3, 2, 1]), vec![0, 1, 2, 0, 1, 0]);
        assert_eq!(list(Uniform, &[3, 2, 1]), vec![0, 1, 0, 0, 1, 2]);
        assert_eq!(list(Wf2q, &[3, 2, 1]), vec![0, 1, 0, 1, 0, 2]);
    }

    /// Weights [2, 1]: simple 0 1 0; uniform bins 1 {0}, 2 {0, 1}; WF2Q N = 3: t0 0
    /// (finish 1/2), t1 flow 0's second starts at 3/2 > 1 so 1, t2 0.
    #[test]
    fn worked_example_2_1() {
        assert_eq!(list(Simple, &[2, 1]), vec![0, 1, 0]);
        assert_eq!(list(Uniform, &[2, 1]), vec![0, 0, 1]);
        assert_eq!(list(Wf2q, &[2, 1]), vec![0, 1, 0]);
    }

    /// Weights [4, 1, 1] (N = 6). Uniform: W_LCM = 4; flow 0 in bins 1..4, flows 1 and 2 in
    /// bin 4. WF2Q: t0 finishes 1/4, 1, 1 -> 0; t1 flow 0's 2nd starts 6/4 > 1 -> 1; t2 0
    /// (2/4 beats 2's 1); t3 flow 0's 3rd starts 3 <= 3, 3/4 -> 0; t4 4th starts 4.5 > 4 -> 2;
    /// t5 0.
    #[test]
    fn worked_example_4_1_1() {
        assert_eq!(list(Simple, &[4, 1, 1]), vec![0, 1, 2, 0, 0, 0]);
        assert_eq!(list(Uniform, &[4, 1, 1]), vec![0, 0, 0, 0, 1, 2]);
        assert_eq!(list(Wf2q, &[4, 1, 1]), vec![0, 1, 0, 0, 2, 0]);
    }

    /// The WF2Q frame's heap keys are equal exactly when their fractions are (and, for
    /// heads, their flows): `Eq` agrees with `Ord`, whatever the fraction's terms.
    #[test]
    fn heap_keys_are_equal_when_their_fractions_are() {
        let r = |num, den| Ratio { num, den };
        let head = |finish, flow| Tagged { finish, flow };
        assert_eq!(head(r(1, 2), 0), head(r(2, 4), 0));
        assert_ne!(head(r(1, 2), 0), head(r(1, 2), 1));
        assert_ne!(head(r(1, 2), 0), head(r(1, 3), 0));
        assert_eq!(StartKey(r(3, 6)), StartKey(r(1, 2)));
        assert_ne!(StartKey(r(1, 3)), StartKey(r(1, 2)));
        for (a, b) in [(r(0, 1), r(0, 7)), (r(5, 3), r(10, 6)), (r(4, 3), r(3, 4))] {
            assert_eq!(
                StartKey(a) == StartKey(b),
                StartKey(a).cmp(&StartKey(b)).is_eq()
            );
            assert_eq!(
                head(a, 2) == head(b, 2),
                head(a, 2).cmp(&head(b, 2)).is_eq()
            );
        }
    }

    #[test]
    fn zero_weights_are_absent_flows() {
        for kind in [Simple, Uniform, Wf2q] {
            assert_eq!(list(kind, &[0, 1, 0, 1]), vec![1, 3], "{kind:?}");
        }
        assert_eq!(list(Simple, &[2, 0, 2]), vec![0, 2, 0, 2]);
    }

    #[test]
    fn rejects_empty_zero_and_oversized_weights() {
        for kind in [Simple, Uniform, Wf2q] {
            for bad in [&[][..], &[0, 0][..], &[4000, 97][..], &[u32::MAX, 1][..]] {
                let Err(EngineError::Invalid { errors }) = service_list(kind, bad) else {
                    panic!("{kind:?} {bad:?} accepted");
                };
                assert_eq!(errors[0].path, "weights");
            }
            assert_eq!(service_list(kind, &[4000, 96]).unwrap().len(), 4096);
        }
    }

    /// A literal reading of the spec for uniform lists: iterate the W_LCM bins.
    fn uniform_by_bins(w: &[u32]) -> Vec<usize> {
        fn gcd(a: u64, b: u64) -> u64 {
            if b == 0 { a } else { gcd(b, a % b) }
        }
        let lcm = w
            .iter()
            .filter(|&&x| x > 0)
            .fold(1u64, |l, &x| l / gcd(l, u64::from(x)) * u64::from(x));
        let mut out = Vec::new();
        for bin in 1..=lcm {
            for (i, &x) in w.iter().enumerate() {
                if x > 0 && bin % (lcm / u64::from(x)) == 0 {
                    out.push(i);
                }
            }
        }
        out
    }

    fn weights() -> impl Strategy<Value = Vec<u32>> {
        proptest::collection::vec(0u32..40, 1..10)
            .prop_filter("some weight", |w| w.iter().any(|&x| x > 0))
    }

    fn count(prefix: &[usize], flow: usize) -> u64 {
        prefix.iter().filter(|&&f| f == flow).count() as u64
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        /// Every flow appears exactly w_i times, in every kind.
        #[test]
        fn each_flow_gets_its_weight(w in weights()) {
            for kind in [Simple, Uniform, Wf2q] {
                let l = list(kind, &w);
                prop_assert_eq!(l.len() as u64, w.iter().map(|&x| u64::from(x)).sum::<u64>());
                for (i, &x) in w.iter().enumerate() {
                    prop_assert_eq!(count(&l, i), u64::from(x), "{:?} flow {}", kind, i);
                }
            }
        }

        /// The sorted uniform list equals the spec's bin-by-bin construction (small weights,
        /// so the LCM stays small).
        #[test]
        fn uniform_matches_the_bin_construction(w in proptest::collection::vec(0u32..13, 1..6)
            .prop_filter("some weight", |w| w.iter().any(|&x| x > 0))) {
            prop_assert_eq!(list(Uniform, &w), uniform_by_bins(&w));
        }

        /// Uniform spread: the list is sorted by n / w_i, so in any prefix ending at key x,
        /// flow i has c_i with x - 1/w_i <= c_i / w_i <= x, hence for any two flows
        /// |c_i w_j - c_j w_i| <= max(w_i, w_j).
        #[test]
        fn uniform_prefixes_stay_proportional(w in weights()) {
            let l = list(Uniform, &w);
            let mut c = vec![0u64; w.len()];
            for &f in &l {
                c[f] += 1;
                for i in 0..w.len() {
                    for j in 0..w.len() {
                        if w[i] == 0 || w[j] == 0 { continue; }
                        let (wi, wj) = (u64::from(w[i]), u64::from(w[j]));
                        prop_assert!((c[i] * wj).abs_diff(c[j] * wi) <= wi.max(wj),
                            "flows {} {} counts {:?} weights {:?}", i, j, c, w);
                    }
                }
            }
        }

        /// WF2Q spread. Upper bound: a packet is served only once GPS has started it, so after
        /// k packets flow i has c_i(k) <= floor((k-1) w_i / N) + 1. Lower bound (WF2Q finishes
        /// every packet at most one packet time after GPS, Bennett and Zhang): packet j is
        /// done by time floor(j N / w_i) + 1, so c_i(k) >= ceil(k w_i / N) - 1. Both imply the
        /// looser floor(k w_i / N) - 1 <= c_i(k) <= ceil(k w_i / N) + 1.
        #[test]
        fn wf2q_prefixes_track_gps(w in weights()) {
            let l = list(Wf2q, &w);
            let n: u64 = w.iter().map(|&x| u64::from(x)).sum();
            let mut c = vec![0u64; w.len()];
            for (idx, &f) in l.iter().enumerate() {
                c[f] += 1;
                let k = idx as u64 + 1;
                for (i, &wi) in w.iter().enumerate() {
                    let wi = u64::from(wi);
                    let upper = (k - 1) * wi / n + 1;
                    let lower = (k * wi).div_ceil(n).saturating_sub(1);
                    prop_assert!(c[i] <= upper && c[i] >= lower,
                        "k {} flow {}: {} not in [{}, {}] (weights {:?})", k, i, c[i], lower, upper, w);
                }
            }
        }

        /// WF2Q never lets a flow wait much longer than its share: between consecutive
        /// entries of flow i (cyclically) at most ceil(2 N / w_i) slots pass, which follows
        /// from the prefix bounds above.
        #[test]
        fn wf2q_gaps_are_bounded(w in weights()) {
            let l = list(Wf2q, &w);
            let n = l.len();
            for (i, &wi) in w.iter().enumerate() {
                if wi == 0 { continue; }
                let pos: Vec<usize> = (0..n).filter(|&p| l[p] == i).collect();
                for (a, b) in pos.iter().zip(pos.iter().cycle().skip(1)) {
                    let gap = if b > a { b - a } else { b + n - a };
                    prop_assert!(gap as u64 <= (2 * n as u64).div_ceil(u64::from(wi)),
                        "flow {} gap {} weights {:?}", i, gap, w);
                }
            }
        }
    }
}
