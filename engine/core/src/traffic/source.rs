//! A per-class packet source: an arrival process and a size distribution, each on its own
//! random stream.

use crate::rng::{RngStream, RngStreams, StreamId};
use crate::scenario::{ArrivalConfig, SizeConfig, TrafficConfig};
use crate::time::{BitRate, Duration, PS_PER_S};

/// Generates (time, size) pairs for one class.
#[derive(Clone, Debug)]
pub struct Source {
    arrivals: ArrivalConfig,
    size: SizeConfig,
    /// Picoseconds per byte at the offered rate (load x link rate).
    ps_per_byte: f64,
    /// Mean gap for Poisson arrivals, in picoseconds.
    mean_gap_ps: f64,
    arrival_rng: RngStream,
    size_rng: RngStream,
    phase_rng: RngStream,
}

impl Source {
    /// A source for class `class` offering `traffic.load` of `link`. Returns `None` for a
    /// silent class (load 0).
    pub fn new(
        class: u32,
        traffic: &TrafficConfig,
        link: BitRate,
        streams: &RngStreams,
    ) -> Option<Source> {
        if traffic.load.is_nan() || traffic.load <= 0.0 {
            return None;
        }
        let offered_bytes_per_s = traffic.load * link.bits_per_s() as f64 / 8.0;
        let ps_per_byte = PS_PER_S as f64 / offered_bytes_per_s;
        Some(Source {
            arrivals: traffic.arrivals.clone(),
            size: traffic.size.clone(),
            ps_per_byte,
            mean_gap_ps: ps_per_byte * traffic.size.mean_bytes(),
            arrival_rng: streams.stream(StreamId::Arrivals(class)),
            size_rng: streams.stream(StreamId::Sizes(class)),
            phase_rng: streams.stream(StreamId::Phase(class)),
        })
    }

    /// Delay from time zero to the first packet: a random phase within one mean gap for
    /// constant-rate sources, an exponential gap for Poisson ones.
    pub fn first_gap(&mut self) -> Duration {
        match self.arrivals {
            ArrivalConfig::Constant => to_ps(self.phase_rng.unit() * self.mean_gap_ps),
            ArrivalConfig::Poisson => to_ps(self.arrival_rng.exponential(self.mean_gap_ps)),
            ArrivalConfig::OnOff(_) | ArrivalConfig::Bursts(_) => {
                todo!("PLACEHOLDER on/off and bursts")
            }
        }
    }

    /// Size in bytes of the next packet.
    pub fn next_size(&mut self) -> u32 {
        match self.size {
            SizeConfig::Fixed(f) => f.bytes,
            SizeConfig::Uniform(u) => self.size_rng.uniform_u32(u.min_bytes, u.max_bytes),
            SizeConfig::Pareto(d) => {
                let (lo, hi) = (f64::from(d.min_bytes), f64::from(d.max_bytes));
                let x = self.size_rng.bounded_pareto(lo, hi, d.shape);
                (libm::round(x) as u32).clamp(d.min_bytes, d.max_bytes)
            }
        }
    }

    /// Gap from a packet of `bytes` just generated to the next packet.
    pub fn gap_after(&mut self, bytes: u32) -> Duration {
        match self.arrivals {
            ArrivalConfig::Constant => to_ps(f64::from(bytes) * self.ps_per_byte),
            ArrivalConfig::Poisson => to_ps(self.arrival_rng.exponential(self.mean_gap_ps)),
            ArrivalConfig::OnOff(_) | ArrivalConfig::Bursts(_) => {
                todo!("PLACEHOLDER on/off and bursts")
            }
        }
    }
}

/// Rounds a non-negative time in picoseconds to an integer duration (at least 1 ps, so a
/// source can never generate two packets at the same instant in an endless loop).
fn to_ps(ps: f64) -> Duration {
    let r = libm::round(ps);
    if r.is_finite() && r >= 1.0 {
        Duration(if r >= u64::MAX as f64 {
            u64::MAX
        } else {
            r as u64
        })
    } else {
        Duration(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{FixedSize, ParetoSize, UniformSize};

    fn traffic(load: f64, arrivals: ArrivalConfig, size: SizeConfig) -> TrafficConfig {
        TrafficConfig {
            load,
            arrivals,
            size,
        }
    }

    /// Over a long run each source offers its configured fraction of the link.
    #[test]
    fn offered_load_converges() {
        let link = BitRate::from_gbps(2.0).unwrap();
        let streams = RngStreams::new(5);
        let cases = [
            (
                ArrivalConfig::Constant,
                SizeConfig::Fixed(FixedSize { bytes: 256 }),
            ),
            (
                ArrivalConfig::Poisson,
                SizeConfig::Fixed(FixedSize { bytes: 256 }),
            ),
            (
                ArrivalConfig::Constant,
                SizeConfig::Uniform(UniformSize {
                    min_bytes: 64,
                    max_bytes: 2048,
                }),
            ),
            (
                ArrivalConfig::Poisson,
                SizeConfig::Uniform(UniformSize {
                    min_bytes: 64,
                    max_bytes: 2048,
                }),
            ),
            (
                ArrivalConfig::Poisson,
                SizeConfig::Pareto(ParetoSize {
                    min_bytes: 64,
                    max_bytes: 2048,
                    shape: 1.2,
                }),
            ),
        ];
        for (i, (arrivals, size)) in cases.into_iter().enumerate() {
            let mut s =
                Source::new(i as u32, &traffic(0.3, arrivals, size), link, &streams).unwrap();
            let mut t = s.first_gap().as_ps();
            let mut bytes = 0u64;
            let horizon = 200 * PS_PER_S / 1000; // 200 ms
            while t < horizon {
                let b = s.next_size();
                bytes += u64::from(b);
                t += s.gap_after(b).as_ps();
            }
            let offered = bytes as f64 / link.bytes_in(Duration(horizon));
            assert!((offered - 0.3).abs() < 0.01, "case {i}: offered {offered}");
        }
    }

    #[test]
    fn silent_class_has_no_source() {
        let link = BitRate::from_gbps(2.0).unwrap();
        let t = traffic(
            0.0,
            ArrivalConfig::Poisson,
            SizeConfig::Fixed(FixedSize { bytes: 64 }),
        );
        assert!(Source::new(0, &t, link, &RngStreams::new(1)).is_none());
    }
}
