//! The results of a run: what the CLI prints and the browser plots.
//!
//! The JSON form is part of the public interface (the CLI's output, the browser's
//! download); fields are only ever added.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::schedulers::SchedulerCost;
use crate::stats::{DelaySeries, JitterSummary, LatencySummary};

/// The engine that produces results (`RunResults::engine`): `qoslab-core <version>`.
pub const ENGINE: &str = concat!("qoslab-core ", env!("CARGO_PKG_VERSION"));

/// Everything a run measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct RunResults {
    /// The engine that produced these numbers (`qoslab-core <version>`).
    pub engine: String,
    /// The scenario's name.
    pub scenario: String,
    /// The seed of the run.
    #[ts(type = "number")]
    pub seed: u64,
    /// Simulated time of the run, in ns.
    #[ts(type = "number")]
    pub duration_ns: u64,
    /// Warm-up excluded from the statistics, in ns.
    #[ts(type = "number")]
    pub warmup_ns: u64,
    /// Link data rate in Gb/s.
    pub link_rate_gbps: f64,
    /// Events processed.
    #[ts(type = "number")]
    pub events: u64,
    /// Packets generated over the whole run (all classes).
    #[ts(type = "number")]
    pub generated: u64,
    /// Packets delivered over the whole run.
    #[ts(type = "number")]
    pub delivered: u64,
    /// Packets generated but not delivered when the run ended (queued or on the link);
    /// `generated = delivered + in_flight`, except that a network processor also drops
    /// and loses packets (see `network_processor`).
    #[ts(type = "number")]
    pub in_flight: u64,
    /// Packets sent on a link, one per link crossed (networks only): the work of the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub packet_hops: Option<u64>,
    /// The scheduler and the work it did.
    pub scheduler: SchedulerSummary,
    /// Per-class results, in class order.
    pub classes: Vec<ClassResults>,
    /// The network's hardware (switches, links, buffer memory, silicon area; the R4 cost
    /// panel): networks of two-VC switches only, so other results keep their form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub hardware: Option<crate::network::cost::HardwareCost>,
    /// A network-processor node's own results (drops, lateness, window violations, the
    /// scheduler's memory cost); there `generated = delivered + dropped + lost + in_flight`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub network_processor: Option<crate::np::results::NpResults>,
}

/// The scheduler of a run and its work counters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SchedulerSummary {
    /// The scheduler kind.
    pub kind: String,
    /// Work counters.
    pub cost: SchedulerCost,
}

/// Results of one class.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ClassResults {
    /// Class name.
    pub name: String,
    /// Bytes generated in the measurement window, as a fraction of the link capacity.
    pub offered: f64,
    /// Bytes delivered in the measurement window, as a fraction of the link capacity.
    pub throughput: f64,
    /// Packets delivered in the measurement window.
    #[ts(type = "number")]
    pub packets: u64,
    /// Packets generated over the whole run.
    #[ts(type = "number")]
    pub generated: u64,
    /// Packets delivered over the whole run.
    #[ts(type = "number")]
    pub delivered: u64,
    /// Packets still queued or on the link at the end.
    #[ts(type = "number")]
    pub in_flight: u64,
    /// Latency (generation to full delivery downstream) of packets generated in the
    /// window and delivered by the end.
    pub latency_ns: LatencySummary,
    /// Standard deviation of those latencies, ns (models that keep the delay spread).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub latency_std_ns: Option<f64>,
    /// Delay per packet over time, sampled in bounded memory (models that keep the delay
    /// spread): see [`crate::stats::DelaySeries`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub delay_series: Option<DelaySeries>,
    /// Jitter of the class's connections (networks, connection classes only): per
    /// delivered packet generated in the window, the change of its connection's
    /// inter-arrival time against its inter-generation time.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub jitter_ns: Option<JitterSummary>,
    /// Connections of the class and their admission (networks, connection classes with
    /// traffic only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub connections: Option<ConnectionCounts>,
    /// Messages of the class (networks, classes with an MTU: each message the generator
    /// yields is split into packets of at most the MTU; the counts above are packets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub messages: Option<MessageResults>,
    /// Offered load and throughput in flits per cycle per end point (networks with a
    /// flit size; a cycle is one flit time on a link, a packet counts whole flits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub flits: Option<FlitResults>,
}

/// The messages of one class (`generated = delivered + in_flight`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct MessageResults {
    /// The class's MTU in bytes.
    pub mtu_bytes: u32,
    /// Messages generated over the whole run.
    #[ts(type = "number")]
    pub generated: u64,
    /// Messages whose last packet arrived, over the whole run.
    #[ts(type = "number")]
    pub delivered: u64,
    /// Messages with a packet still queued or on a link at the end.
    #[ts(type = "number")]
    pub in_flight: u64,
    /// Latency from generation to the arrival of the message's last packet, of messages
    /// generated in the window and delivered by the end.
    pub latency_ns: LatencySummary,
}

/// A class's traffic in flits per cycle per end point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct FlitResults {
    /// Bytes per flit.
    pub flit_bytes: u32,
    /// One cycle (a flit's time on a link), in ns.
    pub cycle_ns: f64,
    /// Flits generated in the window per cycle per end point.
    pub offered: f64,
    /// Flits delivered in the window per cycle per end point.
    pub throughput: f64,
}

/// Connections of one class over all end points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ConnectionCounts {
    /// Connections the end points asked for.
    #[ts(type = "number")]
    pub requested: u64,
    /// Connections admission control accepted.
    #[ts(type = "number")]
    pub admitted: u64,
    /// Connections refused (`requested - admitted`).
    #[ts(type = "number")]
    pub refused: u64,
}

impl RunResults {
    /// The results as pretty JSON: the exact bytes the CLI prints and the browser downloads.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads results written by [`RunResults::to_json_pretty`] back, every number exactly
    /// (serde_json's `float_roundtrip`), so `to_json_pretty` of the result gives the same bytes.
    pub fn from_json(text: &str) -> Result<RunResults, serde_json::Error> {
        serde_json::from_str(crate::text::strip_bom(text))
    }
}
