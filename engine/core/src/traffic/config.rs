//! Configuration of network traffic: per class, how packets are generated at each end
//! point and where they go, plus the admission control of connections.
//!
//! These types follow the scenario format (`deny_unknown_fields`, `kind`-tagged enums that
//! keep the error path, a doc comment per field) so they can be embedded in a network
//! scenario. [`validate_class_traffic`] and [`validate_admission`] check every rule at
//! once and name the field of each problem, like `scenario::validate`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::FieldError;
use crate::scenario::SizeConfig;
use crate::scenario::tagged::tagged_enum;
use crate::time::BitRate;

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
                video(connection_rate(self), t.frame_interval_us, t.mtu_bytes)
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

/// What the validation of traffic needs to know about the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrafficContext {
    /// Number of end points.
    pub endpoints: u32,
    /// Data rate of an end point's link (loads are fractions of it).
    pub link: BitRate,
}

/// Checks every rule of one class's traffic; problems are appended with paths below
/// `path` (e.g. `model.classes[2].traffic`).
pub fn validate_class_traffic(
    path: &str,
    cfg: &ClassTrafficConfig,
    ctx: &TrafficContext,
    errors: &mut Vec<FieldError>,
) {
    let load_ok = cfg.load.is_finite() && (0.0..=MAX_LOAD).contains(&cfg.load);
    if !load_ok {
        errors.push(FieldError::new(
            format!("{path}.load"),
            format!(
                "must be a fraction of the link rate between 0 and {MAX_LOAD} (got {})",
                cfg.load
            ),
        ));
    }
    validate_generator(&format!("{path}.generator"), &cfg.generator, errors);
    if load_ok {
        if let Some(rate) = connection_rate(&cfg.generator) {
            let count = super::connections::connection_count(cfg.load, ctx.link, rate);
            if count > MAX_CONNECTIONS {
                errors.push(FieldError::new(
                    format!("{path}.load"),
                    format!(
                        "would open {count} connections per end point (load x link rate / connection rate), more than {MAX_CONNECTIONS}"
                    ),
                ));
            }
        }
    }
    validate_destinations(
        &format!("{path}.destinations"),
        &cfg.destinations,
        ctx.endpoints,
        errors,
    );
}

