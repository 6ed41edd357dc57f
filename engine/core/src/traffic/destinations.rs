//! Destination models: where the bursts and connections of an end point go.
//!
//! A [`DestinationSetup`] is built once per class (it holds the tables shared by all end
//! points: the Zipf weights and ranking, the permutation); [`DestinationSetup::for_source`]
//! gives each end point its [`DestinationModel`], which draws from the end point's own
//! `DESTINATIONS` stream. No model ever returns the source itself.
//!
//! - uniform: uniform over the `n - 1` other end points;
//! - Zipf with exponent `s`: the destination of rank `k` (1-based) has weight `1 / k^s`.
//!   `random` ranking: one seeded random permutation of all `n` end points, shared by every
//!   source of the class (so the same end points are hot for everyone); a source removes
//!   itself and the others keep their weights (renormalised). `distance` ranking: by index
//!   distance on a ring from the source, ranks 1, 2, 3, 4, ... = source+1, source-1,
//!   source+2, source-2, ... (mod n), so near end points (same switch in a MIN or tree
//!   numbered in order) are the hot ones;
//! - hot spot: with probability `fraction` the hot end point, otherwise uniform over the
//!   other end points (the hot one included); the hot end point itself sends uniformly;
//! - permutation: a fixed partner. Bit complement (`s XOR (n-1)`), bit reversal (bit
//!   palindromes, which would be their own partners, use the bit complement instead; the
//!   mapping stays a permutation because the complement of a palindrome is a palindrome),
//!   or a seeded random cyclic permutation (Sattolo's algorithm: one cycle through all end
//!   points, so no fixed point).

use std::sync::Arc;

use crate::rng::{RngStream, RngStreams};

use super::destination_config::{DestinationConfig, PermutationPattern, ZipfRanking};
use super::generated::{stream, streams};

/// The per-class part of a destination model.
#[derive(Clone, Debug)]
pub struct DestinationSetup {
    endpoints: u32,
    kind: Kind,
}

#[derive(Clone, Debug)]
enum Kind {
    Uniform,
    /// Zipf over a shared random ranking of all end points.
    ZipfRandom {
        /// `cumulative[r]` = sum of the weights of ranks `0..=r` (0-based).
        cumulative: Arc<[f64]>,
        /// End point of each rank.
        order: Arc<[u32]>,
        /// Rank of each end point.
        rank_of: Arc<[u32]>,
    },
    /// Zipf over the ring distance from the source (`n - 1` ranks).
    ZipfDistance {
        cumulative: Arc<[f64]>,
    },
    HotSpot {
        hot: u32,
        fraction: f64,
    },
    Partner(Arc<[u32]>),
}

/// The destinations of one end point and class.
#[derive(Clone, Debug)]
pub struct DestinationModel {
    setup: DestinationSetup,
    source: u32,
    rng: RngStream,
}

fn zipf_cumulative(ranks: u32, exponent: f64) -> Arc<[f64]> {
    let mut sum = 0.0;
    (1..=ranks)
        .map(|k| {
            sum += 1.0 / libm::pow(f64::from(k), exponent);
            sum
        })
        .collect()
}

/// First index whose cumulative weight exceeds `x` (clamped to the table).
fn find(cumulative: &[f64], x: f64) -> usize {
    cumulative
        .partition_point(|&c| c <= x)
        .min(cumulative.len().saturating_sub(1))
}

