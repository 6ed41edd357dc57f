//! Latency distribution of one class.

use hdrhistogram::Histogram;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::time::{Duration, PS_PER_NS};

/// Most points in a reported CDF (plus the tail refinement points).
const CDF_STEPS: f64 = 200.0;

/// Records latencies (in picoseconds).
#[derive(Clone, Debug)]
pub struct LatencyRecorder {
    histogram: Option<Histogram<u64>>,
    count: u64,
    sum_ps: u128,
    min_ps: u64,
    max_ps: u64,
}

impl Default for LatencyRecorder {
    fn default() -> Self {
        LatencyRecorder {
            // Three significant digits, auto-resizing: a few KiB until values grow.
            histogram: Histogram::new(3).ok(),
            count: 0,
            sum_ps: 0,
            min_ps: u64::MAX,
            max_ps: 0,
        }
    }
}

/// Summary of a latency distribution, in nanoseconds. Quantiles and CDF points come
/// from the histogram (within 0.1%); mean, min and max are exact.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct LatencySummary {
    /// Number of packets measured.
    #[ts(type = "number")]
    pub samples: u64,
    /// Mean latency (null without samples).
    pub mean: Option<f64>,
    /// Smallest latency.
    pub min: Option<f64>,
    /// Median.
    pub p50: Option<f64>,
    /// 99th percentile.
    pub p99: Option<f64>,
    /// Largest latency.
    pub max: Option<f64>,
    /// Empirical CDF: `[latency_ns, fraction of packets with latency <= it]`, increasing.
    pub cdf: Vec<(f64, f64)>,
}

fn ns(ps: u64) -> f64 {
    ps as f64 / PS_PER_NS as f64
}

impl LatencyRecorder {
    /// Records one latency.
    pub fn record(&mut self, latency: Duration) {
        let ps = latency.as_ps().max(1);
        if let Some(h) = self.histogram.as_mut() {
            // `record` grows the auto-resizing histogram; saturate only beyond its reach.
            if h.record(ps).is_err() {
                h.saturating_record(ps);
            }
        }
        self.count += 1;
        self.sum_ps += u128::from(ps);
        self.min_ps = self.min_ps.min(ps);
        self.max_ps = self.max_ps.max(ps);
    }

    /// Number of latencies recorded.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The summary for reporting.
    pub fn summary(&self) -> LatencySummary {
        let Some(h) = self.histogram.as_ref().filter(|_| self.count > 0) else {
            return LatencySummary {
                samples: 0,
                mean: None,
                min: None,
                p50: None,
                p99: None,
                max: None,
                cdf: Vec::new(),
            };
        };
        let mean = (self.sum_ps as f64 / self.count as f64) / PS_PER_NS as f64;
        // The histogram reports the highest value equivalent to a bucket; clamp to the
        // exact extremes so quantiles never exceed the true maximum.
        let q = |quantile: f64| {
            ns(h.value_at_quantile(quantile)
                .clamp(self.min_ps, self.max_ps))
        };
        LatencySummary {
            samples: self.count,
            mean: Some(mean),
            min: Some(ns(self.min_ps)),
            p50: Some(q(0.5)),
            p99: Some(q(0.99)),
            max: Some(ns(self.max_ps)),
            cdf: self.cdf(h),
        }
    }

    /// CDF points: one every 1/200 of the packets, plus points wherever the remaining tail
    /// halves (so the p99 - p99.9 tail stays visible on a log plot), plus the maximum.
    fn cdf(&self, h: &Histogram<u64>) -> Vec<(f64, f64)> {
        let total = h.len() as f64;
        let mut points: Vec<(f64, f64)> = Vec::new();
        let mut cumulative = 0u64;
        let mut last_fraction = 0.0;
        for v in h.iter_recorded() {
            cumulative += v.count_since_last_iteration();
            let fraction = cumulative as f64 / total;
            let value = v.value_iterated_to().clamp(self.min_ps, self.max_ps);
            let is_last = cumulative == h.len();
            let step = fraction - last_fraction >= 1.0 / CDF_STEPS;
            let tail = (1.0 - fraction) <= (1.0 - last_fraction) / 2.0;
            if points.is_empty() || step || tail || is_last {
                points.push((ns(value), fraction));
                last_fraction = fraction;
            }
        }
        points
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_moments_and_close_quantiles() {
        let mut r = LatencyRecorder::default();
        for i in 1..=1000u64 {
            r.record(Duration(i * 1000)); // 1..=1000 ns
        }
        let s = r.summary();
        assert_eq!(s.samples, 1000);
        assert_eq!(s.mean, Some(500.5));
        assert_eq!(s.min, Some(1.0));
        assert_eq!(s.max, Some(1000.0));
        let p50 = s.p50.unwrap();
        let p99 = s.p99.unwrap();
        assert!((p50 - 500.0).abs() <= 1.0, "p50 {p50}");
        assert!((p99 - 990.0).abs() <= 1.0, "p99 {p99}");
        let cdf = &s.cdf;
        assert!(cdf.len() > 100 && cdf.len() < 260, "{} points", cdf.len());
        assert!(cdf.windows(2).all(|w| w[0].0 <= w[1].0 && w[0].1 < w[1].1));
        assert_eq!(cdf.last().copied(), Some((1000.0, 1.0)));
    }

    #[test]
    fn empty_summary_is_null() {
        let s = LatencyRecorder::default().summary();
        assert_eq!(s.samples, 0);
        assert!(s.mean.is_none() && s.cdf.is_empty());
    }
}