/// The mean rate of one connection of a valid connection generator (None for bursts or
/// an invalid trace).
fn connection_rate(g: &GeneratorConfig) -> Option<u64> {
    match g {
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

/// Checks a generator's parameters.
pub fn validate_generator(path: &str, g: &GeneratorConfig, errors: &mut Vec<FieldError>) {
    let mut err = |field: &str, message: String| {
        errors.push(FieldError::new(format!("{path}.{field}"), message));
    };
    let rate = |rate: u64, err: &mut dyn FnMut(&str, String)| {
        if !(MIN_RATE_BPS..=MAX_RATE_BPS).contains(&rate) {
            err(
                "rate_bps",
                format!(
                    "must be a rate between {MIN_RATE_BPS} and {MAX_RATE_BPS} bits per second (got {rate})"
                ),
            );
        }
    };
    let interval = |us: u32, err: &mut dyn FnMut(&str, String)| {
        if !(1..=MAX_FRAME_INTERVAL_US).contains(&us) {
            err(
                "frame_interval_us",
                format!("must be between 1 and {MAX_FRAME_INTERVAL_US} microseconds (got {us})"),
            );
        }
    };
    let mtu = |bytes: u32, err: &mut dyn FnMut(&str, String)| {
        if !(MIN_MTU_BYTES..=MAX_PACKET_BYTES).contains(&bytes) {
            err(
                "mtu_bytes",
                format!(
                    "must be between {MIN_MTU_BYTES} and {MAX_PACKET_BYTES} bytes (got {bytes})"
                ),
            );
        }
    };
    match g {
        GeneratorConfig::Bursts(b) => {
            if !(1..=MAX_BURST_PACKETS).contains(&b.packets) {
                err(
                    "packets",
                    format!(
                        "must be between 1 and {MAX_BURST_PACKETS} packets per burst (got {})",
                        b.packets
                    ),
                );
            }
            validate_size(&format!("{path}.size"), &b.size, errors);
        }
        GeneratorConfig::Cbr(c) => {
            rate(c.rate_bps, &mut err);
            if !(1..=MAX_PACKET_BYTES).contains(&c.packet_bytes) {
                err(
                    "packet_bytes",
                    format!(
                        "must be between 1 and {MAX_PACKET_BYTES} bytes (got {})",
                        c.packet_bytes
                    ),
                );
            }
            if let Some(max) = c.max_packet_bytes {
                if !(c.packet_bytes..=MAX_PACKET_BYTES).contains(&max) {
                    err(
                        "max_packet_bytes",
                        format!(
                            "must be between packet_bytes ({}) and {MAX_PACKET_BYTES} bytes (got {max})",
                            c.packet_bytes
                        ),
                    );
                }
            }
        }
        GeneratorConfig::Video(v) => {
            rate(v.rate_bps, &mut err);
            interval(v.frame_interval_us, &mut err);
            mtu(v.mtu_bytes, &mut err);
            if v.gop.is_empty() || v.gop.chars().count() > MAX_GOP_FRAMES {
                err(
                    "gop",
                    format!(
                        "must hold between 1 and {MAX_GOP_FRAMES} frame letters (got {})",
                        v.gop.chars().count()
                    ),
                );
            } else if let Some((i, c)) = v
                .gop
                .chars()
                .enumerate()
                .find(|(_, c)| !matches!(c, 'I' | 'P' | 'B'))
            {
                err(
                    "gop",
                    format!(
                        "may only hold the frame types I, P and B; character {} is {c:?}",
                        i + 1
                    ),
                );
            }
            for (field, ratio, letter) in [
                ("i_ratio", v.i_ratio, 'I'),
                ("p_ratio", v.p_ratio, 'P'),
                ("b_ratio", v.b_ratio, 'B'),
            ] {
                let used = v.gop.contains(letter);
                if !(ratio.is_finite() && ratio > 0.0 && ratio <= MAX_FRAME_RATIO) && used {
                    err(
                        field,
                        format!(
                            "must be a relative size above 0 and at most {MAX_FRAME_RATIO} (got {ratio})"
                        ),
                    );
                }
            }
            if !(v.variation.is_finite() && (0.0..=MAX_VARIATION).contains(&v.variation)) {
                err(
                    "variation",
                    format!(
                        "must be a coefficient of variation between 0 and {MAX_VARIATION} (got {})",
                        v.variation
                    ),
                );
            }
        }
        GeneratorConfig::VideoTrace(t) => {
            interval(t.frame_interval_us, &mut err);
            mtu(t.mtu_bytes, &mut err);
            if let Some(r) = t.rate_bps {
                rate(r, &mut err);
            }
            match FrameTrace::parse(&t.trace) {
                Err(e) => err("trace", e.to_string()),
                Ok(trace) => {
                    let r = trace.mean_rate_bps(t.frame_interval_us);
                    if t.rate_bps.is_none() && !(MIN_RATE_BPS..=MAX_RATE_BPS).contains(&r) {
                        err(
                            "trace",
                            format!(
                                "replays at a mean rate of {r} bits per second at this frame interval, outside {MIN_RATE_BPS} to {MAX_RATE_BPS}"
                            ),
                        );
                    }
                }
            }
        }
    }
}

/// Checks a packet-size distribution (same rules as the link lab's).
pub fn validate_size(path: &str, size: &SizeConfig, errors: &mut Vec<FieldError>) {
    let mut check_bytes = |field: &str, bytes: u32| {
        if !(1..=MAX_PACKET_BYTES).contains(&bytes) {
            errors.push(FieldError::new(
                format!("{path}.{field}"),
                format!("must be between 1 and {MAX_PACKET_BYTES} bytes (got {bytes})"),
            ));
        }
    };
    let (min, max) = match size {
        SizeConfig::Fixed(f) => {
            check_bytes("bytes", f.bytes);
            (f.bytes, f.bytes)
        }
        SizeConfig::Uniform(u) => {
            check_bytes("min_bytes", u.min_bytes);
            check_bytes("max_bytes", u.max_bytes);
            (u.min_bytes, u.max_bytes)
        }
        SizeConfig::Pareto(d) => {
            check_bytes("min_bytes", d.min_bytes);
            check_bytes("max_bytes", d.max_bytes);
            if !(d.shape.is_finite() && d.shape > 0.0 && d.shape <= 100.0) {
                errors.push(FieldError::new(
                    format!("{path}.shape"),
                    format!(
                        "must be a tail index above 0 and at most 100 (got {})",
                        d.shape
                    ),
                ));
            }
            (d.min_bytes, d.max_bytes)
        }
    };
    if max < min {
        errors.push(FieldError::new(
            format!("{path}.max_bytes"),
            format!("must be at least min_bytes ({min}) (got {max})"),
        ));
    }
}

/// Checks a destination model against the number of end points.
pub fn validate_destinations(
    path: &str,
    d: &DestinationConfig,
    endpoints: u32,
    errors: &mut Vec<FieldError>,
) {
    if !(2..=MAX_ENDPOINTS).contains(&endpoints) {
        errors.push(FieldError::new(
            path,
            format!(
                "needs between 2 and {MAX_ENDPOINTS} end points, so that every end point has another to send to (the network has {endpoints})"
            ),
        ));
        return;
    }
    match d {
        DestinationConfig::Uniform => {}
        DestinationConfig::Zipf(z) => {
            if !(z.exponent.is_finite() && (0.0..=MAX_ZIPF_EXPONENT).contains(&z.exponent)) {
                errors.push(FieldError::new(
                    format!("{path}.exponent"),
                    format!(
                        "must be between 0 and {MAX_ZIPF_EXPONENT} (got {})",
                        z.exponent
                    ),
                ));
            }
        }
        DestinationConfig::HotSpot(h) => {
            if h.endpoint >= endpoints {
                errors.push(FieldError::new(
                    format!("{path}.endpoint"),
                    format!(
                        "{} is not an end point; this network has end points 0 to {}",
                        h.endpoint,
                        endpoints - 1
                    ),
                ));
            }
            if !(h.fraction.is_finite() && (0.0..=1.0).contains(&h.fraction)) {
                errors.push(FieldError::new(
                    format!("{path}.fraction"),
                    format!("must be between 0 and 1 (got {})", h.fraction),
                ));
            }
        }
        DestinationConfig::Permutation(p) => match p.pattern {
            PermutationPattern::BitComplement | PermutationPattern::BitReversal
                if !endpoints.is_power_of_two() =>
            {
                errors.push(FieldError::new(
                    format!("{path}.pattern"),
                    format!(
                        "bit permutations need a power-of-two number of end points (the network has {endpoints}); use random_derangement"
                    ),
                ));
            }
            _ => {}
        },
    }
}

/// Checks the admission configuration of a network with `classes` classes.
pub fn validate_admission(
    path: &str,
    a: &AdmissionConfig,
    classes: usize,
    errors: &mut Vec<FieldError>,
) {
    if !(a.qos_cap.is_finite() && (0.0..=1.0).contains(&a.qos_cap)) {
        errors.push(FieldError::new(
            format!("{path}.qos_cap"),
            format!(
                "must be a fraction of the link between 0 and 1 (got {})",
                a.qos_cap
            ),
        ));
    }
    if a.reserved.len() != classes {
        errors.push(FieldError::new(
            format!("{path}.reserved"),
            format!(
                "must hold one fraction per class: {classes} (got {})",
                a.reserved.len()
            ),
        ));
    }
    for (i, &f) in a.reserved.iter().enumerate() {
        if !(f.is_finite() && (0.0..=1.0).contains(&f)) {
            errors.push(FieldError::new(
                format!("{path}.reserved[{i}]"),
                format!("must be a fraction of the link between 0 and 1 (got {f})"),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> TrafficContext {
        TrafficContext {
            endpoints: 64,
            link: BitRate::from_gbps(2.0).unwrap(),
        }
    }

    fn check(cfg: &ClassTrafficConfig) -> Vec<FieldError> {
        let mut e = Vec::new();
        validate_class_traffic("t", cfg, &ctx(), &mut e);
        e
    }

    fn parse(json: &str) -> Result<ClassTrafficConfig, String> {
        serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(json)).map_err(
            |e| {
                let (p, m) =
                    crate::scenario::tagged::locate(&e.path().to_string(), &e.inner().to_string());
                format!("{p}: {m}")
            },
        )
    }

    #[test]
    fn round_trips_and_reads_tagged_kinds() {
        let json = r#"{"load":0.1,"generator":{"kind":"bursts","packets":60,
            "size":{"kind":"pareto","min_bytes":64,"max_bytes":2048,"shape":1.2}},
            "destinations":{"kind":"zipf","exponent":1.0,"ranking":"random"}}"#;
        let c = parse(json).unwrap();
        assert!(check(&c).is_empty());
        let back: ClassTrafficConfig =
            serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
    }

    #[test]
    fn errors_keep_the_path_through_tagged_enums() {
        let json = r#"{"load":0.1,"generator":{"kind":"cbr","rate_bps":64000,"packet_bytez":160},
            "destinations":{"kind":"uniform"}}"#;
        let e = parse(json).unwrap_err();
        assert!(
            e.starts_with("generator.packet_bytez: is not a known field"),
            "{e}"
        );
        let json =
            r#"{"load":0.1,"generator":{"kind":"poisson"},"destinations":{"kind":"uniform"}}"#;
        let e = parse(json).unwrap_err();
        assert!(e.contains("generator.kind") && e.contains("bursts, cbr, video, video_trace"));
    }

    #[test]
    fn each_rule_names_its_field() {
        let bad = ClassTrafficConfig {
            load: -1.0,
            generator: GeneratorConfig::Video(VideoConfig {
                rate_bps: 0,
                frame_interval_us: 0,
                gop: "IBX".into(),
                i_ratio: 10.0,
                p_ratio: -1.0, // P is not in the GOP, so its ratio is not checked
                b_ratio: 0.0,
                variation: 9.0,
                mtu_bytes: 10,
            }),
            destinations: DestinationConfig::HotSpot(HotSpotConfig {
                endpoint: 64,
                fraction: 1.5,
            }),
        };
        let paths: Vec<String> = check(&bad).into_iter().map(|e| e.path).collect();
        assert_eq!(
            paths,
            [
                "t.load",
                "t.generator.rate_bps",
                "t.generator.frame_interval_us",
                "t.generator.mtu_bytes",
                "t.generator.gop",
                "t.generator.b_ratio",
                "t.generator.variation",
                "t.destinations.endpoint",
                "t.destinations.fraction",
            ]
        );
    }

    #[test]
    fn too_many_connections_and_bit_patterns_are_refused() {
        let mut c = ClassTrafficConfig {
            load: 1.0,
            generator: GeneratorConfig::Cbr(CbrConfig {
                max_packet_bytes: None,
                rate_bps: 1000,
                packet_bytes: 64,
            }),
            destinations: DestinationConfig::Permutation(PermutationConfig {
                pattern: PermutationPattern::BitReversal,
            }),
        };
        // 2 Gb/s / 1 kb/s = 2 000 000 connections.
        let e = check(&c);
        assert_eq!(e.len(), 1);
        assert!(e[0].path == "t.load" && e[0].message.contains("2000000 connections"));
        c.load = 0.01;
        let mut e = Vec::new();
        validate_class_traffic(
            "t",
            &c,
            &TrafficContext {
                endpoints: 48,
                ..ctx()
            },
            &mut e,
        );
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].path, "t.destinations.pattern");
    }

    #[test]
    fn bad_traces_are_reported_at_the_trace_field() {
        let c = ClassTrafficConfig {
            load: 0.1,
            generator: GeneratorConfig::VideoTrace(VideoTraceConfig {
                trace: "1000\nabc\n".into(),
                frame_interval_us: 40_000,
                rate_bps: None,
                mtu_bytes: 2048,
            }),
            destinations: DestinationConfig::Uniform,
        };
        let e = check(&c);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].path, "t.generator.trace");
        assert!(e[0].message.starts_with("line 2:"), "{}", e[0].message);
    }

    #[test]
    fn admission_rules() {
        let mut e = Vec::new();
        validate_admission(
            "a",
            &AdmissionConfig {
                qos_cap: 1.2,
                reserved: vec![0.5, -0.1],
            },
            3,
            &mut e,
        );
        let paths: Vec<&str> = e.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["a.qos_cap", "a.reserved", "a.reserved[1]"]);
    }
}
