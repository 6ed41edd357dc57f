//! Bursty best-effort traffic: Bursts60, Bursts4, one-packet bursts.
//!
//! A burst is `packets` packets to ONE destination, drawn from the destination model once
//! per burst; the packets' sizes are drawn independently from the size distribution.
//! All packets of a burst are generated at the same instant (they queue at the end
//! point's interface in order and leave at the link rate, as in the link lab's bursty
//! source). Burst start times form a Poisson process with mean gap
//! `packets x mean size / (load x link rate)`, so the long-run offered load is `load`
//! (gaps are rounded to whole picoseconds; the first burst starts one exponential gap
//! after time zero).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::FieldError;
use crate::rng::{RngStream, RngStreams};
use crate::scenario::SizeConfig;
use crate::time::{BitRate, PS_PER_S, SimTime};
use crate::traffic::class_generator::ClassGenerator;
use crate::traffic::destinations::DestinationModel;
use crate::traffic::generated::{Generated, NO_FLOW, PacketSource, stream, streams};
use crate::traffic::limits::MAX_BURST_PACKETS;
use crate::traffic::size_draw::SizeDraw;
use crate::traffic::size_rules::validate_size;

use super::rules::problem;
use super::{ClassSetup, GeneratorSpec, GeneratorWork};

/// Bursts of packets to one destination.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct BurstsConfig {
    /// Packets per burst (1 to 100000): 60 for Bursts60, 1 for one-packet bursts.
    pub packets: u32,
    /// Size of each packet (drawn independently), in bytes.
    pub size: SizeConfig,
}

impl GeneratorSpec for BurstsConfig {
    fn validate(&self, path: &str, errors: &mut Vec<FieldError>) {
        if !(1..=MAX_BURST_PACKETS).contains(&self.packets) {
            problem(
                errors,
                path,
                "packets",
                format!(
                    "must be between 1 and {MAX_BURST_PACKETS} packets per burst (got {})",
                    self.packets
                ),
            );
        }
        validate_size(&format!("{path}.size"), &self.size, errors);
    }

    fn max_packet_bytes(&self) -> u32 {
        self.size.max_bytes()
    }

    fn mean_packet_bytes(&self) -> f64 {
        self.size.mean_bytes()
    }

    fn work(&self, _load: f64, _link: BitRate) -> GeneratorWork {
        GeneratorWork::Groups {
            packets: f64::from(self.packets),
            bytes: self.size.mean_bytes() * f64::from(self.packets),
        }
    }

    fn build(&self, class: &ClassSetup<'_>) -> Result<Vec<Option<ClassGenerator>>, String> {
        Ok((0..class.endpoints)
            .map(|e| {
                let model = class.destinations.for_source(e, class.class, class.rng);
                BurstGenerator::new(class.class, class.load, self, class.link, model, class.rng)
                    .map(|g| ClassGenerator::Source(Box::new(g)))
            })
            .collect())
    }
}

/// The bursts of one end point and class.
#[derive(Clone, Debug)]
pub struct BurstGenerator {
    packets: u32,
    size: SizeDraw,
    /// Mean gap between burst starts, in picoseconds.
    mean_gap_ps: f64,
    clock: u64,
    /// Packets of the current burst still to generate.
    left: u32,
    destination: u32,
    destinations: DestinationModel,
    gaps: RngStream,
    sizes: RngStream,
}

impl BurstGenerator {
    /// The generator of the end point of `destinations` offering `load` of `link`. None
    /// for a silent class (load 0) or an empty burst.
    pub fn new(
        class: u32,
        load: f64,
        cfg: &BurstsConfig,
        link: BitRate,
        destinations: DestinationModel,
        rng: &RngStreams,
    ) -> Option<BurstGenerator> {
        if !(load.is_finite() && load > 0.0) || cfg.packets == 0 {
            return None;
        }
        let endpoint = destinations.source();
        let bytes_per_ps = load * link.bits_per_s() as f64 / 8.0 / PS_PER_S as f64;
        let mean_gap_ps = f64::from(cfg.packets) * cfg.size.mean_bytes() / bytes_per_ps;
        Some(BurstGenerator {
            packets: cfg.packets,
            size: SizeDraw::new(&cfg.size),
            mean_gap_ps,
            clock: 0,
            left: 0,
            destination: 0,
            destinations,
            gaps: stream(rng, endpoint, class, streams::BURST_GAPS),
            sizes: stream(rng, endpoint, class, streams::BURST_SIZES),
        })
    }

