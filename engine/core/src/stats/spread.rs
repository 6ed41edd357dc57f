//! The spread of a class's delays, for models that want it: the standard deviation
//! (Welford's running form, exact to rounding) and a per-packet delay series kept in
//! bounded memory.
//!
//! The series holds at most [`SERIES_POINTS`] points. It starts with every packet; when it
//! is full it keeps every second point and from then on records every second packet, and
//! so on (the stride doubles each time), so the points stay evenly spread over the run
//! whatever its length: every `stride`-th packet delivered, in delivery order. The exact
//! maximum and mean are in the class's latency summary; the series is for the plot.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::time::{PS_PER_NS, SimTime};

/// Most points of a delay series.
pub const SERIES_POINTS: usize = 1024;

/// Running delay spread of one class.
#[derive(Clone, Debug, Default)]
pub struct DelaySpread {
    count: u64,
    mean_ns: f64,
    m2: f64,
    stride: u64,
    seen: u64,
    points: Vec<(f64, f64)>,
}

/// A per-packet delay series in bounded memory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct DelaySeries {
    /// Every `stride`-th packet (in delivery order) is a point.
    #[ts(type = "number")]
    pub stride: u64,
    /// Packets the series was drawn from.
    #[ts(type = "number")]
    pub packets: u64,
    /// `[arrival time ns, delay ns]` per sampled packet, in delivery order.
    pub points: Vec<(f64, f64)>,
}

impl DelaySpread {
    /// An empty spread.
    pub fn new() -> DelaySpread {
        DelaySpread {
            stride: 1,
            ..DelaySpread::default()
        }
    }

    /// Records the delay of a packet created at `created` and delivered at `at`.
    pub fn record(&mut self, created: SimTime, at: SimTime) {
        let d = (at - created).as_ps() as f64 / PS_PER_NS as f64;
        self.count += 1;
        let delta = d - self.mean_ns;
        self.mean_ns += delta / self.count as f64;
        self.m2 += delta * (d - self.mean_ns);
        let stride = self.stride.max(1);
        if self.seen % stride == 0 {
            if self.points.len() >= SERIES_POINTS {
                let mut i = 0;
                self.points.retain(|_| {
                    i += 1;
                    i % 2 == 1
                });
                self.stride = stride * 2;
            }
            if self.seen % self.stride.max(1) == 0 {
                self.points
                    .push((created.as_ps() as f64 / PS_PER_NS as f64, d));
            }
        }
        self.seen += 1;
    }

    /// Sample standard deviation of the delays (ns); None below two packets.
    pub fn std_ns(&self) -> Option<f64> {
        (self.count > 1).then(|| (self.m2.max(0.0) / (self.count - 1) as f64).sqrt())
    }

    /// Packets recorded.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The series for reporting.
    pub fn series(&self) -> DelaySeries {
        DelaySeries {
            stride: self.stride.max(1),
            packets: self.seen,
            points: self.points.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_ns(ns: u64) -> SimTime {
        SimTime(ns * PS_PER_NS)
    }

    #[test]
    fn std_matches_the_textbook_values() {
        // Delays 2, 4, 4, 4, 5, 5, 7, 9 ns: mean 5, sample variance 32/7.
        let mut s = DelaySpread::new();
        for d in [2, 4, 4, 4, 5, 5, 7, 9] {
            s.record(at_ns(100), at_ns(100 + d));
        }
        let std = s.std_ns().unwrap();
        assert!((std - (32.0f64 / 7.0).sqrt()).abs() < 1e-12, "{std}");
        assert_eq!(s.count(), 8);
        let mut one = DelaySpread::new();
        one.record(at_ns(0), at_ns(3));
        assert_eq!(one.std_ns(), None);
    }

    #[test]
    fn series_stays_bounded_and_evenly_strided() {
        let mut s = DelaySpread::new();
        let n = 10 * SERIES_POINTS as u64 + 7;
        for i in 0..n {
            s.record(at_ns(i), at_ns(i + i % 13));
        }
        let series = s.series();
        assert!(series.points.len() <= SERIES_POINTS);
        assert!(series.points.len() > SERIES_POINTS / 2);
        assert_eq!(series.packets, n);
        assert_eq!(series.stride, 16);
        // Every point is a packet whose index is a multiple of the stride.
        for (k, &(t, d)) in series.points.iter().enumerate() {
            assert_eq!(t, (k as u64 * series.stride) as f64);
            assert_eq!(d, ((k as u64 * series.stride) % 13) as f64);
        }
    }

    #[test]
    fn short_series_keeps_every_packet() {
        let mut s = DelaySpread::new();
        for i in 0..10 {
            s.record(at_ns(i), at_ns(2 * i));
        }
        let series = s.series();
        assert_eq!(series.stride, 1);
        assert_eq!(series.points.len(), 10);
    }
}
