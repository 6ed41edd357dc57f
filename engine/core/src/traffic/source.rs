//! A per-class packet source: an arrival process and a size distribution, each on its own
//! random stream.
//!
//! Arrival processes (all offer `load` of the link in the long run):
//! - constant: each packet is followed by a gap of its own size at the offered rate;
//! - Poisson: exponential gaps with the mean that gives the offered load;
//! - on/off: exponential on periods (mean `mean_on_us`) alternate with exponential off
//!   periods (mean `mean_off_us`). During on periods packets follow each other at the peak
//!   rate `load * (on + off) / on` (each packet followed by a gap of its own size at that
//!   rate); nothing is generated during off periods. Packet spacing runs on an "on clock"
//!   that stops while the source is off, so an on period that ends within a packet's gap
//!   hands the rest of the gap to the next on period and the long-run rate is exactly the
//!   offered load. The source starts in its stationary state: on with probability
//!   `on / (on + off)` (first packet within one mean peak-rate gap), else off for an
//!   exponential residual (exact, the periods being memoryless).
//! - bursts: `packets` packets generated at the same instant (gap 0 between them: the
//!   event queue keeps same-time events in scheduling order, so they queue in sequence);
//!   burst start times form a Poisson process whose mean gap,
//!   `packets * mean size / offered rate`, gives the offered load.

use crate::rng::{RngStream, RngStreams, StreamId};
use crate::scenario::{ArrivalConfig, TrafficConfig};
use crate::time::{BitRate, Duration, PS_PER_S, PS_PER_US};
use crate::traffic::size_draw::SizeDraw;

/// Most on/off period changes followed within one packet gap; if an on period is so short
/// that a packet's gap spans more, the rest of the gap's off time is added at its mean
/// (`rest * off / on`), which keeps the long-run rate and bounds the work per packet.
pub(crate) const MAX_PERIODS_PER_GAP: u32 = 4096;

