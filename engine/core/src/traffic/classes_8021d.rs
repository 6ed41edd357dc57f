//! The seven IEEE 802.1D-2004 traffic types and their reference generators.
//!
//! [`default_traffic`] gives each type the generator of the traffic table of
//! `30-network.md`; [`r2_classes`] the classes of reference scenario R2 (multimedia, with
//! the loads of R2: NC 0.015, VO 0.046, VI 0.453, CL 0.203 fixed; EE, BE and BK each
//! `best_effort_load`, 0.015 to 0.093 along the load axis), uniform destinations.
//!
//! R2 differs from the table in two packet-size bounds, to agree with R2's scheduler
//! configurations (the public test vector of `20-table-design.md`), whose table entries
//! must let a maximum-size packet through: NC one-packet bursts are bounded at 192 B (the
//! vector's NC MTU; NC entries weigh 3 credits = 192 B) instead of 256 B, and EE/BE/BK
//! Bursts60 sizes at 1024 B (the vector's MTU; BK entries weigh 16 credits = 1024 B)
//! instead of 2048 B. Bounded Pareto sizes start at 64 B (one credit) with tail index 1.2
//! (the sources give no shape; 1.2 is heavy-tailed with a finite mean).

use crate::scenario::{FixedSize, ParetoSize, SizeConfig};

use super::config::{AdmissionConfig, ClassTrafficConfig, DestinationConfig};
use super::generators::{BurstsConfig, CbrConfig, GeneratorConfig, VideoConfig};

/// An IEEE 802.1D-2004 traffic type, in decreasing priority.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TrafficType {
    /// Network control: keeps the fabric running.
    NetworkControl,
    /// Voice: 10 ms latency and jitter limit.
    Voice,
    /// Video: 100 ms latency and jitter limit.
    Video,
    /// Controlled load: explicit bandwidth.
    ControlledLoad,
    /// Excellent effort: preferred best effort.
    ExcellentEffort,
    /// Best effort: LAN traffic.
    BestEffort,
    /// Background: must not hurt the others.
    Background,
}

/// All seven types, in class-index order of the reference scenarios (NC first).
pub const ALL: [TrafficType; 7] = [
    TrafficType::NetworkControl,
    TrafficType::Voice,
    TrafficType::Video,
    TrafficType::ControlledLoad,
    TrafficType::ExcellentEffort,
    TrafficType::BestEffort,
    TrafficType::Background,
];

/// Smallest packet of the Pareto size distributions, in bytes.
pub const PARETO_MIN_BYTES: u32 = 64;
/// Tail index of the Pareto size distributions.
pub const PARETO_SHAPE: f64 = 1.2;

/// R2's fixed loads of NC, VO, VI and CL (fractions of the link).
pub const R2_QOS_LOADS: [f64; 4] = [0.015, 0.046, 0.453, 0.203];
/// R2's range of the load of each best-effort class (EE, BE, BK).
pub const R2_BEST_EFFORT_RANGE: (f64, f64) = (0.015, 0.093);

impl TrafficType {
    /// The short name (NC, VO, VI, CL, EE, BE, BK).
    pub fn short_name(self) -> &'static str {
        match self {
            TrafficType::NetworkControl => "NC",
            TrafficType::Voice => "VO",
            TrafficType::Video => "VI",
            TrafficType::ControlledLoad => "CL",
            TrafficType::ExcellentEffort => "EE",
            TrafficType::BestEffort => "BE",
            TrafficType::Background => "BK",
        }
    }

    /// The 802.1D user priority (Annex G: BK 1, BE 0, EE 2, CL 3, VI 4, VO 5, NC 7).
    pub fn user_priority(self) -> u8 {
        match self {
            TrafficType::NetworkControl => 7,
            TrafficType::Voice => 5,
            TrafficType::Video => 4,
            TrafficType::ControlledLoad => 3,
            TrafficType::ExcellentEffort => 2,
            TrafficType::BestEffort => 0,
            TrafficType::Background => 1,
        }
    }

    /// Whether the type is made of connections under admission control (VO, VI, CL).
    pub fn is_connection(self) -> bool {
        matches!(
            self,
            TrafficType::Voice | TrafficType::Video | TrafficType::ControlledLoad
        )
    }
}

fn pareto_bursts(packets: u32, max_bytes: u32) -> GeneratorConfig {
    GeneratorConfig::Bursts(BurstsConfig {
        packets,
        size: SizeConfig::Pareto(ParetoSize {
            min_bytes: PARETO_MIN_BYTES,
            max_bytes,
            shape: PARETO_SHAPE,
        }),
    })
}

/// The synthetic 3 Mb/s MPEG-4 stream of the references: 25 frames per second, GOP
/// IBBPBBPBBPBB, mean sizes I:P:B = 10:4:1, per-frame coefficient of variation 0.3,
/// 2048-byte packets.
pub fn mpeg4_video() -> VideoConfig {
    VideoConfig {
        rate_bps: 3_000_000,
        frame_interval_us: 40_000,
        gop: "IBBPBBPBBPBB".into(),
        i_ratio: 10.0,
        p_ratio: 4.0,
        b_ratio: 1.0,
        variation: 0.3,
        mtu_bytes: 2048,
    }
}

