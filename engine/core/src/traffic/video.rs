//! Video streams: frames every `frame_interval_us`, each split into MTU packets spread
//! evenly over the frame time.
//!
//! Frame sizes come from a synthetic MPEG-4 model or from an uploaded trace:
//! - synthetic: a GOP pattern (e.g. `IBBPBBPBBPBB`) is cycled; a frame of type I, P or B
//!   has mean size `ratio_t x K`, with `K` chosen so the mean of one GOP is exactly the
//!   configured rate (`sum over the GOP of ratio x K = rate x GOP duration / 8`), times a
//!   lognormal factor of mean 1 and coefficient of variation `variation` (drawn
//!   independently per frame; Box-Muller with `libm`). Sizes are rounded to whole bytes
//!   (at least 1). The long-run mean rate is the configured rate up to sampling noise.
//! - trace: the traced sizes are replayed cyclically from a seeded random start frame,
//!   either as they are or scaled by `rate / trace mean rate`; scaled sizes are rounded
//!   with the rounding error carried to the next frame, so the bytes sent after `f`
//!   frames are within one byte of `f x` the scaled mean.
//!
//! Every stream has a random phase within one frame interval and (synthetic) a random
//! start position of the GOP, so streams are not aligned. A frame of `S` bytes becomes
//! `ceil(S / mtu)` packets of `mtu` bytes (the last one smaller); packet `j` of `n` leaves
//! `floor(j x interval / n)` after the frame's start. Streams are already running at time
//! zero: frame `f` starts at `phase + (f - 1) x interval`, and the packets of the first
//! frame that fall before time zero are skipped, so many streams together offer their
//! mean rate from the start of a run (instead of ramping up over the first interval,
//! 40 ms for 25 frames per second).

use std::sync::Arc;

use crate::rng::RngStream;
use crate::time::{PS_PER_S, PS_PER_US, SimTime};

use super::config::VideoConfig;
use super::frame_trace::FrameTrace;

/// Largest frame a synthetic stream produces, in bytes (a safety bound far in the tail).
const MAX_SYNTHETIC_FRAME_BYTES: f64 = (1u64 << 40) as f64;

/// A standard normal variate (Box-Muller, `libm` only).
pub fn standard_normal(rng: &mut RngStream) -> f64 {
    let u1 = 1.0 - rng.unit(); // (0, 1]
    let u2 = rng.unit();
    libm::sqrt(-2.0 * libm::log(u1)) * libm::cos(2.0 * std::f64::consts::PI * u2)
}

/// Where the frame sizes of a stream come from.
#[derive(Clone, Debug)]
enum Frames {
    Synthetic {
        /// Mean size in bytes of each GOP position.
        means: Arc<[f64]>,
        position: usize,
        mu: f64,
        sigma: f64,
        rng: RngStream,
    },
    Trace {
        frames: Arc<[u32]>,
        position: usize,
        /// Scale factor (None: replay unscaled).
        scale: Option<f64>,
        carry: f64,
    },
}

impl Frames {
    fn next_size(&mut self) -> u64 {
        match self {
            Frames::Synthetic {
                means,
                position,
                mu,
                sigma,
                rng,
            } => {
                let mean = means[*position];
                *position = (*position + 1) % means.len();
                let factor = if *sigma > 0.0 {
                    libm::exp(*mu + *sigma * standard_normal(rng))
                } else {
                    1.0
                };
                let bytes = libm::round(mean * factor).clamp(1.0, MAX_SYNTHETIC_FRAME_BYTES);
                bytes as u64
            }
            Frames::Trace {
                frames,
                position,
                scale,
                carry,
            } => {
                let raw = frames[*position];
                *position = (*position + 1) % frames.len();
                match scale {
                    None => u64::from(raw),
                    Some(k) => {
                        let exact = f64::from(raw) * *k + *carry;
                        let bytes = libm::round(exact).max(1.0);
                        *carry = exact - bytes;
                        bytes as u64
                    }
                }
            }
        }
    }
}

/// One video stream: yields its packets as (time, bytes) in time order.
#[derive(Clone, Debug)]
pub struct VideoStream {
    frames: Frames,
    interval_ps: u64,
    mtu: u64,
    phase_ps: u64,
    /// Index of the current frame (its start is `phase + frame x interval`).
    frame: u64,
    frame_bytes: u64,
    frame_packets: u64,
    /// Next packet of the current frame to yield.
    next: u64,
}

