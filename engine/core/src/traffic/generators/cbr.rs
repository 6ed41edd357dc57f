//! Constant-bit-rate connections (voice, controlled load): every packet of `packet_bytes`,
//! or sizes drawn from `packet_bytes ..= max_packet_bytes` at the same long-run rate.
//!
//! A connection of packet size `b` sends packet `k` at `phase + floor(k x b x 8 / r)`
//! (exact integer picoseconds, so its long-run rate is exactly `r`), the phase uniform in
//! one period. With a size range, packet `k` leaves at `phase + bits of packets 0..k / r`,
//! the phase uniform in one mean packet time.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::FieldError;
use crate::rng::RngStream;
use crate::time::{BitRate, PS_PER_S, SimTime};
use crate::traffic::class_generator::ClassGenerator;
use crate::traffic::connections::{ConnectionProcess, connection_count};
use crate::traffic::limits::MAX_PACKET_BYTES;

use super::rules::{check_rate, problem};
use super::{ClassSetup, GeneratorSpec, GeneratorWork};

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

    /// One connection's process; draws its phase from `phases`.
    pub(crate) fn process(
        &self,
        phases: &mut RngStream,
        sizes: RngStream,
    ) -> Box<dyn ConnectionProcess> {
        if self.largest() > self.packet_bytes {
            // The phase is uniform over one mean packet time.
            let period = self.mean() * 8.0 * PS_PER_S as f64 / self.rate_bps.max(1) as f64;
            let phase = libm::floor(phases.unit() * period);
            Box::new(CbrRange {
                phase_ps: saturating_ps(phase),
                sent_bit_ps: 0,
                lo: self.packet_bytes,
                hi: self.largest(),
                rate_bps: self.rate_bps,
                sizes,
            })
        } else {
            let bit_ps = u128::from(self.packet_bytes) * 8 * u128::from(PS_PER_S);
            let period = bit_ps / u128::from(self.rate_bps.max(1));
            let phase = libm::floor(phases.unit() * period as f64);
            Box::new(Cbr {
                phase_ps: saturating_ps(phase),
                k: 0,
                bytes: self.packet_bytes,
                bit_ps,
                rate_bps: self.rate_bps,
            })
        }
    }
}

/// A whole number of picoseconds, `u64::MAX` past its range.
fn saturating_ps(ps: f64) -> u64 {
    if ps >= u64::MAX as f64 {
        u64::MAX
    } else {
        ps as u64
    }
}

impl GeneratorSpec for CbrConfig {
    fn validate(&self, path: &str, errors: &mut Vec<FieldError>) {
        check_rate(path, self.rate_bps, errors);
        if !(1..=MAX_PACKET_BYTES).contains(&self.packet_bytes) {
            problem(
                errors,
                path,
                "packet_bytes",
                format!(
                    "must be between 1 and {MAX_PACKET_BYTES} bytes (got {})",
                    self.packet_bytes
                ),
            );
        }
        if let Some(max) = self.max_packet_bytes {
            if !(self.packet_bytes..=MAX_PACKET_BYTES).contains(&max) {
                problem(
                    errors,
                    path,
                    "max_packet_bytes",
                    format!(
                        "must be between packet_bytes ({}) and {MAX_PACKET_BYTES} bytes (got {max})",
                        self.packet_bytes
                    ),
                );
            }
        }
    }

    fn connections() -> bool {
        true
    }

    fn connection_rate(&self) -> Result<Option<u64>, String> {
        Ok(Some(self.rate_bps))
    }

    fn max_packet_bytes(&self) -> u32 {
        self.largest()
    }

    fn mean_packet_bytes(&self) -> f64 {
        self.mean()
    }

    fn work(&self, load: f64, link: BitRate) -> GeneratorWork {
        let connections = connection_count(load, link, self.rate_bps) as f64;
        // Sizes drawn from a range: count as if every packet were the smallest.
        let per_connection = self.rate_bps as f64 / (8.0 * f64::from(self.packet_bytes.max(1)));
        GeneratorWork::PerSecond(connections * per_connection)
    }

    fn build(&self, class: &ClassSetup<'_>) -> Result<Vec<Option<ClassGenerator>>, String> {
        class.connections(|phases, sizes| Ok(self.process(phases, sizes)))
    }
}

/// One CBR connection with one packet size.
#[derive(Clone, Debug)]
struct Cbr {
    phase_ps: u64,
    /// Index of the next packet.
    k: u64,
    bytes: u32,
    /// Bits of one packet times picoseconds per second (the period is this / rate).
    bit_ps: u128,
    rate_bps: u64,
}

impl ConnectionProcess for Cbr {
    fn next_packet(&mut self) -> Option<(SimTime, u32)> {
        let offset = u128::from(self.k) * self.bit_ps / u128::from(self.rate_bps.max(1));
        let t = u64::try_from(u128::from(self.phase_ps) + offset).ok()?;
        self.k += 1;
        Some((SimTime(t), self.bytes))
    }

    fn clone_box(&self) -> Box<dyn ConnectionProcess> {
        Box::new(self.clone())
    }

    fn periodic(&self) -> bool {
        true
    }
}

/// CBR with each packet's size drawn from `lo ..= hi`: packet `k` leaves at
/// `phase + bits of packets 0..k / rate`.
#[derive(Clone, Debug)]
struct CbrRange {
    phase_ps: u64,
    /// Bits of the packets so far times picoseconds per second.
    sent_bit_ps: u128,
    lo: u32,
    hi: u32,
    rate_bps: u64,
    sizes: RngStream,
}

impl ConnectionProcess for CbrRange {
    fn next_packet(&mut self) -> Option<(SimTime, u32)> {
        let offset = self.sent_bit_ps / u128::from(self.rate_bps.max(1));
        let t = u64::try_from(u128::from(self.phase_ps) + offset).ok()?;
        let bytes = self.sizes.uniform_u32(self.lo, self.hi);
        self.sent_bit_ps += u128::from(bytes) * 8 * u128::from(PS_PER_S);
        Some((SimTime(t), bytes))
    }

    fn clone_box(&self) -> Box<dyn ConnectionProcess> {
        Box::new(self.clone())
    }
}