/// Generates (time, size) pairs for one class.
#[derive(Clone, Debug)]
pub struct Source {
    arrivals: ArrivalConfig,
    /// The size distribution, its constants worked out once.
    size: SizeDraw,
    /// Mean packet size in bytes.
    mean_bytes: f64,
    /// Picoseconds per byte at the offered rate (load x link rate).
    ps_per_byte: f64,
    /// Mean gap for Poisson arrivals, in picoseconds.
    mean_gap_ps: f64,
    /// Picoseconds per byte at the peak rate of an on/off source.
    peak_ps_per_byte: f64,
    /// On-clock time left in the current on period of an on/off source, in picoseconds.
    on_left_ps: f64,
    /// Packets still to come in the current burst (after the one just generated).
    burst_left: u32,
    arrival_rng: RngStream,
    size_rng: RngStream,
    phase_rng: RngStream,
    period_rng: RngStream,
    /// On periods in real time relative to time zero (start, end), for tests.
    #[cfg(test)]
    on_log: Vec<(f64, f64)>,
    /// Real time of the last generated packet (the sum of gaps so far), for tests.
    #[cfg(test)]
    clock_ps: f64,
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
        let peak_ps_per_byte = match traffic.arrivals {
            ArrivalConfig::OnOff(o) => ps_per_byte * o.mean_on_us / (o.mean_on_us + o.mean_off_us),
            _ => ps_per_byte,
        };
        Some(Source {
            arrivals: traffic.arrivals.clone(),
            size: SizeDraw::new(&traffic.size),
            mean_bytes: traffic.size.mean_bytes(),
            ps_per_byte,
            mean_gap_ps: ps_per_byte * traffic.size.mean_bytes(),
            peak_ps_per_byte,
            on_left_ps: 0.0,
            burst_left: 0,
            arrival_rng: streams.stream(StreamId::Arrivals(class)),
            size_rng: streams.stream(StreamId::Sizes(class)),
            phase_rng: streams.stream(StreamId::Phase(class)),
            period_rng: streams.stream(StreamId::Periods(class)),
            #[cfg(test)]
            on_log: Vec::new(),
            #[cfg(test)]
            clock_ps: 0.0,
        })
    }

    /// Delay from time zero to the first packet: a random phase within one mean gap for
    /// constant-rate sources, an exponential gap for Poisson ones and between bursts, the
    /// stationary start for on/off sources (see the module documentation).
    pub fn first_gap(&mut self) -> Duration {
        let ps = match self.arrivals {
            ArrivalConfig::Constant => self.phase_rng.unit() * self.mean_gap_ps,
            ArrivalConfig::Poisson => self.arrival_rng.exponential(self.mean_gap_ps),
            ArrivalConfig::OnOff(o) => {
                let (on, off) = (
                    o.mean_on_us * PS_PER_US as f64,
                    o.mean_off_us * PS_PER_US as f64,
                );
                let starts_on = self.phase_rng.unit() * (on + off) < on;
                let off_first = if starts_on {
                    0.0
                } else {
                    self.period_rng.exponential(off)
                };
                self.on_left_ps = self.period_rng.exponential(on);
                #[cfg(test)]
                self.on_log.push((off_first, off_first + self.on_left_ps));
                let phase = if starts_on {
                    // Within one mean peak-rate gap, taken from the on clock.
                    let mean_peak_gap = self.peak_ps_per_byte * self.mean_bytes;
                    let t = self.phase_rng.unit() * mean_peak_gap;
                    self.on_clock_gap(t)
                } else {
                    0.0
                };
                off_first + phase
            }
            ArrivalConfig::Bursts(b) => {
                self.burst_left = b.packets;
                self.arrival_rng.exponential(self.burst_gap_ps(b.packets))
            }
        };
        let gap = to_ps(ps);
        #[cfg(test)]
        {
            self.clock_ps = gap.as_ps() as f64;
        }
        gap
    }

    /// Size in bytes of the next packet.
    pub fn next_size(&mut self) -> u32 {
        self.size.draw(&mut self.size_rng)
    }

    /// Gap from a packet of `bytes` just generated to the next packet (0 between the
    /// packets of one burst).
    pub fn gap_after(&mut self, bytes: u32) -> Duration {
        let gap = match self.arrivals {
            ArrivalConfig::Constant => to_ps(f64::from(bytes) * self.ps_per_byte),
            ArrivalConfig::Poisson => to_ps(self.arrival_rng.exponential(self.mean_gap_ps)),
            ArrivalConfig::OnOff(_) => {
                to_ps(self.on_clock_gap(f64::from(bytes) * self.peak_ps_per_byte))
            }
            ArrivalConfig::Bursts(b) => {
                // `burst_left` counts the packets of the current burst not generated yet,
                // including this one.
                self.burst_left = self.burst_left.saturating_sub(1);
                if self.burst_left > 0 {
                    Duration(0)
                } else {
                    self.burst_left = b.packets;
                    to_ps(self.arrival_rng.exponential(self.burst_gap_ps(b.packets)))
                }
            }
        };
        #[cfg(test)]
        {
            self.clock_ps += gap.as_ps() as f64;
        }
        gap
    }

    /// Mean gap between burst starts, in picoseconds.
    fn burst_gap_ps(&self, packets: u32) -> f64 {
        f64::from(packets) * self.mean_gap_ps
    }

    /// Real time needed to advance the on clock by `t` picoseconds from now: `t` plus every
    /// off period entered on the way.
    fn on_clock_gap(&mut self, t: f64) -> f64 {
        let ArrivalConfig::OnOff(o) = self.arrivals else {
            return t;
        };
        let (on, off) = (
            o.mean_on_us * PS_PER_US as f64,
            o.mean_off_us * PS_PER_US as f64,
        );
        let mut gap = t;
        self.on_left_ps -= t;
        let mut changes = 0;
        // The next packet belongs to the on period holding its on-clock time; on_left = 0
        // puts it at the very end of the current period.
        while self.on_left_ps < 0.0 {
            if changes == MAX_PERIODS_PER_GAP {
                gap += -self.on_left_ps * off / on;
                self.on_left_ps = self.period_rng.exponential(on);
                break;
            }
            changes += 1;
            #[cfg(test)]
            let off_start = self.clock_ps + gap + self.on_left_ps;
            let off_len = self.period_rng.exponential(off);
            gap += off_len;
            let on_len = self.period_rng.exponential(on);
            self.on_left_ps += on_len;
            #[cfg(test)]
            self.on_log
                .push((off_start + off_len, off_start + off_len + on_len));
        }
        gap
    }
}

