//! The traffic of reference scenario R3 (`shared/spec/50-reference-scenarios.md`,
//! InfiniBand vs Omni-Path switches with DTable): seven classes, one per SL, with the
//! per-SL MTU table of the study and its flit size.
//!
//! | SL | class | generator | load (per end point) | MTU |
//! |----|-------|-----------|----------------------|-----|
//! | 0 | NC | one-packet bursts of 192 B (Poisson), uniform destinations | 0.01 | 192 B |
//! | 1 | VO | CBR connections of 128 B packets | 0.02 | 128 B |
//! | 2 | VI | CBR connections of 2048 B packets | 0.30 | 2048 B |
//! | 3 | CL | CBR connections of 2048 B packets | 0.35 | 2048 B |
//! | 4-6 | EE, BE, BK | Bursts4: bursts of four 1024 B messages, Poisson gaps | 0.04 each at the reference point (best effort: the load axis) | 1024 B |
//!
//! Connection rates (the spec is silent; choice): at R3's 100 Gb/s a connection of the
//! references' rates (64 kb/s, 3 Mb/s, 750 kb/s) would mean tens of thousands of
//! connections per end point, beyond what a 2048-end-point network can hold
//! (`MAX_TOTAL_CONNECTIONS`). So each connection is a fixed fraction of the link
//! ([`R3_CONNECTION_SHARES`]): VO 0.5 %, VI 10 %, CL 5 %, i.e. 4, 3 and 7 connections per end
//! point at the reference loads, each to a uniformly drawn destination, with no admission
//! control (QoS loads stay at 68 % of every link). Bursts4 messages are split into packets
//! by the MTU table; with these MTUs every message is one packet, and a smaller MTU (say
//! 256 B) splits a 1024 B message into four.

use crate::scenario::{FixedSize, NetworkClassConfig, SizeConfig};
use crate::time::BitRate;

use super::classes_8021d::{ALL, TrafficType, bursts4};
use super::config::{ClassTrafficConfig, DestinationConfig};
use super::generators::{BurstsConfig, CbrConfig, GeneratorConfig};

/// R3's fixed loads of NC, VO, VI and CL (fractions of the link per end point).
pub const R3_QOS_LOADS: [f64; 4] = [0.01, 0.02, 0.30, 0.35];
/// R3's reference load of each best-effort class (EE, BE, BK): 0.12 together.
pub const R3_BEST_EFFORT_LOAD: f64 = 0.04;
/// R3's per-SL MTU table (NC, VO, VI, CL, EE, BE, BK), in bytes: the class MTUs of its
/// arbitration table.
pub const R3_MTU_BYTES: [u32; 7] = [192, 128, 2048, 2048, 1024, 1024, 1024];
/// Packet sizes of NC, VO, VI and CL, in bytes.
pub const R3_PACKET_BYTES: [u32; 4] = [192, 128, 2048, 2048];
/// Share of the link one connection of VO, VI and CL takes.
pub const R3_CONNECTION_SHARES: [f64; 3] = [0.005, 0.1, 0.05];
/// Flit size of the R3 switches, in bytes (a cycle is one flit time on a 100 Gb/s link).
pub const R3_FLIT_BYTES: u32 = 64;
/// Link rate of the R3 switches, in Gb/s.
pub const R3_LINK_GBPS: f64 = 100.0;

/// One class of R3.
#[derive(Clone, Debug, PartialEq)]
pub struct R3Class {
    /// Its 802.1D type (SL = position).
    pub kind: TrafficType,
    /// Its traffic.
    pub traffic: ClassTrafficConfig,
    /// Its entry of the per-SL MTU table, in bytes.
    pub mtu_bytes: u32,
}

fn cbr(link: BitRate, share: f64, packet_bytes: u32) -> GeneratorConfig {
    GeneratorConfig::Cbr(CbrConfig {
        rate_bps: libm::round(link.bits_per_s() as f64 * share) as u64,
        packet_bytes,
        max_packet_bytes: None,
    })
}

