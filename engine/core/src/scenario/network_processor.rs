//! The network-processor node (`shared/spec/40-network-processors.md`): streams with
//! their own queues, a DWCS scheduler (exact heap or HILQ), a server (the link, or
//! processing engines at a clock rate) and a transmit FIFO onto the link.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::rules::{Problems, validate_class_name, validate_size};
use super::tagged::tagged_enum;
use super::{LinkConfig, Scenario, SizeConfig};

pub use crate::np::NpSchedulerConfig;
pub use crate::np::heap::DwcsHeapConfig;

#[path = "network_processor_fair.rs"]
mod fair;

/// Most streams of a node.
pub const MAX_NP_STREAMS: u32 = 20_000;
/// Most stream groups.
pub const MAX_NP_GROUPS: usize = 64;
/// Largest window numerator x (HILQ has 20 numerator values).
pub const MAX_WINDOW_X: u32 = 19;
/// Largest window denominator y.
pub const MAX_WINDOW_Y: u32 = 1000;
/// Most packets a stream's queue holds.
pub const MAX_QUEUE_PACKETS: u32 = 1_000_000;

/// A network-processor node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct NetworkProcessorConfig {
    /// The output link.
    pub link: LinkConfig,
    /// What serves the packets the scheduler picks.
    pub server: NpServerConfig,
    /// The processor whose memory accesses the cost model counts.
    pub processor: ProcessorConfig,
    /// Groups of streams with the same parameters (the result categories), in order;
    /// streams are numbered group by group.
    pub streams: Vec<StreamGroupConfig>,
    /// The scheduler.
    pub scheduler: NpSchedulerConfig,
}

/// The server of a network processor.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NpServerConfig {
    /// The link itself: the scheduler is asked whenever the link is free.
    Link,
    /// Processing engines: each takes a packet for its processing cycles at the
    /// processor's clock, then the packet joins the transmit FIFO onto the link.
    Engines(EnginesConfig),
}
tagged_enum!(NpServerConfig, "server", {
    "link" => Link,
    "engines" => Engines(EnginesConfig),
});

/// Processing engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct EnginesConfig {
    /// Number of engines (1 to 64).
    pub count: u32,
    /// Packets the transmit FIFO holds (1 to 1000000); engines wait while it is full.
    pub transmit_fifo_packets: u32,
}

/// The processor of the cost model.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct ProcessorConfig {
    /// Engine clock in MHz (232 on the reference network processor).
    pub clock_mhz: f64,
    /// Cycles of one scratchpad access (SRAM accesses follow the measured distribution
    /// of 19 to 33 cycles).
    pub scratchpad_cycles: u32,
}

/// A group of streams.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct StreamGroupConfig {
    /// Name of the group (a result category; unique).
    pub name: String,
    /// Streams in the group.
    pub count: u32,
    /// Request period T in microseconds: each stream generates one packet per period on
    /// average, and successive deadlines of a stream are T apart.
    pub period_us: f64,
    /// The window constraint x/y of the group's streams.
    pub window: WindowConfig,
    /// Whether late packets are dropped (true) or sent late (false).
    pub droppable: bool,
    /// When packets arrive.
    pub arrivals: NpArrivals,
    /// Packet sizes.
    pub size: SizeConfig,
    /// Processing cycles per packet on an engine (engines server only; 0 otherwise); with
    /// `processing_cycles_max`, the smallest.
    #[serde(default)]
    pub processing_cycles: u32,
    /// Largest processing cycles: each packet's actual cycles are drawn uniformly in
    /// `[processing_cycles, processing_cycles_max]` when it arrives (absent: always
    /// `processing_cycles`). The schedulers never see them before the packet is processed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub processing_cycles_max: Option<u32>,
    /// Output length over input length after processing (absent: 1, the length is kept;
    /// engines server only). The output is rounded to whole bytes, at least 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub output_ratio: Option<f64>,
    /// CPU weight phi_cpu of each stream of the group (PCFQ and separate WFQ; absent: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub weight_cpu: Option<f64>,
    /// Bandwidth weight phi_bw of each stream of the group (PCFQ and separate WFQ; absent: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub weight_bw: Option<f64>,
    /// Packets each stream's queue holds; an arrival to a full queue is lost.
    pub queue_packets: u32,
}

/// Arrivals of a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum NpArrivals {
    /// One packet every period, from a random phase.
    Constant,
    /// One packet every period, every stream of the group at phase 0 (equal deadlines,
    /// where the window constraints decide: the setting of DWCS's analysis).
    Synchronous,
    /// Poisson arrivals with a mean gap of one period.
    Poisson,
}

/// The window constraint of a group's streams.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WindowConfig {
    /// Every stream has x/y.
    Fixed(FixedWindow),
    /// Each stream draws (x, y) uniformly among the pairs with x <= max_x, 1 <= y <=
    /// max_y and min_ratio <= x/y <= max_ratio (R5: ratios 0.2 to 0.8, x to 19, y to 29).
    Random(RandomWindow),
}
tagged_enum!(WindowConfig, "window constraint", {
    "fixed" => Fixed(FixedWindow),
    "random" => Random(RandomWindow),
});