/// The mean size in bytes of each GOP position of a synthetic stream (see the module
/// documentation). Empty for an empty GOP; letters other than I, P, B count as B.
pub fn gop_mean_sizes(cfg: &VideoConfig) -> Vec<f64> {
    let ratios: Vec<f64> = cfg
        .gop
        .chars()
        .map(|c| match c {
            'I' => cfg.i_ratio,
            'P' => cfg.p_ratio,
            _ => cfg.b_ratio,
        })
        .collect();
    let sum: f64 = ratios.iter().sum();
    let gop_bytes = cfg.rate_bps as f64 * f64::from(cfg.frame_interval_us) * ratios.len() as f64
        / (8.0 * 1.0e6);
    ratios.iter().map(|r| r * gop_bytes / sum).collect()
}

impl VideoStream {
    fn with_frames(frames: Frames, interval_us: u32, mtu: u32, phase_unit: f64) -> VideoStream {
        let interval_ps = u64::from(interval_us.max(1)) * PS_PER_US;
        VideoStream {
            frames,
            interval_ps,
            mtu: u64::from(mtu.max(1)),
            phase_ps: libm::floor(phase_unit.clamp(0.0, 1.0) * interval_ps as f64) as u64
                % interval_ps,
            frame: 0,
            frame_bytes: 0,
            frame_packets: 0,
            next: 0,
        }
    }

    /// A synthetic stream; `phases` gives the start phase and GOP position, `sizes` the
    /// stream's own frame-size draws. None for an empty GOP or non-positive ratios.
    pub fn synthetic(
        cfg: &VideoConfig,
        phases: &mut RngStream,
        sizes: RngStream,
    ) -> Option<VideoStream> {
        let means = gop_mean_sizes(cfg);
        if means.is_empty() || !means.iter().all(|m| m.is_finite() && *m > 0.0) {
            return None;
        }
        let phase = phases.unit();
        let position = phases.uniform_u32(0, means.len() as u32 - 1) as usize;
        let cv = if cfg.variation.is_finite() {
            cfg.variation.max(0.0)
        } else {
            0.0
        };
        let sigma2 = libm::log(1.0 + cv * cv);
        Some(VideoStream::with_frames(
            Frames::Synthetic {
                means: means.into(),
                position,
                mu: -sigma2 / 2.0,
                sigma: libm::sqrt(sigma2),
                rng: sizes,
            },
            cfg.frame_interval_us,
            cfg.mtu_bytes,
            phase,
        ))
    }

    /// A stream replaying `trace` one frame every `interval_us`, scaled to `rate_bps` if
    /// given; `phases` gives the start phase and the start frame.
    pub fn trace(
        trace: &FrameTrace,
        interval_us: u32,
        rate_bps: Option<u64>,
        mtu: u32,
        phases: &mut RngStream,
    ) -> VideoStream {
        let frames = trace.shared_frames();
        let phase = phases.unit();
        let position = phases.uniform_u32(0, frames.len().max(1) as u32 - 1) as usize;
        let scale = rate_bps.map(|r| {
            let target = r as f64 * f64::from(interval_us) / (8.0 * 1.0e6);
            let mean = trace.total_bytes() as f64 / trace.len().max(1) as f64;
            target / mean
        });
        VideoStream::with_frames(
            Frames::Trace {
                frames,
                position,
                scale,
                carry: 0.0,
            },
            interval_us,
            mtu,
            phase,
        )
    }

    /// Where a trace stream keeps its frames (None for a synthetic stream), for tests.
    #[cfg(test)]
    pub(crate) fn trace_buffer(&self) -> Option<*const u32> {
        match &self.frames {
            Frames::Trace { frames, .. } => Some(frames.as_ptr()),
            Frames::Synthetic { .. } => None,
        }
    }

    /// The next packet: (generation time, bytes). Never ends (frames repeat forever);
    /// None only once time runs out of range.
    pub fn next_packet(&mut self) -> Option<(SimTime, u32)> {
        loop {
            while self.next >= self.frame_packets {
                // Start the next frame (the first call starts frame 0).
                if self.frame_packets > 0 {
                    self.frame = self.frame.checked_add(1)?;
                }
                self.frame_bytes = self.frames.next_size();
                self.frame_packets = self.frame_bytes.div_ceil(self.mtu);
                self.next = 0;
            }
            let j = self.next;
            let interval = u128::from(self.interval_ps);
            let n = u128::from(self.frame_packets);
            let start = u128::from(self.phase_ps) + u128::from(self.frame) * interval;
            let offset = u128::from(j) * interval / n;
            // Frame f starts one interval before `start`; packets before zero are skipped:
            // in frame 0 the first kept packet is the first j with
            // phase + floor(j x interval / n) >= interval.
            let Some(shifted) = (start + offset).checked_sub(interval) else {
                let gap = interval - u128::from(self.phase_ps);
                let first = (gap * n).div_ceil(interval);
                self.next = u64::try_from(first.max(u128::from(j) + 1)).ok()?;
                continue;
            };
            self.next += 1;
            let time = u64::try_from(shifted).ok()?;
            let bytes = if j + 1 < self.frame_packets {
                self.mtu
            } else {
                self.frame_bytes - j * self.mtu
            };
            return Some((SimTime(time), bytes as u32));
        }
    }

