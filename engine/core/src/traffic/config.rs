//! Configuration of network traffic: per class, how packets are generated at each end
//! point and where they go, plus the admission control of connections.
//!
//! These types follow the scenario format (`deny_unknown_fields`, `kind`-tagged enums that
//! keep the error path, a doc comment per field) so they can be embedded in a network
//! scenario. The rules are in [`super::config_rules`], which checks every rule at once and
//! names the field of each problem, like `scenario::validate`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::scenario::SizeConfig;
use crate::scenario::tagged::tagged_enum;

use super::frame_trace::FrameTrace;

/// Most end points a traffic configuration may address.
pub const MAX_ENDPOINTS: u32 = 1 << 16;
/// Most packets per burst.
pub const MAX_BURST_PACKETS: u32 = 100_000;
/// Largest packet, frame MTU or fixed packet size, in bytes.
pub const MAX_PACKET_BYTES: u32 = 65_536;
/// Smallest MTU a video stream may be split with, in bytes.
pub const MIN_MTU_BYTES: u32 = 64;
/// Largest offered load per class and end point (fraction of the link).
pub const MAX_LOAD: f64 = 4.0;
/// Most connections one end point may open for one class.
pub const MAX_CONNECTIONS: u64 = 100_000;
/// Lowest and highest connection rate, in bits per second.
pub const MIN_RATE_BPS: u64 = 100;
/// Highest connection rate, in bits per second (1 Tb/s).
pub const MAX_RATE_BPS: u64 = 1_000_000_000_000;
/// Longest frame interval of a video stream, in microseconds (10 s).
pub const MAX_FRAME_INTERVAL_US: u32 = 10_000_000;
/// Longest GOP pattern.
pub const MAX_GOP_FRAMES: usize = 256;
/// Largest mean-size ratio of a frame type.
pub const MAX_FRAME_RATIO: f64 = 1.0e6;
/// Largest coefficient of variation of a synthetic frame size.
pub const MAX_VARIATION: f64 = 4.0;
/// Largest Zipf exponent.
pub const MAX_ZIPF_EXPONENT: f64 = 20.0;

/// The traffic one class offers from every end point of a network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct ClassTrafficConfig {
    /// Offered load of each end point as a fraction of its link rate (0 = silent). For
    /// connection classes the load sets the number of connections (see `connections`).
    pub load: f64,
    /// How packets are generated.
    pub generator: GeneratorConfig,
    /// Where packets (bursts, connections) go.
    pub destinations: DestinationConfig,
}

/// How a class generates packets at one end point.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GeneratorConfig {
    /// Bursts of `packets` packets to one destination (drawn per burst), Poisson gaps
    /// between bursts (Bursts60, Bursts4, one-packet bursts).
    Bursts(BurstsConfig),
    /// Constant-bit-rate connections, each to its own destination, through admission
    /// control.
    Cbr(CbrConfig),
    /// Synthetic MPEG-4 video streams (I/P/B frames), each to its own destination,
    /// through admission control at their mean rate.
    Video(VideoConfig),
    /// Video streams replaying an uploaded frame-size trace, through admission control
    /// at their mean rate.
    VideoTrace(VideoTraceConfig),
}
tagged_enum!(GeneratorConfig, "traffic generator", {
    "bursts" => Bursts(BurstsConfig),
    "cbr" => Cbr(CbrConfig),
    "video" => Video(VideoConfig),
    "video_trace" => VideoTrace(VideoTraceConfig),
});

impl GeneratorConfig {
    /// The mean rate of one connection of a valid connection generator (None for bursts or
    /// an invalid trace).
    pub fn connection_rate(&self) -> Option<u64> {
        match self {
            GeneratorConfig::Bursts(_) => None,
            GeneratorConfig::Cbr(c) => Some(c.rate_bps),
            GeneratorConfig::Video(v) => Some(v.rate_bps),
            GeneratorConfig::VideoTrace(t) => match t.rate_bps {
                Some(r) => Some(r),
                None => FrameTrace::parse(&t.trace)
                    .ok()
                    .map(|tr| tr.mean_rate_bps(t.frame_interval_us)),
            },
        }
        .filter(|&r| (MIN_RATE_BPS..=MAX_RATE_BPS).contains(&r))
    }