/// A fixed window constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct FixedWindow {
    /// Late or lost packets allowed per window (0 to 19).
    pub x: u32,
    /// Window length in packets (1 to 1000, at least x).
    pub y: u32,
}

/// Random window constraints.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct RandomWindow {
    /// Smallest x/y.
    pub min_ratio: f64,
    /// Largest x/y.
    pub max_ratio: f64,
    /// Largest x (at most 19).
    pub max_x: u32,
    /// Largest y (at most 1000).
    pub max_y: u32,
}

impl RandomWindow {
    /// Every (x, y) pair the group draws from, in order.
    pub fn pairs(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for y in 1..=self.max_y.min(MAX_WINDOW_Y) {
            for x in 0..=self.max_x.min(MAX_WINDOW_X).min(y) {
                let r = f64::from(x) / f64::from(y);
                if r >= self.min_ratio - 1e-12 && r <= self.max_ratio + 1e-12 {
                    out.push((x, y));
                }
            }
        }
        out
    }
}

impl WindowConfig {
    /// The mean x/y of the group's streams (over the pairs drawn from, for random ones).
    pub fn mean_ratio(&self) -> f64 {
        match self {
            WindowConfig::Fixed(w) => f64::from(w.x) / f64::from(w.y.max(1)),
            WindowConfig::Random(r) => {
                let pairs = r.pairs();
                if pairs.is_empty() {
                    return 0.0;
                }
                pairs
                    .iter()
                    .map(|&(x, y)| f64::from(x) / f64::from(y))
                    .sum::<f64>()
                    / pairs.len() as f64
            }
        }
    }
}

impl NetworkProcessorConfig {
    /// Total streams.
    pub fn stream_count(&self) -> u64 {
        self.streams.iter().map(|g| u64::from(g.count)).sum()
    }

    /// Service time of a mean packet of `group` on the link, in seconds.
    fn service_s(&self, group: &StreamGroupConfig) -> f64 {
        group.size.mean_bytes() * 8.0 / (self.link.rate_gbps * 1.0e9)
    }

    /// Offered load: the sum over streams of C_i / T_i (C_i: a mean packet's time on the
    /// link).
    pub fn offered_load(&self) -> f64 {
        self.streams
            .iter()
            .map(|g| f64::from(g.count) * self.service_s(g) / (g.period_us * 1.0e-6))
            .sum()
    }

    /// Utilisation U: the sum over streams of (1 - x_i/y_i) C_i / T_i (random windows at
    /// their mean ratio). With U <= 1 DWCS should violate no window.
    pub fn utilisation(&self) -> f64 {
        self.streams
            .iter()
            .map(|g| {
                f64::from(g.count) * (1.0 - g.window.mean_ratio()) * self.service_s(g)
                    / (g.period_us * 1.0e-6)
            })
            .sum()
    }

    /// Scales every period so that U becomes `target` (the load axis of sweeps).
    pub fn scale_to_utilisation(&mut self, target: f64) -> bool {
        let now = self.utilisation();
        if !(now.is_finite() && now > 0.0 && target > 0.0) {
            return false;
        }
        let factor = now / target;
        for g in &mut self.streams {
            g.period_us *= factor;
        }
        true
    }

    /// `total` streams shared among the groups in proportion to their counts (largest
    /// remainder; each group keeps at least one), then periods scaled back to the same U.
    pub fn scale_to_streams(&mut self, total: u32) -> bool {
        let now = self.stream_count();
        let u = self.utilisation();
        if now == 0 || total < self.streams.len() as u32 {
            return false;
        }
        let shares: Vec<f64> = self
            .streams
            .iter()
            .map(|g| f64::from(g.count) * f64::from(total) / now as f64)
            .collect();
        let mut counts: Vec<u32> = shares.iter().map(|s| (*s as u32).max(1)).collect();
        let mut order: Vec<usize> = (0..counts.len()).collect();
        order.sort_by(|&a, &b| {
            let fa = shares[a] - shares[a].floor();
            let fb = shares[b] - shares[b].floor();
            fb.total_cmp(&fa).then(a.cmp(&b))
        });
        let mut sum: u32 = counts.iter().sum();
        let mut i = 0;
        while sum < total && !order.is_empty() {
            counts[order[i % order.len()]] += 1;
            sum += 1;
            i += 1;
        }
        while sum > total {
            let Some(g) = (0..counts.len()).max_by_key(|&g| counts[g]) else {
                break;
            };
            counts[g] -= 1;
            sum -= 1;
        }
        for (g, c) in self.streams.iter_mut().zip(counts) {
            g.count = c;
        }
        self.scale_to_utilisation(u)
    }

    /// Every packet `bytes` long, periods scaled back to the same U.
    pub fn scale_to_packet_bytes(&mut self, bytes: u32) -> bool {
        let u = self.utilisation();
        for g in &mut self.streams {
            g.size = SizeConfig::Fixed(super::FixedSize { bytes });
        }
        self.scale_to_utilisation(u)
    }
}