/// The generator of the traffic table of `30-network.md` for a type: NC one-packet
/// bursts up to 256 B; VO 64 kb/s CBR connections of 160 B; VI 3 Mb/s MPEG-4 streams;
/// CL 750 kb/s CBR connections of 2048 B; EE, BE, BK Bursts60 with Pareto sizes up to
/// 2048 B.
pub fn default_generator(t: TrafficType) -> GeneratorConfig {
    match t {
        TrafficType::NetworkControl => pareto_bursts(1, 256),
        TrafficType::Voice => GeneratorConfig::Cbr(CbrConfig {
            max_packet_bytes: None,
            rate_bps: 64_000,
            packet_bytes: 160,
        }),
        TrafficType::Video => GeneratorConfig::Video(mpeg4_video()),
        TrafficType::ControlledLoad => GeneratorConfig::Cbr(CbrConfig {
            max_packet_bytes: None,
            rate_bps: 750_000,
            packet_bytes: 2048,
        }),
        TrafficType::ExcellentEffort | TrafficType::BestEffort | TrafficType::Background => {
            pareto_bursts(60, 2048)
        }
    }
}

/// Bursts4 of the R3 references: bursts of 4 messages of 1024 B.
pub fn bursts4() -> GeneratorConfig {
    GeneratorConfig::Bursts(BurstsConfig {
        packets: 4,
        size: SizeConfig::Fixed(FixedSize { bytes: 1024 }),
    })
}

/// The default traffic of a type at `load`, uniform destinations.
pub fn default_traffic(t: TrafficType, load: f64) -> ClassTrafficConfig {
    ClassTrafficConfig {
        load,
        generator: default_generator(t),
        destinations: DestinationConfig::Uniform,
    }
}

/// The seven classes of R2 with each best-effort class (EE, BE, BK) at
/// `best_effort_load` (see the module documentation for the two size bounds).
pub fn r2_classes(best_effort_load: f64) -> Vec<(TrafficType, ClassTrafficConfig)> {
    ALL.iter()
        .map(|&t| {
            let (load, generator) = match t {
                TrafficType::NetworkControl => (R2_QOS_LOADS[0], pareto_bursts(1, 192)),
                TrafficType::Voice => (R2_QOS_LOADS[1], default_generator(t)),
                TrafficType::Video => (R2_QOS_LOADS[2], default_generator(t)),
                TrafficType::ControlledLoad => (R2_QOS_LOADS[3], default_generator(t)),
                _ => (best_effort_load, pareto_bursts(60, 1024)),
            };
            (
                t,
                ClassTrafficConfig {
                    load,
                    generator,
                    destinations: DestinationConfig::Uniform,
                },
            )
        })
        .collect()
}

/// The load of each best-effort class of R2 for a total offered load (sum of all seven
/// classes): `(total - 0.717) / 3`, so totals 0.762 to 0.996 span 0.015 to 0.093.
pub fn r2_best_effort_load(total: f64) -> f64 {
    let qos: f64 = R2_QOS_LOADS.iter().sum();
    ((total - qos) / 3.0).max(0.0)
}

/// R2's admission control: each connection class may reserve the bandwidth share its
/// scheduler entries give it in the public test vector (VO 0.046875, VI 0.5, CL 0.203125);
/// no extra QoS cap (the shares already sum to 0.75). Burst classes reserve nothing.
pub fn r2_admission() -> AdmissionConfig {
    AdmissionConfig {
        qos_cap: 1.0,
        reserved: vec![0.0, 0.046875, 0.5, 0.203125, 0.0, 0.0, 0.0],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::FieldError;
    use crate::time::BitRate;
    use crate::traffic::config_rules::{
        TrafficContext, validate_admission, validate_class_traffic,
    };

    #[test]
    fn r2_classes_are_valid_and_have_the_r2_loads() {
        let ctx = TrafficContext {
            endpoints: 64,
            link: BitRate::from_gbps(2.0).unwrap(),
        };
        for be in [0.015, 0.093] {
            let classes = r2_classes(be);
            let names: Vec<&str> = classes.iter().map(|c| c.0.short_name()).collect();
            assert_eq!(names, ["NC", "VO", "VI", "CL", "EE", "BE", "BK"]);
            let mut errors: Vec<FieldError> = Vec::new();
            for (i, (t, c)) in classes.iter().enumerate() {
                validate_class_traffic(&format!("c[{i}]"), c, &ctx, &mut errors);
                assert_eq!(c.generator.is_connections(), t.is_connection());
            }
            assert!(errors.is_empty(), "{errors:?}");
            let total: f64 = classes.iter().map(|c| c.1.load).sum();
            assert!((total - (0.717 + 3.0 * be)).abs() < 1e-12);
        }
        assert!((r2_best_effort_load(0.762) - 0.015).abs() < 1e-12);
        assert!((r2_best_effort_load(0.996) - 0.093).abs() < 1e-12);
        let mut errors = Vec::new();
        validate_admission("a", &r2_admission(), 7, &mut errors);
        assert!(errors.is_empty());
    }

    #[test]
    fn defaults_follow_the_traffic_table() {
        for t in ALL {
            let g = default_generator(t);
            assert_eq!(g.is_connections(), t.is_connection(), "{t:?}");
        }
        assert_eq!(
            default_generator(TrafficType::Voice),
            GeneratorConfig::Cbr(CbrConfig {
                max_packet_bytes: None,
                rate_bps: 64_000,
                packet_bytes: 160
            })
        );
        let GeneratorConfig::Bursts(b) = default_generator(TrafficType::BestEffort) else {
            panic!("best effort is bursty");
        };
        assert_eq!((b.packets, b.size.max_bytes()), (60, 2048));
        let GeneratorConfig::Bursts(b) = default_generator(TrafficType::NetworkControl) else {
            panic!("network control is bursty");
        };
        assert_eq!((b.packets, b.size.max_bytes()), (1, 256));
    }
}
