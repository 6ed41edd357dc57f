//! The traffic of one class at one end point of a network: a [`Source`] (sizes and
//! times) plus a destination for every packet, drawn uniformly among the other end
//! points.
//!
//! Random streams: the source of class `c` at end point `h` uses the streams of source
//! id `h * 64 + c` (`StreamId` `Arrivals`, `Sizes`, `Phase`, `Periods` of that id), and
//! its destinations the network-traffic stream of (`h`, `c`, purpose
//! [`purpose::DESTINATIONS`]). So every (end point, class) pair has its own independent
//! streams, unaffected by schedulers, switches or other classes.

use super::Source;
use super::generated::{self, streams as purpose};
use crate::rng::{RngStream, RngStreams};
use crate::scenario::TrafficConfig;
use crate::time::{BitRate, Duration};

/// Classes per end point in the stream numbering (the scenario limit).
const STREAM_CLASSES: u32 = 64;

/// One packet as the host generates it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostPacket {
    /// Size in bytes.
    pub bytes: u32,
    /// Destination end point (never the generating one).
    pub destination: u32,
    /// Time from this packet to the next one of the same host and class.
    pub gap: Duration,
}

/// The generator of one class at one end point, with uniform destinations.
#[derive(Clone, Debug)]
pub struct HostTraffic {
    source: Source,
    destinations: RngStream,
    host: u32,
    end_points: u32,
}

impl HostTraffic {
    /// The generator of class `class` at end point `host` of `end_points` (at least 2),
    /// offering `traffic.load` of `link`. `None` for a silent class or a single end point.
    pub fn new(
        host: u32,
        class: u32,
        end_points: u32,
        traffic: &TrafficConfig,
        link: BitRate,
        streams: &RngStreams,
    ) -> Option<HostTraffic> {
        if end_points < 2 || host >= end_points {
            return None;
        }
        let id = host
            .saturating_mul(STREAM_CLASSES)
            .saturating_add(class % STREAM_CLASSES);
        let source = Source::new(id, traffic, link, streams)?;
        Some(HostTraffic {
            source,
            destinations: generated::stream(streams, host, class, purpose::DESTINATIONS),
            host,
            end_points,
        })
    }

    /// Delay from time zero to the first packet (see [`Source::first_gap`]).
    pub fn first_gap(&mut self) -> Duration {
        self.source.first_gap()
    }

    /// The next packet: its size, destination and the gap to the one after it.
    pub fn next_packet(&mut self) -> HostPacket {
        let bytes = self.source.next_size();
        let gap = self.source.gap_after(bytes);
        let r = self.destinations.uniform_u32(0, self.end_points - 2);
        let destination = if r >= self.host { r + 1 } else { r };
        HostPacket {
            bytes,
            destination,
            gap,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{ArrivalConfig, FixedSize, SizeConfig};

    fn traffic() -> TrafficConfig {
        TrafficConfig {
            load: 0.5,
            arrivals: ArrivalConfig::Poisson,
            size: SizeConfig::Fixed(FixedSize { bytes: 256 }),
        }
    }

    /// Destinations are uniform over the other end points and never the host itself.
    #[test]
    fn destinations_are_uniform_over_the_others() {
        let link = BitRate::from_gbps(2.0).unwrap();
        let streams = RngStreams::new(5);
        let mut h = HostTraffic::new(3, 1, 8, &traffic(), link, &streams).unwrap();
        let mut count = [0u32; 8];
        for _ in 0..70_000 {
            count[h.next_packet().destination as usize] += 1;
        }
        assert_eq!(count[3], 0);
        for (d, &c) in count.iter().enumerate() {
            if d != 3 {
                assert!((9_500..10_500).contains(&c), "destination {d}: {c}");
            }
        }
    }

    /// Different hosts and classes draw different streams; the same one repeats.
    #[test]
    fn streams_are_per_host_and_class() {
        let link = BitRate::from_gbps(2.0).unwrap();
        let streams = RngStreams::new(5);
        let draw = |host, class| {
            let mut h = HostTraffic::new(host, class, 64, &traffic(), link, &streams).unwrap();
            (0..20)
                .map(|_| h.next_packet())
                .map(|p| (p.destination, p.gap))
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(1, 2), draw(1, 2));
        assert_ne!(draw(1, 2), draw(2, 2));
        assert_ne!(draw(1, 2), draw(1, 3));
        assert!(HostTraffic::new(0, 0, 1, &traffic(), link, &streams).is_none());
    }
}
