//! Jitter of connections: how much the spacing of a connection's packets changes on the
//! way through the network.
//!
//! For consecutive delivered packets `k-1`, `k` of one connection (in delivery order),
//! the jitter sample is `(arrival_k - arrival_{k-1}) - (generation_k - generation_{k-1})`
//! (equivalently, the change of latency from one packet to the next): 0 when the network
//! kept the spacing, positive when packet `k` was delayed more than its predecessor,
//! negative when it caught up. The first packet of a connection gives no sample.
//!
//! Samples are signed, so they go into two HdrHistograms (3 significant digits) of
//! magnitudes, one per sign, plus a count of exact zeros; the mean, mean magnitude,
//! minimum and maximum are exact. The summary's CDF runs over the signed values.

use hdrhistogram::Histogram;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::time::{PS_PER_NS, SimTime};

/// Most points in a reported CDF (plus the tail refinement points).
const CDF_STEPS: f64 = 200.0;

/// Records signed jitter samples (in picoseconds).
#[derive(Clone, Debug)]
pub struct JitterRecorder {
    /// Magnitudes of negative samples.
    early: Option<Histogram<u64>>,
    /// Magnitudes of positive samples.
    late: Option<Histogram<u64>>,
    zeros: u64,
    count: u64,
    sum_ps: i128,
    sum_abs_ps: u128,
    min_ps: i64,
    max_ps: i64,
}

impl Default for JitterRecorder {
    fn default() -> Self {
        JitterRecorder {
            early: Histogram::new(3).ok(),
            late: Histogram::new(3).ok(),
            zeros: 0,
            count: 0,
            sum_ps: 0,
            sum_abs_ps: 0,
            min_ps: i64::MAX,
            max_ps: i64::MIN,
        }
    }
}

/// Summary of a jitter distribution, in nanoseconds. Quantiles and CDF points come from
/// the histograms (within 0.1%); the mean, mean magnitude, min and max are exact.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct JitterSummary {
    /// Number of samples (delivered packets that had a predecessor in their connection).
    #[ts(type = "number")]
    pub samples: u64,
    /// Mean signed jitter (close to 0 for a stable network; null without samples).
    pub mean: Option<f64>,
    /// Mean magnitude of the jitter.
    pub mean_abs: Option<f64>,
    /// Most negative sample.
    pub min: Option<f64>,
    /// 99th percentile of the magnitude.
    pub p99_abs: Option<f64>,
    /// Largest sample.
    pub max: Option<f64>,
    /// Empirical CDF over signed values: `[jitter_ns, fraction of samples <= it]`.
    pub cdf: Vec<(f64, f64)>,
}

fn ns(ps: i64) -> f64 {
    ps as f64 / PS_PER_NS as f64
}

fn record_into(h: &mut Option<Histogram<u64>>, v: u64) {
    if let Some(h) = h.as_mut() {
        if h.record(v).is_err() {
            h.saturating_record(v);
        }
    }
}

impl JitterRecorder {
    /// Records one signed sample in picoseconds.
    pub fn record(&mut self, jitter_ps: i64) {
        match jitter_ps {
            0 => self.zeros += 1,
            j if j < 0 => record_into(&mut self.early, j.unsigned_abs()),
            j => record_into(&mut self.late, j.unsigned_abs()),
        }
        self.count += 1;
        self.sum_ps += i128::from(jitter_ps);
        self.sum_abs_ps += u128::from(jitter_ps.unsigned_abs());
        self.min_ps = self.min_ps.min(jitter_ps);
        self.max_ps = self.max_ps.max(jitter_ps);
    }

    /// Number of samples.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The summary for reporting.
    pub fn summary(&self) -> JitterSummary {
        if self.count == 0 {
            return JitterSummary {
                samples: 0,
                mean: None,
                mean_abs: None,
                min: None,
                p99_abs: None,
                max: None,
                cdf: Vec::new(),
            };
        }
        let n = self.count as f64;
        JitterSummary {
            samples: self.count,
            mean: Some(self.sum_ps as f64 / n / PS_PER_NS as f64),
            mean_abs: Some(self.sum_abs_ps as f64 / n / PS_PER_NS as f64),
            min: Some(ns(self.min_ps)),
            p99_abs: Some(ns(self.abs_quantile(0.99))),
            max: Some(ns(self.max_ps)),
            cdf: self.cdf(),
        }
    }

