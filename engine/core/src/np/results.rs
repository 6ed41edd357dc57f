//! What a network-processor node reports besides the per-class results (one class per
//! stream group): drops, lateness, window violations, and the scheduler's cost.
//!
//! Conservation: `generated = sent + dropped_late + lost_full + queued`, where `queued`
//! counts packets in the stream queues (packets in service, in the transmit FIFO or on the
//! link are sent).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::contract::MemoryAccesses;

/// Most streams whose own results are listed.
pub const MAX_LISTED_STREAMS: usize = 1000;

/// The node's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct NpResults {
    /// The scheduler kind (`dwcs_heap`, `dwcs_hilq`).
    pub scheduler: String,
    /// Streams of the node.
    pub streams: u32,
    /// Utilisation U = sum of (1 - x/y) C / T.
    pub utilisation: f64,
    /// Offered load = sum of C / T.
    pub offered_load: f64,
    /// Packets generated (whole run).
    #[ts(type = "number")]
    pub generated: u64,
    /// Packets sent (served), whole run.
    #[ts(type = "number")]
    pub sent: u64,
    /// Late packets dropped by the scheduler.
    #[ts(type = "number")]
    pub dropped_late: u64,
    /// Arrivals lost to a full stream queue.
    #[ts(type = "number")]
    pub lost_full: u64,
    /// Packets still in the stream queues at the end.
    #[ts(type = "number")]
    pub queued: u64,
    /// Packets whose service started after their deadline.
    #[ts(type = "number")]
    pub late_sent: u64,
    /// Window violations counted by the scheduler (misses with x' = 0), all streams.
    #[ts(type = "number")]
    pub violations: u64,
    /// Window violations measured by the node, independently of the scheduler: windows of
    /// y consecutive packets of a stream (sliding) with more than x late or lost.
    #[ts(type = "number")]
    pub windows_violated: u64,
    /// Mean number of streams with a packet queued, seen at each decision.
    pub active_streams: f64,
    /// The cost model's figures.
    pub cost: NpCost,
    /// HILQ's own counters (HILQ only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub hilq: Option<HilqCounts>,
    /// Per stream group.
    pub categories: Vec<NpCategory>,
    /// Per stream, for nodes of at most 1000 streams.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub per_stream: Option<Vec<NpStream>>,
    /// Per stream, the processing cost the engines observed and the scheduler's
    /// prediction (engines server, nodes of at most 1000 streams).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub processing: Option<Vec<NpProcessing>>,
}

/// The processing cost of one stream's packets, as observed by the engines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct NpProcessing {
    /// The stream's group.
    pub group: String,
    /// Packets processed (whole run).
    #[ts(type = "number")]
    pub processed: u64,
    /// Mean actual cycles per packet (null before the first).
    pub cycles_mean: Option<f64>,
    /// Fewest actual cycles.
    #[ts(type = "number | null")]
    pub cycles_min: Option<u64>,
    /// Most actual cycles.
    #[ts(type = "number | null")]
    pub cycles_max: Option<u64>,
    /// The scheduler's prediction PP at the end (PCFQ and separate WFQ).
    pub predicted_cycles: Option<f64>,
}

/// Memory accesses and cycles per scheduled packet (sent or dropped in the window).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct NpCost {
    /// Packets scheduled (sent or dropped) in the measurement window.
    #[ts(type = "number")]
    pub scheduled: u64,
    /// Accesses in the measurement window, by memory type.
    pub accesses: MemoryAccesses,
    /// Scratchpad accesses per scheduled packet.
    pub scratchpad_per_packet: f64,
    /// SRAM accesses per scheduled packet.
    pub sram_per_packet: f64,
    /// All accesses per scheduled packet.
    pub accesses_per_packet: f64,
    /// Mean cycles per scheduled packet (SRAM at the measured latency distribution,
    /// scratchpad at the configured cycles).
    pub cycles_per_packet: f64,
    /// Largest cycles charged to one packet.
    pub cycles_per_packet_max: f64,
    /// The engine clock, MHz.
    pub clock_mhz: f64,
    /// The link's time budget: cycles of the clock in one mean packet's time on the link.
    pub budget_cycles: f64,
    /// Packets per second one engine sustains at `cycles_per_packet`.
    pub sustained_packets_per_s: f64,
    /// Mean packets per second of one stream.
    pub stream_rate_per_s: f64,
    /// Streams of that rate one engine sustains.
    pub sustained_streams: f64,
}

/// HILQ counters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct HilqCounts {
    /// Deadlines 100 ms or more ahead, queued in the last segment.
    #[ts(type = "number")]
    pub clamped: u64,
    /// Elements the collector took from passed segments.
    #[ts(type = "number")]
    pub collected: u64,
    /// Segments the scan looked at (level-1 words read).
    #[ts(type = "number")]
    pub segments_scanned: u64,
}

/// One stream group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct NpCategory {
    /// Group name.
    pub name: String,
    /// Streams in the group.
    pub streams: u32,
    /// Packets generated.
    #[ts(type = "number")]
    pub generated: u64,
    /// Packets sent.
    #[ts(type = "number")]
    pub sent: u64,
    /// Late packets dropped.
    #[ts(type = "number")]
    pub dropped_late: u64,
    /// Arrivals lost to a full queue.
    #[ts(type = "number")]
    pub lost_full: u64,
    /// Packets sent after their deadline.
    #[ts(type = "number")]
    pub late_sent: u64,
    /// Window violations counted by the scheduler.
    #[ts(type = "number")]
    pub violations: u64,
    /// Window violations measured by the node.
    #[ts(type = "number")]
    pub windows_violated: u64,
    /// Standard deviation of the delay (arrival to the end of transmission) of packets
    /// that arrived in the window, ns (mean and maximum are in the class's latency).
    pub delay_std_ns: Option<f64>,
}

/// One stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct NpStream {
    /// x of the stream's window.
    pub x: u32,
    /// y of the stream's window.
    pub y: u32,
    /// x' at the end.
    pub xc: u32,
    /// y' at the end.
    pub yc: u32,
    /// Packets sent.
    #[ts(type = "number")]
    pub sent: u64,
    /// Late packets dropped.
    #[ts(type = "number")]
    pub dropped_late: u64,
    /// Packets sent late.
    #[ts(type = "number")]
    pub late_sent: u64,
    /// Scheduler-counted window violations.
    #[ts(type = "number")]
    pub violations: u64,
    /// Node-measured window violations.
    #[ts(type = "number")]
    pub windows_violated: u64,
}
