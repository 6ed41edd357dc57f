//! The cost model: cycles of the memory accesses a scheduler makes
//! (`shared/spec/40-network-processors.md`, "DWCS cost model"). An SRAM access costs 19 to
//! 33 cycles of a 232 MHz engine with the measured distribution below (the published
//! shares add up to 99.4%; they are normalised); a scratchpad access a few cycles.

use crate::rng::RngStream;

/// SRAM access latency in cycles and its published share.
pub const SRAM_LATENCY: [(u32, f64); 8] = [
    (19, 0.647),
    (21, 0.103),
    (23, 0.087),
    (25, 0.075),
    (27, 0.029),
    (29, 0.024),
    (31, 0.019),
    (33, 0.010),
];

/// Mean cycles of an SRAM access (the distribution normalised): about 20.9.
pub fn sram_mean_cycles() -> f64 {
    let total: f64 = SRAM_LATENCY.iter().map(|&(_, p)| p).sum();
    SRAM_LATENCY
        .iter()
        .map(|&(c, p)| f64::from(c) * p)
        .sum::<f64>()
        / total
}

/// Draws SRAM latencies.
#[derive(Clone, Debug)]
pub struct SramLatency {
    cumulative: [f64; 8],
    rng: RngStream,
}

impl SramLatency {
    /// A sampler drawing from `rng`.
    pub fn new(rng: RngStream) -> SramLatency {
        let total: f64 = SRAM_LATENCY.iter().map(|&(_, p)| p).sum();
        let mut cumulative = [0.0; 8];
        let mut acc = 0.0;
        for (i, &(_, p)) in SRAM_LATENCY.iter().enumerate() {
            acc += p / total;
            cumulative[i] = acc;
        }
        cumulative[7] = 1.0;
        SramLatency { cumulative, rng }
    }

    /// Cycles of `accesses` SRAM accesses, each drawn from the distribution.
    pub fn cycles(&mut self, accesses: u64) -> u64 {
        (0..accesses)
            .map(|_| {
                let u = self.rng.unit();
                let i = self.cumulative.iter().position(|&c| u < c).unwrap_or(7);
                u64::from(SRAM_LATENCY[i].0)
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{RngStreams, StreamId};

    #[test]
    fn the_mean_is_about_21_cycles() {
        let m = sram_mean_cycles();
        assert!((m - 20.855).abs() < 0.01, "{m}");
        let mut s = SramLatency::new(RngStreams::new(1).stream(StreamId::Routing));
        let n = 200_000;
        let sampled = s.cycles(n) as f64 / n as f64;
        assert!((sampled - m).abs() < 0.05, "{sampled}");
    }
}