    /// The signed values in increasing order as (value in ps, count) buckets.
    fn buckets(&self) -> Vec<(i64, u64)> {
        let clamp = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        let mut out: Vec<(i64, u64)> = Vec::new();
        if let Some(h) = self.early.as_ref() {
            let mut neg: Vec<(i64, u64)> = h
                .iter_recorded()
                .map(|v| {
                    // The bucket's smallest magnitude is its largest signed value.
                    let low = h.lowest_equivalent(v.value_iterated_to());
                    (-clamp(low), v.count_since_last_iteration())
                })
                .collect();
            neg.reverse();
            out.extend(neg);
        }
        if self.zeros > 0 {
            out.push((0, self.zeros));
        }
        if let Some(h) = self.late.as_ref() {
            out.extend(
                h.iter_recorded()
                    .map(|v| (clamp(v.value_iterated_to()), v.count_since_last_iteration())),
            );
        }
        // The histograms report bucket edges; keep them within the exact extremes.
        for b in &mut out {
            b.0 = b.0.clamp(self.min_ps, self.max_ps);
        }
        out
    }

    /// The `q` quantile of the magnitudes, in ps.
    fn abs_quantile(&self, q: f64) -> i64 {
        let mut mags: Vec<(u64, u64)> = self
            .buckets()
            .into_iter()
            .map(|(v, c)| (v.unsigned_abs(), c))
            .collect();
        mags.sort_unstable();
        let target = libm::ceil(q * self.count as f64).max(1.0) as u64;
        let mut cum = 0;
        for (v, c) in mags {
            cum += c;
            if cum >= target {
                return i64::try_from(v).unwrap_or(i64::MAX);
            }
        }
        self.max_ps.max(-self.min_ps)
    }

    /// CDF points: one every 1/200 of the samples, plus points wherever the remaining
    /// tail halves, plus the maximum (as for latency).
    fn cdf(&self) -> Vec<(f64, f64)> {
        let total = self.count as f64;
        let mut points: Vec<(f64, f64)> = Vec::new();
        let mut cumulative = 0u64;
        let mut last_fraction = 0.0;
        let buckets = self.buckets();
        let last = buckets.len().saturating_sub(1);
        for (i, (value, count)) in buckets.into_iter().enumerate() {
            cumulative += count;
            let fraction = cumulative as f64 / total;
            let step = fraction - last_fraction >= 1.0 / CDF_STEPS;
            let tail = (1.0 - fraction) <= (1.0 - last_fraction) / 2.0;
            if points.is_empty() || step || tail || i == last {
                points.push((ns(value), fraction));
                last_fraction = fraction;
            }
        }
        points
    }
}

/// Jitter of many connections of one class: remembers each connection's last delivered
/// packet and records a sample per later delivery.
///
/// The last deliveries are kept in a table indexed by source and then by flow (flows
/// number a source's admitted connections 0, 1, ..., so the table is dense and grows to
/// the connections delivered): one indexed read per delivery where a map keyed by
/// [`flow_key`] took a tree descent, which grew with the connections seen (R2 at 100 ms:
/// about 92 000 voice connections).
#[derive(Clone, Debug, Default)]
pub struct JitterTracker {
    /// Per source end point, per flow: (generation, arrival) of its last delivered packet.
    last: Vec<Vec<Option<(SimTime, SimTime)>>>,
    recorder: JitterRecorder,
}

/// The key of connection `flow` of end point `source` (of one class).
pub fn flow_key(source: u32, flow: u32) -> u64 {
    (u64::from(source) << 32) | u64::from(flow)
}

impl JitterTracker {
    /// Notes the delivery at `arrived` of a packet of connection `key` generated at
    /// `generated`; records a sample (if the connection had an earlier delivery) when
    /// `measure` is true (e.g. both packets generated after the warm-up).
    pub fn on_delivered(&mut self, key: u64, generated: SimTime, arrived: SimTime, measure: bool) {
        if let Some((g0, a0)) = self.last_of(key).replace((generated, arrived)) {
            if measure {
                let inter_arrival = i128::from(arrived.as_ps()) - i128::from(a0.as_ps());
                let inter_generation = i128::from(generated.as_ps()) - i128::from(g0.as_ps());
                let j = (inter_arrival - inter_generation)
                    .clamp(i128::from(i64::MIN + 1), i128::from(i64::MAX));
                self.recorder.record(j as i64);
            }
        }
    }

    /// The last delivery of connection `key` (source in the high 32 bits, flow in the
    /// low ones), the table grown to hold it.
    fn last_of(&mut self, key: u64) -> &mut Option<(SimTime, SimTime)> {
        let (source, flow) = ((key >> 32) as usize, (key & u64::from(u32::MAX)) as usize);
        if self.last.len() <= source {
            self.last.resize_with(source + 1, Vec::new);
        }
        let flows = &mut self.last[source];
        if flows.len() <= flow {
            flows.resize(flow + 1, None);
        }
        &mut flows[flow]
    }