/// Rounds a non-negative time in picoseconds to an integer duration (at least 1 ps, so a
/// source can never generate two packets at the same instant in an endless loop). A
/// gap that is not a number or infinite is "never" (`u64::MAX`), not 1 ps: validation
/// refuses the loads that would make one, this keeps a slip from flooding the run.
fn to_ps(ps: f64) -> Duration {
    let r = libm::round(ps);
    if r.is_nan() || r >= u64::MAX as f64 {
        Duration(u64::MAX)
    } else if r >= 1.0 {
        Duration(r as u64)
    } else {
        Duration(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{
        BurstArrivals, FixedSize, OnOffArrivals, ParetoSize, SizeConfig, UniformSize,
    };

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
            (
                ArrivalConfig::OnOff(OnOffArrivals {
                    mean_on_us: 2.0,
                    mean_off_us: 6.0,
                }),
                SizeConfig::Fixed(FixedSize { bytes: 256 }),
            ),
            (
                ArrivalConfig::OnOff(OnOffArrivals {
                    mean_on_us: 0.5,
                    mean_off_us: 0.5,
                }),
                SizeConfig::Uniform(UniformSize {
                    min_bytes: 64,
                    max_bytes: 2048,
                }),
            ),
            (
                ArrivalConfig::OnOff(OnOffArrivals {
                    mean_on_us: 3.0,
                    mean_off_us: 0.0,
                }),
                SizeConfig::Fixed(FixedSize { bytes: 1024 }),
            ),
            (
                ArrivalConfig::Bursts(BurstArrivals { packets: 8 }),
                SizeConfig::Fixed(FixedSize { bytes: 256 }),
            ),
            (
                ArrivalConfig::Bursts(BurstArrivals { packets: 3 }),
                SizeConfig::Uniform(UniformSize {
                    min_bytes: 64,
                    max_bytes: 2048,
                }),
            ),
            (
                ArrivalConfig::Bursts(BurstArrivals { packets: 1 }),
                SizeConfig::Fixed(FixedSize { bytes: 64 }),
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

    /// Defect 1 of issue 16: an infinite or NaN gap was rounded to 1 ps.
    #[test]
    fn non_finite_gaps_are_never_not_one_ps() {
        assert_eq!(to_ps(f64::INFINITY), Duration(u64::MAX));
        assert_eq!(to_ps(f64::NAN), Duration(u64::MAX));
        assert_eq!(to_ps(1e300), Duration(u64::MAX));
        assert_eq!(to_ps(0.2), Duration(1));
        assert_eq!(to_ps(2.6), Duration(3));
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

    fn times_and_sizes(s: &mut Source, horizon_ps: u64) -> Vec<(u64, u32)> {
        let mut out = Vec::new();
        let mut t = s.first_gap().as_ps();
        while t < horizon_ps {
            let b = s.next_size();
            out.push((t, b));
            t += s.gap_after(b).as_ps();
        }
        out
    }

    /// A burst's packets are generated at one instant (gap 0), and bursts are apart.
    #[test]
    fn bursts_arrive_together() {
        let link = BitRate::from_gbps(2.0).unwrap();
        for packets in [1u32, 5, 40] {
            let t = traffic(
                0.5,
                ArrivalConfig::Bursts(BurstArrivals { packets }),
                SizeConfig::Uniform(UniformSize {
                    min_bytes: 64,
                    max_bytes: 1024,
                }),
            );
            let mut s = Source::new(2, &t, link, &RngStreams::new(9)).unwrap();
            let got = times_and_sizes(&mut s, 20 * PS_PER_S / 1000);
            let whole = got.len() / packets as usize * packets as usize;
            assert!(
                whole / packets as usize > 100,
                "too few bursts: {}",
                got.len()
            );
            for burst in got[..whole].chunks(packets as usize) {
                assert!(
                    burst.iter().all(|p| p.0 == burst[0].0),
                    "a burst is spread: {burst:?}"
                );
            }
            for pair in got[..whole]
                .chunks(packets as usize)
                .collect::<Vec<_>>()
                .windows(2)
            {
                assert!(pair[1][0].0 > pair[0][0].0, "two bursts at one instant");
            }
        }
    }

    /// On/off: every packet falls in an on period, consecutive packets of one on period
    /// are spaced at the peak rate `load * (on + off) / on`, and the source is on for the
    /// expected fraction of the time.
    #[test]
    fn on_off_is_silent_when_off() {
        let link = BitRate::from_gbps(2.0).unwrap();
        let (on_us, off_us, load, bytes) = (5.0, 15.0, 0.2, 512u32);
        let t = traffic(
            load,
            ArrivalConfig::OnOff(OnOffArrivals {
                mean_on_us: on_us,
                mean_off_us: off_us,
            }),
            SizeConfig::Fixed(FixedSize { bytes }),
        );
        let mut s = Source::new(1, &t, link, &RngStreams::new(4)).unwrap();
        let horizon = 100 * PS_PER_S / 1000;
        let got = times_and_sizes(&mut s, horizon);
        let periods = s.on_log.clone();
        assert!(periods.len() > 1000, "{} on periods", periods.len());
        for w in periods.windows(2) {
            assert!(w[0].1 <= w[1].0, "on periods overlap or are out of order");
        }
        // 2 Gb/s is 4000 ps per byte; the peak rate is 0.2 * (5 + 15) / 5 = 0.8 of the link.
        let peak_gap = libm::round(f64::from(bytes) * 4000.0 / (load * (on_us + off_us) / on_us));
        let mut k = 0;
        let mut spaced = 0;
        let mut prev: Option<(u64, usize)> = None;
        for &(at, _) in &got {
            let x = at as f64;
            while k < periods.len() && periods[k].1 + 1.0 < x {
                k += 1;
            }
            assert!(
                k < periods.len() && periods[k].0 - 1.0 <= x,
                "packet at {x} ps falls in an off period (next on period {:?})",
                periods.get(k)
            );
            if let Some((p_at, p_k)) = prev
                && p_k == k
            {
                assert_eq!((at - p_at) as f64, peak_gap, "spacing within an on period");
                spaced += 1;
            }
            prev = Some((at, k));
        }
        assert!(spaced > got.len() / 2, "most gaps are within on periods");
        let on_time: f64 = periods
            .iter()
            .map(|p| p.1.min(horizon as f64) - p.0.min(horizon as f64))
            .sum();
        let fraction = on_time / horizon as f64;
        assert!((fraction - 0.25).abs() < 0.02, "on fraction {fraction}");
    }

    /// On periods far shorter than a packet gap: the work per packet stays bounded and
    /// the offered load still holds.
    #[test]
    fn tiny_on_periods_terminate_and_keep_the_load() {
        let link = BitRate::from_gbps(2.0).unwrap();
        let t = traffic(
            0.3,
            ArrivalConfig::OnOff(OnOffArrivals {
                mean_on_us: 1.0e-6,
                mean_off_us: 3.0e-6,
            }),
            SizeConfig::Fixed(FixedSize { bytes: 256 }),
        );
        let mut s = Source::new(0, &t, link, &RngStreams::new(2)).unwrap();
        let horizon = 2 * PS_PER_S / 1000;
        let got = times_and_sizes(&mut s, horizon);
        let bytes: u64 = got.iter().map(|p| u64::from(p.1)).sum();
        let offered = bytes as f64 / link.bytes_in(Duration(horizon));
        assert!((offered - 0.3).abs() < 0.01, "offered {offered}");
    }
}