    /// Mean gap between burst starts, in picoseconds.
    pub fn mean_gap_ps(&self) -> f64 {
        self.mean_gap_ps
    }

    /// The next packet (None only once time runs out of range).
    pub fn next_packet(&mut self) -> Option<Generated> {
        if self.left == 0 {
            let gap = libm::round(self.gaps.exponential(self.mean_gap_ps));
            if !(gap.is_finite() && gap < u64::MAX as f64) {
                return None;
            }
            self.clock = self.clock.checked_add(gap.max(0.0) as u64)?;
            self.destination = self.destinations.next_destination();
            self.left = self.packets;
        }
        self.left -= 1;
        Some(Generated {
            time: SimTime(self.clock),
            bytes: self.size.draw(&mut self.sizes),
            destination: self.destination,
            flow: NO_FLOW,
        })
    }
}

impl PacketSource for BurstGenerator {
    fn next_packet(&mut self) -> Option<Generated> {
        BurstGenerator::next_packet(self)
    }

    fn clone_box(&self) -> Box<dyn PacketSource> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{FixedSize, ParetoSize};
    use crate::traffic::config::DestinationConfig;
    use crate::traffic::destinations::DestinationSetup;

    fn generator(packets: u32, size: SizeConfig, load: f64, seed: u64) -> BurstGenerator {
        let rng = RngStreams::new(seed);
        let setup = DestinationSetup::new(&DestinationConfig::Uniform, 4, 64, &rng).unwrap();
        BurstGenerator::new(
            4,
            load,
            &BurstsConfig { packets, size },
            BitRate::from_gbps(2.0).unwrap(),
            setup.for_source(9, 4, &rng),
            &rng,
        )
        .unwrap()
    }

    fn pareto(max: u32) -> SizeConfig {
        SizeConfig::Pareto(ParetoSize {
            min_bytes: 64,
            max_bytes: max,
            shape: 1.2,
        })
    }

    #[test]
    fn bursts_share_a_destination_and_sizes_stay_in_range() {
        let mut g = generator(60, pareto(2048), 0.09, 1);
        let mut dests = std::collections::BTreeSet::new();
        for _ in 0..500 {
            let first = g.next_packet().unwrap();
            dests.insert(first.destination);
            for _ in 1..60 {
                let p = g.next_packet().unwrap();
                assert_eq!((p.time, p.destination), (first.time, first.destination));
                assert!((64..=2048).contains(&p.bytes));
                assert_eq!(p.flow, NO_FLOW);
                assert_ne!(p.destination, 9);
            }
        }
        assert!(dests.len() > 50, "destinations vary between bursts");
    }

    #[test]
    fn long_run_load_is_the_configured_load() {
        let link_bytes_per_s = 2.0e9 / 8.0;
        for (packets, size, load) in [
            (60, pareto(2048), 0.093),
            (1, pareto(256), 0.015),
            (4, SizeConfig::Fixed(FixedSize { bytes: 1024 }), 0.04),
        ] {
            let mut g = generator(packets, size, load, 2);
            let horizon = 4 * PS_PER_S; // 4 s
            let mut bytes = 0u64;
            let mut last = SimTime::ZERO;
            loop {
                let p = g.next_packet().unwrap();
                assert!(p.time >= last);
                last = p.time;
                if p.time.as_ps() >= horizon {
                    break;
                }
                bytes += u64::from(p.bytes);
            }
            let offered = bytes as f64 / (link_bytes_per_s * 4.0);
            assert!(
                (offered / load - 1.0).abs() < 0.03,
                "{packets}-packet bursts: offered {offered} for {load}"
            );
        }
    }

    #[test]
    fn deterministic() {
        let take = |seed| {
            let mut g = generator(60, pareto(2048), 0.05, seed);
            (0..300)
                .map(|_| g.next_packet().unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(take(3), take(3));
        assert_ne!(take(3), take(4));
    }
}