    /// Frame interval in picoseconds.
    pub fn interval_ps(&self) -> u64 {
        self.interval_ps
    }
}

/// Mean rate in bits per second of `bytes` sent over `span_ps` picoseconds.
pub fn rate_bps(bytes: u64, span_ps: u64) -> f64 {
    bytes as f64 * 8.0 * PS_PER_S as f64 / span_ps.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{RngStreams, StreamId};

    fn vi(variation: f64) -> VideoConfig {
        VideoConfig {
            rate_bps: 3_000_000,
            frame_interval_us: 40_000,
            gop: "IBBPBBPBBPBB".into(),
            i_ratio: 10.0,
            p_ratio: 4.0,
            b_ratio: 1.0,
            variation,
            mtu_bytes: 2048,
        }
    }

    fn rngs(seed: u64) -> (RngStream, RngStream) {
        let s = RngStreams::new(seed);
        (s.stream(StreamId::Phase(0)), s.stream(StreamId::Sizes(0)))
    }

    /// Packets of the first `count` whole frames, grouped by frame (frame `f` of the result
    /// starts at `phase + f x interval`; the frame under way at time zero, whose packets
    /// before zero are skipped, is left out).
    fn frames(stream: &mut VideoStream, count: usize) -> Vec<Vec<(u64, u32)>> {
        let interval = stream.interval_ps();
        let phase = stream.phase_ps;
        let mut out: Vec<Vec<(u64, u32)>> = vec![Vec::new(); count];
        loop {
            let (t, b) = stream.next_packet().unwrap();
            let f = ((t.as_ps() + interval - phase) / interval) as usize;
            if f == 0 {
                continue;
            }
            if f > count {
                return out;
            }
            out[f - 1].push((t.as_ps(), b));
        }
    }

    /// Streams are under way at time zero: the first packet comes before the phase (in
    /// the frame that started one interval earlier), and many streams together offer
    /// their mean rate over the first interval as over the second (no ramp-up).
    #[test]
    fn streams_are_under_way_at_time_zero() {
        let s = RngStreams::new(11);
        let mut p = s.stream(StreamId::Phase(0));
        let interval = 40_000_000_000u64;
        let mut windows = [0u64; 2];
        let mut early = 0;
        for i in 0..1000 {
            let mut v =
                VideoStream::synthetic(&vi(0.3), &mut p, s.stream(StreamId::Sizes(i))).unwrap();
            let phase = v.phase_ps;
            let (first, first_bytes) = v.next_packet().unwrap();
            if first.as_ps() < phase {
                early += 1;
            }
            let (mut t, mut b) = (first, first_bytes);
            while t.as_ps() < 2 * interval {
                windows[(t.as_ps() / interval) as usize] += u64::from(b);
                (t, b) = v.next_packet().unwrap();
            }
        }
        // A stream starts before its phase unless every packet of its frame under way
        // fell before zero (probability 1/n for a frame of n packets; frames here have
        // 3 to 30 packets).
        assert!(early > 600, "{early} of 1000 streams start mid-frame");
        // 1000 streams x 15 000 B per frame on average.
        for (w, &bytes) in windows.iter().enumerate() {
            let ratio = bytes as f64 / 15.0e6;
            assert!((ratio - 1.0).abs() < 0.1, "interval {w}: {ratio}");
        }
    }

    #[test]
    fn mean_sizes_give_exactly_the_rate() {
        let m = gop_mean_sizes(&vi(0.3));
        // 3 Mb/s x 0.48 s / 8 = 180 000 B per GOP; ratios sum 10 + 3x4 + 8x1 = 30.
        assert!((m.iter().sum::<f64>() - 180_000.0).abs() < 1e-6);
        assert!((m[0] - 60_000.0).abs() < 1e-9 && (m[3] - 24_000.0).abs() < 1e-9);
        assert!((m[1] - 6_000.0).abs() < 1e-9);
    }

    #[test]
    fn without_variation_frames_follow_the_gop_exactly() {
        let (mut p, s) = rngs(1);
        let mut v = VideoStream::synthetic(&vi(0.0), &mut p, s).unwrap();
        let fr = frames(&mut v, 24);
        let sizes: Vec<u64> = fr
            .iter()
            .map(|f| f.iter().map(|x| u64::from(x.1)).sum())
            .collect();
        let i = sizes.iter().position(|&s| s == 60_000).unwrap();
        for (k, &s) in sizes.iter().enumerate() {
            let expect = match (k + 12 - i % 12) % 12 {
                0 => 60_000,
                3 | 6 | 9 => 24_000,
                _ => 6_000,
            };
            assert_eq!(s, expect, "frame {k}");
        }
    }

    #[test]
    fn frames_are_split_into_mtu_packets_spread_over_the_frame() {
        let (mut p, s) = rngs(2);
        let mut v = VideoStream::synthetic(&vi(0.5), &mut p, s).unwrap();
        let interval = v.interval_ps();
        let phase = v.phase_ps;
        assert!(phase < interval);
        let mut last = 0;
        for (f, packets) in frames(&mut v, 200).iter().enumerate() {
            let n = packets.len() as u64;
            let total: u64 = packets.iter().map(|x| u64::from(x.1)).sum();
            assert_eq!(n, total.div_ceil(2048));
            let start = phase + f as u64 * interval;
            assert!(!packets.is_empty());
            for (j, &(t, b)) in packets.iter().enumerate() {
                assert!(t >= last, "time order");
                last = t;
                assert_eq!(t, start + j as u64 * interval / n);
                if (j as u64) + 1 < n {
                    assert_eq!(b, 2048);
                } else {
                    assert!((1..=2048).contains(&b));
                }
            }
        }
    }

    #[test]
    fn long_run_rate_is_the_configured_rate() {
        for (seed, cv) in [(3, 0.0), (4, 0.3), (5, 1.0)] {
            let (mut p, s) = rngs(seed);
            let mut v = VideoStream::synthetic(&vi(cv), &mut p, s).unwrap();
            let n = 30_000; // 20 minutes of video
            let bytes: u64 = frames(&mut v, n)
                .iter()
                .flatten()
                .map(|x| u64::from(x.1))
                .sum();
            let rate = rate_bps(bytes, n as u64 * v.interval_ps());
            let tol = if cv > 0.5 { 0.03 } else { 0.01 };
            assert!((rate / 3.0e6 - 1.0).abs() < tol, "cv {cv}: {rate} b/s");
        }
    }

    #[test]
    fn variation_gives_the_coefficient_of_variation() {
        let (mut p, s) = rngs(6);
        let mut cfg = vi(0.4);
        cfg.gop = "P".into();
        let mut v = VideoStream::synthetic(&cfg, &mut p, s).unwrap();
        let sizes: Vec<f64> = frames(&mut v, 40_000)
            .iter()
            .map(|f| f.iter().map(|x| f64::from(x.1)).sum())
            .collect();
        let mean = sizes.iter().sum::<f64>() / sizes.len() as f64;
        let var = sizes.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / sizes.len() as f64;
        let cv = var.sqrt() / mean;
        assert!((mean / 15_000.0 - 1.0).abs() < 0.01, "mean {mean}");
        assert!((cv - 0.4).abs() < 0.02, "cv {cv}");
    }

    #[test]
    fn trace_replays_cyclically_scaled_or_not() {
        let trace = FrameTrace::parse("1000\n3000\n500\n").unwrap();
        let (mut p, _) = rngs(7);
        let mut v = VideoStream::trace(&trace, 40_000, None, 1024, &mut p);
        let sizes: Vec<u64> = frames(&mut v, 9)
            .iter()
            .map(|f| f.iter().map(|x| u64::from(x.1)).sum())
            .collect();
        let start = [1000, 3000, 500]
            .iter()
            .position(|&s| s == sizes[0])
            .unwrap();
        for (k, &s) in sizes.iter().enumerate() {
            assert_eq!(s, [1000u64, 3000, 500][(start + k) % 3]);
        }
        // Scaled to 100 kb/s: a mean of 500 B per 40 ms frame (x 1/3: 333.3, 1000, 166.7).
        let mut v = VideoStream::trace(&trace, 40_000, Some(100_000), 1024, &mut p);
        let fr = frames(&mut v, 3000);
        let total: u64 = fr.iter().flatten().map(|x| u64::from(x.1)).sum();
        assert!(total.abs_diff(1_500_000) <= 1, "{total}");
        let first: u64 = fr[..3].iter().flatten().map(|x| u64::from(x.1)).sum();
        assert!(first.abs_diff(1500) <= 1);
    }
}