impl DestinationSetup {
    /// The setup of class `class` over `endpoints` end points. Errors (which validation
    /// reports first) for fewer than 2 end points, a hot end point out of range, or a
    /// bit permutation over a count that is not a power of two.
    pub fn new(
        cfg: &DestinationConfig,
        class: u32,
        endpoints: u32,
        rng: &RngStreams,
    ) -> Result<DestinationSetup, String> {
        if endpoints < 2 {
            return Err(format!(
                "destinations need at least 2 end points (got {endpoints})"
            ));
        }
        let n = endpoints;
        let kind = match cfg {
            DestinationConfig::Uniform => Kind::Uniform,
            DestinationConfig::Zipf(z) => match z.ranking {
                ZipfRanking::Random => {
                    let mut order: Vec<u32> = (0..n).collect();
                    let mut s = stream(rng, streams::SHARED, class, streams::ZIPF_RANKING);
                    for i in (1..n).rev() {
                        let j = s.uniform_u32(0, i);
                        order.swap(i as usize, j as usize);
                    }
                    let mut rank_of = vec![0u32; n as usize];
                    for (r, &e) in order.iter().enumerate() {
                        rank_of[e as usize] = r as u32;
                    }
                    Kind::ZipfRandom {
                        cumulative: zipf_cumulative(n, z.exponent),
                        order: order.into(),
                        rank_of: rank_of.into(),
                    }
                }
                ZipfRanking::Distance => Kind::ZipfDistance {
                    cumulative: zipf_cumulative(n - 1, z.exponent),
                },
            },
            DestinationConfig::HotSpot(h) => {
                if h.endpoint >= n {
                    return Err(format!(
                        "hot end point {} is not one of the {n} end points",
                        h.endpoint
                    ));
                }
                Kind::HotSpot {
                    hot: h.endpoint,
                    fraction: h.fraction.clamp(0.0, 1.0),
                }
            }
            DestinationConfig::Permutation(p) => {
                let partner: Vec<u32> = match p.pattern {
                    PermutationPattern::BitComplement | PermutationPattern::BitReversal
                        if !n.is_power_of_two() =>
                    {
                        return Err(format!(
                            "bit permutations need a power-of-two number of end points (got {n})"
                        ));
                    }
                    PermutationPattern::BitComplement => (0..n).map(|s| s ^ (n - 1)).collect(),
                    PermutationPattern::BitReversal => {
                        let bits = n.trailing_zeros();
                        (0..n)
                            .map(|s| {
                                let r = s.reverse_bits() >> (32 - bits);
                                if r == s { s ^ (n - 1) } else { r }
                            })
                            .collect()
                    }
                    PermutationPattern::RandomDerangement => {
                        // Sattolo: a uniformly random cyclic permutation.
                        let mut perm: Vec<u32> = (0..n).collect();
                        let mut s = stream(rng, streams::SHARED, class, streams::DERANGEMENT);
                        for i in (1..n).rev() {
                            let j = s.uniform_u32(0, i - 1);
                            perm.swap(i as usize, j as usize);
                        }
                        perm
                    }
                };
                Kind::Partner(partner.into())
            }
        };
        Ok(DestinationSetup { endpoints: n, kind })
    }

    /// The model of end point `source` (which draws from its own stream).
    pub fn for_source(&self, source: u32, class: u32, rng: &RngStreams) -> DestinationModel {
        DestinationModel {
            setup: self.clone(),
            source: source % self.endpoints,
            rng: stream(rng, source, class, streams::DESTINATIONS),
        }
    }

    /// Number of end points.
    pub fn endpoints(&self) -> u32 {
        self.endpoints
    }
}

impl DestinationModel {
    /// The source end point.
    pub fn source(&self) -> u32 {
        self.source
    }

    /// Draws the next destination (never the source).
    pub fn next_destination(&mut self) -> u32 {
        let n = self.setup.endpoints;
        let s = self.source;
        match &self.setup.kind {
            Kind::Uniform => self.uniform_other(),
            Kind::ZipfRandom {
                cumulative,
                order,
                rank_of,
            } => {
                let rs = rank_of[s as usize] as usize;
                let start = if rs == 0 { 0.0 } else { cumulative[rs - 1] };
                let w = cumulative[rs] - start;
                let total = cumulative[cumulative.len() - 1];
                let mut x = self.rng.unit() * (total - w);
                if x >= start {
                    x += w;
                }
                let mut r = find(cumulative, x);
                if r == rs {
                    // Only reachable through rounding at the boundary of the source's rank.
                    r = if rs + 1 < n as usize { rs + 1 } else { rs - 1 };
                }
                order[r]
            }
            Kind::ZipfDistance { cumulative } => {
                let total = cumulative[cumulative.len() - 1];
                let r = find(cumulative, self.rng.unit() * total) as u32;
                ring_neighbour(s, r, n)
            }
            Kind::HotSpot { hot, fraction } => {
                let hot = *hot;
                let fraction = *fraction;
                if s != hot && self.rng.unit() < fraction {
                    hot
                } else {
                    self.uniform_other()
                }
            }
            Kind::Partner(p) => p[s as usize],
        }
    }

