//! Packet sizes drawn from a [`SizeConfig`] with the constants of the distribution worked
//! out once, when a generator is built, instead of at every packet.
//!
//! A bounded Pareto size is drawn by the engine's one inverse transform
//! ([`BoundedPareto`]), built once here, so a draw costs one `pow` instead of the two of
//! building it per packet; every size is bit-identical to the per-call form as first
//! written (a property test compares them).

use crate::rng::{BoundedPareto, RngStream};
use crate::scenario::SizeConfig;

/// A packet-size distribution, ready to draw from.
#[derive(Clone, Debug)]
pub enum SizeDraw {
    /// Every packet has this size.
    Fixed(u32),
    /// Uniform over `min ..= max` bytes.
    Uniform(u32, u32),
    /// Bounded Pareto, rounded to whole bytes.
    Pareto(ParetoDraw),
}

/// A bounded Pareto distribution of sizes.
#[derive(Clone, Debug)]
pub struct ParetoDraw {
    distribution: BoundedPareto,
    min_bytes: u32,
    /// The upper bound of the rounded size (`max(max_bytes, min_bytes)`).
    max_bytes: u32,
}

impl SizeDraw {
    /// The distribution of `size`.
    pub fn new(size: &SizeConfig) -> SizeDraw {
        match size {
            SizeConfig::Fixed(f) => SizeDraw::Fixed(f.bytes),
            SizeConfig::Uniform(u) => SizeDraw::Uniform(u.min_bytes, u.max_bytes),
            SizeConfig::Pareto(d) => SizeDraw::Pareto(ParetoDraw {
                distribution: BoundedPareto::new(
                    f64::from(d.min_bytes),
                    f64::from(d.max_bytes),
                    d.shape,
                ),
                min_bytes: d.min_bytes,
                max_bytes: d.max_bytes.max(d.min_bytes),
            }),
        }
    }

    /// One size, drawn from `rng`.
    #[inline]
    pub fn draw(&self, rng: &mut RngStream) -> u32 {
        match self {
            SizeDraw::Fixed(bytes) => *bytes,
            SizeDraw::Uniform(lo, hi) => rng.uniform_u32(*lo, *hi),
            SizeDraw::Pareto(p) => {
                let x = p.distribution.at(rng.unit());
                (libm::round(x) as u32).clamp(p.min_bytes, p.max_bytes)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RngStreams;
    use crate::scenario::{FixedSize, PARETO_STABLE_TAIL, ParetoSize, UniformSize};
    use crate::traffic::generated::stream;
    use proptest::prelude::*;

    /// The bounded Pareto inverse transform as first written, every constant worked out
    /// per call (the oracle).
    fn pareto_per_call(u: f64, lo: f64, hi: f64, shape: f64) -> f64 {
        let ratio = libm::pow(lo / hi, shape);
        if 1.0 - ratio <= PARETO_STABLE_TAIL {
            let tail = -libm::expm1(shape * libm::log(lo / hi));
            let x = lo * libm::exp(-libm::log1p(-u * tail) / shape);
            return if x.is_finite() { x.clamp(lo, hi) } else { hi };
        }
        let x = lo * libm::pow(1.0 - u * (1.0 - ratio), -1.0 / shape);
        x.clamp(lo, hi)
    }

    /// A packet size as first drawn, per call (the oracle).
    fn size_per_call(size: &SizeConfig, rng: &mut RngStream) -> u32 {
        match size {
            SizeConfig::Fixed(f) => f.bytes,
            SizeConfig::Uniform(u) => rng.uniform_u32(u.min_bytes, u.max_bytes),
            SizeConfig::Pareto(d) => {
                let (lo, hi) = (f64::from(d.min_bytes), f64::from(d.max_bytes));
                let x = pareto_per_call(rng.unit(), lo, hi, d.shape);
                (libm::round(x) as u32).clamp(d.min_bytes, d.max_bytes.max(d.min_bytes))
            }
        }
    }

    /// Draws `n` sizes both ways from copies of one stream.
    fn both(size: &SizeConfig, seed: u64, n: usize) -> (Vec<u32>, Vec<u32>) {
        let streams = RngStreams::new(seed);
        let mut a = stream(&streams, 3, 7, 2);
        let mut b = a.clone();
        let draw = SizeDraw::new(size);
        let old = (0..n).map(|_| size_per_call(size, &mut a)).collect();
        let new = (0..n).map(|_| draw.draw(&mut b)).collect();
        (old, new)
    }

    proptest! {
        /// Every Pareto size, and the value before rounding, bit for bit as the per-call
        /// form gives them, over bounds and shapes from the tiny (the stable form) to the
        /// steep.
        #[test]
        fn pareto_sizes_are_bit_identical(
            min in 1u32..5000,
            extra in 0u32..100_000,
            shape_exp in -9.0f64..1.5,
            seed in 0u64..1000,
        ) {
            let shape = 10f64.powf(shape_exp);
            let size = SizeConfig::Pareto(ParetoSize {
                min_bytes: min,
                max_bytes: min + extra,
                shape,
            });
            let (old, new) = both(&size, seed, 64);
            prop_assert_eq!(old, new);
            let (lo, hi) = (f64::from(min), f64::from(min + extra));
            let streams = RngStreams::new(seed);
            let mut a = stream(&streams, 1, 2, 3);
            let mut b = a.clone();
            for _ in 0..64 {
                let x = pareto_per_call(a.unit(), lo, hi, shape);
                prop_assert_eq!(x.to_bits(), b.bounded_pareto(lo, hi, shape).to_bits());
            }
        }
    }

    #[test]
    fn fixed_and_uniform_sizes_are_as_before() {
        for size in [
            SizeConfig::Fixed(FixedSize { bytes: 512 }),
            SizeConfig::Uniform(UniformSize {
                min_bytes: 64,
                max_bytes: 1500,
            }),
            SizeConfig::Uniform(UniformSize {
                min_bytes: 9,
                max_bytes: 9,
            }),
        ] {
            let (old, new) = both(&size, 11, 500);
            assert_eq!(old, new);
        }
    }

    #[test]
    fn tiny_shapes_take_the_stable_form() {
        let size = SizeConfig::Pareto(ParetoSize {
            min_bytes: 64,
            max_bytes: 1024,
            shape: 1e-9,
        });
        let SizeDraw::Pareto(p) = SizeDraw::new(&size) else {
            panic!("a Pareto draw")
        };
        assert!(p.distribution.is_stable_form());
        let (old, new) = both(&size, 5, 1000);
        assert_eq!(old, new);
        assert!(new.iter().any(|&b| b < 100) && new.iter().any(|&b| b > 900));
    }
}
