//! Statistics: per-class counters, latency and jitter distributions.
//!
//! Latencies go into an HdrHistogram (3 significant digits, auto-resizing) for quantiles
//! and the CDF; the mean, minimum and maximum are kept exactly beside it.

mod jitter;
mod latency;
mod spread;

pub use jitter::{JitterRecorder, JitterSummary, JitterTracker, flow_key};
pub use latency::{LatencyRecorder, LatencySummary};
pub use spread::{DelaySeries, DelaySpread, SERIES_POINTS};

use crate::time::{Duration, SimTime};

/// The measurement window: statistics cover `[start, end]` (the warm-up is excluded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// End of the warm-up.
    pub start: SimTime,
    /// End of the run.
    pub end: SimTime,
}

impl Window {
    /// Whether `t` lies in the window.
    pub fn contains(&self, t: SimTime) -> bool {
        t >= self.start && t <= self.end
    }

    /// Length of the window.
    pub fn span(&self) -> Duration {
        self.end - self.start
    }
}

/// Counters of one class.
#[derive(Clone, Debug, Default)]
pub struct ClassCounters {
    /// Packets generated over the whole run.
    pub generated: u64,
    /// Packets delivered over the whole run.
    pub delivered: u64,
    /// Bytes generated inside the window (offered load).
    pub window_generated_bytes: u64,
    /// Bytes delivered inside the window (throughput).
    pub window_delivered_bytes: u64,
    /// Packets delivered inside the window.
    pub window_delivered_packets: u64,
    /// Latency of packets generated inside the window and delivered by the end.
    pub latency: LatencyRecorder,
    /// The delays' standard deviation and a bounded per-packet delay series, for models
    /// that ask for them ([`ClassCounters::with_spread`]); reported as the class's
    /// `latency_std_ns` and `delay_series`.
    pub spread: Option<DelaySpread>,
}

impl ClassCounters {
    /// Counters that also keep the delay spread (standard deviation and delay series).
    pub fn with_spread() -> ClassCounters {
        ClassCounters {
            spread: Some(DelaySpread::new()),
            ..ClassCounters::default()
        }
    }

    /// Counts a generated packet.
    pub fn on_generated(&mut self, at: SimTime, bytes: u32, window: &Window) {
        self.generated += 1;
        if window.contains(at) {
            self.window_generated_bytes += u64::from(bytes);
        }
    }

    /// Counts a delivered packet generated at `created` and delivered at `at`.
    pub fn on_delivered(&mut self, created: SimTime, at: SimTime, bytes: u32, window: &Window) {
        self.delivered += 1;
        if window.contains(at) {
            self.window_delivered_bytes += u64::from(bytes);
            self.window_delivered_packets += 1;
        }
        if window.contains(created) {
            self.latency.record(at - created);
            if let Some(spread) = self.spread.as_mut() {
                spread.record(created, at);
            }
        }
    }
}
