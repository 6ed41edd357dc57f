//! Simulated time: integer picoseconds, never floating point.
//!
//! Every timestamp in the engine is a [`SimTime`]. Conversions from user-facing units
//! (microseconds, Gb/s) happen once, when a scenario is built, with exact integer maths
//! where possible and a single documented rounding step where not.

use std::fmt;
use std::ops::{Add, Sub};

/// A point in simulated time, in picoseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

/// Picoseconds per nanosecond.
pub const PS_PER_NS: u64 = 1_000;
/// Picoseconds per microsecond.
pub const PS_PER_US: u64 = 1_000_000;
/// Picoseconds per second.
pub const PS_PER_S: u64 = 1_000_000_000_000;

impl SimTime {
    /// Time zero, the start of every run.
    pub const ZERO: SimTime = SimTime(0);

    /// A time from whole microseconds (saturating at the end of representable time).
    pub fn from_us(us: u64) -> SimTime {
        SimTime(us.saturating_mul(PS_PER_US))
    }

    /// Picoseconds since the start.
    pub fn as_ps(self) -> u64 {
        self.0
    }

    /// Nanoseconds since the start, as a float for reporting only.
    pub fn as_ns_f64(self) -> f64 {
        self.0 as f64 / PS_PER_NS as f64
    }

    /// `self + ps`, saturating.
    pub fn plus_ps(self, ps: u64) -> SimTime {
        SimTime(self.0.saturating_add(ps))
    }
}

impl Add<Duration> for SimTime {
    type Output = SimTime;
    fn add(self, rhs: Duration) -> SimTime {
        self.plus_ps(rhs.0)
    }
}

impl Sub for SimTime {
    type Output = Duration;
    /// The (saturating) duration from `rhs` to `self`.
    fn sub(self, rhs: SimTime) -> Duration {
        Duration(self.0.saturating_sub(rhs.0))
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ps", self.0)
    }
}

/// A span of simulated time, in picoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration(pub u64);

impl Duration {
    /// The span in picoseconds.
    pub fn as_ps(self) -> u64 {
        self.0
    }
}

/// A link or drain rate, in bits per second (an integer, so serialisation time is exact).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BitRate {
    bits_per_s: u64,
}

impl BitRate {
    /// A rate from Gb/s as written in a scenario, rounded to the nearest bit per second.
    /// Returns `None` for non-finite, non-positive or absurd (> 1 Pb/s) rates.
    pub fn from_gbps(gbps: f64) -> Option<BitRate> {
        if !gbps.is_finite() || gbps <= 0.0 || gbps > 1.0e6 {
            return None;
        }
        let bits = libm::round(gbps * 1.0e9);
        if bits < 1.0 {
            return None;
        }
        Some(BitRate {
            bits_per_s: bits as u64,
        })
    }

    /// The rate in bits per second.
    pub fn bits_per_s(self) -> u64 {
        self.bits_per_s
    }

    /// Time to serialise `bytes` at this rate, rounded up to a whole picosecond.
    #[inline]
    pub fn transmission_time(self, bytes: u64) -> Duration {
        // Packets (below 2.3 MB) need no 128-bit arithmetic, which WebAssembly does in
        // library calls: the same quotient in 64 bits.
        if bytes <= u64::MAX / (8 * PS_PER_S) {
            return Duration((bytes * 8 * PS_PER_S).div_ceil(self.bits_per_s));
        }
        let bits = u128::from(bytes) * 8;
        let num = bits * u128::from(PS_PER_S);
        let den = u128::from(self.bits_per_s);
        let ps = num.div_ceil(den);
        Duration(u64::try_from(ps).unwrap_or(u64::MAX))
    }

    /// Bytes this rate carries in `span` (fractional, for normalising throughput).
    pub fn bytes_in(self, span: Duration) -> f64 {
        self.bits_per_s as f64 * span.0 as f64 / PS_PER_S as f64 / 8.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transmission_time_is_exact_for_round_rates() {
        let r = BitRate::from_gbps(2.0).unwrap();
        // 2 Gb/s: 4 ns per byte.
        assert_eq!(r.transmission_time(64).as_ps(), 256_000);
        assert_eq!(r.transmission_time(2048).as_ps(), 8_192_000);
        let r = BitRate::from_gbps(100.0).unwrap();
        assert_eq!(r.transmission_time(64).as_ps(), 5_120);
    }

    #[test]
    fn transmission_time_rounds_up() {
        let r = BitRate::from_gbps(3.0).unwrap();
        // 8 bits at 3 Gb/s = 2666.67 ps -> 2667.
        assert_eq!(r.transmission_time(1).as_ps(), 2_667);
    }

    proptest::proptest! {
        /// The 64-bit path gives the 128-bit quotient, up to and past its limit.
        #[test]
        fn transmission_time_is_the_wide_quotient(
            bytes in proptest::prop_oneof![0u64..10_000, 2_300_000u64..2_310_000, proptest::num::u64::ANY],
            bits_per_s in 1u64..=u64::MAX,
        ) {
            let r = BitRate { bits_per_s };
            let wide = (u128::from(bytes) * 8 * u128::from(PS_PER_S)).div_ceil(u128::from(bits_per_s));
            proptest::prop_assert_eq!(u128::from(r.transmission_time(bytes).as_ps()), wide.min(u128::from(u64::MAX)));
        }
    }

    #[test]
    fn rejects_bad_rates() {
        assert!(BitRate::from_gbps(0.0).is_none());
        assert!(BitRate::from_gbps(-1.0).is_none());
        assert!(BitRate::from_gbps(f64::NAN).is_none());
        assert!(BitRate::from_gbps(f64::INFINITY).is_none());
    }
}
