//! Packet sizes drawn from a [`SizeConfig`] with the constants of the distribution worked
//! out once, when a generator is built, instead of at every packet.
//!
//! A bounded Pareto size is `lo x (1 - u (1 - (lo/hi)^shape))^(-1/shape)` by inverse
//! transform ([`RngStream::bounded_pareto`]); `(lo/hi)^shape` does not depend on `u`, so
//! [`SizeDraw`] computes it (and `-1/shape`, and the tail of the stable form for tiny
//! shapes) when built, and a draw costs one `pow` instead of two. The operations on `u`
//! are the same, in the same order, so every size is bit-identical to
//! [`draw_size`](super::generators::bursts::draw_size)'s (a property test compares them).

use crate::rng::RngStream;
use crate::scenario::{PARETO_STABLE_TAIL, SizeConfig};

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

/// A bounded Pareto distribution of sizes with its constants.
#[derive(Clone, Debug)]
pub struct ParetoDraw {
    lo: f64,
    hi: f64,
    shape: f64,
    /// `1 - (lo/hi)^shape`.
    one_minus_ratio: f64,
    /// `-1/shape`.
    neg_inv_shape: f64,
    /// For tiny shapes (`1 - ratio` has lost its digits): `-expm1(shape x ln(lo/hi))`,
    /// the tail of the `expm1` / `log1p` form.
    stable_tail: Option<f64>,
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
            SizeConfig::Pareto(d) => {
                let (lo, hi, shape) = (f64::from(d.min_bytes), f64::from(d.max_bytes), d.shape);
                let ratio = libm::pow(lo / hi, shape);
                let stable_tail = (1.0 - ratio <= PARETO_STABLE_TAIL)
                    .then(|| -libm::expm1(shape * libm::log(lo / hi)));
                SizeDraw::Pareto(ParetoDraw {
                    lo,
                    hi,
                    shape,
                    one_minus_ratio: 1.0 - ratio,
                    neg_inv_shape: -1.0 / shape,
                    stable_tail,
                    min_bytes: d.min_bytes,
                    max_bytes: d.max_bytes.max(d.min_bytes),
                })
            }
        }
    }

    /// One size, drawn from `rng` (the draws `draw_size` makes, with the same result).
    #[inline]
    pub fn draw(&self, rng: &mut RngStream) -> u32 {
        match self {
            SizeDraw::Fixed(bytes) => *bytes,
            SizeDraw::Uniform(lo, hi) => rng.uniform_u32(*lo, *hi),
            SizeDraw::Pareto(p) => {
                let x = p.value(rng.unit());
                (libm::round(x) as u32).clamp(p.min_bytes, p.max_bytes)
            }
        }
    }
}

impl ParetoDraw {
    /// The size at uniform variate `u` (before rounding), as `RngStream::bounded_pareto`.
    fn value(&self, u: f64) -> f64 {
        let (lo, hi) = (self.lo, self.hi);
        if let Some(tail) = self.stable_tail {
            let x = lo * libm::exp(-libm::log1p(-u * tail) / self.shape);
            return if x.is_finite() { x.clamp(lo, hi) } else { hi };
        }
        let x = lo * libm::pow(1.0 - u * self.one_minus_ratio, self.neg_inv_shape);
        x.clamp(lo, hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RngStreams;
    use crate::scenario::{FixedSize, ParetoSize, UniformSize};
    use crate::traffic::generated::stream;
    use crate::traffic::generators::bursts::draw_size;
    use proptest::prelude::*;

    /// Draws `n` sizes both ways from copies of one stream.
    fn both(size: &SizeConfig, seed: u64, n: usize) -> (Vec<u32>, Vec<u32>) {
        let streams = RngStreams::new(seed);
        let mut a = stream(&streams, 3, 7, 2);
        let mut b = a.clone();
        let draw = SizeDraw::new(size);
        let old = (0..n).map(|_| draw_size(size, &mut a)).collect();
        let new = (0..n).map(|_| draw.draw(&mut b)).collect();
        (old, new)
    }

    proptest! {
        /// Every Pareto size, and the value before rounding, bit for bit as before, over
        /// bounds and shapes from the tiny (the stable form) to the steep.
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
            let SizeDraw::Pareto(p) = SizeDraw::new(&size) else { unreachable!() };
            let streams = RngStreams::new(seed);
            let mut a = stream(&streams, 1, 2, 3);
            let mut b = a.clone();
            for _ in 0..64 {
                let x = a.bounded_pareto(f64::from(min), f64::from(min + extra), shape);
                prop_assert_eq!(x.to_bits(), p.value(b.unit()).to_bits());
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
        assert!(p.stable_tail.is_some());
        let (old, new) = both(&size, 5, 1000);
        assert_eq!(old, new);
        assert!(new.iter().any(|&b| b < 100) && new.iter().any(|&b| b > 900));
    }
}