/// The seven classes of R3 on links of `link`, each best-effort class at
/// `best_effort_load` ([`R3_BEST_EFFORT_LOAD`] at the reference point).
pub fn r3_classes(link: BitRate, best_effort_load: f64) -> Vec<R3Class> {
    ALL.iter()
        .zip(R3_MTU_BYTES)
        .map(|(&kind, mtu_bytes)| {
            let (load, generator) = match kind {
                TrafficType::NetworkControl => (
                    R3_QOS_LOADS[0],
                    GeneratorConfig::Bursts(BurstsConfig {
                        packets: 1,
                        size: SizeConfig::Fixed(FixedSize {
                            bytes: R3_PACKET_BYTES[0],
                        }),
                    }),
                ),
                TrafficType::Voice => (
                    R3_QOS_LOADS[1],
                    cbr(link, R3_CONNECTION_SHARES[0], R3_PACKET_BYTES[1]),
                ),
                TrafficType::Video => (
                    R3_QOS_LOADS[2],
                    cbr(link, R3_CONNECTION_SHARES[1], R3_PACKET_BYTES[2]),
                ),
                TrafficType::ControlledLoad => (
                    R3_QOS_LOADS[3],
                    cbr(link, R3_CONNECTION_SHARES[2], R3_PACKET_BYTES[3]),
                ),
                _ => (best_effort_load, bursts4()),
            };
            R3Class {
                kind,
                traffic: ClassTrafficConfig {
                    load,
                    generator,
                    destinations: DestinationConfig::Uniform,
                },
                mtu_bytes,
            }
        })
        .collect()
}

/// The classes of R3 as a network scenario's `classes`: named NC ... BK, EE/BE/BK best
/// effort, each with its MTU.
pub fn r3_network_classes(link: BitRate, best_effort_load: f64) -> Vec<NetworkClassConfig> {
    r3_classes(link, best_effort_load)
        .into_iter()
        .map(|c| NetworkClassConfig {
            name: c.kind.short_name().to_string(),
            best_effort: !c.kind.is_connection() && c.kind != TrafficType::NetworkControl,
            traffic: c.traffic,
            priority: None,
            mtu_bytes: Some(c.mtu_bytes),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traffic::connections::connection_count;

    #[test]
    fn the_r3_mix() {
        let link = BitRate::from_gbps(R3_LINK_GBPS).unwrap();
        let classes = r3_network_classes(link, R3_BEST_EFFORT_LOAD);
        let names: Vec<&str> = classes.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["NC", "VO", "VI", "CL", "EE", "BE", "BK"]);
        let loads: Vec<f64> = classes.iter().map(|c| c.traffic.load).collect();
        assert_eq!(loads, [0.01, 0.02, 0.30, 0.35, 0.04, 0.04, 0.04]);
        let best: Vec<bool> = classes.iter().map(|c| c.best_effort).collect();
        assert_eq!(best, [false, false, false, false, true, true, true]);
        // Connections per end point at the reference loads: VO 4, VI 3, CL 7.
        let counts: Vec<u64> = classes[1..4]
            .iter()
            .map(|c| {
                let rate = c.traffic.generator.mean_connection_rate().unwrap().unwrap();
                connection_count(c.traffic.load, link, rate)
            })
            .collect();
        assert_eq!(counts, [4, 3, 7]);
        // Every packet fits its SL's MTU: no R3 message is split.
        for c in &classes {
            assert_eq!(c.max_packet_bytes(), c.traffic.generator.max_packet_bytes());
            assert_eq!(Some(c.traffic.generator.max_packet_bytes()), c.mtu_bytes);
        }
        let GeneratorConfig::Bursts(b) = &classes[4].traffic.generator else {
            panic!("EE is Bursts4");
        };
        assert_eq!((b.packets, b.size.max_bytes()), (4, 1024));
    }
}