    fn uniform_other(&mut self) -> u32 {
        let d = self.rng.uniform_u32(0, self.setup.endpoints - 2);
        if d >= self.source { d + 1 } else { d }
    }

    /// The exact probability of each destination (index = end point; 0 for the source).
    pub fn probabilities(&self) -> Vec<f64> {
        let n = self.setup.endpoints as usize;
        let s = self.source as usize;
        let mut p = vec![0.0; n];
        let others = (n - 1) as f64;
        match &self.setup.kind {
            Kind::Uniform => {
                p.iter_mut().for_each(|x| *x = 1.0 / others);
            }
            Kind::ZipfRandom {
                cumulative,
                order,
                rank_of,
            } => {
                let weight =
                    |r: usize| cumulative[r] - if r == 0 { 0.0 } else { cumulative[r - 1] };
                let total = cumulative[n - 1] - weight(rank_of[s] as usize);
                for (r, &e) in order.iter().enumerate() {
                    p[e as usize] = weight(r) / total;
                }
            }
            Kind::ZipfDistance { cumulative } => {
                let total = cumulative[n - 2];
                for r in 0..n - 1 {
                    let w = cumulative[r] - if r == 0 { 0.0 } else { cumulative[r - 1] };
                    p[ring_neighbour(self.source, r as u32, n as u32) as usize] = w / total;
                }
            }
            Kind::HotSpot { hot, fraction } => {
                let hot = *hot as usize;
                if s == hot {
                    p.iter_mut().for_each(|x| *x = 1.0 / others);
                } else {
                    p.iter_mut().for_each(|x| *x = (1.0 - fraction) / others);
                    p[hot] += fraction;
                }
            }
            Kind::Partner(q) => p[q[s] as usize] = 1.0,
        }
        p[s] = 0.0;
        p
    }
}

