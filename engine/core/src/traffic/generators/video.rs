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

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::FieldError;
use crate::rng::RngStream;
use crate::time::{BitRate, PS_PER_S, PS_PER_US, SimTime};
use crate::traffic::class_generator::ClassGenerator;
use crate::traffic::connections::{ConnectionProcess, connection_count};
use crate::traffic::frame_trace::FrameTrace;
use crate::traffic::limits::{MAX_FRAME_RATIO, MAX_GOP_FRAMES, MAX_VARIATION};

use super::rules::{check_frame_interval, check_mtu, check_rate, problem};
use super::{ClassSetup, GeneratorSpec, GeneratorWork};

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

impl GeneratorSpec for VideoConfig {
    fn validate(&self, path: &str, errors: &mut Vec<FieldError>) {
        check_rate(path, self.rate_bps, errors);
        check_frame_interval(path, self.frame_interval_us, errors);
        check_mtu(path, self.mtu_bytes, errors);
        let gop = &self.gop;
        if gop.is_empty() || gop.chars().count() > MAX_GOP_FRAMES {
            problem(
                errors,
                path,
                "gop",
                format!(
                    "must hold between 1 and {MAX_GOP_FRAMES} frame letters (got {})",
                    gop.chars().count()
                ),
            );
        } else if let Some((i, c)) = gop
            .chars()
            .enumerate()
            .find(|(_, c)| !matches!(c, 'I' | 'P' | 'B'))
        {
            problem(
                errors,
                path,
                "gop",
                format!(
                    "may only hold the frame types I, P and B; character {} is {c:?}",
                    i + 1
                ),
            );
        }
        for (field, ratio, letter) in [
            ("i_ratio", self.i_ratio, 'I'),
            ("p_ratio", self.p_ratio, 'P'),
            ("b_ratio", self.b_ratio, 'B'),
        ] {
            let used = gop.contains(letter);
            if !(ratio.is_finite() && ratio > 0.0 && ratio <= MAX_FRAME_RATIO) && used {
                problem(
                    errors,
                    path,
                    field,
                    format!(
                        "must be a relative size above 0 and at most {MAX_FRAME_RATIO} (got {ratio})"
                    ),
                );
            }
        }
        if !(self.variation.is_finite() && (0.0..=MAX_VARIATION).contains(&self.variation)) {
            problem(
                errors,
                path,
                "variation",
                format!(
                    "must be a coefficient of variation between 0 and {MAX_VARIATION} (got {})",
                    self.variation
                ),
            );
        }
    }

    fn connections() -> bool {
        true
    }

    fn connection_rate(&self) -> Result<Option<u64>, String> {
        Ok(Some(self.rate_bps))
    }

    fn max_packet_bytes(&self) -> u32 {
        self.mtu_bytes
    }

    fn mean_packet_bytes(&self) -> f64 {
        mean_packet_bytes(Some(self.rate_bps), self.frame_interval_us, self.mtu_bytes)
    }

    fn work(&self, load: f64, link: BitRate) -> GeneratorWork {
        streams_work(
            load,
            link,
            Ok(Some(self.rate_bps)),
            self.frame_interval_us,
            self.mtu_bytes,
        )
    }

    fn build(&self, class: &ClassSetup<'_>) -> Result<Vec<Option<ClassGenerator>>, String> {
        // One table of GOP means for all the class's streams (thousands in R2).
        let means: Arc<[f64]> = gop_mean_sizes(self).into();
        class.connections(|phases, sizes| {
            VideoStream::synthetic_sharing(self, &means, phases, sizes)
                .map(|s| Box::new(s) as Box<dyn ConnectionProcess>)
                .ok_or_else(|| "the video configuration has an empty GOP or a bad ratio".into())
        })
    }
}

/// The mean packet of video streams of mean rate `rate` (b/s, 0 when unknown): a
/// mean-size frame (rate x frame interval) split into MTU packets.
pub(super) fn mean_packet_bytes(rate: Option<u64>, interval_us: u32, mtu: u32) -> f64 {
    let frame = rate.unwrap_or(0) as f64 * f64::from(interval_us) / 8.0e6;
    let packets = libm::ceil(frame / f64::from(mtu.max(1))).max(1.0);
    frame / packets
}

/// The work of an end point's video streams of mean rate `rate` (none for an unknown
/// rate): per stream, frames of at least 1 byte, each at least one packet, the last one
/// partial.
pub(super) fn streams_work(
    load: f64,
    link: BitRate,
    rate: Result<Option<u64>, String>,
    interval_us: u32,
    mtu: u32,
) -> GeneratorWork {
    let Ok(Some(rate)) = rate else {
        return GeneratorWork::PerSecond(0.0);
    };
    let connections = connection_count(load, link, rate) as f64;
    let frames_per_s = 1.0e6 / f64::from(interval_us.max(1));
    let frame = (rate as f64 * f64::from(interval_us) / 8.0e6).max(1.0);
    let per_connection = frames_per_s * ((frame + 1.0) / f64::from(mtu.max(1)) + 1.0);
    GeneratorWork::PerSecond(connections * per_connection)
}

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
        Self::synthetic_sharing(cfg, &gop_mean_sizes(cfg).into(), phases, sizes)
    }

    /// [`VideoStream::synthetic`] with the configuration's GOP means
    /// ([`gop_mean_sizes`]) computed once for many streams.
    fn synthetic_sharing(
        cfg: &VideoConfig,
        means: &Arc<[f64]>,
        phases: &mut RngStream,
        sizes: RngStream,
    ) -> Option<VideoStream> {
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
                means: Arc::clone(means),
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

impl ConnectionProcess for VideoStream {
    fn next_packet(&mut self) -> Option<(SimTime, u32)> {
        VideoStream::next_packet(self)
    }

    fn clone_box(&self) -> Box<dyn ConnectionProcess> {
        Box::new(self.clone())
    }

    #[cfg(test)]
    fn trace_buffer(&self) -> Option<*const u32> {
        VideoStream::trace_buffer(self)
    }
}

/// Mean rate in bits per second of `bytes` sent over `span_ps` picoseconds.
pub fn rate_bps(bytes: u64, span_ps: u64) -> f64 {
    bytes as f64 * 8.0 * PS_PER_S as f64 / span_ps.max(1) as f64
}

#[cfg(test)]
mod tests;