/// Checks a network-processor node.
pub(super) fn validate_network_processor(
    s: &Scenario,
    np: &NetworkProcessorConfig,
    p: &mut Problems,
) {
    p.rate("model.link.rate_gbps", np.link.rate_gbps);
    if let NpServerConfig::Engines(e) = &np.server {
        if !(1..=64).contains(&e.count) {
            p.add(
                "model.server.count",
                format!("must be between 1 and 64 engines (got {})", e.count),
            );
        }
        if !(1..=MAX_QUEUE_PACKETS).contains(&e.transmit_fifo_packets) {
            p.add(
                "model.server.transmit_fifo_packets",
                format!(
                    "must be between 1 and {MAX_QUEUE_PACKETS} packets (got {})",
                    e.transmit_fifo_packets
                ),
            );
        }
    }
    let clock = np.processor.clock_mhz;
    if !(clock.is_finite() && (1.0..=100_000.0).contains(&clock)) {
        p.add(
            "model.processor.clock_mhz",
            format!("must be a clock between 1 and 100000 MHz (got {clock})"),
        );
    }
    if np.processor.scratchpad_cycles > 1000 {
        p.add(
            "model.processor.scratchpad_cycles",
            format!(
                "must be at most 1000 cycles (got {})",
                np.processor.scratchpad_cycles
            ),
        );
    }
    let n = np.streams.len();
    if n == 0 || n > MAX_NP_GROUPS {
        p.add(
            "model.streams",
            format!("must hold between 1 and {MAX_NP_GROUPS} stream groups (got {n})"),
        );
    }
    let total = np.stream_count();
    if total > u64::from(MAX_NP_STREAMS) {
        p.add(
            "model.streams",
            format!("must hold at most {MAX_NP_STREAMS} streams in all (got {total})"),
        );
    }
    np.scheduler
        .validate(matches!(np.server, NpServerConfig::Engines(_)), p);
    let mut packets = 0.0;
    for (i, g) in np.streams.iter().enumerate() {
        let at = format!("model.streams[{i}]");
        validate_class_name(
            &at,
            &g.name,
            np.streams[..i].iter().map(|c| c.name.as_str()),
            p,
        );
        if g.count == 0 {
            p.add(format!("{at}.count"), "must be at least 1 stream");
        }
        let t = g.period_us;
        match np.scheduler.check_period(t) {
            Err(why) => p.add(format!("{at}.period_us"), why),
            Ok(()) => packets += f64::from(g.count) * s.duration_us as f64 / t,
        }
        match &g.window {
            WindowConfig::Fixed(w) => {
                if w.x > MAX_WINDOW_X {
                    p.add(
                        format!("{at}.window.x"),
                        format!("must be between 0 and {MAX_WINDOW_X} (HILQ has 20 numerator values; got {})", w.x),
                    );
                }
                if !(1..=MAX_WINDOW_Y).contains(&w.y) || w.y < w.x {
                    p.add(
                        format!("{at}.window.y"),
                        format!(
                            "must be between 1 and {MAX_WINDOW_Y} and at least x = {} (got {})",
                            w.x, w.y
                        ),
                    );
                }
            }
            WindowConfig::Random(r) => {
                if r.max_x > MAX_WINDOW_X {
                    p.add(
                        format!("{at}.window.max_x"),
                        format!("must be at most {MAX_WINDOW_X} (got {})", r.max_x),
                    );
                }
                if !(1..=MAX_WINDOW_Y).contains(&r.max_y) {
                    p.add(
                        format!("{at}.window.max_y"),
                        format!("must be between 1 and {MAX_WINDOW_Y} (got {})", r.max_y),
                    );
                }
                let ok = |v: f64| v.is_finite() && (0.0..=1.0).contains(&v);
                if !ok(r.min_ratio) || !ok(r.max_ratio) || r.min_ratio > r.max_ratio {
                    p.add(
                        format!("{at}.window.min_ratio"),
                        format!(
                            "min_ratio and max_ratio must be in [0, 1] with min_ratio <= max_ratio (got {} and {})",
                            r.min_ratio, r.max_ratio
                        ),
                    );
                } else if r.max_x <= MAX_WINDOW_X && r.max_y <= MAX_WINDOW_Y && r.pairs().is_empty()
                {
                    p.add(
                        format!("{at}.window"),
                        "no pair x <= max_x, 1 <= y <= max_y has a ratio x/y in [min_ratio, max_ratio]",
                    );
                }
            }
        }
        validate_size(&g.size, &format!("{at}.size"), p);
        if g.processing_cycles > 100_000_000 {
            p.add(
                format!("{at}.processing_cycles"),
                format!(
                    "must be at most 100000000 cycles (got {})",
                    g.processing_cycles
                ),
            );
        }
        fair::validate_group(&at, g, p);
        if !(1..=MAX_QUEUE_PACKETS).contains(&g.queue_packets) {
            p.add(
                format!("{at}.queue_packets"),
                format!(
                    "must be between 1 and {MAX_QUEUE_PACKETS} packets (got {})",
                    g.queue_packets
                ),
            );
        }
    }
    // Each packet is one arrival event and at most one send or drop.
    super::bounds::check_work(packets, 0.0, p);
}