    /// The scenario's `kind` string of this generator.
    pub fn kind(&self) -> &'static str {
        match self {
            GeneratorConfig::Bursts(_) => "bursts",
            GeneratorConfig::Cbr(_) => "cbr",
            GeneratorConfig::Video(_) => "video",
            GeneratorConfig::VideoTrace(_) => "video_trace",
        }
    }

    /// Whether the class is made of connections (and so goes through admission control).
    pub fn is_connections(&self) -> bool {
        !matches!(self, GeneratorConfig::Bursts(_))
    }

    /// The largest packet the generator can make, in bytes (buffers and scheduler
    /// entries must hold it): the size bound of bursts, the CBR packet, the video MTU.
    pub fn max_packet_bytes(&self) -> u32 {
        match self {
            GeneratorConfig::Bursts(b) => b.size.max_bytes(),
            GeneratorConfig::Cbr(c) => c.largest(),
            GeneratorConfig::Video(v) => v.mtu_bytes,
            GeneratorConfig::VideoTrace(t) => t.mtu_bytes,
        }
    }

    /// An estimate of the mean packet size in bytes, to bound the work of a run: the mean
    /// of the burst size distribution, the CBR packet, or for video a mean-size frame
    /// (mean rate x frame interval) split into MTU packets. At least 1.
    pub fn mean_packet_bytes(&self) -> f64 {
        let video = |rate: Option<u64>, interval_us: u32, mtu: u32| {
            let frame = rate.unwrap_or(0) as f64 * f64::from(interval_us) / 8.0e6;
            let packets = libm::ceil(frame / f64::from(mtu.max(1))).max(1.0);
            frame / packets
        };
        let mean = match self {
            GeneratorConfig::Bursts(b) => b.size.mean_bytes(),
            GeneratorConfig::Cbr(c) => c.mean(),
            GeneratorConfig::Video(v) => video(Some(v.rate_bps), v.frame_interval_us, v.mtu_bytes),
            GeneratorConfig::VideoTrace(t) => {
                video(self.connection_rate(), t.frame_interval_us, t.mtu_bytes)
            }
        };
        if mean.is_finite() { mean.max(1.0) } else { 1.0 }
    }
}

/// Bursts of packets to one destination.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct BurstsConfig {
    /// Packets per burst (1 to 100000): 60 for Bursts60, 1 for one-packet bursts.
    pub packets: u32,
    /// Size of each packet (drawn independently), in bytes.
    pub size: SizeConfig,
}

/// Constant-bit-rate connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct CbrConfig {
    /// Rate of one connection in bits per second (e.g. 64000 for voice).
    #[ts(type = "number")]
    pub rate_bps: u64,
    /// Size of every packet in bytes (e.g. 160 for voice); with `max_packet_bytes`, the
    /// smallest size.
    pub packet_bytes: u32,
    /// With it, each packet's size is drawn uniformly from `packet_bytes ..=
    /// max_packet_bytes` (R4: 64-2048 B) and the connection keeps its rate: the next
    /// packet follows after this one's bits at `rate_bps`. Absent: every packet has
    /// `packet_bytes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_packet_bytes: Option<u32>,
}

impl CbrConfig {
    /// The largest packet of the connection.
    pub fn largest(&self) -> u32 {
        self.max_packet_bytes
            .unwrap_or(self.packet_bytes)
            .max(self.packet_bytes)
    }

    /// The mean packet size.
    pub fn mean(&self) -> f64 {
        (f64::from(self.packet_bytes) + f64::from(self.largest())) / 2.0
    }
}