/// The end point of 0-based distance rank `r` from `s` on a ring of `n`: +1, -1, +2, -2, ...
fn ring_neighbour(s: u32, r: u32, n: u32) -> u32 {
    let k = u64::from(r / 2 + 1) % u64::from(n);
    let (s, n) = (u64::from(s), u64::from(n));
    let d = if r % 2 == 0 { s + k } else { s + n - k };
    (d % n) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traffic::config::{HotSpotConfig, PermutationConfig, ZipfConfig};

    fn build(cfg: &DestinationConfig, n: u32, seed: u64) -> (DestinationSetup, RngStreams) {
        let rng = RngStreams::new(seed);
        (DestinationSetup::new(cfg, 2, n, &rng).unwrap(), rng)
    }

    fn all_configs() -> Vec<DestinationConfig> {
        vec![
            DestinationConfig::Uniform,
            DestinationConfig::Zipf(ZipfConfig {
                exponent: 1.0,
                ranking: ZipfRanking::Random,
            }),
            DestinationConfig::Zipf(ZipfConfig {
                exponent: 1.5,
                ranking: ZipfRanking::Distance,
            }),
            DestinationConfig::HotSpot(HotSpotConfig {
                endpoint: 5,
                fraction: 0.3,
            }),
            DestinationConfig::Permutation(PermutationConfig {
                pattern: PermutationPattern::RandomDerangement,
            }),
            DestinationConfig::Permutation(PermutationConfig {
                pattern: PermutationPattern::BitReversal,
            }),
            DestinationConfig::Permutation(PermutationConfig {
                pattern: PermutationPattern::BitComplement,
            }),
        ]
    }

    /// Empirical frequencies match the exact probabilities (chi-square-like tolerance:
    /// every destination within 5 standard deviations plus a small slack).
    #[test]
    fn frequencies_match_probabilities_and_never_self() {
        let n = 16;
        let draws = 60_000;
        for cfg in all_configs() {
            let (setup, rng) = build(&cfg, n, 7);
            for source in [0, 5, 15] {
                let mut m = setup.for_source(source, 2, &rng);
                let p = m.probabilities();
                assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{cfg:?}");
                assert_eq!(p[source as usize], 0.0);
                let mut counts = vec![0u32; n as usize];
                for _ in 0..draws {
                    let d = m.next_destination();
                    assert_ne!(d, source, "{cfg:?} sent to itself");
                    counts[d as usize] += 1;
                }
                for (d, (&c, &q)) in counts.iter().zip(&p).enumerate() {
                    let expected = q * f64::from(draws);
                    let sd = (expected * (1.0 - q)).sqrt();
                    assert!(
                        (f64::from(c) - expected).abs() <= 5.0 * sd + 2.0,
                        "{cfg:?} source {source} dest {d}: {c} vs {expected:.0}"
                    );
                }
            }
        }
    }

    #[test]
    fn zipf_weights_follow_the_rank() {
        let cfg = DestinationConfig::Zipf(ZipfConfig {
            exponent: 1.0,
            ranking: ZipfRanking::Distance,
        });
        let (setup, rng) = build(&cfg, 8, 1);
        let p = setup.for_source(3, 2, &rng).probabilities();
        // Ranks from 3: 4, 2, 5, 1, 6, 0, 7 with weights 1, 1/2, ..., 1/7.
        let h: f64 = (1..=7).map(|k| 1.0 / f64::from(k)).sum();
        for (rank, d) in [4usize, 2, 5, 1, 6, 0, 7].into_iter().enumerate() {
            assert!(
                (p[d] - 1.0 / (rank as f64 + 1.0) / h).abs() < 1e-12,
                "dest {d}"
            );
        }
        // The random ranking is shared: the most likely destination is the same end
        // point for every source that is not that end point.
        let cfg = DestinationConfig::Zipf(ZipfConfig {
            exponent: 2.0,
            ranking: ZipfRanking::Random,
        });
        let (random, rng) = build(&cfg, 32, 9);
        let top = |s: u32| {
            let p = random.for_source(s, 2, &rng).probabilities();
            (0..32)
                .max_by(|&a, &b| p[a].total_cmp(&p[b]).then(b.cmp(&a)))
                .unwrap()
        };
        let hot = top(0);
        for s in 1..32u32 {
            if s as usize != hot {
                assert_eq!(top(s), hot);
            }
        }
    }

    #[test]
    fn permutations_are_bijections_without_fixed_points() {
        for n in [2u32, 4, 8, 64, 256] {
            for cfg in all_configs().into_iter().skip(4) {
                let (setup, rng) = build(&cfg, n, 3);
                let mut partners: Vec<u32> = (0..n)
                    .map(|s| setup.for_source(s, 2, &rng).next_destination())
                    .collect();
                assert!(partners.iter().enumerate().all(|(s, &d)| s as u32 != d));
                partners.sort_unstable();
                assert_eq!(partners, (0..n).collect::<Vec<_>>(), "{cfg:?} n {n}");
            }
        }
        // Bit reversal on 8: 1 (001) -> 4 (100); 0 and 2 (010) are palindromes -> complement.
        let cfg = DestinationConfig::Permutation(PermutationConfig {
            pattern: PermutationPattern::BitReversal,
        });
        let (setup, rng) = build(&cfg, 8, 3);
        let p = |s| setup.for_source(s, 2, &rng).next_destination();
        assert_eq!((p(1), p(0), p(2), p(3)), (4, 7, 5, 6));
    }

    #[test]
    fn deterministic_per_seed_and_source() {
        for cfg in all_configs() {
            let draw = |seed, source| {
                let (setup, rng) = build(&cfg, 64, seed);
                let mut m = setup.for_source(source, 2, &rng);
                (0..50).map(|_| m.next_destination()).collect::<Vec<_>>()
            };
            assert_eq!(draw(1, 3), draw(1, 3));
            if matches!(
                cfg,
                DestinationConfig::Uniform | DestinationConfig::HotSpot(_)
            ) {
                assert_ne!(draw(1, 3), draw(2, 3));
            }
        }
    }

    #[test]
    fn refuses_impossible_setups() {
        let rng = RngStreams::new(1);
        assert!(DestinationSetup::new(&DestinationConfig::Uniform, 0, 1, &rng).is_err());
        let bits = DestinationConfig::Permutation(PermutationConfig {
            pattern: PermutationPattern::BitComplement,
        });
        assert!(DestinationSetup::new(&bits, 0, 12, &rng).is_err());
        let hot = DestinationConfig::HotSpot(HotSpotConfig {
            endpoint: 12,
            fraction: 0.5,
        });
        assert!(DestinationSetup::new(&hot, 0, 12, &rng).is_err());
    }
}