    /// The recorded samples.
    pub fn recorder(&self) -> &JitterRecorder {
        &self.recorder
    }

    /// The summary for reporting.
    pub fn summary(&self) -> JitterSummary {
        self.recorder.summary()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_that_keeps_the_spacing_has_zero_jitter() {
        let mut t = JitterTracker::default();
        for k in 0..100u64 {
            // Constant latency 5 us, two interleaved connections.
            for (key, offset) in [(flow_key(1, 0), 0), (flow_key(2, 7), 333)] {
                let g = SimTime(k * 20_000_000 + offset);
                t.on_delivered(key, g, g.plus_ps(5_000_000), true);
            }
        }
        let s = t.summary();
        assert_eq!(
            s.samples, 198,
            "the first packet of each connection gives none"
        );
        assert_eq!(
            (s.mean, s.mean_abs, s.min, s.max),
            (Some(0.0), Some(0.0), Some(0.0), Some(0.0))
        );
        assert_eq!(s.cdf, vec![(0.0, 1.0)]);
    }

    #[test]
    fn jitter_is_the_change_of_latency() {
        let mut t = JitterTracker::default();
        let latencies_ns = [10u64, 30, 20, 20, 60];
        for (k, l) in latencies_ns.iter().enumerate() {
            let g = SimTime(k as u64 * 1_000_000);
            t.on_delivered(5, g, g.plus_ps(l * 1000), true);
        }
        // Samples: +20, -10, 0, +40 ns.
        let s = t.summary();
        assert_eq!(s.samples, 4);
        assert_eq!(s.mean, Some(12.5));
        assert_eq!(s.mean_abs, Some(17.5));
        assert_eq!((s.min, s.max), (Some(-10.0), Some(40.0)));
        assert_eq!(s.p99_abs, Some(40.0));
        let cdf: Vec<(i64, f64)> = s.cdf.iter().map(|&(v, f)| (v.round() as i64, f)).collect();
        assert_eq!(cdf, vec![(-10, 0.25), (0, 0.5), (20, 0.75), (40, 1.0)]);
    }

    #[test]
    fn unmeasured_deliveries_update_state_only() {
        let mut t = JitterTracker::default();
        t.on_delivered(1, SimTime(0), SimTime(100), false);
        t.on_delivered(1, SimTime(1000), SimTime(5000), false);
        t.on_delivered(1, SimTime(2000), SimTime(6000), true);
        let s = t.summary();
        assert_eq!(s.samples, 1);
        assert_eq!(s.max, Some(0.0));
        assert!(JitterRecorder::default().summary().cdf.is_empty());
    }

    proptest::proptest! {
        /// The table gives what the map keyed by [`flow_key`] gave (the tracker before
        /// it): the same samples in the same order, so the same summary.
        #[test]
        fn the_table_matches_a_map_by_key(
            deliveries in proptest::collection::vec(
                (0u32..6, 0u32..40, 0u64..1_000_000, 0u64..2_000_000, proptest::bool::ANY),
                0..400,
            )
        ) {
            let mut t = JitterTracker::default();
            let mut map = std::collections::BTreeMap::new();
            let mut oracle = JitterRecorder::default();
            for (source, flow, g, extra, measure) in deliveries {
                let key = flow_key(source, flow);
                let (g, a) = (SimTime(g), SimTime(g + extra));
                t.on_delivered(key, g, a, measure);
                if let Some((g0, a0)) = map.insert(key, (g, a)) {
                    if measure {
                        let j = (i128::from(a.as_ps()) - i128::from(a0.as_ps()))
                            - (i128::from(g.as_ps()) - i128::from(g0.as_ps()));
                        oracle.record(j as i64);
                    }
                }
            }
            proptest::prop_assert_eq!(t.summary(), oracle.summary());
        }
    }

    #[test]
    fn quantiles_are_close_for_many_samples() {
        let mut r = JitterRecorder::default();
        for i in -1000i64..=1000 {
            r.record(i * 1000);
        }
        let s = r.summary();
        let p99 = s.p99_abs.unwrap();
        assert!((p99 - 990.0).abs() <= 2.0, "{p99}");
        assert!(
            s.cdf
                .windows(2)
                .all(|w| w[0].0 <= w[1].0 && w[0].1 < w[1].1)
        );
        let first = s.cdf[0].0;
        assert!((first + 1000.0).abs() <= 1.0, "{first}");
        assert_eq!(s.cdf.last().copied(), Some((1000.0, 1.0)));
        let median = s.cdf.iter().find(|p| p.1 >= 0.5).unwrap().0;
        assert!(median.abs() <= 10.0, "{median}");
    }
}