/// Synthetic MPEG-4 video streams.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct VideoConfig {
    /// Mean rate of one stream in bits per second (e.g. 3000000).
    #[ts(type = "number")]
    pub rate_bps: u64,
    /// Time between frames in microseconds (40000 = 25 frames per second).
    pub frame_interval_us: u32,
    /// Group-of-pictures pattern, one letter per frame, cycled (e.g. "IBBPBBPBBPBB").
    pub gop: String,
    /// Mean size of an I frame relative to the other types (only the ratios matter).
    pub i_ratio: f64,
    /// Mean size of a P frame relative to the other types.
    pub p_ratio: f64,
    /// Mean size of a B frame relative to the other types.
    pub b_ratio: f64,
    /// Coefficient of variation of each frame's size around its type's mean (lognormal;
    /// 0 = every frame of a type has its mean size).
    pub variation: f64,
    /// Largest packet a frame is split into, in bytes (the last packet is smaller).
    pub mtu_bytes: u32,
}

/// Video streams replaying an uploaded frame-size trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct VideoTraceConfig {
    /// The trace text: one frame size in bytes per line (see docs/traffic-formats.md).
    pub trace: String,
    /// Time between frames in microseconds (40000 = 25 frames per second).
    pub frame_interval_us: u32,
    /// Scales every frame so a stream's mean rate is this many bits per second; absent:
    /// frames are replayed at their traced sizes (the trace's own mean rate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub rate_bps: Option<u64>,
    /// Largest packet a frame is split into, in bytes (the last packet is smaller).
    pub mtu_bytes: u32,
}

/// Where packets go. Never to their own end point.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DestinationConfig {
    /// Uniform over the other end points.
    Uniform,
    /// Zipf: the destination of rank k (1-based) has weight 1 / k^exponent.
    Zipf(ZipfConfig),
    /// A fraction of the traffic to one hot end point, the rest uniform.
    HotSpot(HotSpotConfig),
    /// A fixed partner per end point.
    Permutation(PermutationConfig),
}
tagged_enum!(DestinationConfig, "destination model", {
    "uniform" => Uniform,
    "zipf" => Zipf(ZipfConfig),
    "hot_spot" => HotSpot(HotSpotConfig),
    "permutation" => Permutation(PermutationConfig),
});

/// Zipf destinations.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct ZipfConfig {
    /// The exponent s (0 = uniform; 1 = classic Zipf; larger = hotter hot spots).
    pub exponent: f64,
    /// How end points are ranked.
    pub ranking: ZipfRanking,
}

/// How Zipf destinations are ranked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum ZipfRanking {
    /// One seeded random ranking of all end points, shared by every source (so the same
    /// end points are hot for everyone); a source skips itself.
    Random,
    /// By index distance on a ring from the source: source+1, source-1, source+2, ...
    Distance,
}

/// Hot-spot destinations.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct HotSpotConfig {
    /// The hot end point.
    pub endpoint: u32,
    /// Fraction of each other end point's bursts / connections sent to the hot end point
    /// (0 to 1); the rest is uniform over the other end points (the hot one included).
    pub fraction: f64,
}

/// Permutation destinations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct PermutationConfig {
    /// The permutation.
    pub pattern: PermutationPattern,
}

/// A fixed-partner pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum PermutationPattern {
    /// Partner = the index with every bit flipped (needs a power-of-two count).
    BitComplement,
    /// Partner = the index with its bits in reverse order (needs a power-of-two count);
    /// end points whose index is a bit palindrome use the bit complement instead.
    BitReversal,
    /// A seeded random cyclic permutation (one cycle through all end points).
    RandomDerangement,
}

/// Admission control of connection classes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct AdmissionConfig {
    /// Most of any link that all connection classes together may reserve (0 to 1; e.g.
    /// 0.7; 1 = no cap beyond the per-class reservations).
    pub qos_cap: f64,
    /// Fraction of every link each class may reserve, one per class in class order (0 to
    /// 1; ignored for classes without connections).
    pub reserved: Vec<f64>,
}
